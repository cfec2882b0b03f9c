import JSONRPC

/// Everything measured in one run of the benchmark, ready to be reported.
struct Results {
  var start: (tagd: Sample, floor: Sample)
  var throughput:
    (
      tagd: [ThroughputRun], floor: [ThroughputRun], peer: [ThroughputRun],
      reference: [ThroughputRun]
    )
  var latency:
    (
      tagd: [Double], floor: [Double], tagdP99: [Double], peer: [Double], reference: [Double]
    )
  var scale: [ScaleRow]
  var memory: (tagd: [MemoryRun], floorIdlePeak: [Int])
  var decoders: [DecoderTiming]
  /// Callgrind counts per item, when valgrind is installed.
  var instructions: [Instructions.Row]?
  /// Why the C reference was not measured, when it was not.
  var referenceSkipped: String?
  var pipelinedCount: Int
  var openFieldCount: Int
  var seconds: Double

  /// One line of the headline table.
  struct Figure {
    var name: String
    var target: String
    var measured: String
    var pass: Bool
    var floor: String
  }

  /// The headline figures against the targets of issue 5.
  var figures: [Figure] {
    let mb = 1024.0 * 1024.0
    var rows: [Figure] = []
    rows.append(
      Figure(
        name: "start: spawn → `initialize` reply",
        target: "≤ 1.5 ms",
        measured: Format.sample(start.tagd, 2, "ms"),
        pass: start.tagd.median <= 1.5,
        floor:
          "\(Format.fixed(start.floor.median, 2)) ms (×\(Format.fixed(start.tagd.median / start.floor.median, 2)))"
      )
    )
    let rate = Sample(throughput.tagd.map(\.rate))
    let floorRate = Sample(throughput.floor.map(\.rate))
    rows.append(
      Figure(
        name: "pipelined `field/change` (\(Format.count(pipelinedCount)) per run)",
        target: "≥ 1,000,000 /s",
        measured: Format.sample(Sample(rate.values.map { $0 / 1e3 }), 0, "k/s"),
        pass: rate.median >= 1_000_000,
        floor:
          "\(Format.fixed(floorRate.median / 1e3, 0)) k/s (×\(Format.fixed(rate.median / floorRate.median, 2)))"
      )
    )
    let cpu = Sample(throughput.tagd.map(\.cpuMicroseconds))
    let floorCPU = Sample(throughput.floor.map(\.cpuMicroseconds))
    rows.append(
      Figure(
        name: "server CPU per pipelined `field/change`",
        target: "—",
        measured: Format.sample(cpu, 3, "µs"),
        pass: true,
        floor:
          "\(Format.fixed(floorCPU.median, 3)) µs (×\(Format.fixed(cpu.median / floorCPU.median, 1)))"
      )
    )
    let client = Sample(throughput.tagd.map(\.clientMicroseconds))
    let floorClient = Sample(throughput.floor.map(\.clientMicroseconds))
    rows.append(
      Figure(
        name: "the bench client's CPU per pipelined reply, tagd's runs",
        target: "—",
        measured: Format.sample(client, 3, "µs"),
        pass: true,
        floor: "\(Format.fixed(floorClient.median, 3)) µs"
      )
    )
    let p50 = Sample(latency.tagd)
    let floorP50 = Sample(latency.floor)
    rows.append(
      Figure(
        name: "round trip p50, one at a time",
        target: "≤ floor + 3 µs",
        measured:
          "\(Format.sample(p50, 1, "µs")); p99 \(Format.fixed(Sample(latency.tagdP99).median, 1)) µs",
        pass: p50.median <= floorP50.median + 3,
        floor:
          "\(Format.fixed(floorP50.median, 1)) µs (+\(Format.fixed(p50.median - floorP50.median, 1)) µs)"
      )
    )
    rows += comparison(
      "Node.js peer",
      "peer",
      throughput.peer,
      latency.peer,
      rate: rate,
      cpu: cpu,
      p50: p50
    )
    rows += comparison(
      "C reference",
      "C",
      throughput.reference,
      latency.reference,
      rate: rate,
      cpu: cpu,
      p50: p50
    )
    if let referenceSkipped {
      rows.append(
        Figure(
          name: "C reference",
          target: "—",
          measured: "not measured: \(referenceSkipped)",
          pass: true,
          floor: "—"
        )
      )
    }
    for (kind, target, useServer) in [
      (ScaleKind.paste, 50.0, true), (.fieldLayout, 50.0, false), (.cloudLayout, 100.0, false),
    ] {
      guard let row = scale.first(where: { $0.kind == kind && $0.size == 100_000 }) else {
        continue
      }
      let sample = useServer ? row.server : row.roundTrip
      rows.append(
        Figure(
          name: "\(kind.rawValue), 100,000 tags (\(useServer ? "server CPU" : "round trip"))",
          target: "≤ \(Format.fixed(target, 0)) ms",
          measured: Format.sample(sample, 1, "ms"),
          pass: sample.median <= target,
          floor: "—"
        )
      )
    }
    if let small = scale.first(where: { $0.kind == .paste && $0.size == 100_000 }),
      let large = scale.first(where: { $0.kind == .paste && $0.size == 1_000_000 })
    {
      let ratio = large.server.median / small.server.median
      rows.append(
        Figure(
          name: "paste linearity: 1M ÷ 100k (server CPU)",
          target: "≤ 12×",
          measured: "×\(Format.fixed(ratio, 1))",
          pass: ratio <= 12,
          floor: "—"
        )
      )
    }
    let idle = Sample(memory.tagd.map { Double($0.idlePeak) / mb })
    let floorIdle = Sample(memory.floorIdlePeak.map { Double($0) / mb })
    rows.append(
      Figure(
        name: "idle peak RSS (VmHWM after `initialize`)",
        target: "≤ 8 MB",
        measured: Format.sample(idle, 1, "MiB"),
        pass: idle.median <= 8,
        floor: "\(Format.fixed(floorIdle.median, 1)) MiB"
      )
    )
    let open = Sample(memory.tagd.map { Double($0.openPeak) / mb })
    rows.append(
      Figure(
        name: "peak RSS, \(Format.count(openFieldCount)) open fields × 20 tags",
        target: openFieldCount == 10_000 ? "≤ 64 MB" : "(quick run: fewer fields)",
        measured: Format.sample(open, 1, "MiB"),
        pass: open.median <= 64,
        floor: "—"
      )
    )
    let baseline = Sample(memory.tagd.map { Double($0.baseline) / mb })
    let after = Sample(memory.tagd.map { Double($0.afterClose) / mb })
    rows.append(
      Figure(
        name: "RSS after closing them (baseline \(Format.fixed(baseline.median, 1)) MiB)",
        target: "near baseline (≤ +2 MiB)",
        measured: Format.sample(after, 1, "MiB"),
        pass: after.median <= baseline.median + 2,
        floor: "—"
      )
    )
    return rows
  }

  /// The rows of a server measured beside tagd on the same bytes (none when it was not):
  /// its pipelined throughput and round trip, and tagd's as a ratio to them.
  private func comparison(
    _ name: String,
    _ short: String,
    _ runs: [ThroughputRun],
    _ latency: [Double],
    rate: Sample,
    cpu: Sample,
    p50: Sample
  ) -> [Figure] {
    guard !runs.isEmpty, !latency.isEmpty else { return [] }
    let theirRate = Sample(runs.map(\.rate))
    let theirCPU = Sample(runs.map(\.cpuMicroseconds))
    let theirP50 = Sample(latency)
    return [
      Figure(
        name: "\(name): pipelined `field/change`; tagd ÷ \(short)",
        target: "—",
        measured:
          "\(Format.sample(Sample(theirRate.values.map { $0 / 1e3 }), 0, "k/s")); tagd ×\(Format.fixed(rate.median / theirRate.median, 2))",
        pass: true,
        floor:
          "CPU \(Format.fixed(theirCPU.median, 3)) µs per request (tagd ÷ \(short) ×\(Format.fixed(cpu.median / theirCPU.median, 2)))"
      ),
      Figure(
        name: "\(name): round trip p50; tagd ÷ \(short)",
        target: "—",
        measured:
          "\(Format.sample(theirP50, 1, "µs")); tagd ×\(Format.fixed(p50.median / theirP50.median, 2))",
        pass: true,
        floor: "—"
      ),
    ]
  }
}
