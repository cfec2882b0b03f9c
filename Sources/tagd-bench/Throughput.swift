#if canImport(Glibc)
import Glibc
#endif

/// Pipelined `field/change` requests: the per-keystroke cost with the pipe kept full.
struct ThroughputRun {
  /// Replies per second (first byte written → last reply read).
  var rate: Double
  /// Server CPU per request in µs (schedstat delta over the timed window).
  var cpuMicroseconds: Double
  /// The server's peak RSS at the end, in bytes.
  var peakRSS: Int
  /// The bench's own CPU per request in µs (the client writing and reading), same window.
  var clientMicroseconds: Double = 0
}

extension Bench {
  /// The number of pipelined requests per run.
  var pipelinedCount: Int { quick ? 10_000 : 100_000 }

  /// Runs the typing workload pipelined against tagd, the floor, the peer and the C reference,
  /// in turn.
  func measureThroughput() throws(BenchError) -> (
    tagd: [ThroughputRun], floor: [ThroughputRun], peer: [ThroughputRun],
    reference: [ThroughputRun]
  ) {
    let (frames, drafts) = Workloads.typing(count: pipelinedCount, firstID: 100, field: "f")
    keepClientMemory()
    var tagdRuns: [ThroughputRun] = []
    var floorRuns: [ThroughputRun] = []
    var peerRuns: [ThroughputRun] = []
    var referenceRuns: [ThroughputRun] = []
    for run in 0...runs {
      for kind in servers {
        let isFloor = kind == .floor
        let child = try start(kind)
        try openTypingField(child)
        let first = child.frames.count
        let cpuBefore = Procfs.cpuNanoseconds(child.pid) ?? 0
        let clientBefore = Procfs.cpuNanoseconds(getpid()) ?? 0
        let start = Clock.nanoseconds()
        try child.exchange(frames.bytes, untilFrames: first + drafts.count)
        let seconds = Double(Clock.nanoseconds() - start) / 1e9
        let cpu = Double((Procfs.cpuNanoseconds(child.pid) ?? 0) - cpuBefore)
        let client = Double((Procfs.cpuNanoseconds(getpid()) ?? 0) - clientBefore)
        let peak = Procfs.status(child.pid, "VmHWM") ?? 0
        try verifyTyping(
          child,
          frames: first..<(first + drafts.count),
          drafts: drafts,
          isFloor: isFloor
        )
        child.finish()
        guard run > 0 else { continue }
        let result = ThroughputRun(
          rate: Double(drafts.count) / seconds,
          cpuMicroseconds: cpu / 1e3 / Double(drafts.count),
          peakRSS: peak,
          clientMicroseconds: client / 1e3 / Double(drafts.count)
        )
        switch kind {
        case .tagd: tagdRuns.append(result)
        case .floor: floorRuns.append(result)
        case .peer: peerRuns.append(result)
        case .reference: referenceRuns.append(result)
        }
      }
    }
    return (tagdRuns, floorRuns, peerRuns, referenceRuns)
  }
}

/// Keeps the bench's freed memory in its heap: each run's replies (~35 MB in a full run) then
/// land in pages the warm-up run already faulted in, so the client's own page faults do not pace
/// the server it measures.
private func keepClientMemory() {
  _ = benchMallocOption(-4, 0)  // M_MMAP_MAX: no block is mapped (and unmapped) on its own
  _ = benchMallocOption(-1, Int32.max)  // M_TRIM_THRESHOLD: the heap is never shrunk
}

/// glibc's `mallopt(3)`, which the Glibc module does not export.
@_silgen_name("mallopt")
private func benchMallocOption(_ parameter: Int32, _ value: Int32) -> Int32
