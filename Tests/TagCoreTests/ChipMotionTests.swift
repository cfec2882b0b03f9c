import TagCore
import Testing

@Suite struct ChipMotionTests {
  func frame(_ x: Double) -> Frame { Frame(x: x, y: 0, width: 10, height: 10) }

  @Test func insertedRemovedAndMovedChips() {
    let motions = ChipMotion.between(
      (["a", "b", "c"], [frame(0), frame(20), frame(40)]),
      (["a", "c", "d"], [frame(0), frame(20), frame(40)])
    )
    #expect(
      motions == [
        ChipMotion(tag: "c", from: frame(40), to: frame(20)),
        ChipMotion(tag: "d", from: nil, to: frame(40)),
        ChipMotion(tag: "b", from: frame(20), to: nil),
      ]
    )
  }

  @Test func unchangedLayoutsHaveNoMotion() {
    let layout = (["a", "b"], [frame(0), frame(20)])
    #expect(ChipMotion.between(layout, layout).isEmpty)
    #expect(ChipMotion.between(([], []), ([], [])).isEmpty)
  }
}
