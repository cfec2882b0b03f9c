import TagCore
import TagTestSupport
import Testing

/// SPEC §6 rules of the field: validation, selection, Backspace modes, move, replace, edit, blur.
///
/// Each row applies events to a fresh field and checks the state and the last event's outcome.
private struct FeatureCase: CustomTestStringConvertible, Sendable {
  var name: String
  var rules = FieldRules()
  var events: [FieldEvent]
  var tags: [String]
  var draft: String = ""
  var selected: Int? = nil
  var outcome: FieldOutcome
  var announcement: String? = nil

  var testDescription: String { name }
}

private func drop(_ text: String, _ reason: DropReason) -> DroppedCandidate {
  DroppedCandidate(text: text, reason: reason)
}

private func pattern(_ source: String) -> TagPattern {
  // Test patterns are literals known to compile.
  (try? TagPattern(source)) ?? { fatalError("\(source) does not compile") }()
}

private let three: [FieldEvent] = [.tagsAdded(["red", "green", "blue"])]

private let validation: [FeatureCase] = [
  FeatureCase(
    name: "pattern: whole match of the trimmed tag",
    rules: FieldRules(pattern: pattern("[a-z]+(-[a-z]+)*")),
    events: [.draftChanged(" ice-cream , ice cream,Ice,x-,")],
    tags: ["ice-cream"],
    outcome: FieldOutcome(
      added: ["ice-cream"],
      dropped: [drop("ice cream", .pattern), drop("Ice", .pattern), drop("x-", .pattern)]
    ),
    announcement:
      "Added ice-cream. ice cream does not have the form this field asks for. Ice does not have the form this field asks for. x- does not have the form this field asks for."
  ),
  FeatureCase(
    name: "pattern: checked after the transform",
    rules: FieldRules(transform: .lowercase, pattern: pattern("[a-z]+")),
    events: [.draftChanged("RED,")],
    tags: ["red"],
    outcome: FieldOutcome(added: ["red"])
  ),
  FeatureCase(
    name: "pattern: a partial match is not enough",
    rules: FieldRules(pattern: pattern("[0-9]+")),
    events: [.tagsAdded(["12a", "a12", "12"])],
    tags: ["12"],
    outcome: FieldOutcome(added: ["12"], dropped: [drop("12a", .pattern), drop("a12", .pattern)])
  ),
  FeatureCase(
    name: "allow: caseless, canonical, trimmed entries",
    rules: FieldRules(allow: [" Red ", "CAFE\u{301}"]),
    events: [.draftChanged("red,café,green,")],
    tags: ["red", "café"],
    outcome: FieldOutcome(added: ["red", "café"], dropped: [drop("green", .notAllowed)]),
    announcement: "Added red and café. green is not one of the allowed tags."
  ),
  FeatureCase(
    name: "allow: case-sensitive field compares exactly",
    rules: FieldRules(caseSensitive: true, allow: ["Red"]),
    events: [.tagsAdded(["red", "Red"])],
    tags: ["Red"],
    outcome: FieldOutcome(added: ["Red"], dropped: [drop("red", .notAllowed)])
  ),
  FeatureCase(
    name: "allow: an empty list allows nothing",
    rules: FieldRules(allow: []),
    events: [.tagsAdded(["red"])],
    tags: [],
    outcome: FieldOutcome(dropped: [drop("red", .notAllowed)])
  ),
  FeatureCase(
    name: "deny: caseless (Straße = STRASSE)",
    rules: FieldRules(deny: ["Straße"]),
    events: [.draftChanged("STRASSE,street,")],
    tags: ["street"],
    outcome: FieldOutcome(added: ["street"], dropped: [drop("STRASSE", .denied)]),
    announcement: "Added street. STRASSE is not allowed."
  ),
  FeatureCase(
    name: "deny: entries are transformed like candidates",
    rules: FieldRules(caseSensitive: true, transform: .uppercase, deny: ["spam"]),
    events: [.tagsAdded(["Spam", "ham"])],
    tags: ["HAM"],
    outcome: FieldOutcome(added: ["HAM"], dropped: [drop("SPAM", .denied)])
  ),
  FeatureCase(
    name: "order: too long before pattern before allow before deny before duplicate",
    rules: FieldRules(
      maxTagLength: 5,
      pattern: pattern("[a-z]+"),
      allow: ["red", "blue", "abc"],
      deny: ["blue"]
    ),
    events: [.tagsAdded(["red", "toolong", "RED", "green", "blue", "red"])],
    tags: ["red"],
    outcome: FieldOutcome(
      added: ["red"],
      dropped: [
        drop("toolong", .tooLong(limit: 5)), drop("RED", .pattern), drop("green", .notAllowed),
        drop("blue", .denied), drop("red", .duplicate(of: 0)),
      ]
    )
  ),
  FeatureCase(
    name: "validation applies to replacements",
    rules: FieldRules(deny: ["spam"]),
    events: three + [.tagReplaced(at: 1, with: "SPAM")],
    tags: ["red", "green", "blue"],
    outcome: FieldOutcome(dropped: [drop("SPAM", .denied)])
  ),
]

private let selection: [FeatureCase] = [
  FeatureCase(
    name: "select a chip",
    events: three + [.selected(1)],
    tags: ["red", "green", "blue"],
    selected: 1,
    outcome: FieldOutcome(selected: PlacedTag(index: 1, tag: "green")),
    announcement: "green selected, 2 of 3."
  ),
  FeatureCase(
    name: "select nil clears",
    events: three + [.selected(1), .selected(nil)],
    tags: ["red", "green", "blue"],
    outcome: FieldOutcome()
  ),
  FeatureCase(
    name: "select out of range changes nothing",
    events: three + [.selected(1), .selected(3)],
    tags: ["red", "green", "blue"],
    selected: 1,
    outcome: FieldOutcome()
  ),
  FeatureCase(
    name: "removing a tag before the selection shifts it",
    events: three + [.selected(2), .tagRemoved(at: 0)],
    tags: ["green", "blue"],
    selected: 1,
    outcome: FieldOutcome(removed: [RemovedTag(index: 0, tag: "red")])
  ),
  FeatureCase(
    name: "removing the selected tag clears the selection",
    events: three + [.selected(1), .tagRemovedMatching("GREEN")],
    tags: ["red", "blue"],
    outcome: FieldOutcome(removed: [RemovedTag(index: 1, tag: "green")])
  ),
  FeatureCase(
    name: "removing a tag after the selection keeps it",
    events: three + [.selected(0), .tagRemoved(at: 2)],
    tags: ["red", "green"],
    selected: 0,
    outcome: FieldOutcome(removed: [RemovedTag(index: 2, tag: "blue")])
  ),
  FeatureCase(
    name: "typing clears the selection",
    events: three + [.selected(0), .draftChanged("x")],
    tags: ["red", "green", "blue"],
    draft: "x",
    outcome: FieldOutcome()
  ),
  FeatureCase(
    name: "adding tags from outside keeps the selection",
    events: three + [.selected(0), .tagsAdded(["pink"])],
    tags: ["red", "green", "blue", "pink"],
    selected: 0,
    outcome: FieldOutcome(added: ["pink"])
  ),
  FeatureCase(
    name: "Backspace removes the selected chip even with a draft",
    events: three + [.draftChanged("x"), .selected(0), .deletedBackward],
    tags: ["green", "blue"],
    draft: "x",
    outcome: FieldOutcome(removed: [RemovedTag(index: 0, tag: "red")])
  ),
  FeatureCase(
    name: "blur clears the selection",
    events: three + [.selected(0), .blurred],
    tags: ["red", "green", "blue"],
    outcome: FieldOutcome()
  ),
]

private let backspace: [FeatureCase] = [
  FeatureCase(
    name: "remove mode: removes the last tag",
    events: three + [.deletedBackward],
    tags: ["red", "green"],
    outcome: FieldOutcome(removed: [RemovedTag(index: 2, tag: "blue")]),
    announcement: "Removed blue."
  ),
  FeatureCase(
    name: "select mode: first press selects the last chip",
    rules: FieldRules(backspace: .select),
    events: three + [.deletedBackward],
    tags: ["red", "green", "blue"],
    selected: 2,
    outcome: FieldOutcome(selected: PlacedTag(index: 2, tag: "blue")),
    announcement: "blue selected, 3 of 3."
  ),
  FeatureCase(
    name: "select mode: second press removes it",
    rules: FieldRules(backspace: .select),
    events: three + [.deletedBackward, .deletedBackward],
    tags: ["red", "green"],
    outcome: FieldOutcome(removed: [RemovedTag(index: 2, tag: "blue")])
  ),
  FeatureCase(
    name: "select mode: third press selects the next",
    rules: FieldRules(backspace: .select),
    events: three + [.deletedBackward, .deletedBackward, .deletedBackward],
    tags: ["red", "green"],
    selected: 1,
    outcome: FieldOutcome(selected: PlacedTag(index: 1, tag: "green"))
  ),
  FeatureCase(
    name: "select mode: with a draft, nothing",
    rules: FieldRules(backspace: .select),
    events: three + [.draftChanged("x"), .deletedBackward],
    tags: ["red", "green", "blue"],
    draft: "x",
    outcome: FieldOutcome()
  ),
  FeatureCase(
    name: "edit mode: the last tag comes back into the draft",
    rules: FieldRules(backspace: .edit),
    events: three + [.deletedBackward],
    tags: ["red", "green"],
    draft: "blue",
    outcome: FieldOutcome(
      removed: [RemovedTag(index: 2, tag: "blue")],
      edited: RemovedTag(index: 2, tag: "blue")
    ),
    announcement: "Editing blue."
  ),
  FeatureCase(
    name: "edit mode: no tags, nothing",
    rules: FieldRules(backspace: .edit),
    events: [.deletedBackward],
    tags: [],
    outcome: FieldOutcome()
  ),
  FeatureCase(
    name: "edit mode: a selected chip is removed, not edited",
    rules: FieldRules(backspace: .edit),
    events: three + [.selected(0), .deletedBackward],
    tags: ["green", "blue"],
    outcome: FieldOutcome(removed: [RemovedTag(index: 0, tag: "red")])
  ),
]

private let moves: [FeatureCase] = [
  FeatureCase(
    name: "move right",
    events: three + [.tagMoved(from: 0, to: 2)],
    tags: ["green", "blue", "red"],
    outcome: FieldOutcome(moved: [MovedTag(from: 0, to: 2, tag: "red")]),
    announcement: "Moved red to position 3 of 3."
  ),
  FeatureCase(
    name: "move left",
    events: three + [.tagMoved(from: 2, to: 0)],
    tags: ["blue", "red", "green"],
    outcome: FieldOutcome(moved: [MovedTag(from: 2, to: 0, tag: "blue")])
  ),
  FeatureCase(
    name: "move: the selection follows the moved tag",
    events: three + [.selected(1), .tagMoved(from: 1, to: 0)],
    tags: ["green", "red", "blue"],
    selected: 0,
    outcome: FieldOutcome(moved: [MovedTag(from: 1, to: 0, tag: "green")])
  ),
  FeatureCase(
    name: "move: the selection stays on its tag when another moves past it",
    events: three + [.selected(1), .tagMoved(from: 0, to: 2)],
    tags: ["green", "blue", "red"],
    selected: 0,
    outcome: FieldOutcome(moved: [MovedTag(from: 0, to: 2, tag: "red")])
  ),
  FeatureCase(
    name: "move: out of range or in place changes nothing",
    events: three + [.tagMoved(from: 0, to: 3), .tagMoved(from: 1, to: 1)],
    tags: ["red", "green", "blue"],
    outcome: FieldOutcome()
  ),
  FeatureCase(
    name: "move then a duplicate is found at the new index",
    events: three + [.tagMoved(from: 0, to: 2), .tagsAdded(["RED"])],
    tags: ["green", "blue", "red"],
    outcome: FieldOutcome(dropped: [drop("RED", .duplicate(of: 2))])
  ),
]

private let replacements: [FeatureCase] = [
  FeatureCase(
    name: "replace in place, trimmed",
    events: three + [.tagReplaced(at: 1, with: " lime ")],
    tags: ["red", "lime", "blue"],
    outcome: FieldOutcome(replaced: [ReplacedTag(index: 1, old: "green", new: "lime")]),
    announcement: "Changed green to lime."
  ),
  FeatureCase(
    name: "replace: a respelling of itself is allowed",
    events: three + [.tagReplaced(at: 0, with: "Red")],
    tags: ["Red", "green", "blue"],
    outcome: FieldOutcome(replaced: [ReplacedTag(index: 0, old: "red", new: "Red")])
  ),
  FeatureCase(
    name: "replace: the same spelling changes nothing",
    events: three + [.tagReplaced(at: 0, with: "red")],
    tags: ["red", "green", "blue"],
    outcome: FieldOutcome()
  ),
  FeatureCase(
    name: "replace: a duplicate of another tag leaves the tag",
    events: three + [.tagReplaced(at: 0, with: "BLUE")],
    tags: ["red", "green", "blue"],
    outcome: FieldOutcome(dropped: [drop("BLUE", .duplicate(of: 2))]),
    announcement: "BLUE is already a tag, as blue."
  ),
  FeatureCase(
    name: "replace: empty leaves the tag",
    events: three + [.tagReplaced(at: 0, with: "  ")],
    tags: ["red", "green", "blue"],
    outcome: FieldOutcome(dropped: [drop("", .empty)])
  ),
  FeatureCase(
    name: "replace: too long leaves the tag",
    rules: FieldRules(maxTagLength: 4),
    events: three + [.tagReplaced(at: 0, with: "crimson")],
    tags: ["red", "blue"],
    outcome: FieldOutcome(dropped: [drop("crimson", .tooLong(limit: 4))])
  ),
  FeatureCase(
    name: "replace: not split on separators",
    events: three + [.tagReplaced(at: 0, with: "a,b")],
    tags: ["a,b", "green", "blue"],
    outcome: FieldOutcome(replaced: [ReplacedTag(index: 0, old: "red", new: "a,b")])
  ),
  FeatureCase(
    name: "replace: at the limit is still allowed",
    rules: FieldRules(maxTags: 3),
    events: three + [.tagReplaced(at: 2, with: "navy")],
    tags: ["red", "green", "navy"],
    outcome: FieldOutcome(replaced: [ReplacedTag(index: 2, old: "blue", new: "navy")])
  ),
  FeatureCase(
    name: "replace: the old text is free again",
    events: three + [.tagReplaced(at: 0, with: "pink"), .tagsAdded(["red"])],
    tags: ["pink", "green", "blue", "red"],
    outcome: FieldOutcome(added: ["red"])
  ),
]

private let edits: [FeatureCase] = [
  FeatureCase(
    name: "edit: the tag leaves the list into the draft",
    events: three + [.tagEdited(at: 0)],
    tags: ["green", "blue"],
    draft: "red",
    outcome: FieldOutcome(
      removed: [RemovedTag(index: 0, tag: "red")],
      edited: RemovedTag(index: 0, tag: "red")
    ),
    announcement: "Editing red."
  ),
  FeatureCase(
    name: "edit: a non-empty draft is committed first",
    events: three + [.draftChanged("pink"), .tagEdited(at: 1)],
    tags: ["red", "blue", "pink"],
    draft: "green",
    outcome: FieldOutcome(
      added: ["pink"],
      removed: [RemovedTag(index: 1, tag: "green")],
      edited: RemovedTag(index: 1, tag: "green")
    ),
    announcement: "Added pink. Editing green."
  ),
  FeatureCase(
    name: "edit: a draft that is a duplicate is dropped and reported",
    events: three + [.draftChanged("RED"), .tagEdited(at: 2)],
    tags: ["red", "green"],
    draft: "blue",
    outcome: FieldOutcome(
      removed: [RemovedTag(index: 2, tag: "blue")],
      dropped: [drop("RED", .duplicate(of: 0))],
      edited: RemovedTag(index: 2, tag: "blue")
    )
  ),
  FeatureCase(
    name: "edit: out of range changes nothing",
    events: three + [.draftChanged("x"), .tagEdited(at: 5)],
    tags: ["red", "green", "blue"],
    draft: "x",
    outcome: FieldOutcome()
  ),
]

private let blur: [FeatureCase] = [
  FeatureCase(
    name: "blur: without commitOnBlur the draft stays",
    events: [.draftChanged("red")],
    tags: [],
    draft: "red",
    outcome: FieldOutcome()
  ),
  FeatureCase(
    name: "blur: without commitOnBlur the draft stays (event)",
    events: [.draftChanged("red"), .blurred],
    tags: [],
    draft: "red",
    outcome: FieldOutcome()
  ),
  FeatureCase(
    name: "blur: commitOnBlur commits the draft",
    rules: FieldRules(commitOnBlur: true),
    events: [.draftChanged(" red "), .blurred],
    tags: ["red"],
    outcome: FieldOutcome(added: ["red"])
  ),
  FeatureCase(
    name: "blur: commitOnBlur with an empty draft does nothing",
    rules: FieldRules(commitOnBlur: true),
    events: three + [.blurred],
    tags: ["red", "green", "blue"],
    outcome: FieldOutcome()
  ),
  FeatureCase(
    name: "blur: commitOnBlur reports a refused draft",
    rules: FieldRules(commitOnBlur: true),
    events: three + [.draftChanged("Red"), .blurred],
    tags: ["red", "green", "blue"],
    outcome: FieldOutcome(dropped: [drop("Red", .duplicate(of: 0))])
  ),
]

@Suite struct FieldFeatureTests {
  @Test(arguments: validation + selection + backspace + moves + replacements + edits + blur)
  fileprivate func rule(_ row: FeatureCase) {
    var field = TagField(rules: row.rules)
    var outcome = FieldOutcome()
    for event in row.events {
      outcome = field.apply(event)
    }
    #expect(
      field.tags.map { Array($0.unicodeScalars) } == row.tags.map { Array($0.unicodeScalars) }
    )
    #expect(Array(field.draft.unicodeScalars) == Array(row.draft.unicodeScalars))
    #expect(field.selected == row.selected)
    #expect(outcome == row.outcome)
    if let announcement = row.announcement {
      #expect(Announcement.text(for: outcome, tags: field.tags) == announcement)
    }
  }

  @Test func patternThatDoesNotCompileNamesItself() {
    #expect(throws: TagPatternError.self) { try TagPattern("[a-") }
    do {
      _ = try TagPattern("(ab")
      Issue.record("(ab compiled")
    } catch {
      #expect(error.source == "(ab")
      #expect(!error.problem.isEmpty)
      #expect("\(error)".hasPrefix("(ab does not compile: "))
    }
  }

  @Test func refusalPredictsTheDrop() {
    var field = TagField(rules: FieldRules(maxTags: 2, deny: ["spam"]))
    _ = field.apply(.tagsAdded(["red"]))
    #expect(field.refusal(of: "SPAM") == .denied)
    #expect(field.refusal(of: " RED ") == .duplicate(of: 0))
    #expect(field.refusal(of: "green") == nil)
    _ = field.apply(.tagsAdded(["green"]))
    #expect(field.refusal(of: "blue") == .tooMany(limit: 2))
  }
}
