import TagCore
import Testing

/// `FieldOutcome` keeps the members few events set out of line, shared between copies until one
/// is changed: an outcome must still behave as a plain value.
struct FieldOutcomeTests {
  @Test func aCopyChangedLeavesTheOriginalAsItWas() {
    let original = FieldOutcome(
      moved: [MovedTag(from: 0, to: 1, tag: "red")],
      selected: PlacedTag(index: 1, tag: "red")
    )
    var copy = original
    copy.moved.append(MovedTag(from: 2, to: 0, tag: "blue"))
    copy.selected = nil
    copy.history = HistoryChange(direction: .undo, action: .move)
    copy.flagged.append(FlaggedTag(index: 0, tag: "blue", reason: .pattern))

    #expect(original.moved == [MovedTag(from: 0, to: 1, tag: "red")])
    #expect(original.selected == PlacedTag(index: 1, tag: "red"))
    #expect(original.history == nil)
    #expect(original.flagged.isEmpty)
    #expect(copy.moved.map(\.tag) == ["red", "blue"])
    #expect(copy.selected == nil)
    #expect(copy != original)
  }

  @Test func emptinessFollowsEveryMember() {
    var outcome = FieldOutcome()
    #expect(outcome.isEmpty)
    outcome.inserted = [PlacedTag(index: 0, tag: "red")]
    #expect(!outcome.isEmpty)
    outcome.inserted = []
    #expect(outcome.isEmpty)
    #expect(outcome == FieldOutcome())
    outcome.edited = RemovedTag(index: 0, tag: "red")
    #expect(!outcome.isEmpty)
  }

  @Test func mergeKeepsTheRareMembersOfBoth() {
    var first = FieldOutcome(added: ["red"])
    first.merge(FieldOutcome(removed: [RemovedTag(index: 0, tag: "red")]))
    #expect(first.history == nil && first.inserted.isEmpty)
    first.merge(FieldOutcome(inserted: [PlacedTag(index: 0, tag: "blue")]))
    first.merge(FieldOutcome(history: HistoryChange(direction: .redo, action: .add)))
    #expect(first.added == ["red"])
    #expect(first.inserted == [PlacedTag(index: 0, tag: "blue")])
    #expect(first.history == HistoryChange(direction: .redo, action: .add))
  }
}
