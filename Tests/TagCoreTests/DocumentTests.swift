import TagCore
import TagTestSupport
import Testing

/// Applies `edits` (UTF-8 ranges of `text`, last first) one after another.
func applying(_ edits: [DocumentEdit], to text: String) -> String {
  var bytes = Array(text.utf8)
  var previous = Int.max
  for edit in edits {
    precondition(edit.range.upperBound <= previous, "edits overlap or are not last first")
    previous = edit.range.lowerBound
    bytes.replaceSubrange(edit.range, with: Array(edit.newText.utf8))
  }
  return String(decoding: bytes, as: UTF8.self)
}

/// Sets `tags` in `text` and returns the new text.
func setting(
  _ tags: [String],
  in text: String,
  format: DocumentFormat? = nil,
  key: String = "tags",
  line: Int? = nil
) throws -> String {
  applying(
    try Document.setTags(tags, in: text, format: format, key: key, line: line).edits,
    to: text
  )
}

func read(
  _ text: String,
  format: DocumentFormat? = nil,
  key: String = "tags",
  line: Int? = nil
)
  throws -> [String]
{
  try Document.tags(in: text, format: format, key: key, line: line).tags
}

@Suite struct DocumentReadTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var text: String
    var tags: [String]
    var format: DocumentFormat
    var line: Int?
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "Jekyll flow list",
      text: "---\nlayout: post\ntitle: \"Hello: world\"\ntags: [swift, yaml]\n---\nBody\n",
      tags: ["swift", "yaml"],
      format: .yaml
    ),
    Case(
      name: "Jekyll block list, no indentation",
      text: "---\ntitle: Post\ntags:\n- swift\n- yaml\ndate: 2024-01-02\n---\n",
      tags: ["swift", "yaml"],
      format: .yaml
    ),
    Case(
      name: "Obsidian block list, indented, with comments",
      text:
        "---\naliases: []\ntags:   # topics\n  # first\n  - project/alpha\n  - \"to do\"\n\n  - 'it''s'\ncssclass: wide\n---\n# Note\n",
      tags: ["project/alpha", "to do", "it's"],
      format: .yaml
    ),
    Case(
      name: "flow list over several lines",
      text: "---\ntags: [a,\n  b, # why\n  \"c d\",\n]\n---\n",
      tags: ["a", "b", "c d"],
      format: .yaml
    ),
    Case(
      name: "double-quoted escapes",
      text:
        "---\ntags: [\"a\\tb\", \"line\\nbreak\", \"q\\\"\\\\\", \"\\u00e9\\x41\\U0001F600\", \"\\_\\N\\L\\P\\/\\0\\e\\ \"]\n---\n",
      tags: ["a\tb", "line\nbreak", "q\"\\", "éA😀", "\u{A0}\u{85}\u{2028}\u{2029}/\0\u{1B} "],
      format: .yaml
    ),
    Case(
      name: "plain items that other schemas read as non-strings keep their text; nulls are no tags",
      text: "---\ntags:\n  - 1\n  - yes\n  - null\n  - ~\n  -\n  - 2024-01-02\n  - 1.0\n---\n",
      tags: ["1", "yes", "2024-01-02", "1.0"],
      format: .yaml
    ),
    Case(
      name: "a scalar is one tag",
      text: "---\ntags: a, b\n---\n",
      tags: ["a, b"],
      format: .yaml
    ),
    Case(name: "an empty value", text: "---\ntags:\ntitle: x\n---\n", tags: [], format: .yaml),
    Case(name: "null scalar", text: "---\ntags: ~\n---\n", tags: [], format: .yaml),
    Case(
      name: "CRLF and a byte order mark",
      text: "\u{FEFF}---\r\ntitle: x\r\ntags:\r\n  - a\r\n  - b c\r\n...\r\nbody\r\n",
      tags: ["a", "b c"],
      format: .yaml
    ),
    Case(
      name: "folded plain and quoted scalars",
      text: "---\ntags:\n  - one\n    two\n  - 'three\n\n    four'\n  - \"five\\\n    six\"\n---\n",
      tags: ["one two", "three\nfour", "fivesix"],
      format: .yaml
    ),
    Case(
      name: "plain scalars with inner indicators",
      text: "---\ntags: [a#b, c-d, \"e: f\", x'y, -z]\n---\n",
      tags: ["a#b", "c-d", "e: f", "x'y", "-z"],
      format: .yaml
    ),
    Case(
      name:
        "Hugo YAML with a quoted key, trailing blanks on the fences and a comment after the list",
      text:
        "--- \ntitle: \"Hugo\"\ndraft: false\n\"tags\": [ hugo , 'static site' ]  # seo\ncategories:\n  - web\n---  \n",
      tags: ["hugo", "static site"],
      format: .yaml
    ),
    Case(
      name: "Obsidian inline tags with slashes and emoji, a quoted scalar",
      text: "---\ntags: \"#inbox 📥\"\n---\n",
      tags: ["#inbox 📥"],
      format: .yaml
    ),
    Case(
      name: "Obsidian list after comment lines, items at column 0",
      text: "---\ntags:\n# why\n\n- inbox\n- area/home  \npublish: true\n---\n",
      tags: ["inbox", "area/home"],
      format: .yaml
    ),
    Case(
      name: "flow list on the line after the key",
      text: "---\ntags:\n  [a, 'b']\n---\n",
      tags: ["a", "b"],
      format: .yaml
    ),
    Case(
      name: "Zola TOML with CRLF, a quoted key and taxonomies after",
      text:
        "+++\r\ntitle = \"Zola\"\r\n\"tags\" = ['a', \"b\\\"c\"]\r\n\r\n[taxonomies]\r\ncategories = [\"x\"]\r\n+++\r\n",
      tags: ["a", "b\"c"],
      format: .toml
    ),
    Case(name: "no front matter", text: "# Title\n\ntext\n", tags: [], format: .yaml),
    Case(
      name: "Hugo TOML",
      text:
        "+++\ntitle = \"Post\"\ntags = [\"a\", 'b\\c', \"\\u00e9\\t\"]\n[params]\ntags = [\"no\"]\n+++\n",
      tags: ["a", "b\\c", "é\t"],
      format: .toml
    ),
    Case(
      name: "Zola TOML over several lines",
      text:
        "+++\ntitle = \"x\"\ntags = [\n  \"rust\", # lang\n  \"web\",\n]\n\n[taxonomies]\n+++\n",
      tags: ["rust", "web"],
      format: .toml
    ),
    Case(
      name: "Org heading",
      text: "#+TITLE: x\n* TODO Write the post                                    :blog:draft:\n",
      tags: ["blog", "draft"],
      format: .orgHeading,
      line: 1
    ),
    Case(
      name: "Org heading without tags",
      text: "** Notes\n",
      tags: [],
      format: .orgHeading,
      line: 0
    ),
    Case(
      name: "Org heading with a colon in the title",
      text: "* Time 10:30 :a:\n",
      tags: ["a"],
      format: .orgHeading,
      line: 0
    ),
    Case(
      name: "Org file tags",
      text: "#+TITLE: Notes\n#+filetags: :work:home:\n* A\n",
      tags: ["work", "home"],
      format: .orgFiletags
    ),
    Case(
      name: "Org file tags space-separated",
      text: "#+FILETAGS: work home\n",
      tags: ["work", "home"],
      format: .orgFiletags
    ),
  ]

  @Test(arguments: cases) func reads(_ c: Case) throws {
    let found = try Document.tags(in: c.text, line: c.line)
    #expect(found.tags == c.tags)
    #expect(found.format == c.format)
    // Setting the tags a document has changes nothing.
    #expect(try Document.setTags(c.tags, in: c.text, line: c.line).edits == [])
  }
}

@Suite struct DocumentWriteTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var text: String
    var tags: [String]
    var expected: String
    var format: DocumentFormat? = nil
    var line: Int? = nil
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "flow: one tag replaced (written plain: it needs no quotes), the rest byte for byte",
      text: "---\ntitle: x # keep\ntags: [a,   'b', \"c\"]   # mine\n---\nBody\n",
      tags: ["a", "B", "c"],
      expected: "---\ntitle: x # keep\ntags: [a,   B, \"c\"]   # mine\n---\nBody\n"
    ),
    Case(
      name: "flow: appended with the list's own separator",
      text: "---\ntags: [a,b]\n---\n",
      tags: ["a", "b", "c"],
      expected: "---\ntags: [a,b,c]\n---\n"
    ),
    Case(
      name: "flow: inserted first",
      text: "---\ntags: [a, b]\n---\n",
      tags: ["z", "a", "b"],
      expected: "---\ntags: [z, a, b]\n---\n"
    ),
    Case(
      name: "flow: removed first and last",
      text: "---\ntags: [a, b, c]\n---\n",
      tags: ["b"],
      expected: "---\ntags: [b]\n---\n"
    ),
    Case(
      name: "flow over lines: the separator with its line break and indentation",
      text: "---\ntags: [\n  a,\n  b,\n]\n---\n",
      tags: ["a", "b", "new one"],
      expected: "---\ntags: [\n  a,\n  b,\n  new one,\n]\n---\n"
    ),
    Case(
      name: "flow: emptied",
      text: "---\ntags: [a, b]\n---\n",
      tags: [],
      expected: "---\ntags: []\n---\n"
    ),
    Case(
      name: "flow: filled from empty",
      text: "---\ntags: []\n---\n",
      tags: ["yes", "x"],
      expected: "---\ntags: ['yes', x]\n---\n"
    ),
    Case(
      name: "block: indentation kept, one line added",
      text: "---\ntags:\n    - a   # first\n    - b\nnext: 1\n---\n",
      tags: ["a", "b", "c"],
      expected: "---\ntags:\n    - a   # first\n    - b\n    - c\nnext: 1\n---\n"
    ),
    Case(
      name: "block at column 0: a line removed",
      text: "---\ntags:\n- a\n- b\n- c\n---\n",
      tags: ["a", "c"],
      expected: "---\ntags:\n- a\n- c\n---\n"
    ),
    Case(
      name: "block: emptied keeps the key's comment",
      text: "---\ntags: # topics\n  - a\n  - b\ntitle: t\n---\n",
      tags: [],
      expected: "---\ntags: [] # topics\ntitle: t\n---\n"
    ),
    Case(
      name: "block with CRLF: new lines end in CRLF",
      text: "---\r\ntags:\r\n  - a\r\n---\r\n",
      tags: ["a", "b"],
      expected: "---\r\ntags:\r\n  - a\r\n  - b\r\n---\r\n"
    ),
    Case(
      name: "empty value gets a block list",
      text: "---\ntags:\ntitle: t\n---\n",
      tags: ["a", "b"],
      expected: "---\ntags:\n  - a\n  - b\ntitle: t\n---\n"
    ),
    Case(
      name: "scalar stays a scalar for one tag",
      text: "---\ntags: a, b\n---\n",
      tags: ["c: d"],
      expected: "---\ntags: 'c: d'\n---\n"
    ),
    Case(
      name: "scalar becomes a flow list for two",
      text: "---\ntags: a\n---\n",
      tags: ["a", "b"],
      expected: "---\ntags: [a, b]\n---\n"
    ),
    Case(
      name: "key added before the closing line",
      text: "---\ntitle: t\n...\nBody\n",
      tags: ["a"],
      expected: "---\ntitle: t\ntags:\n  - a\n...\nBody\n"
    ),
    Case(
      name: "front matter inserted after a byte order mark, with the text's CRLF",
      text: "\u{FEFF}# Title\r\n",
      tags: ["a"],
      expected: "\u{FEFF}---\r\ntags:\r\n  - a\r\n---\r\n# Title\r\n"
    ),
    Case(
      name: "no tags, no front matter: nothing to do",
      text: "Body\n",
      tags: [],
      expected: "Body\n"
    ),
    Case(
      name: "TOML: appended, literal strings kept",
      text: "+++\ntags = ['a', 'b']\n+++\n",
      tags: ["a", "b", "c"],
      expected: "+++\ntags = ['a', 'b', \"c\"]\n+++\n"
    ),
    Case(
      name: "TOML: key added before the first table",
      text: "+++\ntitle = \"t\"\n[extra]\ntags = 1\n+++\n",
      tags: ["a\\b"],
      expected: "+++\ntitle = \"t\"\ntags = [\"a\\\\b\"]\n[extra]\ntags = 1\n+++\n"
    ),
    Case(
      name: "TOML: front matter inserted",
      text: "Body\n",
      tags: ["a"],
      expected: "+++\ntags = [\"a\"]\n+++\nBody\n",
      format: .toml
    ),
    Case(
      name: "Org: tags stay right-aligned to their column",
      text: "* TODO Write                                                          :a:\n",
      tags: ["a", "longer"],
      expected: "* TODO Write                                                   :a:longer:\n",
      line: 0
    ),
    Case(
      name: "Org: a heading without tags gets them at column 77",
      text: "** Notes  \nbody\n",
      tags: ["x"],
      expected: "** Notes" + String(repeating: " ", count: 66) + ":x:\nbody\n",
      line: 0
    ),
    Case(
      name: "Org: at least one space when the title is long",
      text: "* " + String(repeating: "w", count: 80) + " :a:\n",
      tags: ["b"],
      expected: "* " + String(repeating: "w", count: 80) + " :b:\n",
      line: 0
    ),
    Case(
      name: "Org: wide characters count two columns",
      text: "* 中文 :a:\n",
      tags: ["bb"],
      expected: "* 中文 :bb:\n",
      line: 0
    ),
    Case(
      name: "Org: tags removed with the blanks before them",
      text: "* Title     :a:b:\n",
      tags: [],
      expected: "* Title\n",
      line: 0
    ),
    Case(
      name: "Org file tags: the colon form",
      text: "#+title: t\n#+FILETAGS: :a:\n",
      tags: ["a", "b"],
      expected: "#+title: t\n#+FILETAGS: :a:b:\n"
    ),
    Case(
      name: "Org file tags: the space form stays",
      text: "#+FILETAGS: a b\n",
      tags: ["a", "c"],
      expected: "#+FILETAGS: a c\n"
    ),
    Case(
      name: "Org file tags: inserted after the leading # lines",
      text: "# -*- mode: org -*-\n#+TITLE: t\n\n* H\n",
      tags: ["x", "y"],
      expected: "# -*- mode: org -*-\n#+TITLE: t\n#+FILETAGS: :x:y:\n\n* H\n",
      format: .orgFiletags
    ),
    Case(
      name: "Org file tags: after a last line without a line break, none is added at the end",
      text: "#+TITLE: t",
      tags: ["x"],
      expected: "#+TITLE: t\n#+FILETAGS: :x:",
      format: .orgFiletags
    ),
    Case(
      name: "YAML: a tag written into a null item stays apart from its comment",
      text: "---\ntags:\n  - # none yet\n  - a\n---\n",
      tags: ["x", "a"],
      expected: "---\ntags:\n  - x # none yet\n  - a\n---\n"
    ),
    Case(
      name: "YAML: a tag written into a bare `-` gets its space",
      text: "---\ntags:\n  -\n  - a\n---\n",
      tags: ["x", "a"],
      expected: "---\ntags:\n  - x\n  - a\n---\n"
    ),
  ]

  @Test(arguments: cases) func writes(_ c: Case) throws {
    let result = try setting(c.tags, in: c.text, format: c.format, line: c.line)
    #expect(result == c.expected)
    #expect(try read(result, format: c.format, line: c.line) == c.tags)
    // Setting them again changes nothing.
    #expect(try Document.setTags(c.tags, in: result, format: c.format, line: c.line).edits == [])
  }

  /// Edits touch only bytes that change: each edit's text differs from what it replaces at
  /// both ends.
  @Test func editsAreMinimal() throws {
    let text = "---\ntags: [alpha, beta, gamma]\n---\n"
    let edits = try Document.setTags(["alpha", "betas", "gamma"], in: text).edits
    #expect(edits == [DocumentEdit(range: 22..<22, newText: "s")])
    let two = try Document.setTags(["Alpha", "beta", "Gamma"], in: text).edits
    #expect(
      two == [
        DocumentEdit(range: 24..<25, newText: "G"), DocumentEdit(range: 11..<12, newText: "A"),
      ]
    )
  }

  @Test func positionsCountTheNegotiatedUnits() {
    let text = "\u{FEFF}a😀\r\nb"
    let ends = [0, 3, 4, 8, 10, 11]
    #expect(
      Document.positions(of: ends, in: DocumentText(text), encoding: .utf16).map {
        [$0.line, $0.character]
      }
        == [[0, 0], [0, 1], [0, 2], [0, 4], [1, 0], [1, 1]]
    )
    #expect(
      Document.positions(of: ends, in: DocumentText(text), encoding: .utf8).map {
        [$0.line, $0.character]
      }
        == [[0, 0], [0, 3], [0, 4], [0, 8], [1, 0], [1, 1]]
    )
    #expect(
      Document.positions(of: ends.reversed(), in: DocumentText(text), encoding: .utf32).map {
        [$0.line, $0.character]
      }
        == [[1, 1], [1, 0], [0, 3], [0, 2], [0, 1], [0, 0]]
    )
  }
}

@Suite struct DocumentQuotingTests {
  /// The brief's list: each written plain only when both YAML versions read it as that string.
  @Test func quotesWhatNeedsQuoting() {
    let plain = [
      "a", "two words", "a#b", "c-d", "x'y", "it's", "emoji😀", "中文", "a,b", "3d-print", "C++",
    ]
    for tag in plain { #expect(YAMLQuotingProbe.block(tag) == tag, "\(tag)") }
    let single = [
      "yes", "no", "on", "off", "y", "n", "true", "null", "~", "1.0", "0x1F", "0o17", "1_000",
      ".inf",
      ".nan", "2024-01-02", "12:30", "a: b", "#x", "a #b", "-x", "- x", "[x]", "{y}", "*x", "&x",
      "!x",
      "%x", "@x", "`x`", "'q", "\"q", "?x", "|", ">", " lead", "trail ", "",
    ]
    for tag in single { #expect(YAMLQuotingProbe.block(tag).first == "'", "\(tag)") }
    #expect(YAMLQuotingProbe.block("'q") == "'''q'")
    #expect(YAMLQuotingProbe.block("a\tb") == "\"a\\tb\"")
    #expect(YAMLQuotingProbe.block("l\nm\\\"") == "\"l\\nm\\\\\\\"\"")
    #expect(YAMLQuotingProbe.block("\u{85}\u{7F}\u{2028}") == "\"\\x85\\x7F\\u2028\"")
    #expect(YAMLQuotingProbe.flow("a,b") == "'a,b'")
    #expect(YAMLQuotingProbe.flow("a?b") == "'a?b'")
  }
}

/// Reaches the quoting rule through the public API: the text tagd writes for one tag.
enum YAMLQuotingProbe {
  static func block(_ tag: String) -> String {
    guard let text = try? setting([tag], in: "---\ntags:\n- x\n---\n") else { return "<error>" }
    return String(text.dropFirst("---\ntags:\n- ".count).dropLast("\n---\n".count))
  }
  static func flow(_ tag: String) -> String {
    guard let text = try? setting([tag], in: "---\ntags: [x]\n---\n") else { return "<error>" }
    return String(text.dropFirst("---\ntags: [".count).dropLast("]\n---\n".count))
  }
}

@Suite struct DocumentErrorTests {
  static let indented =
    "the front matter's keys are indented; tagd reads and writes front matter whose keys start their line"

  struct Case: CustomTestStringConvertible, Sendable {
    var text: String
    var error: DocumentError
    var tags: [String] = ["a"]
    var format: DocumentFormat? = nil
    var line: Int? = nil
    var testDescription: String { "\(error)" }
  }

  static let cases: [Case] = [
    Case(
      text: "---\ntags: [a\n",
      error: .malformed(
        line: 0,
        problem: "the front matter opened by `---` is never closed by a `---` or `...` line"
      )
    ),
    Case(
      text: "---\ntags: [a, b\n---\n",
      error: .malformed(line: 1, problem: "the list's `[` is never closed by `]`")
    ),
    Case(
      text: "---\ntitle\ntags: [a]\n---\n",
      error: .malformed(line: 1, problem: "expected `key: value`")
    ),
    // Keys all indented: read as nothing and written at column 0, the result would not parse.
    Case(
      text: "---\n  tags: [a]\n---\n",
      error: .malformed(line: 1, problem: Self.indented)
    ),
    Case(
      text: "---\n# notes\n\n  title: x\n  tags: [a]\n---\nbody\n",
      error: .malformed(line: 3, problem: Self.indented)
    ),
    Case(
      text: "---\ntags: [a]\ntags: [b]\n---\n",
      error: .malformed(line: 2, problem: "`tags` appears twice (first on line 1)")
    ),
    Case(
      text: "---\ntags:\n  - [a]\n---\n",
      error: .malformed(line: 2, problem: "an item is a list, not a tag")
    ),
    Case(
      text: "---\ntags: [a: b]\n---\n",
      error: .malformed(line: 1, problem: "`: ` makes this a mapping, not a tag; quote the tag")
    ),
    Case(
      text: "---\ntags: {a: b}\n---\n",
      error: .malformed(line: 1, problem: "the tags' value is a mapping, not a list")
    ),
    Case(
      text: "---\ntags: [\"a\\q\"]\n---\n",
      error: .malformed(line: 1, problem: "unknown escape `\\q` in a double-quoted string")
    ),
    Case(
      text: "---\ntags: [\"\\uD800\"]\n---\n",
      error: .malformed(line: 1, problem: "`\\u` names no character (a surrogate or past U+10FFFF)")
    ),
    Case(
      text: "---\ntags: ['a\n---\n",
      error: .malformed(line: 1, problem: "the single-quoted string is not closed")
    ),
    Case(
      text: "---\ntags: *x\n---\n",
      error: .malformed(
        line: 1,
        problem: "anchors, aliases and tags (`&`, `*`, `!`) are not supported in the tags' value"
      )
    ),
    Case(
      text: "---\ntags: [a] b\n---\n",
      error: .malformed(line: 1, problem: "unexpected `b` after the tags' value")
    ),
    Case(
      text: "+++\ntags = [\"a\"\n+++\n",
      error: .malformed(line: 1, problem: "the array's `[` is never closed by `]`")
    ),
    Case(
      text: "+++\ntags = [[\"a\"]]\n+++\n",
      error: .malformed(line: 1, problem: "an item is an array, not a tag")
    ),
    Case(
      text: "+++\ntags = \"\"\"a\"\"\"\n+++\n",
      error: .malformed(line: 1, problem: "multi-line strings are not supported in the tags' value")
    ),
    Case(
      text: "+++\ntags = [\"a\"]\n",
      error: .malformed(
        line: 0,
        problem: "the front matter opened by `+++` is never closed by a `+++` line"
      )
    ),
    Case(text: "---\n---\n", error: .otherFrontMatter(found: .yaml, asked: .toml), format: .toml),
    Case(text: "* H\ntext\n", error: .notAHeading(line: 1), line: 1),
    Case(text: "*bold*\n", error: .notAHeading(line: 0), line: 0),
    Case(text: "* H\n", error: .lineOutOfRange(line: 5, lineCount: 2), line: 5),
    Case(
      text: "* H\n",
      error: .notAnOrgTag("two words", index: 1),
      tags: ["ok", "two words"],
      line: 0
    ),
    Case(text: "* H\n", error: .notAnOrgTag("a-b", index: 0), tags: ["a-b"], line: 0),
    Case(text: "* H\n", error: .notAnOrgTag("a:b", index: 0), tags: ["a:b"], line: 0),
    Case(text: "#+FILETAGS: :a:\n", error: .notAnOrgTag("", index: 0), tags: [""]),
  ]

  @Test(arguments: cases) func refuses(_ c: Case) {
    #expect(throws: c.error) {
      _ = try Document.setTags(c.tags, in: c.text, format: c.format, line: c.line)
    }
    if case .notAnOrgTag = c.error { return }
    #expect(throws: c.error) { _ = try Document.tags(in: c.text, format: c.format, line: c.line) }
  }

  @Test func orgTagsHoldLettersDigitsAndFourMarks() throws {
    #expect(
      try setting(["été", "a_1", "@home", "#x", "50%", "日本"], in: "* H\n", line: 0).hasSuffix(
        ":été:a_1:@home:#x:50%:日本:\n"
      )
    )
  }
}

/// Positions found from their own line's start (`allOnLine`, an Org heading's edits) are the
/// positions found by counting every line before them, in every encoding.
@Test func positionsOnAKnownLineAreThePositionsCounted() {
  var random = SplitMix64(seed: 46)
  let pieces = ["a", " ", "é", "日", "😀", "\n", "\r\n", "\r", "\t", ":x:"]
  for _ in 0..<500 {
    let count = Int.random(in: 0...30, using: &random)
    let text = (0..<count).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }
      .joined()
    let bytes = Array(text.utf8)
    // Scalar boundaries that are not between a CR and its LF.
    let cuts = (0...bytes.count).filter { at in
      (at == bytes.count || bytes[at] & 0xC0 != 0x80)
        && !(at > 0 && at < bytes.count && bytes[at - 1] == 0x0D && bytes[at] == 0x0A)
    }
    let offset = cuts[Int.random(in: 0..<cuts.count, using: &random)]
    for encoding in [PositionEncoding.utf8, .utf16, .utf32] {
      let counted = Document.positions(of: [offset], in: DocumentText(text), encoding: encoding)[0]
      let onLine = Document.positions(
        of: [offset],
        in: DocumentText(text),
        encoding: encoding,
        allOnLine: counted.line
      )[0]
      #expect(onLine == counted, "\(text.debugDescription) at \(offset)")
    }
  }
}

/// A text given its line starts (decoded from JSON with them) reads and writes Org headings as
/// the same text read by scanning for its lines does: the same tags, edits and errors.
@Test func givenLineStartsReadAsScannedLines() {
  var random = SplitMix64(seed: 48)
  // No piece is empty or starts with LF, so a CR piece break never joins the next into a CRLF.
  let pieces = ["* H :a:", "** TODO T  :b:c:", "text", "é 😀", "* ", "\t:x:"]
  let breaks = ["\n", "\r\n", "\r"]
  for _ in 0..<500 {
    var text = ""
    var starts: [Int] = []
    for _ in 0..<Int.random(in: 0...8, using: &random) {
      text += pieces[Int.random(in: 0..<pieces.count, using: &random)]
      text += breaks[Int.random(in: 0..<breaks.count, using: &random)]
      starts.append(text.utf8.count)
    }
    text += pieces[Int.random(in: 0..<pieces.count, using: &random)]
    let given = DocumentText(utf8: Array(text.utf8), lineStarts: starts)
    let line = Int.random(in: 0...(starts.count + 1), using: &random)
    func read(_ doc: DocumentText) -> String {
      do {
        let tags = try Document.tags(in: doc, line: line)
        let edits = try Document.setTags(["z"], in: doc, line: line).edits
        return "\(tags) \(edits)"
      } catch { return "\(error)" }
    }
    #expect(read(given) == read(DocumentText(text)), "\(text.debugDescription) line \(line)")
  }
}
