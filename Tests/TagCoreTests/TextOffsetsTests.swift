import TagCore
import TagTestSupport
import Testing

/// A text with every kind of line break and of character width.
///
/// Line 0 `aé中😀x` ends with CRLF; line 1 `e` + U+0301 ends with CR; line 2 `z` with LF; line 3
/// is empty. Scalar offsets: a0 é1 中2 😀3 x4 CR5 LF6 e7 ◌́8 CR9 z10 LF11, end 12.
private let sample = "a\u{E9}中😀x\r\ne\u{301}\rz\n"

enum Expected: Hashable, Sendable {
  /// The index, as a count of unicode scalars from the start.
  case scalar(Int)
  case outOfRange
  case insideCharacter
}

struct PositionCase: CustomTestStringConvertible, Sendable {
  var encoding: PositionEncoding
  var line: Int
  var character: Int
  var expected: Expected

  var testDescription: String { "\(encoding.rawValue) \(line):\(character) → \(expected)" }
}

private func rows(_ encoding: PositionEncoding, _ table: [(Int, Int, Expected)]) -> [PositionCase] {
  table.map { PositionCase(encoding: encoding, line: $0.0, character: $0.1, expected: $0.2) }
}

/// Rows that read the same in every encoding: line starts, short lines, errors past the end.
private let common: [(Int, Int, Expected)] = [
  (0, 0, .scalar(0)), (0, 1, .scalar(1)),
  (1, 0, .scalar(7)), (1, 1, .scalar(8)),  // between e and its combining accent
  (2, 0, .scalar(10)), (2, 1, .scalar(11)), (2, 2, .outOfRange),
  (3, 0, .scalar(12)), (3, 1, .outOfRange), (4, 0, .outOfRange), (99, 0, .outOfRange),
  (-1, 0, .outOfRange), (0, -1, .outOfRange), (Int.max, Int.max, .outOfRange),
]

private let utf8Rows = rows(
  .utf8,
  common + [
    (0, 2, .insideCharacter), (0, 3, .scalar(2)), (0, 4, .insideCharacter),
    (0, 5, .insideCharacter), (0, 6, .scalar(3)), (0, 7, .insideCharacter),
    (0, 9, .insideCharacter), (0, 10, .scalar(4)), (0, 11, .scalar(5)),
    (0, 12, .insideCharacter),  // between CR and LF
    (0, 13, .outOfRange), (1, 2, .insideCharacter), (1, 3, .scalar(9)),
    (1, 4, .outOfRange),  // a lone CR has no inside
  ]
)

private let utf16Rows = rows(
  .utf16,
  common + [
    (0, 2, .scalar(2)), (0, 3, .scalar(3)), (0, 4, .insideCharacter),  // surrogate pair
    (0, 5, .scalar(4)), (0, 6, .scalar(5)), (0, 7, .insideCharacter), (0, 8, .outOfRange),
    (1, 2, .scalar(9)), (1, 3, .outOfRange),
  ]
)

private let utf32Rows = rows(
  .utf32,
  common + [
    (0, 2, .scalar(2)), (0, 3, .scalar(3)), (0, 4, .scalar(4)), (0, 5, .scalar(5)),
    (0, 6, .insideCharacter), (0, 7, .outOfRange), (1, 2, .scalar(9)), (1, 3, .outOfRange),
  ]
)

private func offset(of index: String.Index, in text: String) -> Int {
  text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: index)
}

private func scalarIndex(_ offset: Int, in text: String) -> String.Index {
  text.unicodeScalars.index(text.unicodeScalars.startIndex, offsetBy: offset)
}

@Suite struct TextOffsetsTests {
  @Test(arguments: utf8Rows + utf16Rows + utf32Rows)
  func indexOfPosition(_ row: PositionCase) {
    let position = TextPosition(line: row.line, character: row.character)
    let result: Expected
    do {
      let index = try TextOffsets.index(of: position, in: sample, encoding: row.encoding)
      result = .scalar(offset(of: index, in: sample))
    } catch .outOfRange(let reported) {
      #expect(reported == position)
      result = .outOfRange
    } catch .insideCharacter(let reported) {
      #expect(reported == position)
      result = .insideCharacter
    } catch {
      Issue.record("unexpected \(error)")
      return
    }
    #expect(result == row.expected)
    if case .scalar(let scalarOffset) = row.expected {
      let back = TextOffsets.position(
        of: scalarIndex(scalarOffset, in: sample),
        in: sample,
        encoding: row.encoding
      )
      #expect(back == position)
    }
  }

  @Test(arguments: PositionEncoding.allCases)
  func emptyText(encoding: PositionEncoding) throws {
    #expect(
      try TextOffsets.index(of: TextPosition(line: 0, character: 0), in: "", encoding: encoding)
        == "".startIndex
    )
    #expect(throws: TextEditError.outOfRange(TextPosition(line: 1, character: 0))) {
      try TextOffsets.index(of: TextPosition(line: 1, character: 0), in: "", encoding: encoding)
    }
    #expect(
      TextOffsets.position(of: "".endIndex, in: "", encoding: encoding)
        == TextPosition(line: 0, character: 0)
    )
  }

  @Test func positionOfAwkwardIndices() {
    let text = "a😀\r\nb"
    // Between CR and LF: the end of the line.
    let betweenCRLF = scalarIndex(3, in: text)
    #expect(
      TextOffsets.position(of: betweenCRLF, in: text, encoding: .utf16)
        == TextPosition(line: 0, character: 3)
    )
    // Inside a surrogate pair: rounds down to the scalar.
    let insidePair = text.utf16.index(text.utf16.startIndex, offsetBy: 2)
    #expect(
      TextOffsets.position(of: insidePair, in: text, encoding: .utf16)
        == TextPosition(line: 0, character: 1)
    )
    // Inside a UTF-8 sequence: rounds down too.
    let insideBytes = text.utf8.index(text.utf8.startIndex, offsetBy: 3)
    #expect(
      TextOffsets.position(of: insideBytes, in: text, encoding: .utf8)
        == TextPosition(line: 0, character: 1)
    )
    // The end, and past the end (an index of a longer string).
    #expect(
      TextOffsets.position(of: text.endIndex, in: text, encoding: .utf32)
        == TextPosition(line: 1, character: 1)
    )
    let longer = String(repeating: "x", count: 40)
    #expect(
      TextOffsets.position(of: longer.endIndex, in: text, encoding: .utf8)
        == TextPosition(line: 1, character: 1)
    )
  }

  // MARK: Edits

  private static func range(
    _ line: Int,
    _ character: Int,
    _ endLine: Int,
    _ endCharacter: Int
  ) -> TextRange {
    TextRange(
      start: TextPosition(line: line, character: character),
      end: TextPosition(line: endLine, character: endCharacter)
    )
  }

  struct EditCase: CustomTestStringConvertible, Sendable {
    var name: String
    var text: String
    var encoding: PositionEncoding
    var edits: [TextEdit]
    var expected: Result<String, TextEditError>
    var testDescription: String { name }
  }

  static let editCases: [EditCase] = [
    EditCase(
      name: "whole text",
      text: "old",
      encoding: .utf16,
      edits: [TextEdit(range: nil, newText: "new")],
      expected: .success("new")
    ),
    EditCase(
      name: "no edits",
      text: "same",
      encoding: .utf16,
      edits: [],
      expected: .success("same")
    ),
    EditCase(
      name: "insert",
      text: "ab",
      encoding: .utf16,
      edits: [TextEdit(range: range(0, 1, 0, 1), newText: "X")],
      expected: .success("aXb")
    ),
    EditCase(
      name: "delete an emoji in utf-16",
      text: "a😀b",
      encoding: .utf16,
      edits: [TextEdit(range: range(0, 1, 0, 3), newText: "")],
      expected: .success("ab")
    ),
    EditCase(
      name: "delete an emoji in utf-8",
      text: "a😀b",
      encoding: .utf8,
      edits: [TextEdit(range: range(0, 1, 0, 5), newText: "")],
      expected: .success("ab")
    ),
    EditCase(
      name: "replace CJK in utf-32",
      text: "中文,",
      encoding: .utf32,
      edits: [TextEdit(range: range(0, 1, 0, 2), newText: "国")],
      expected: .success("中国,")
    ),
    EditCase(
      name: "insert between e and its accent",
      text: "e\u{301}",
      encoding: .utf32,
      edits: [TextEdit(range: range(0, 1, 0, 1), newText: "x")],
      expected: .success("ex\u{301}")
    ),
    EditCase(
      name: "delete the accent only",
      text: "e\u{301}!",
      encoding: .utf8,
      edits: [TextEdit(range: range(0, 1, 0, 3), newText: "")],
      expected: .success("e!")
    ),
    EditCase(
      name: "delete a CRLF across lines",
      text: "a\r\nb",
      encoding: .utf16,
      edits: [TextEdit(range: range(0, 1, 1, 0), newText: "")],
      expected: .success("ab")
    ),
    EditCase(
      name: "edits apply in order, each to the previous result",
      text: "red",
      encoding: .utf16,
      edits: [
        TextEdit(range: range(0, 3, 0, 3), newText: ",\r\ngreen"),
        TextEdit(range: range(1, 0, 1, 1), newText: "G"),
        TextEdit(range: range(0, 0, 0, 1), newText: "R"),
      ],
      expected: .success("Red,\r\nGreen")
    ),
    EditCase(
      name: "append at the end of the last line",
      text: "a\n",
      encoding: .utf8,
      edits: [TextEdit(range: range(1, 0, 1, 0), newText: "b")],
      expected: .success("a\nb")
    ),
    EditCase(
      name: "reversed range",
      text: "abc",
      encoding: .utf16,
      edits: [TextEdit(range: range(0, 2, 0, 1), newText: "")],
      expected: .failure(.reversedRange(range(0, 2, 0, 1)))
    ),
    EditCase(
      name: "reversed across lines",
      text: "a\nb",
      encoding: .utf16,
      edits: [TextEdit(range: range(1, 0, 0, 1), newText: "")],
      expected: .failure(.reversedRange(range(1, 0, 0, 1)))
    ),
    EditCase(
      name: "start out of range",
      text: "abc",
      encoding: .utf16,
      edits: [TextEdit(range: range(0, 4, 0, 4), newText: "")],
      expected: .failure(.outOfRange(TextPosition(line: 0, character: 4)))
    ),
    EditCase(
      name: "end inside a surrogate pair",
      text: "😀",
      encoding: .utf16,
      edits: [TextEdit(range: range(0, 0, 0, 1), newText: "")],
      expected: .failure(.insideCharacter(TextPosition(line: 0, character: 1)))
    ),
    EditCase(
      name: "a later edit fails: nothing is applied",
      text: "ab",
      encoding: .utf16,
      edits: [
        TextEdit(range: range(0, 0, 0, 2), newText: "x"),
        TextEdit(range: range(0, 2, 0, 2), newText: "y"),
      ],
      expected: .failure(.outOfRange(TextPosition(line: 0, character: 2)))
    ),
  ]

  @Test(arguments: editCases)
  func applyEdits(_ row: EditCase) {
    let result = Result { () throws(TextEditError) -> String in
      try TextOffsets.apply(row.edits, to: row.text, encoding: row.encoding)
    }
    switch (result, row.expected) {
    case (.success(let text), .success(let expected)):
      #expect(Array(text.unicodeScalars) == Array(expected.unicodeScalars))
    default:
      #expect(result == row.expected)
    }
  }

  // MARK: Round trips

  private static let pieces = [
    "a", "Z", " ", "\u{E9}", "e\u{301}", "中", "😀", "\r\n", "\r", "\n", "\t",
  ]

  @Test(arguments: 1...16)
  func roundTrip(seed: Int) throws {
    var random = SplitMix64(seed: UInt64(seed) &* 104_729)
    let text = random.string(from: Self.pieces, maxLength: 30)
    let scalars = text.unicodeScalars
    for encoding in PositionEncoding.allCases {
      var index = scalars.startIndex
      while true {
        let betweenCRLF =
          index > scalars.startIndex && index < scalars.endIndex
          && scalars[scalars.index(before: index)] == "\r" && scalars[index] == "\n"
        if !betweenCRLF {
          let position = TextOffsets.position(of: index, in: text, encoding: encoding)
          let back = try TextOffsets.index(of: position, in: text, encoding: encoding)
          #expect(back == index, "\(encoding) \(position)")
        }
        guard index < scalars.endIndex else { break }
        index = scalars.index(after: index)
      }
      // Every position either names an index that maps back to it, or is rejected.
      for line in 0...4 {
        for character in 0...12 {
          let position = TextPosition(line: line, character: character)
          if let index = try? TextOffsets.index(of: position, in: text, encoding: encoding) {
            #expect(TextOffsets.position(of: index, in: text, encoding: encoding) == position)
          }
        }
      }
    }
  }

  /// An edit that replaces a range with its own text changes nothing.
  @Test(arguments: 1...8)
  func identityEdits(seed: Int) throws {
    var random = SplitMix64(seed: UInt64(seed) &* 31)
    let text = random.string(from: Self.pieces, maxLength: 20)
    let scalars = text.unicodeScalars
    let offsets = (0..<2).map { _ in Int.random(in: 0...scalars.count, using: &random) }.sorted()
    var start = scalarIndex(offsets[0], in: text)
    var end = scalarIndex(offsets[1], in: text)
    // Keep both ends off the middle of a CRLF.
    if start > scalars.startIndex, start < scalars.endIndex, scalars[start] == "\n",
      scalars[scalars.index(before: start)] == "\r"
    {
      start = scalars.index(before: start)
    }
    if end > scalars.startIndex, end < scalars.endIndex, scalars[end] == "\n",
      scalars[scalars.index(before: end)] == "\r"
    {
      end = scalars.index(after: end)
    }
    for encoding in PositionEncoding.allCases {
      let range = TextRange(
        start: TextOffsets.position(of: start, in: text, encoding: encoding),
        end: TextOffsets.position(of: end, in: text, encoding: encoding)
      )
      let same = String(scalars[start..<end])
      let result = try TextOffsets.apply(
        [TextEdit(range: range, newText: same)],
        to: text,
        encoding: encoding
      )
      #expect(Array(result.unicodeScalars) == Array(scalars))
    }
  }
}
