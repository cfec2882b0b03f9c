import JSONRPC
import TagCore
import TagProtocol
import TagTestSupport
import Testing

/// A layout result as it was written before chunks and runs: one key and one number at a time.
private func reference(_ result: LayoutResult) -> [UInt8] {
  var w = JSONWriter()
  func frame(_ frame: Frame) {
    w.beginObject()
    w.key("x")
    w.double(frame.x)
    w.key("y")
    w.double(frame.y)
    w.key("width")
    w.double(frame.width)
    w.key("height")
    w.double(frame.height)
    w.endObject()
  }
  w.beginObject()
  w.key("frames")
  w.beginArray()
  for item in result.frames { frame(item) }
  w.endArray()
  w.key("size")
  w.beginObject()
  w.key("width")
  w.double(result.size.width)
  w.key("height")
  w.double(result.size.height)
  w.endObject()
  if let groups = result.groups {
    w.key("groups")
    w.beginArray()
    for group in 0..<groups.count {
      w.beginArray()
      for index in groups[group] { w.integer(index) }
      w.endArray()
    }
    w.endArray()
  }
  if let motion = result.motion {
    w.key("motion")
    w.beginArray()
    for move in motion {
      w.beginObject()
      w.key("tag")
      w.string(move.tag)
      w.key("from")
      if let from = move.from { frame(from) } else { w.null() }
      w.key("to")
      if let to = move.to { frame(to) } else { w.null() }
      w.endObject()
    }
    w.endArray()
  }
  w.endObject()
  return w.bytes
}

@Suite struct LayoutResultWriteTests {
  /// Around every chunk boundary, with coordinates of every kind and groups of every size.
  @Test func chunksWriteWhatOneValueAtATimeWrote() {
    var random = SplitMix64(seed: 0x1A70)
    let specials: [Double] = [-0.0, .nan, .infinity, 1e-7, 5e20, 0x1p53, -12.5, 0.1]
    for count in [0, 1, 2, 63, 64, 65, 127, 128, 129, 200, 1_000]
      + (0..<20).map({ _ in
        Int.random(in: 0...300, using: &random)
      })
    {
      func coordinate() -> Double {
        switch Int.random(in: 0..<6, using: &random) {
        case 0: specials.randomElement(using: &random) ?? 0
        case 1: Double.random(in: -1e6...1e6, using: &random)
        case 2: Double(Int.random(in: 0...2_000, using: &random)) / 2
        default: Double(Int.random(in: 0...100_000, using: &random))
        }
      }
      let frames = (0..<count).map { _ in
        Frame(x: coordinate(), y: coordinate(), width: coordinate(), height: coordinate())
      }
      // Groups as the partition of frames laid out in a row at random gaps.
      var x = 0.0
      let row = (0..<count).map { _ in
        defer { x += 10 + Double(Int.random(in: 0...14, using: &random)) }
        return Frame(x: x, y: 0, width: 10, height: 10)
      }
      let groups = MergeGroups.partition(of: row, mergeDistance: 7)
      let motion = frames.prefix(3).enumerated().map { index, frame in
        ChipMotion(tag: "t\(index)", from: index == 0 ? nil : frame, to: index == 1 ? nil : frame)
      }
      for result in [
        LayoutResult(frames: frames, size: Size(width: coordinate(), height: coordinate())),
        LayoutResult(frames: frames, size: Size(width: 800, height: 20.5), groups: groups),
        LayoutResult(frames: frames, size: Size(width: 0, height: 0), motion: motion),
      ] {
        var w = JSONWriter()
        result.write(to: &w)
        #expect(w.bytes == reference(result), "\(count) frames")
      }
    }
  }
}
