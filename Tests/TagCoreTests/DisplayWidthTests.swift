import Testing

@testable import TagCore

struct WidthCase: CustomTestStringConvertible, Sendable {
  var name: String
  var text: String
  var cells: Int

  init(_ name: String, _ text: String, _ cells: Int) {
    self.name = name
    self.text = text
    self.cells = cells
  }

  var testDescription: String { name }
}

private let widthCases: [WidthCase] = [
  WidthCase("empty string", "", 0),
  WidthCase("ASCII word", "hello", 5),
  WidthCase("ASCII with space and punctuation", "tag name, ok!", 13),
  WidthCase("precomposed é", "\u{E9}", 1),
  WidthCase("decomposed e + U+0301", "e\u{301}", 1),
  WidthCase("café, decomposed", "cafe\u{301}", 4),
  WidthCase("several combining marks on one base", "a\u{301}\u{323}\u{308}", 1),
  WidthCase("CJK 漢字", "漢字", 4),
  WidthCase("CJK mixed with ASCII", "日本語 tag", 10),
  WidthCase("Hangul syllables", "한국어", 6),
  WidthCase("Hangul decomposed into jamo: one cluster", "\u{1100}\u{1161}\u{11A8}", 2),
  WidthCase("Hiragana and Katakana", "ひらカタ", 8),
  WidthCase("fullwidth Ａ", "\u{FF21}", 2),
  WidthCase("fullwidth ＡＢ!", "\u{FF21}\u{FF22}!", 5),
  WidthCase("halfwidth katakana ｱ", "\u{FF71}", 1),
  WidthCase("fullwidth yen sign", "\u{FFE5}", 2),
  WidthCase("ideographic space", "\u{3000}", 2),
  WidthCase("ideographic full stop", "\u{3002}", 2),
  WidthCase("emoji 😀", "😀", 2),
  WidthCase("emoji with skin tone", "👍🏽", 2),
  WidthCase("emoji ZWJ sequence 👩‍💻", "👩\u{200D}💻", 2),
  WidthCase("family ZWJ sequence", "👨\u{200D}👩\u{200D}👧\u{200D}👦", 2),
  WidthCase("flag 🇫🇷", "🇫🇷", 2),
  WidthCase("two flags", "🇫🇷🇩🇪", 4),
  WidthCase("a lone regional indicator", "\u{1F1E6}", 2),
  WidthCase("❤️ with FE0F", "\u{2764}\u{FE0F}", 2),
  WidthCase("❤ without FE0F", "\u{2764}", 1),
  WidthCase("© text presentation", "\u{A9}", 1),
  WidthCase("©️ with FE0F", "\u{A9}\u{FE0F}", 2),
  WidthCase("keycap 1️⃣", "1\u{FE0F}\u{20E3}", 2),
  WidthCase("FE0F after a non-emoji letter", "a\u{FE0F}", 1),
  WidthCase("emoji amid text", "I ❤️ 🍕", 7),
  WidthCase("combining mark alone", "\u{301}", 0),
  WidthCase("enclosing mark alone", "\u{20DD}", 0),
  WidthCase("ZWJ alone", "\u{200D}", 0),
  WidthCase("zero width space between letters", "a\u{200B}b", 2),
  WidthCase("soft hyphen (Cf)", "\u{AD}", 0),
  WidthCase("FE0F alone", "\u{FE0F}", 0),
  WidthCase("tab is a control: 0", "a\tb", 2),
  WidthCase("CR LF is one control cluster: 0", "a\r\nb", 2),
  WidthCase("DEL and C1 controls: 0", "\u{7F}\u{85}", 0),
  WidthCase("NUL: 0", "\u{0}", 0),
  WidthCase("Latin, Greek, Cyrillic are narrow", "Straße Σς Жж", 12),
  WidthCase("boundary: U+4DBF wide, U+4DC0 hexagram narrow", "\u{4DBF}\u{4DC0}", 3),
  WidthCase("boundary: U+303E wide, U+303F narrow", "\u{303E}\u{303F}", 3),
  WidthCase("boundary: U+FF60 wide, U+FF61 narrow", "\u{FF60}\u{FF61}", 3),
  WidthCase("boundary: U+FFE6 wide, U+FFE8 narrow", "\u{FFE6}\u{FFE8}", 3),
  WidthCase("boundary: U+A4C6 wide, U+A4D0 narrow", "\u{A4C6}\u{A4D0}", 3),
  WidthCase("boundary: U+D7A3 last syllable wide", "\u{D7A3}", 2),
  WidthCase("supplementary ideographic planes", "\u{20000}\u{2A6DF}\u{3134A}", 6),
  WidthCase("enclosed ideographic supplement", "\u{1F200}\u{1F265}", 4),
  WidthCase("Tangut and Nushu", "\u{17000}\u{1B170}", 4),
  WidthCase("angle brackets U+2329/232A", "\u{2329}\u{232A}", 4),
]

/// Tests of `DisplayWidth`; the free helpers and tables above are file-private.
@Suite struct DisplayWidthTests {}

extension DisplayWidthTests {
  @Test(arguments: widthCases)
  func displayWidth(_ example: WidthCase) {
    #expect(DisplayWidth.cells(example.text) == example.cells)
  }
}

extension DisplayWidthTests {
  @Test func sumOfClusterWidthsEqualsTheTextWidth() {
    let text = "a漢\u{301}👩\u{200D}💻e\u{301}\t🇫🇷x"
    #expect(text.map(DisplayWidth.cells(of:)).reduce(0, +) == DisplayWidth.cells(text))
  }
}

extension DisplayWidthTests {
  @Test func asciiFastPathAgreesWithTheClusterRules() {
    let printable = String(decoding: Array(UInt8(0x20)...UInt8(0x7E)), as: UTF8.self)
    #expect(DisplayWidth.cells(printable) == 95)
    #expect(printable.map(DisplayWidth.cells(of:)).allSatisfy { $0 == 1 })
    let long = String(repeating: "tag ", count: 10_000)
    #expect(DisplayWidth.cells(long) == 40_000)
  }
}

extension DisplayWidthTests {
  @Test func wideRangesAreSortedAndDisjoint() {
    let ranges = DisplayWidth.wideRanges
    #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound })
    for range in ranges {
      for value in [range.lowerBound, range.upperBound] {
        guard let scalar = Unicode.Scalar(value) else { continue }
        #expect(DisplayWidth.isWide(scalar), "U+\(String(value, radix: 16))")
      }
      for value in [range.lowerBound - 1, range.upperBound + 1] {
        guard let scalar = Unicode.Scalar(value) else { continue }
        let insideAnother = ranges.contains { $0.contains(value) }
        #expect(DisplayWidth.isWide(scalar) == insideAnother, "U+\(String(value, radix: 16))")
      }
    }
  }
}

extension DisplayWidthTests {
  @Test func everyScalarHasWidthZeroOneOrTwo() {
    var outOfRange: [UInt32] = []
    for value in UInt32(0)...0x10FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let cells = DisplayWidth.cells(of: Character(scalar))
      if !(0...2).contains(cells) { outOfRange.append(value) }
    }
    #expect(outOfRange.isEmpty)
  }
}
