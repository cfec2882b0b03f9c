import JSONRPC

/// Start-up (spawn → `initialize` answer) and one-at-a-time round trips.
extension Bench {
  /// Spawn → `initialize` reply, in ms, for tagd and for the floor (interleaved runs).
  func measureStart() throws(BenchError) -> (tagd: Sample, floor: Sample) {
    let runs = quick ? 5 : 40
    var tagdTimes: [Double] = []
    var floorTimes: [Double] = []
    for run in -3..<runs {
      for isFloor in [false, true] {
        let start = Clock.nanoseconds()
        let child = isFloor ? try startFloor() : try startTagd()
        let elapsed = Double(Clock.nanoseconds() - start) / 1e6
        child.finish()
        guard run >= 0 else { continue }  // warm-up: page cache, dynamic loader caches
        if isFloor { floorTimes.append(elapsed) } else { tagdTimes.append(elapsed) }
      }
    }
    return (Sample(tagdTimes), Sample(floorTimes))
  }

  /// Round-trip p50 and p99 in µs of one `field/change` at a time (the floor gets the same
  /// bytes); one sample per run, tagd and floor alternating.
  func measureLatency() throws(BenchError) -> (tagd: [Double], floor: [Double], tagdP99: [Double]) {
    let count = quick ? 2_000 : 20_000
    var tagdP50: [Double] = []
    var floorP50: [Double] = []
    var tagdP99: [Double] = []
    for run in 0...runs {
      for isFloor in [false, true] {
        let child = isFloor ? try startFloor() : try startTagd()
        try openTypingField(child)
        let (frames, drafts) = Workloads.typing(count: count, firstID: 100, field: "f")
        let first = child.frames.count
        var times: [Double] = []
        times.reserveCapacity(count)
        for index in 0..<count {
          let start = Clock.nanoseconds()
          try child.exchange(frames.frame(index), untilFrames: first + index + 1)
          times.append(Double(Clock.nanoseconds() - start) / 1e3)
        }
        try verifyTyping(child, frames: first..<(first + count), drafts: drafts, isFloor: isFloor)
        child.finish()
        guard run > 0 else { continue }
        let p50 = Sample.percentile(times, 0.5)
        if isFloor {
          floorP50.append(p50)
        } else {
          tagdP50.append(p50)
          tagdP99.append(Sample.percentile(times, 0.99))
        }
      }
    }
    return (tagdP50, floorP50, tagdP99)
  }

  /// Opens field `f` with a handful of tags.
  func openTypingField(_ child: Child) throws(BenchError) {
    try call(
      child,
      id: 1,
      method: "field/open",
      params: #"{"field":"f","tags":\#(Workloads.stringArray(Workloads.openTags))}"#
    )
  }

  /// Checks the replies to a typing workload: tagd's show the expected draft, the floor's null.
  func verifyTyping(
    _ child: Child,
    frames: Range<Int>,
    drafts: [String],
    isFloor: Bool
  ) throws(BenchError) {
    try Verify.replies(child, frames: frames, ids: 100..<(100 + drafts.count)) { index, result in
      if isFloor { return result == .null ? nil : "the floor answered non-null" }
      guard result["field"] == .string("f") else { return "wrong field" }
      guard result["text"] == .string(drafts[index]) else {
        return "draft \(result["text"].map { "\($0)" } ?? "none"), expected \"\(drafts[index])\""
      }
      guard let tags = Verify.count(result, "tags"), tags >= 3, tags <= 13 else {
        return "unexpected tag count"
      }
      return nil
    }
  }
}
