import TagCore
import Testing

/// The tags `text` reads as, each as `text@line:place`.
func noteTags(_ text: String, _ kind: NoteKind = .markdown) -> [String] {
  NoteReader.read(text, kind: kind).tags.map { "\($0.text)@\($0.line)" }
}

/// Checks that every tag's range holds its text (unquoted items) in `text`.
func rangesHoldText(_ text: String, _ kind: NoteKind) -> Bool {
  let bytes = Array(text.utf8)
  return NoteReader.read(text, kind: kind).tags.allSatisfy { tag in
    String(decoding: bytes[tag.range], as: UTF8.self) == tag.text
  }
}

@Suite struct InlineTagRuleTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var text: String
    var tags: [String]
    var testDescription: String { name }
    init(_ name: String, _ text: String, _ tags: [String]) {
      self.name = name
      self.text = text
      self.tags = tags
    }
  }

  static let cases: [Case] = [
    // Included.
    Case("at line start", "#work\n", ["work@0"]),
    Case("after a space", "a #work b", ["work@0"]),
    Case("after a tab", "a\t#work", ["work@0"]),
    Case("after a no-break space", "a\u{A0}#work", ["work@0"]),
    Case("after an ideographic space", "日本\u{3000}#タグ", ["タグ@0"]),
    Case("letters, digits, _, -, /", "#a_b-c/d9", ["a_b-c/d9@0"]),
    Case("digits with one letter", "#2024a", ["2024a@0"]),
    Case("a non-digit dash", "#1-2", ["1-2@0"]),
    Case("a non-digit slash", "#4/5", ["4/5@0"]),
    Case("marks", "#cafe\u{301}", ["cafe\u{301}@0"]),
    Case("ends at punctuation", "I like #swift.", ["swift@0"]),
    Case("ends at a comma", "#a,#b", ["a@0"]),
    Case("ends at emoji", "#party🎉", ["party@0"]),
    Case("in a heading's text", "# Title #tag\n", ["tag@0"]),
    Case("in a list item", "- #todo item\n", ["todo@0"]),
    Case("several lines", "#a\n#b\r\n#c\r#d", ["a@0", "b@1", "c@2", "d@3"]),
    Case("unclosed backtick is text", "`a #b", ["b@0"]),
    Case("escaped backtick opens nothing", "\\`a #b` #c", ["b@0", "c@0"]),
    Case("after a code span", "`x` #y", ["y@0"]),
    Case("code span needs equal runs", "``a ` #b`` #c", ["c@0"]),
    Case("code span not across a blank line", "`a\n\n#b`", ["b@2"]),
    Case("after a fence closes", "```\n#a\n```\n#b", ["b@3"]),
    Case("tilde fence", "~~~\n#a\n~~~\n#b", ["b@3"]),
    Case("indented fence", "- x\n    ```\n    #a\n    ```\n#b", ["b@4"]),
    Case("nested a/b", "#a/b #a", ["a/b@0", "a@0"]),
    Case("BOM then tag", "\u{FEFF}#bom", ["bom@0"]),
    Case("uppercase", "#Work #WORK", ["Work@0", "WORK@0"]),
    // Excluded.
    Case("heading", "# Heading\n## Sub\n", []),
    Case("# alone", "#\n# \n", []),
    Case("all digits", "#123 #45. #٣", []),
    Case("after a letter", "a#b", []),
    Case("HTML entity", "&#123; &#x27;", []),
    Case("escaped", "\\#nope", []),
    Case("URL fragment", "see https://x.org/page#frag and (#anchor)", []),
    Case("inline code", "`#code` and `` #two ``", []),
    Case("inline code over lines", "`a\n#b`", []),
    Case("fenced code", "```\n#a\n```\n", []),
    Case("fenced with info", "```swift\n#a\n```", []),
    Case("longer closing needed", "````\n#a\n```\n#b\n````\n", []),
    Case("tilde not closed by backticks", "~~~\n#a\n```\n#b\n", []),
    Case("unclosed fence runs to the end", "```\n#a\n\n#b\n", []),
    Case("after punctuation", "(#a) [#b] \"#c\" '#d' >#e", []),
  ]

  @Test(arguments: cases) func rule(_ c: Case) {
    #expect(noteTags(c.text) == c.tags)
    #expect(rangesHoldText(c.text, .markdown))
  }

  @Test func orgBodiesHaveNoInlineTags() {
    #expect(noteTags("Some #text here\n#tag\n", .org) == [])
  }

  @Test func inlineAlphabet() {
    #expect(InlineTags.canHold("a/b-c_d"))
    #expect(InlineTags.canHold("café"))
    #expect(!InlineTags.canHold("123"))
    #expect(!InlineTags.canHold("a b"))
    #expect(!InlineTags.canHold("a.b"))
    #expect(!InlineTags.canHold(""))
  }
}

/// Org heading tags: `:a:b:` at a heading's end holds Org's tag characters
/// (`[[:alnum:]_@#%]`, a letter's combining marks included), as Emacs reads them.
@Suite struct OrgHeadingTagRuleTests {
  static let cases: [InlineTagRuleTests.Case] = [
    // Included.
    .init("one tag", "* H :work:\n", ["work@0"]),
    .init("two tags", "* H :a:b:\n", ["a@0", "b@0"]),
    .init("precomposed", "* H :caf\u{E9}:\n", ["caf\u{E9}@0"]),
    .init("decomposed (a combining mark)", "* H :cafe\u{301}:\n", ["cafe\u{301}@0"]),
    .init("marks beside other tags", "* H :a:n\u{303}o:b:\n", ["a@0", "n\u{303}o@0", "b@0"]),
    .init("a spacing mark (Devanagari)", "* H :\u{915}\u{93E}:\n", ["\u{915}\u{93E}@0"]),
    .init("a letter number", "* H :\u{216B}:\n", ["\u{216B}@0"]),
    .init("_ @ # %", "* H :a_b:@home:#x:50%:\n", ["a_b@0", "@home@0", "#x@0", "50%@0"]),
    .init("digits", "* H :2024:\n", ["2024@0"]),
    .init("sub-heading, CRLF", "** TODO H :x:\r\n", ["x@0"]),
    // Excluded: the group is text when any character is not an Org tag's.
    .init("a dash", "* H :a-b:\n", []),
    .init("a slash", "* H :a/b:\n", []),
    .init("a dot", "* H :a.b:\n", []),
    .init("an emoji", "* H :party\u{1F389}:\n", []),
    .init("no blank before", "* H:a:\n", []),
    .init("not a heading", "*bold* :a:\n", []),
    .init("colons only", "* H :::\n", []),
  ]

  @Test(arguments: cases) func rule(_ c: InlineTagRuleTests.Case) {
    #expect(noteTags(c.text, .org) == c.tags)
    #expect(rangesHoldText(c.text, .org))
  }

  @Test func renamesIntoADecomposedOrgTag() throws {
    let text = DocumentText("* H :a:\n")
    let plan = try NoteRename.plan(text, kind: .org, from: "a", to: "cafe\u{301}")
    #expect(plan.renamed == 1)
    #expect(throws: RenameError.self) {
      try NoteRename.plan(text, kind: .org, from: "a", to: "party\u{1F389}")
    }
  }
}

/// A note's title (`vault/notes`): front matter `title`, else the first `# ` heading; Org's
/// `#+TITLE:`.
@Suite struct NoteTitleTests {
  static let cases: [(String, NoteKind, String?)] = [
    ("---\ntitle: Plain\n---\n# Heading\n", .markdown, "Plain"),
    ("---\ntitle: '#quoted: yes'\ntags: [a]\n---\n", .markdown, "#quoted: yes"),
    ("+++\ntitle = \"TOML\"\n+++\n", .markdown, "TOML"),
    ("---\ntitle: [a, b]\n---\n# Heading\n", .markdown, "Heading"),
    ("---\ntitle: ''\n---\n# Heading\n", .markdown, "Heading"),
    ("---\ntags: [a]\n---\nText\n  #   Spaced out   \n", .markdown, "Spaced out"),
    ("# Closed ##\n", .markdown, "Closed"),
    ("# C# and F#\n", .markdown, "C# and F#"),
    ("# Title #tag\r\n", .markdown, "Title #tag"),
    ("```\n# code\n```\n# After\n", .markdown, "After"),
    ("#\n# \n#tag\n## Two\n    # Indented code\n", .markdown, nil),
    ("", .markdown, nil),
    ("#+title:  Org title \n* H :a:\n", .org, "Org title"),
    ("#+FILETAGS: :a:\n#+TITLE: Later\n", .org, "Later"),
    ("* H\n#+TITLE:\n", .org, nil),
    ("# Not Org\n", .org, nil),
  ]

  @Test func titles() {
    for (text, kind, title) in Self.cases {
      #expect(
        NoteReader.read(text, kind: kind, title: true).title == title,
        "\(text.debugDescription)"
      )
      #expect(NoteReader.read(text, kind: kind).title == nil, "only when asked")
    }
  }
}

@Suite struct NoteReaderTests {
  @Test func yamlFlowFrontMatterThenBody() {
    let text = "---\ntitle: '#not'\ntags: [a, 'b c', \"d\"]\n---\n#e `#f`\n"
    let reading = NoteReader.read(text, kind: .markdown)
    #expect(reading.problem == nil)
    #expect(reading.tags.map(\.text) == ["a", "b c", "d", "e"])
    #expect(reading.tags.map(\.line) == [2, 2, 2, 4])
    #expect(
      reading.tags.map(\.place) == [
        .yamlFrontMatter, .yamlFrontMatter, .yamlFrontMatter, .inline,
      ]
    )
    #expect(reading.tags.map(\.list) == [0, 0, 0, nil])
    #expect(rangesHoldText(text, .markdown))
  }

  @Test func yamlBlockFrontMatter() {
    let text = "---\ntags:\n  - yes\n  - 'null'\n  -\n  - \"1.0\"\n---\n"
    let reading = NoteReader.read(text, kind: .markdown)
    #expect(reading.tags.map(\.text) == ["yes", "null", "1.0"])
    #expect(reading.tags.map(\.line) == [2, 3, 5])
    #expect(rangesHoldText(text, .markdown))
  }

  @Test func tomlFrontMatter() {
    let text = "+++\ntitle = \"#x\"\ntags = [\"a\", 'b']\n+++\n#c\n"
    let reading = NoteReader.read(text, kind: .markdown)
    #expect(reading.tags.map(\.text) == ["a", "b", "c"])
    #expect(reading.tags.map(\.place) == [.tomlFrontMatter, .tomlFrontMatter, .inline])
    #expect(reading.tags.map(\.line) == [2, 2, 4])
  }

  @Test func frontMatterOtherKeysAreNotInlineTags() {
    #expect(noteTags("---\ntitle: x\ndescription: about #stuff\n---\nbody\n") == [])
  }

  @Test func malformedFrontMatterKeepsInlineTags() {
    let reading = NoteReader.read("---\ntags: [a\n---\n#b\n", kind: .markdown)
    #expect(reading.problem != nil)
    #expect(reading.tags.map(\.text) == ["b"])
    #expect(reading.tags.map(\.line) == [3])
  }

  @Test func unclosedFrontMatterIsReportedAndReadAsBody() {
    let reading = NoteReader.read("---\n#a\n", kind: .markdown)
    #expect(reading.problem != nil)
    #expect(reading.tags.map(\.text) == ["a"])
  }

  @Test func crlfAndBOMFrontMatter() {
    let text = "\u{FEFF}---\r\ntags: [x, y]\r\n---\r\n#z\r\n"
    #expect(noteTags(text) == ["x@1", "y@1", "z@3"])
    #expect(rangesHoldText(text, .markdown))
  }

  @Test func orgHeadingsAndFiletags() {
    let text = """
      #+TITLE: x
      #+FILETAGS: :project:home:
      * Heading one                                                    :work:urgent:
      Body #not :not:
      ** TODO Sub :a_b:@home:
      * No tags
      *bold* not a heading :x:

      """
    let reading = NoteReader.read(text, kind: .org)
    #expect(reading.tags.map(\.text) == ["project", "home", "work", "urgent", "a_b", "@home"])
    #expect(reading.tags.map(\.line) == [1, 1, 2, 2, 4, 4])
    #expect(
      reading.tags.map(\.place) == [
        .orgFiletags, .orgFiletags, .orgHeading, .orgHeading, .orgHeading, .orgHeading,
      ]
    )
    #expect(reading.tags.map(\.list) == [0, 0, 1, 1, 2, 2])
    #expect(rangesHoldText(text, .org))
  }

  @Test func noteKinds() {
    #expect(NoteKind(fileName: "a.md") == .markdown)
    #expect(NoteKind(fileName: "dir/a.markdown") == .markdown)
    #expect(NoteKind(fileName: "a.org") == .org)
    #expect(NoteKind(fileName: "a.txt") == nil)
    #expect(NoteKind(fileName: "md") == nil)
  }
}
