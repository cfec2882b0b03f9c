import TagCore
import Testing

@Suite struct VocabularyTests {
  @Test func readsAllowDenyAndAliases() throws {
    let vocabulary = try Vocabulary.parse(
      """
      # The vault's tags.
      allow = [
        "work",  # a comment
        'Machine-Learning',
        "home",
      ]
      deny = ["misc"]

      [aliases]
      ml = "machine-learning"
      "c++" = 'cpp'

      """
    )
    #expect(vocabulary.allow == ["work", "Machine-Learning", "home"])
    #expect(vocabulary.deny == ["misc"])
    #expect(vocabulary.aliases.map(\.alias) == ["ml", "c++"])
    #expect(vocabulary.tag(forAlias: "ML") == "machine-learning")
    #expect(vocabulary.tag(forAlias: "work") == nil)
    #expect(vocabulary.refusal(of: "WORK") == nil)
    #expect(vocabulary.refusal(of: "machine-learning") == nil)
    #expect(vocabulary.refusal(of: "other") == .notInAllow)
    #expect(vocabulary.refusal(of: "work/x") == .notInAllow)
    #expect(vocabulary.refusal(of: "Misc") == .denied)
  }

  @Test func emptyFileAllowsEverything() throws {
    let vocabulary = try Vocabulary.parse("\u{FEFF}# nothing\r\n\r\n")
    #expect(vocabulary.allow == nil)
    #expect(vocabulary.refusal(of: "anything") == nil)
    #expect(try Vocabulary.parse("allow = []").refusal(of: "x") == .notInAllow)
  }

  struct Bad: CustomTestStringConvertible, Sendable {
    var text: String
    var line: Int
    var message: String
    var testDescription: String { message }
  }

  static let bad: [Bad] = [
    Bad(
      text: "allow = [\"a\"]\ncolour = \"red\"\n",
      line: 1,
      message: "unknown key `colour`: a .tagd.toml has `allow`, `deny` and `[aliases]`"
    ),
    Bad(
      text: "\n[tags]\n",
      line: 1,
      message: "unknown table `[tags]`: a .tagd.toml has `allow`, `deny` and `[aliases]`"
    ),
    Bad(
      text: "allow = \"a\"\n",
      line: 0,
      message: "`allow` must be an array of strings: allow = [\"a\", \"b\"]"
    ),
    Bad(
      text: "deny = [1, 2]\n",
      line: 0,
      message: "`deny` must be an array of strings: deny = [\"a\", \"b\"]"
    ),
    Bad(text: "allow = [\"a\"\n", line: 0, message: "the array's `[` is never closed by `]`"),
    Bad(
      text: "allow = [\n  \"a\"\n  \"b\"]\n",
      line: 2,
      message: "expected `,` or `]` in the array"
    ),
    Bad(text: "deny = []\ndeny = []\n", line: 1, message: "`deny` appears twice (first on line 1)"),
    Bad(
      text: "[aliases]\nml = [\"x\"]\n",
      line: 1,
      message: "the alias `ml` must name its tag as a string: ml = \"tag\""
    ),
    Bad(text: "[aliases]\nML = \"ml\"\n", line: 1, message: "the alias `ML` stands for itself"),
    Bad(
      text: "[aliases]\na = \"b\"\nA = \"c\"\n",
      line: 2,
      message: "`A` is the same alias as `a`"
    ),
    Bad(
      text: "[aliases]\na = \"b\"\nb = \"c\"\n",
      line: 1,
      message: "the alias `a` stands for `b`, which is itself an alias"
    ),
    Bad(
      text: "allow = [\"a\"]\ndeny = [\"A\"]\n",
      line: 1,
      message: "`a` is both allowed and denied"
    ),
    Bad(text: "just words\n", line: 0, message: "expected `key = value`"),
    Bad(
      text: "allow = [\"a\"] extra\n",
      line: 0,
      message: "unexpected `extra` after the tags' value"
    ),
    Bad(text: "allow = [\"\"]\n", line: 0, message: "`allow` holds an empty tag"),
  ]

  @Test(arguments: bad) func errorsNameTheLine(_ c: Bad) {
    #expect(throws: VocabularyError(line: c.line, message: c.message)) {
      try Vocabulary.parse(c.text)
    }
  }

  @Test func errorDescriptionCountsFromOne() {
    #expect(VocabularyError(line: 2, message: "m").description == "line 3: m")
  }
}

@Suite struct TagDiagnosticsTests {
  static func index(_ notes: [(String, String)]) -> VaultIndex {
    var index = VaultIndex()
    for (name, text) in notes {
      index.update(note: name, tags: NoteReader.read(text, kind: .markdown).tags)
    }
    return index
  }

  @Test func theFourCodes() throws {
    let note = "---\ntags: [work, Home, home, ml, misc]\n---\n#Work #work\n"
    let index = Self.index([
      ("a.md", "#work #home"), ("b.md", "#work"), ("c.md", note),
    ])
    let vocabulary = try Vocabulary.parse(
      "deny = [\"misc\"]\n[aliases]\nml = \"machine-learning\"\n"
    )
    let tags = NoteReader.read(note, kind: .markdown).tags
    let found = TagDiagnostics.check(tags, index: index, vocabulary: vocabulary)
    #expect(
      found.map { "\($0.code.rawValue) \($0.tag.text)@\($0.range)" } == [
        "tag-variant Home@17..<21",
        "tag-repeated home@23..<27",
        "tag-alias ml@29..<31",
        "tag-not-allowed misc@33..<37",
        "tag-variant Work@44..<48",
      ]
    )
    #expect(found[0].fix == .useSpelling("home"))
    #expect(found[0].message == "`Home` is spelled `home` in the vault (2 notes)")
    #expect(found[1].fix == .removeRepeat(first: 17..<21))
    #expect(found[1].message == "`home` repeats `Home`, already in this list (line 2)")
    #expect(found[2].fix == .useTag("machine-learning"))
    #expect(found[2].message == "`ml` is an alias of `machine-learning`")
    #expect(found[3].fix == nil)
    #expect(found[3].message == "`misc` is denied by the vault's vocabulary (.tagd.toml)")
    // Inline repeats are no list: `#work` twice is fine.
    #expect(!found.contains { $0.code == .repeated && $0.tag.place == .inline })
  }

  @Test func allowListAndNormalization() throws {
    let vocabulary = try Vocabulary.parse("allow = [\"café\"]\n")
    let note = "#cafe\u{301} #other\n"
    let index = Self.index([("a.md", "#caf\u{E9}"), ("b.md", "#caf\u{E9}"), ("c.md", note)])
    let found = TagDiagnostics.check(
      NoteReader.read(note, kind: .markdown).tags,
      index: index,
      vocabulary: vocabulary
    )
    #expect(found.map(\.code) == [.variant, .notAllowed])
    #expect(found[0].message.contains("differ only in how their characters are composed"))
    #expect(found[1].message == "`other` is not in the vault's allowed tags (.tagd.toml)")
  }

  @Test func noVocabularyNoVariantsNoDiagnostics() {
    let note = "---\ntags: [a, b]\n---\n#c\n"
    let index = Self.index([("a.md", note)])
    #expect(TagDiagnostics.check(NoteReader.read(note, kind: .markdown).tags, index: index).isEmpty)
  }
}
