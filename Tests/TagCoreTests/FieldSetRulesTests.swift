import TagCore
import Testing

/// `field/setOptions` in the core: new rules never delete a tag; the tags that break them are
/// flagged with the first rule they break, and stay flagged until they are gone or pass.
@Suite struct FieldSetRulesTests {
  private static func field(_ tags: [String], rules: FieldRules = FieldRules()) -> TagField {
    var field = TagField(rules: rules)
    _ = field.apply(.tagsAdded(tags))
    return field
  }

  @Test func aStricterRuleKeepsEveryTagAndFlagsThoseThatBreakIt() {
    var field = Self.field(["red", "magenta", "blue", "turquoise"])
    let outcome = field.setRules(FieldRules(maxTagLength: 5))
    #expect(field.tags == ["red", "magenta", "blue", "turquoise"])
    let flagged = [
      FlaggedTag(index: 1, tag: "magenta", reason: .tooLong(limit: 5)),
      FlaggedTag(index: 3, tag: "turquoise", reason: .tooLong(limit: 5)),
    ]
    #expect(field.flagged == flagged)
    #expect(outcome == FieldOutcome(flagged: flagged))
    #expect(
      Announcement.text(for: outcome, tags: field.tags)
        == "Kept magenta and turquoise, which break the new rules."
    )
    #expect(field.rules.maxTagLength == 5)
  }

  @Test func everyRuleGivesItsReasonInTheCandidateOrder() throws {
    var field = Self.field(["ok", "Spam", "UPPER", "bad one", "x", "Ok2"], rules: FieldRules())
    _ = field.apply(.tagsAdded(["ok2"]))  // a duplicate under the default rules: dropped
    var rules = FieldRules(maxTags: 4, maxTagLength: 6, caseSensitive: false)
    rules.pattern = try TagPattern("[a-zA-Z0-9 ]+")
    rules.deny = ["spam"]
    _ = field.setRules(rules)
    #expect(
      field.flagged == [
        FlaggedTag(index: 1, tag: "Spam", reason: .denied),
        FlaggedTag(index: 3, tag: "bad one", reason: .tooLong(limit: 6)),
        FlaggedTag(index: 4, tag: "x", reason: .tooMany(limit: 4)),
        FlaggedTag(index: 5, tag: "Ok2", reason: .tooMany(limit: 4)),
      ]
    )
    _ = field.setRules(FieldRules(allow: ["ok", "x"]))
    #expect(field.flagged.map(\.index) == [1, 2, 3, 5])
    #expect(field.flagged.allSatisfy { $0.reason == .notAllowed })
  }

  @Test func caselessEqualityFlagsTheLaterOfTwoEqualTags() {
    var field = Self.field(["Go", "go", "GO"], rules: FieldRules(caseSensitive: true))
    _ = field.setRules(FieldRules())
    #expect(
      field.flagged == [
        FlaggedTag(index: 1, tag: "go", reason: .duplicate(of: 0)),
        FlaggedTag(index: 2, tag: "GO", reason: .duplicate(of: 0)),
      ]
    )
    // The new equality holds for new candidates.
    let outcome = field.apply(.tagsAdded(["gO"]))
    #expect(outcome.dropped == [DroppedCandidate(text: "gO", reason: .duplicate(of: 0))])
  }

  @Test func flagsFollowTheTagsAndComeBackWithAnUndo() {
    var field = Self.field(["a", "toolong", "b"])
    _ = field.setRules(FieldRules(maxTagLength: 3))
    #expect(field.flagged == [FlaggedTag(index: 1, tag: "toolong", reason: .tooLong(limit: 3))])
    _ = field.apply(.tagRemoved(at: 0))
    #expect(field.flagged == [FlaggedTag(index: 0, tag: "toolong", reason: .tooLong(limit: 3))])
    _ = field.apply(.tagRemoved(at: 0))
    #expect(field.flagged.isEmpty)
    _ = field.apply(.undo)
    #expect(field.tags == ["toolong", "b"])
    #expect(field.flagged == [FlaggedTag(index: 0, tag: "toolong", reason: .tooLong(limit: 3))])
    _ = field.apply(.tagReplaced(at: 0, with: "ok"))
    #expect(field.flagged.isEmpty)
  }

  @Test func draftSelectionAndHistoryStayAndNothingIsAStep() {
    var field = Self.field(["red", "green"])
    _ = field.apply(.draftChanged("blu"))
    _ = field.apply(.selected(1))
    let canUndo = field.canUndo
    _ = field.setRules(FieldRules(separators: [";"]))
    #expect(field.draft == "blu")
    #expect(field.selected == 1)
    #expect(field.canUndo == canUndo)
    // The new separators hold from the next change on.
    _ = field.apply(.draftChanged("blue;pink,x"))
    #expect(field.tags == ["red", "green", "blue"])
    #expect(field.draft == "pink,x")
    // Undo goes back through steps taken before the rules changed.
    _ = field.apply(.undo)
    _ = field.apply(.undo)
    #expect(field.tags == ["red", "green"])
  }

  @Test func aDraftHoldingANewSeparatorIsSplitAtItsNextChange() {
    var field = Self.field([])
    _ = field.apply(.draftChanged("a;b"))
    _ = field.setRules(FieldRules(separators: [";"]))
    #expect(field.draft == "a;b")
    _ = field.apply(.draftChanged("a;bc"))
    #expect(field.tags == ["a"])
    #expect(field.draft == "bc")
  }

  @Test func aSmallerHistoryKeepsTheNewestSteps() {
    var field = Self.field([])
    for tag in ["a", "b", "c"] { _ = field.apply(.tagsAdded([tag])) }
    _ = field.setRules(FieldRules(historyLimit: 1))
    _ = field.apply(.undo)
    #expect(field.tags == ["a", "b"])
    #expect(!field.canUndo)
  }

  @Test func keptIsAnnouncedInEveryLanguage() {
    let one = FieldOutcome(flagged: [FlaggedTag(index: 0, tag: "rot", reason: .denied)])
    #expect(
      Language.allCases.map { Announcement.text(for: one, tags: ["rot"], in: $0) } == [
        "Kept rot, which breaks the new rules.",
        "Se ha conservado rot, que no cumple las nuevas reglas del campo.",
        "rot entspricht nicht den neuen Regeln des Feldes und bleibt erhalten.",
        "Étiquette conservée malgré les nouvelles règles du champ\u{A0}: rot.",
      ]
    )
  }
}
