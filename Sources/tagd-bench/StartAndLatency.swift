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

  /// Round-trip p50 and p99 in µs of one `field/change` at a time (the floor, the peer and the
  /// C reference get the same bytes); one sample per run, each server in turn.
  func measureLatency() throws(BenchError) -> (
    tagd: [Double], floor: [Double], tagdP99: [Double], peer: [Double], reference: [Double]
  ) {
    let count = quick ? 2_000 : 20_000
    var tagdP50: [Double] = []
    var floorP50: [Double] = []
    var tagdP99: [Double] = []
    var peerP50: [Double] = []
    var referenceP50: [Double] = []
    for run in 0...runs {
      for kind in servers {
        let isFloor = kind == .floor
        let child = try start(kind)
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
        switch kind {
        case .floor: floorP50.append(p50)
        case .peer: peerP50.append(p50)
        case .reference: referenceP50.append(p50)
        case .tagd:
          tagdP50.append(p50)
          tagdP99.append(Sample.percentile(times, 0.99))
        }
      }
    }
    return (tagdP50, floorP50, tagdP99, peerP50, referenceP50)
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

extension Bench {
  /// Checks that `kind` (the Node.js peer or the C reference) answers the typing workload with
  /// exactly tagd's bytes, so the two are compared on the same job; a difference fails the run
  /// with the first differing reply of each.
  func checkParity(_ kind: ServerKind) throws(BenchError) {
    let (frames, _) = Workloads.typing(count: quick ? 500 : 5_000, firstID: 100, field: "f")
    var bodies: [[ArraySlice<UInt8>]] = []
    for kind in [ServerKind.tagd, kind] {
      let child = try start(kind)
      try openTypingField(child)
      let first = child.frames.count
      try child.exchange(frames.bytes, untilFrames: first + frames.ends.count)
      bodies.append(child.bodies(first..<child.frames.count).map { child.received[$0] })
      child.finish()
    }
    guard bodies[0].count == bodies[1].count else {
      throw BenchError("\(kind.name) sent \(bodies[1].count) replies, tagd \(bodies[0].count)")
    }
    for (index, (ours, theirs)) in zip(bodies[0], bodies[1]).enumerated() where ours != theirs {
      throw BenchError(
        """
        \(kind.name)'s reply \(index) to the typing workload differs from tagd's:
          \(kind.name): \(String(decoding: theirs, as: UTF8.self))
          tagd: \(String(decoding: ours, as: UTF8.self))
        """
      )
    }
  }
}
