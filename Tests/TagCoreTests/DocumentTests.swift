import TagCore
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
  applying(try Document.setTags(tags, in: text, format: format, key: key, line: line).edits, to: text)
}

func read(_ text: String, format: DocumentFormat? = nil, key: String = "tags", line: Int? = nil)
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
      tags: ["swift", "yaml"], format: .yaml),
    Case(
      name: "Jekyll block list, no indentation",
      text: "---\ntitle: Post\ntags:\n- swift\n- yaml\ndate: 2024-01-02\n---\n", tags: ["swift", "yaml"],
      format: .yaml),
    Case(
      name: "Obsidian block list, indented, with comments",
      text: "---\naliases: []\ntags:   # topics\n  # first\n  - project/alpha\n  - \"to do\"\n\n  - 'it''s'\ncssclass: wide\n---\n# Note\n",
      tags: ["project/alpha", "to do", "it's"], format: .yaml),
    Case(
      name: "flow list over several lines",
      text: "---\ntags: [a,\n  b, # why\n  \"c d\",\n]\n---\n", tags: ["a", "b", "c d"], format: .yaml),
    Case(
      name: "double-quoted escapes",
      text: "---\ntags: [\"a\\tb\", \"line\\nbreak\", \"q\\\"\\\\\", \"\\u00e9\\x41\\U0001F600\", \"\\_\\N\\L\\P\\/\\0\\e\\ \"]\n---\n",
      tags: ["a\tb", "line\nbreak", "q\"\\", "éA😀", "\u{A0}\u{85}\u{2028}\u{2029}/\0\u{1B} "],
      format: .yaml),
    Case(
      name: "plain items that other schemas read as non-strings keep their text; nulls are no tags",
      text: "---\ntags:\n  - 1\n  - yes\n  - null\n  - ~\n  -\n  - 2024-01-02\n  - 1.0\n---\n",
      tags: ["1", "yes", "2024-01-02", "1.0"], format: .yaml),
    Case(
      name: "a scalar is one tag", text: "---\ntags: a, b\n---\n", tags: ["a, b"], format: .yaml),
    Case(name: "an empty value", text: "---\ntags:\ntitle: x\n---\n", tags: [], format: .yaml),
    Case(name: "null scalar", text: "---\ntags: ~\n---\n", tags: [], format: .yaml),
    Case(
      name: "CRLF and a byte order mark",
      text: "\u{FEFF}---\r\ntitle: x\r\ntags:\r\n  - a\r\n  - b c\r\n...\r\nbody\r\n", tags: ["a", "b c"],
      format: .yaml),
    Case(
      name: "folded plain and quoted scalars",
      text: "---\ntags:\n  - one\n    two\n  - 'three\n\n    four'\n  - \"five\\\n    six\"\n---\n",
      tags: ["one two", "three\nfour", "fivesix"], format: .yaml),
    Case(
      name: "plain scalars with inner indicators",
      text: "---\ntags: [a#b, c-d, \"e: f\", x'y, -z]\n---\n", tags: ["a#b", "c-d", "e: f", "x'y", "-z"],
      format: .yaml),
    Case(
      name: "Hugo YAML with a quoted key, trailing blanks on the fences and a comment after the list",
      text: "--- \ntitle: \"Hugo\"\ndraft: false\n\"tags\": [ hugo , 'static site' ]  # seo\ncategories:\n  - web\n---  \n",
      tags: ["hugo", "static site"], format: .yaml),
    Case(
      name: "Obsidian inline tags with slashes and emoji, a quoted scalar",
      text: "---\ntags: \"#inbox 📥\"\n---\n", tags: ["#inbox 📥"], format: .yaml),
    Case(
      name: "Obsidian list after comment lines, items at column 0",
      text: "---\ntags:\n# why\n\n- inbox\n- area/home  \npublish: true\n---\n", tags: ["inbox", "area/home"],
      format: .yaml),
    Case(
      name: "flow list on the line after the key",
      text: "---\ntags:\n  [a, 'b']\n---\n", tags: ["a", "b"], format: .yaml),
    Case(
      name: "Zola TOML with CRLF, a quoted key and taxonomies after",
      text: "+++\r\ntitle = \"Zola\"\r\n\"tags\" = ['a', \"b\\\"c\"]\r\n\r\n[taxonomies]\r\ncategories = [\"x\"]\r\n+++\r\n",
      tags: ["a", "b\"c"], format: .toml),
    Case(name: "no front matter", text: "# Title\n\ntext\n", tags: [], format: .yaml),
    Case(
      name: "Hugo TOML", text: "+++\ntitle = \"Post\"\ntags = [\"a\", 'b\\c', \"\\u00e9\\t\"]\n[params]\ntags = [\"no\"]\n+++\n",
      tags: ["a", "b\\c", "é\t"], format: .toml),
    Case(
      name: "Zola TOML over several lines",
      text: "+++\ntitle = \"x\"\ntags = [\n  \"rust\", # lang\n  \"web\",\n]\n\n[taxonomies]\n+++\n",
      tags: ["rust", "web"], format: .toml),
    Case(
      name: "Org heading", text: "#+TITLE: x\n* TODO Write the post                                    :blog:draft:\n",
      tags: ["blog", "draft"], format: .orgHeading, line: 1),
    Case(name: "Org heading without tags", text: "** Notes\n", tags: [], format: .orgHeading, line: 0),
    Case(
      name: "Org heading with a colon in the title", text: "* Time 10:30 :a:\n", tags: ["a"], format: .orgHeading,
      line: 0),
    Case(
      name: "Org file tags", text: "#+TITLE: Notes\n#+filetags: :work:home:\n* A\n", tags: ["work", "home"],
      format: .orgFiletags),
    Case(
      name: "Org file tags space-separated", text: "#+FILETAGS: work home\n", tags: ["work", "home"],
      format: .orgFiletags),
  ]

  @Test(arguments: cases) func reads(_ c: Case) throws {
    let found = try Document.tags(in: c.text, line: c.line)
    #expect(found.tags == c.tags)
    #expect(found.format == c.format)
    // Setting the tags a document has changes nothing.
    #expect(try Document.setTags(c.tags, in: c.text, line: c.line).edits == [])
  }
}
