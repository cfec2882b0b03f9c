import TagCore
import TagTestSupport
import Testing

/// One row of the SPEC §1 table: events applied to a fresh field, and the state and the outcome of
/// the last event that should follow.
struct FieldCase: CustomTestStringConvertible, Sendable {
  var name: String
  var rules = FieldRules()
  var events: [FieldEvent]
  var tags: [String]
  var draft: String
  var outcome = FieldOutcome()

  var testDescription: String { name }
}

private func drop(_ text: String, _ reason: DropReason) -> DroppedCandidate {
  DroppedCandidate(text: text, reason: reason)
}

private let empty = DroppedCandidate(text: "", reason: .empty)

/// Tags and draft compared scalar by scalar: `String ==` would hide a changed spelling (`é`).
private func scalars(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }

private let typing: [FieldCase] = [
  FieldCase(
    name: "no separator: draft as typed",
    events: [.draftChanged("red")],
    tags: [],
    draft: "red"
  ),
  FieldCase(
    name: "no separator: leading spaces kept",
    events: [.draftChanged("  red ")],
    tags: [],
    draft: "  red "
  ),
  FieldCase(
    name: "no separator: blank kept",
    events: [.draftChanged("   ")],
    tags: [],
    draft: "   "
  ),
  FieldCase(
    name: "no separator: tab kept",
    events: [.draftChanged("\tred")],
    tags: [],
    draft: "\tred"
  ),
  FieldCase(
    name: "empty text",
    events: [.draftChanged("red"), .draftChanged("")],
    tags: [],
    draft: ""
  ),
  FieldCase(
    name: "paste red, green,blue",
    events: [.draftChanged("red, green,blue")],
    tags: ["red", "green"],
    draft: "blue",
    outcome: FieldOutcome(added: ["red", "green"])
  ),
  FieldCase(
    name: "trailing separator empties the draft",
    events: [.draftChanged("red,")],
    tags: ["red"],
    draft: "",
    outcome: FieldOutcome(added: ["red"])
  ),
  FieldCase(
    name: "typing character by character",
    events: [.draftChanged("r"), .draftChanged("re"), .draftChanged("red"), .draftChanged("red,")],
    tags: ["red"],
    draft: "",
    outcome: FieldOutcome(added: ["red"])
  ),
  FieldCase(
    name: "LF separates",
    events: [.draftChanged("a\nb")],
    tags: ["a"],
    draft: "b",
    outcome: FieldOutcome(added: ["a"])
  ),
  FieldCase(
    name: "CR separates",
    events: [.draftChanged("a\rb")],
    tags: ["a"],
    draft: "b",
    outcome: FieldOutcome(added: ["a"])
  ),
  FieldCase(
    name: "CRLF is one separator",
    events: [.draftChanged("a\r\nb")],
    tags: ["a"],
    draft: "b",
    outcome: FieldOutcome(added: ["a"])
  ),
  FieldCase(
    name: "CRLF at the end",
    events: [.draftChanged("a\r\n")],
    tags: ["a"],
    draft: "",
    outcome: FieldOutcome(added: ["a"])
  ),
  FieldCase(
    name: "CRLF lines",
    events: [.draftChanged("a\r\nb\r\nc")],
    tags: ["a", "b"],
    draft: "c",
    outcome: FieldOutcome(added: ["a", "b"])
  ),
  FieldCase(
    name: "LF CR is two separators",
    events: [.draftChanged("a\n\rb")],
    tags: ["a"],
    draft: "b",
    outcome: FieldOutcome(added: ["a"], dropped: [empty])
  ),
  FieldCase(
    name: "CR CR is two separators",
    events: [.draftChanged("a\r\rb")],
    tags: ["a"],
    draft: "b",
    outcome: FieldOutcome(added: ["a"], dropped: [empty])
  ),
  FieldCase(
    name: "CR CRLF is two separators",
    events: [.draftChanged("a\r\r\nb")],
    tags: ["a"],
    draft: "b",
    outcome: FieldOutcome(added: ["a"], dropped: [empty])
  ),
  FieldCase(
    name: "tab after a separator stays in the draft",
    events: [.draftChanged("a,\tx")],
    tags: ["a"],
    draft: "\tx",
    outcome: FieldOutcome(added: ["a"])
  ),
  FieldCase(
    name: "only U+0020 is removed from the new draft",
    events: [.draftChanged("a,   \t x ")],
    tags: ["a"],
    draft: "\t x ",
    outcome: FieldOutcome(added: ["a"])
  ),
  FieldCase(
    name: "no-break space after a separator stays",
    events: [.draftChanged("a, \u{A0}x")],
    tags: ["a"],
    draft: "\u{A0}x",
    outcome: FieldOutcome(added: ["a"])
  ),
  FieldCase(
    name: "spaces only after a separator",
    events: [.draftChanged("a,    ")],
    tags: ["a"],
    draft: "",
    outcome: FieldOutcome(added: ["a"])
  ),
  FieldCase(
    name: ",, drops two empties",
    events: [.draftChanged(",,")],
    tags: [],
    draft: "",
    outcome: FieldOutcome(dropped: [empty, empty])
  ),
  FieldCase(
    name: "' , ' drops one empty",
    events: [.draftChanged(" , ")],
    tags: [],
    draft: "",
    outcome: FieldOutcome(dropped: [empty])
  ),
  FieldCase(
    name: "whitespace-only pieces are empty",
    events: [.draftChanged("\t,\u{A0},\u{3000},x")],
    tags: [],
    draft: "x",
    outcome: FieldOutcome(dropped: [empty, empty, empty])
  ),
  FieldCase(
    name: "candidates are trimmed of whitespace",
    events: [.draftChanged("  red\t ,\u{A0}green\u{2003},  big  blue  ,")],
    tags: ["red", "green", "big  blue"],
    draft: "",
    outcome: FieldOutcome(added: ["red", "green", "big  blue"])
  ),
  FieldCase(
    name: "a separator inside a composed character still splits",
    events: [.draftChanged("a,\u{301}b")],
    tags: ["a"],
    draft: "\u{301}b",
    outcome: FieldOutcome(added: ["a"])
  ),
]

private let duplicates: [FieldCase] = [
  FieldCase(
    name: "duplicate of an existing tag",
    events: [.draftChanged("red,green,"), .draftChanged("GREEN,")],
    tags: ["red", "green"],
    draft: "",
    outcome: FieldOutcome(dropped: [drop("GREEN", .duplicate(of: 1))])
  ),
  FieldCase(
    name: "duplicate within the batch",
    events: [.draftChanged("x,"), .draftChanged("a,b,A ,B,c")],
    tags: ["x", "a", "b"],
    draft: "c",
    outcome: FieldOutcome(
      added: ["a", "b"],
      dropped: [drop("A", .duplicate(of: 1)), drop("B", .duplicate(of: 2))]
    )
  ),
  FieldCase(
    name: "Straße = STRASSE, first spelling kept",
    events: [.draftChanged("Straße,STRASSE,strasse,")],
    tags: ["Straße"],
    draft: "",
    outcome: FieldOutcome(
      added: ["Straße"],
      dropped: [drop("STRASSE", .duplicate(of: 0)), drop("strasse", .duplicate(of: 0))]
    )
  ),
  FieldCase(
    name: "STRASSE first keeps STRASSE",
    events: [.draftChanged("STRASSE,Straße,")],
    tags: ["STRASSE"],
    draft: "",
    outcome: FieldOutcome(added: ["STRASSE"], dropped: [drop("Straße", .duplicate(of: 0))])
  ),
  FieldCase(
    name: "é precomposed = e + U+0301",
    events: [.draftChanged("caf\u{E9},cafe\u{301},CAFE\u{301},")],
    tags: ["caf\u{E9}"],
    draft: "",
    outcome: FieldOutcome(
      added: ["caf\u{E9}"],
      dropped: [drop("cafe\u{301}", .duplicate(of: 0)), drop("CAFE\u{301}", .duplicate(of: 0))]
    )
  ),
  FieldCase(
    name: "e + U+0301 first keeps the decomposed spelling",
    events: [.draftChanged("e\u{301},\u{E9},")],
    tags: ["e\u{301}"],
    draft: "",
    outcome: FieldOutcome(added: ["e\u{301}"], dropped: [drop("\u{E9}", .duplicate(of: 0))])
  ),
  FieldCase(
    name: "ﬁ = FI",
    events: [.draftChanged("\u{FB01}le,FILE,")],
    tags: ["\u{FB01}le"],
    draft: "",
    outcome: FieldOutcome(added: ["\u{FB01}le"], dropped: [drop("FILE", .duplicate(of: 0))])
  ),
  FieldCase(
    name: "Σ = ς = σ",
    events: [.draftChanged("ΟΔΟΣ,οδος,οδοσ,")],
    tags: ["ΟΔΟΣ"],
    draft: "",
    outcome: FieldOutcome(
      added: ["ΟΔΟΣ"],
      dropped: [drop("οδος", .duplicate(of: 0)), drop("οδοσ", .duplicate(of: 0))]
    )
  ),
  FieldCase(
    name: "Turkish İ ≠ i",
    events: [.draftChanged("İ,i,I,")],
    tags: ["İ", "i"],
    draft: "",
    outcome: FieldOutcome(added: ["İ", "i"], dropped: [drop("I", .duplicate(of: 1))])
  ),
]

private let commands: [FieldCase] = [
  FieldCase(
    name: "submit commits the draft",
    events: [.draftChanged("red"), .submitted],
    tags: ["red"],
    draft: "",
    outcome: FieldOutcome(added: ["red"])
  ),
  FieldCase(
    name: "submit trims the draft",
    events: [.draftChanged("  red\t"), .submitted],
    tags: ["red"],
    draft: "",
    outcome: FieldOutcome(added: ["red"])
  ),
  FieldCase(
    name: "submit with an empty draft drops an empty candidate",
    events: [.submitted],
    tags: [],
    draft: "",
    outcome: FieldOutcome(dropped: [empty])
  ),
  FieldCase(
    name: "submit with a blank draft empties it",
    events: [.draftChanged(" \t "), .submitted],
    tags: [],
    draft: "",
    outcome: FieldOutcome(dropped: [empty])
  ),
  FieldCase(
    name: "submit a duplicate empties the draft",
    events: [.draftChanged("red,Red"), .submitted],
    tags: ["red"],
    draft: "",
    outcome: FieldOutcome(dropped: [drop("Red", .duplicate(of: 0))])
  ),
  FieldCase(
    name: "delete backward with an empty draft removes the last tag",
    events: [.draftChanged("a,b,"), .deletedBackward],
    tags: ["a"],
    draft: "",
    outcome: FieldOutcome(removed: [RemovedTag(index: 1, tag: "b")])
  ),
  FieldCase(
    name: "delete backward twice",
    events: [.draftChanged("a,b,"), .deletedBackward, .deletedBackward],
    tags: [],
    draft: "",
    outcome: FieldOutcome(removed: [RemovedTag(index: 0, tag: "a")])
  ),
  FieldCase(
    name: "delete backward with no tags does nothing",
    events: [.deletedBackward],
    tags: [],
    draft: ""
  ),
  FieldCase(
    name: "delete backward with a draft does nothing",
    events: [.draftChanged("a,b"), .deletedBackward],
    tags: ["a"],
    draft: "b"
  ),
  FieldCase(
    name: "delete backward with a blank draft does nothing",
    events: [.draftChanged("a, \t"), .deletedBackward],
    tags: ["a"],
    draft: "\t"
  ),
  FieldCase(
    name: "remove by index",
    events: [.draftChanged("a,b,c,x"), .tagRemoved(at: 1)],
    tags: ["a", "c"],
    draft: "x",
    outcome: FieldOutcome(removed: [RemovedTag(index: 1, tag: "b")])
  ),
  FieldCase(
    name: "remove by index: first",
    events: [.draftChanged("a,b,c,"), .tagRemoved(at: 0)],
    tags: ["b", "c"],
    draft: "",
    outcome: FieldOutcome(removed: [RemovedTag(index: 0, tag: "a")])
  ),
  FieldCase(
    name: "remove by index: past the end",
    events: [.draftChanged("a,b,"), .tagRemoved(at: 2)],
    tags: ["a", "b"],
    draft: ""
  ),
  FieldCase(
    name: "remove by index: negative",
    events: [.draftChanged("a,b,"), .tagRemoved(at: -1)],
    tags: ["a", "b"],
    draft: ""
  ),
  FieldCase(
    name: "remove by index: huge",
    events: [.draftChanged("a,"), .tagRemoved(at: Int.max)],
    tags: ["a"],
    draft: ""
  ),
  FieldCase(
    name: "remove by value is caseless",
    events: [.draftChanged("Straße,b,"), .tagRemovedMatching("STRASSE")],
    tags: ["b"],
    draft: "",
    outcome: FieldOutcome(removed: [RemovedTag(index: 0, tag: "Straße")])
  ),
  FieldCase(
    name: "remove by value: no match",
    events: [.draftChanged("a,b,"), .tagRemovedMatching("c")],
    tags: ["a", "b"],
    draft: ""
  ),
  FieldCase(
    name: "remove by value: empty text",
    events: [.draftChanged("a,"), .tagRemovedMatching("")],
    tags: ["a"],
    draft: ""
  ),
  FieldCase(
    name: "a removed tag can be added again, at the end",
    events: [.draftChanged("a,b,c,"), .tagRemoved(at: 0), .draftChanged("A,c,")],
    tags: ["b", "c", "A"],
    draft: "",
    outcome: FieldOutcome(added: ["A"], dropped: [drop("c", .duplicate(of: 1))])
  ),
  FieldCase(
    name: "indices shift after a removal",
    events: [.draftChanged("a,b,c,d,"), .tagRemoved(at: 1), .draftChanged("D,C,")],
    tags: ["a", "c", "d"],
    draft: "",
    outcome: FieldOutcome(dropped: [drop("D", .duplicate(of: 2)), drop("C", .duplicate(of: 1))])
  ),
  FieldCase(
    name: "tags added: trimmed, deduplicated, not split; the draft is untouched",
    events: [
      .draftChanged("red,dr"), .tagsAdded([" Green ", "", "RED", "blue,green", "green", "\n"]),
    ],
    tags: ["red", "Green", "blue,green"],
    draft: "dr",
    outcome: FieldOutcome(
      added: ["Green", "blue,green"],
      dropped: [empty, drop("RED", .duplicate(of: 0)), drop("green", .duplicate(of: 1)), empty]
    )
  ),
  FieldCase(
    name: "tags added: none",
    events: [.tagsAdded([])],
    tags: [],
    draft: ""
  ),
]

private let rules: [FieldCase] = [
  FieldCase(
    name: "maxTags",
    rules: FieldRules(maxTags: 2),
    events: [.draftChanged("a,b,c,d,")],
    tags: ["a", "b"],
    draft: "",
    outcome: FieldOutcome(
      added: ["a", "b"],
      dropped: [drop("c", .tooMany(limit: 2)), drop("d", .tooMany(limit: 2))]
    )
  ),
  FieldCase(
    name: "maxTags: duplicate is checked before tooMany",
    rules: FieldRules(maxTags: 2),
    events: [.draftChanged("a,b,A,c,")],
    tags: ["a", "b"],
    draft: "",
    outcome: FieldOutcome(
      added: ["a", "b"],
      dropped: [drop("A", .duplicate(of: 0)), drop("c", .tooMany(limit: 2))]
    )
  ),
  FieldCase(
    name: "maxTags: empty is checked before tooMany",
    rules: FieldRules(maxTags: 0),
    events: [.draftChanged(" ,a,")],
    tags: [],
    draft: "",
    outcome: FieldOutcome(dropped: [empty, drop("a", .tooMany(limit: 0))])
  ),
  FieldCase(
    name: "maxTags: room again after a removal",
    rules: FieldRules(maxTags: 1),
    events: [.draftChanged("a,"), .deletedBackward, .draftChanged("b,")],
    tags: ["b"],
    draft: "",
    outcome: FieldOutcome(added: ["b"])
  ),
  FieldCase(
    name: "maxTags: tags added",
    rules: FieldRules(maxTags: 1),
    events: [.tagsAdded(["a", "b"])],
    tags: ["a"],
    draft: "",
    outcome: FieldOutcome(added: ["a"], dropped: [drop("b", .tooMany(limit: 1))])
  ),
  FieldCase(
    name: "maxTags: negative limit never traps",
    rules: FieldRules(maxTags: -3),
    events: [.draftChanged("a,")],
    tags: [],
    draft: "",
    outcome: FieldOutcome(dropped: [drop("a", .tooMany(limit: -3))])
  ),
  FieldCase(
    name: "maxTagLength counts characters after trimming",
    rules: FieldRules(maxTagLength: 3),
    events: [.draftChanged("abcd,  abc  ,e\u{301}e\u{301}e\u{301},👨‍👩‍👧👍🏽🇫🇷,")],
    tags: ["abc", "e\u{301}e\u{301}e\u{301}", "👨‍👩‍👧👍🏽🇫🇷"],
    draft: "",
    outcome: FieldOutcome(
      added: ["abc", "e\u{301}e\u{301}e\u{301}", "👨‍👩‍👧👍🏽🇫🇷"],
      dropped: [drop("abcd", .tooLong(limit: 3))]
    )
  ),
  FieldCase(
    name: "maxTagLength: tooLong is checked before tooMany",
    rules: FieldRules(maxTags: 1, maxTagLength: 2),
    events: [.draftChanged("a,abc,b,")],
    tags: ["a"],
    draft: "",
    outcome: FieldOutcome(
      added: ["a"],
      dropped: [drop("abc", .tooLong(limit: 2)), drop("b", .tooMany(limit: 1))]
    )
  ),
  FieldCase(
    name: "maxTagLength: tooLong is checked before duplicate",
    rules: FieldRules(maxTagLength: 2),
    events: [.draftChanged("ss,ß,"), .tagsAdded(["SSS"])],
    tags: ["ss"],
    draft: "",
    outcome: FieldOutcome(dropped: [drop("SSS", .tooLong(limit: 2))])
  ),
  FieldCase(
    name: "transform lowercase",
    rules: FieldRules(transform: .lowercase),
    events: [.draftChanged("RED,Green,red,")],
    tags: ["red", "green"],
    draft: "",
    outcome: FieldOutcome(added: ["red", "green"], dropped: [drop("red", .duplicate(of: 0))])
  ),
  FieldCase(
    name: "transform uppercase, then the length check",
    rules: FieldRules(maxTagLength: 1, transform: .uppercase),
    events: [.draftChanged("a,ß,")],
    tags: ["A"],
    draft: "",
    outcome: FieldOutcome(added: ["A"], dropped: [drop("SS", .tooLong(limit: 1))])
  ),
  FieldCase(
    name: "transform does not touch the draft",
    rules: FieldRules(transform: .uppercase),
    events: [.draftChanged("a,b")],
    tags: ["A"],
    draft: "b",
    outcome: FieldOutcome(added: ["A"])
  ),
  FieldCase(
    name: "caseSensitive keeps case variants",
    rules: FieldRules(caseSensitive: true),
    events: [.draftChanged("a,A,a,Straße,STRASSE,")],
    tags: ["a", "A", "Straße", "STRASSE"],
    draft: "",
    outcome: FieldOutcome(
      added: ["a", "A", "Straße", "STRASSE"],
      dropped: [drop("a", .duplicate(of: 0))]
    )
  ),
  FieldCase(
    name: "caseSensitive still uses canonical equivalence",
    rules: FieldRules(caseSensitive: true),
    events: [.draftChanged("\u{E9},e\u{301},")],
    tags: ["\u{E9}"],
    draft: "",
    outcome: FieldOutcome(added: ["\u{E9}"], dropped: [drop("e\u{301}", .duplicate(of: 0))])
  ),
  FieldCase(
    name: "custom separator ; only",
    rules: FieldRules(separators: [";"]),
    events: [.draftChanged("a;b,c;d")],
    tags: ["a", "b,c"],
    draft: "d",
    outcome: FieldOutcome(added: ["a", "b,c"])
  ),
  FieldCase(
    name: "custom separator: newline is then ordinary text",
    rules: FieldRules(separators: [";"]),
    events: [.draftChanged(" a\r\nb,c")],
    tags: [],
    draft: " a\r\nb,c"
  ),
  FieldCase(
    name: "custom separator: newline inside a piece is trimmed only at the ends",
    rules: FieldRules(separators: [";"]),
    events: [.draftChanged("\r\na\nb\r\n;")],
    tags: ["a\nb"],
    draft: "",
    outcome: FieldOutcome(added: ["a\nb"])
  ),
  FieldCase(
    name: "custom separators: tab and comma",
    rules: FieldRules(separators: ["\t", ","]),
    events: [.draftChanged("a\tb,c\t\td")],
    tags: ["a", "b", "c"],
    draft: "d",
    outcome: FieldOutcome(added: ["a", "b", "c"], dropped: [empty])
  ),
  FieldCase(
    name: "custom separators: ; added to the defaults",
    rules: FieldRules(separators: [",", "\n", ";"]),
    events: [.draftChanged("a;b\r\nc,d")],
    tags: ["a", "b", "c"],
    draft: "d",
    outcome: FieldOutcome(added: ["a", "b", "c"])
  ),
  FieldCase(
    name: "custom separators: a non-ASCII separator",
    rules: FieldRules(separators: ["、"]),
    events: [.draftChanged("赤、青、緑")],
    tags: ["赤", "青"],
    draft: "緑",
    outcome: FieldOutcome(added: ["赤", "青"])
  ),
  FieldCase(
    name: "no separators at all",
    rules: FieldRules(separators: []),
    events: [.draftChanged("a,b\nc"), .submitted],
    tags: ["a,b\nc"],
    draft: "",
    outcome: FieldOutcome(added: ["a,b\nc"])
  ),
]

@Suite struct TagFieldTests {
  @Test(arguments: typing + duplicates + commands + rules)
  func rulesTable(_ row: FieldCase) {
    var field = TagField(rules: row.rules)
    var last = FieldOutcome()
    for event in row.events {
      last = field.apply(event)
    }
    #expect(field.tags.map(scalars) == row.tags.map(scalars))
    #expect(scalars(field.draft) == scalars(row.draft))
    #expect(last == row.outcome)
    #expect(field.rules == row.rules)
  }

  @Test func newFieldIsEmpty() {
    let field = TagField()
    #expect(field.tags.isEmpty)
    #expect(field.draft.isEmpty)
    #expect(field.rules == FieldRules())
  }

  @Test func docExample() {
    var field = TagField()
    let outcome = field.apply(.draftChanged("red, green,blue"))
    #expect(field.tags == ["red", "green"])
    #expect(field.draft == "blue")
    #expect(outcome.added == ["red", "green"])
    #expect(!outcome.isEmpty)
  }

  @Test(
    arguments: [
      ("red", 0), ("RED", 0), ("  Red ", 0), ("Straße", 1), ("strasse", 1), ("e\u{301}", 2),
      ("É", 2), ("x", nil), ("", nil), ("   ", nil), ("red,", nil),
    ] as [(String, Int?)]
  )
  func indexOf(text: String, expected: Int?) {
    var field = TagField()
    _ = field.apply(.tagsAdded(["red", "STRASSE", "\u{E9}"]))
    #expect(field.index(of: text) == expected)
  }

  @Test func indexOfFollowsTheRules() {
    var sensitive = TagField(rules: FieldRules(caseSensitive: true))
    _ = sensitive.apply(.tagsAdded(["Red"]))
    #expect(sensitive.index(of: "Red") == 0)
    #expect(sensitive.index(of: "red") == nil)

    var lowered = TagField(rules: FieldRules(caseSensitive: true, transform: .lowercase))
    _ = lowered.apply(.tagsAdded(["Red"]))
    #expect(lowered.tags == ["red"])
    #expect(lowered.index(of: "RED") == 0)
  }

  @Test func equalityIgnoresHistory() {
    var direct = TagField()
    _ = direct.apply(.draftChanged("a,b,x"))
    var roundabout = TagField()
    _ = roundabout.apply(.draftChanged("z,a,q,b,"))
    _ = roundabout.apply(.tagRemovedMatching("z"))
    _ = roundabout.apply(.tagRemoved(at: 1))
    _ = roundabout.apply(.draftChanged("x"))
    #expect(direct == roundabout)
    #expect(direct.hashValue == roundabout.hashValue)
    #expect(direct != TagField())
    #expect(TagField() != TagField(rules: FieldRules(maxTags: 1)))
  }

  @Test func largePaste() {
    let count = 100_000
    var text = ""
    for number in 0..<count {
      text += "Tag\(number),"
    }
    text += "rest"
    var field = TagField()
    let outcome = field.apply(.draftChanged(text))
    #expect(field.tags.count == count)
    #expect(outcome.added.count == count)
    #expect(outcome.dropped.isEmpty)
    #expect(field.draft == "rest")
    #expect(field.tags.first == "Tag0")
    #expect(field.tags.last == "Tag99999")
    #expect(field.index(of: "TAG54321") == 54_321)

    let again = field.apply(.draftChanged(text.lowercased()))
    #expect(again.added.isEmpty)
    #expect(again.dropped.count == count)
    #expect(
      again.dropped.last == DroppedCandidate(text: "tag99999", reason: .duplicate(of: 99_999))
    )
    #expect(field.tags.count == count)
    #expect(field.draft == "rest")
  }
}

/// `tagBytes` follows every addition and removal.
@Test func tagBytesTracksTheTags() {
  var field = TagField()
  var random = SplitMix64(seed: 9)
  let pieces = ["a", "é", "漢字", "😀", "Straße", ",", "\n", " "]
  for _ in 0..<500 {
    switch Int.random(in: 0..<4, using: &random) {
    case 0: _ = field.apply(.deletedBackward)
    case 1: _ = field.apply(.tagRemoved(at: Int.random(in: 0..<4, using: &random)))
    default: _ = field.apply(.draftChanged(field.draft + random.string(from: pieces, maxLength: 6)))
    }
    #expect(field.tagBytes == field.tags.reduce(0) { $0 + $1.utf8.count })
  }
}
