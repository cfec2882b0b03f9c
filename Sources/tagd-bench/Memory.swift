import JSONRPC

/// Resident memory: idle, with many open fields, and after closing them.
struct MemoryRun {
  /// Peak RSS right after `initialize`.
  var idlePeak: Int
  /// RSS right after `initialize`: the baseline.
  var baseline: Int
  /// Peak RSS with every field open.
  var openPeak: Int
  /// RSS after every field was closed.
  var afterClose: Int
}

extension Bench {
  /// The number of fields opened at once.
  var openFieldCount: Int { quick ? 1_000 : 10_000 }

  /// Opens `openFieldCount` fields of 20 tags (pipelined), reads RSS, closes them, reads again.
  func measureMemory() throws(BenchError) -> (tagd: [MemoryRun], floorIdlePeak: [Int]) {
    var runsDone: [MemoryRun] = []
    var floorPeaks: [Int] = []
    for _ in 0..<max(runs, 3) {
      let floor = try startFloor()
      floorPeaks.append(Procfs.status(floor.pid, "VmHWM") ?? 0)
      floor.finish()

      let child = try startTagd()
      let idlePeak = Procfs.status(child.pid, "VmHWM") ?? 0
      let baseline = Procfs.status(child.pid, "VmRSS") ?? 0
      var opens = FrameWriter()
      var closes = FrameWriter()
      for index in 0..<openFieldCount {
        let tags = (0..<20).map { "f\(index)-tag\($0)" }
        opens.request(
          id: 100 + index,
          method: "field/open",
          params: #"{"field":"f\#(index)","tags":\#(Workloads.stringArray(tags)),"text":"draft"}"#
        )
        closes.request(id: 100 + index, method: "field/close", params: #"{"field":"f\#(index)"}"#)
      }
      let ids = 100..<(100 + openFieldCount)
      var first = child.frames.count
      try child.exchange(opens.bytes, untilFrames: first + openFieldCount)
      try Verify.replies(child, frames: first..<(first + openFieldCount), ids: ids) { _, result in
        Verify.count(result, "tags") == 20 ? nil : "field/open did not add 20 tags"
      }
      let openPeak = Procfs.status(child.pid, "VmHWM") ?? 0
      first = child.frames.count
      try child.exchange(closes.bytes, untilFrames: first + openFieldCount)
      try Verify.replies(child, frames: first..<(first + openFieldCount), ids: ids) { _, result in
        result == .null ? nil : "field/close did not answer null"
      }
      let afterClose = Procfs.status(child.pid, "VmRSS") ?? 0
      child.finish()
      runsDone.append(
        MemoryRun(
          idlePeak: idlePeak,
          baseline: baseline,
          openPeak: openPeak,
          afterClose: afterClose
        )
      )
    }
    return (runsDone, floorPeaks)
  }
}
