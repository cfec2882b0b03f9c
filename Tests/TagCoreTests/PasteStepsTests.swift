import TagTestSupport
import Testing

@testable import TagCore

/// The steps of a paste on their own: the split into pieces and the admission of each.
///
/// `FieldText.Pieces` is tested alone. Loops are bounded (and the suite has a time limit), so a
/// broken step fails a test instead of hanging the run.
@Suite(.timeLimit(.minutes(1))) struct PasteStepsTests {
  /// The pieces and the draft's start against a plain split by scalar.
  ///
  /// `next` runs out within one call per byte. With ASCII separators only, `skipToEnd` runs before each `next` (as in
  /// a paste), and the texts run to 200 bytes, several words.
  @Test(arguments: [[",", "\n", "、"], [",", "\n"]] as [Set<Unicode.Scalar>])
  func piecesAreThoseOfAPlainSplit(separators: Set<Unicode.Scalar>) {
    let table = FieldText.Separators(separators)
    let alphabet = ["a", "Z", ",", "\n", "\r", "\r\n", " ", "é", "、", "😀", ";"]
    var random = SplitMix64(seed: 21)
    for length in 0..<200 {
      let text = (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
        .joined()
      let scalars = Array(text.unicodeScalars)
      var expected: [Range<Int>] = []
      var (start, offset, index) = (0, 0, 0)
      while index < scalars.count {
        let scalar = scalars[index]
        let end = offset
        offset += scalar.utf8.count
        if separators.contains(scalar) || scalar == "\r" {
          // CR LF ends one piece.
          if scalar == "\r", index + 1 < scalars.count, scalars[index + 1] == "\n" {
            offset += 1
            index += 1
          }
          expected.append(start..<end)
          start = offset
        }
        index += 1
      }
      let utf8 = text.utf8.span
      var pieces = FieldText.Pieces()
      var found: [Range<Int>] = []
      var ranOut = false
      for _ in 0...utf8.count {
        pieces.skipToEnd(utf8, table)
        guard let piece = pieces.next(utf8, table) else {
          ranOut = true
          break
        }
        found.append(piece)
      }
      #expect(ranOut, "\(text.debugDescription)")
      #expect(found == expected, "\(text.debugDescription)")
      var draft: Int? = nil
      if !expected.isEmpty {
        draft = start
        while draft! < utf8.count, utf8[draft!] == 0x20 { draft! += 1 }
      }
      #expect(pieces.draftStart(utf8) == draft, "\(text.debugDescription)")
    }
  }

  /// `Span.tail(at:)`, the last word of a key's hash, is the bytes after `offset`, first lowest,
  /// for every length it takes (one to seven) and every offset.
  @Test func tailIsTheLastBytes() {
    let bytes: [UInt8] = (0..<24).map { UInt8(truncatingIfNeeded: 0xA0 + $0 * 7) }
    for count in 0...bytes.count {
      let span = bytes.span.extracting(0..<count)
      for offset in max(0, count - 7)...count {
        var expected: UInt64 = 0
        for (shift, at) in (offset..<count).enumerated() {
          expected |= UInt64(bytes[at]) << UInt64(8 * shift)
        }
        #expect(span.tail(at: offset) == expected, "\(count) \(offset)")
      }
    }
  }

  /// A key scanned inside the paste's bytes (its last word read whole and the bytes past the
  /// key masked off) scans as the key's bytes alone, for every range of a text of ASCII letters,
  /// digits and bytes outside ASCII.
  @Test func scanInPlaceIsTheScanOfTheBytes() {
    let bytes = Array("Tag,x9Zé,abcdefghIJKLMNOP,q".utf8)
    for start in 0...bytes.count {
      for end in start...bytes.count {
        let alone = KeyIndex.scan(Array(bytes[start..<end]).span)
        let inPlace = KeyIndex.scan(bytes.span, start..<end, seed: KeyIndex.seed)
        #expect(inPlace.hash == alone.hash, "\(start) \(end)")
        #expect(inPlace.isASCII == alone.isASCII, "\(start) \(end)")
        #expect(inPlace.hasCapitals == alone.hasCapitals, "\(start) \(end)")
        #expect(inPlace.hasSmalls == alone.hasSmalls, "\(start) \(end)")
      }
    }
  }

  /// Each piece is admitted or dropped for the first rule it breaks, duplicates of tags added
  /// earlier in the same paste included, in a small paste and in a large one (which makes room
  /// up front, from 4,097 bytes).
  @Test(arguments: [1, 400])
  func piecesAreAdmittedInOrder(repeats: Int) {
    var field = TagField(rules: FieldRules(maxTagLength: 6))
    let text = Array(repeating: " a,b ,A,,toolongtag,b,c", count: repeats).joined(separator: ",")
    let outcome = field.apply(.draftChanged(text + ",d"))
    #expect(field.tags == ["a", "b", "c"])
    #expect(field.draft == "d")
    #expect(outcome.added == ["a", "b", "c"])
    let once: [DropReason] = [.duplicate(of: 0), .empty, .tooLong(limit: 6), .duplicate(of: 1)]
    let again: [DropReason] = [.duplicate(of: 0), .duplicate(of: 1)] + once + [.duplicate(of: 2)]
    #expect(
      outcome.dropped.map(\.reason) == once + Array(repeating: again, count: repeats - 1).joined()
    )
    #expect(field.index(of: "C") == 2)
    #expect(field.index(of: "d") == nil)
  }
}
