import TagTestSupport
import Testing

@testable import JSONRPC

/// The word-at-a-time escape scan finds exactly the bytes a byte-by-byte scan finds.
@Suite struct EscapeScanTests {
  func naive(_ bytes: [UInt8], from start: Int) -> Int {
    bytes[start...].firstIndex { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C } ?? bytes.count
  }

  @Test func matchesAByteByByteScan() {
    var random = SplitMix64(seed: 42)
    for _ in 0..<5_000 {
      let count = Int.random(in: 0...40, using: &random)
      let bytes = (0..<count).map { _ in
        // Mostly plain text, sometimes any byte (including UTF-8 lead/continuation bytes).
        Bool.random(using: &random)
          ? UInt8.random(in: 0x20...0x7E, using: &random)
          : UInt8.random(in: 0...0xFF, using: &random)
      }
      let start = count == 0 ? 0 : Int.random(in: 0...count, using: &random)
      let fast = bytes.withUnsafeBufferPointer {
        JSONWriter.firstByteNeedingEscape($0, from: start)
      }
      #expect(fast == naive(bytes, from: start), "\(bytes) from \(start)")
    }
  }

  @Test(arguments: [0x00, 0x1F, 0x22, 0x5C, 0x0A] as [UInt8])
  func findsEachEscapedByteInEveryLane(byte: UInt8) {
    for position in 0..<17 {
      var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 17)
      bytes[position] = byte
      let found = bytes.withUnsafeBufferPointer { JSONWriter.firstByteNeedingEscape($0, from: 0) }
      #expect(found == position)
    }
  }
}

/// The scanner's word-at-a-time run scan stops exactly where a byte-by-byte scan stops.
@Suite struct PlainRunScanTests {
  func naive(_ bytes: [UInt8], from start: Int) -> Int {
    bytes[start...].firstIndex { $0 < 0x20 || $0 >= 0x80 || $0 == 0x22 || $0 == 0x5C }
      ?? bytes.count
  }

  @Test func matchesAByteByByteScan() {
    var random = SplitMix64(seed: 43)
    for _ in 0..<5_000 {
      let count = Int.random(in: 0...40, using: &random)
      let bytes = (0..<count).map { _ in
        Int.random(in: 0..<4, using: &random) > 0
          ? UInt8.random(in: 0x20...0x7E, using: &random)
          : UInt8.random(in: 0...0xFF, using: &random)
      }
      let start = count == 0 ? 0 : Int.random(in: 0...count, using: &random)
      let fast = bytes.withUnsafeBufferPointer { JSONScanner.plainRunEnd($0, from: start) }
      #expect(fast == naive(bytes, from: start), "\(bytes) from \(start)")
    }
  }

  @Test(arguments: [0x00, 0x1F, 0x22, 0x5C, 0x80, 0xC3, 0xFF] as [UInt8])
  func stopsAtEachByteInEveryLane(byte: UInt8) {
    for position in 0..<17 {
      var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 17)
      bytes[position] = byte
      let found = bytes.withUnsafeBufferPointer { JSONScanner.plainRunEnd($0, from: 0) }
      #expect(found == position)
    }
  }
}

/// Strings in validated bytes (``MessageBytes``) are delimited and decoded without validating
/// them again; what they read must be what their pieces spell (an oracle of its own: the tree
/// reader decodes with the same code).
@Suite struct TrustedStringTests {
  /// Pieces of string literals with what each decodes to: plain text, every escape, surrogate
  /// pairs, raw UTF-8.
  static let pieces: [(json: String, text: String)] = [
    ("a", "a"), ("Z", "Z"), (" ", " "), ("café", "café"), ("😀", "😀"), ("—", "—"),
    ("日本", "日本"), (#"\""#, "\""), (#"\\"#, "\\"), (#"\/"#, "/"), (#"\b"#, "\u{08}"),
    (#"\f"#, "\u{0C}"), (#"\n"#, "\n"), (#"\r"#, "\r"), (#"\t"#, "\t"), (#"\u0041"#, "A"),
    (#"\u00e9"#, "é"), (#"\u65e5"#, "日"), (#"\ud83d\ude00"#, "😀"), (#"\u0000"#, "\u{0}"),
    (#"\\\""#, "\\\""), ("0123456789abcdef", "0123456789abcdef"),
  ]

  /// A random literal of up to 24 pieces and the text it spells.
  static func literal(_ random: inout SplitMix64) -> (json: String, text: String) {
    let count = Int.random(in: 0...24, using: &random)
    let chosen = (0..<count).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }
    return ("\"" + chosen.map(\.json).joined() + "\"", chosen.map(\.text).joined())
  }

  @Test func readsWhatThePiecesSpell() {
    var random = SplitMix64(seed: 44)
    for _ in 0..<2_000 {
      let values = (0..<3).map { _ in Self.literal(&random) }
      let text = #"{"a":\#(values[0].json),"b":[\#(values[1].json)],"c":\#(values[2].json)}"#
      var read: [String] = []
      let taken = FastPath.counting {
        Self.lending(text) { bytes in
          var scanner = bytes.scanner(0..<bytes.count, maxDepth: 8)
          guard (try? scanner.beginObject()) == true else { return }
          while let key = try? scanner.nextKey() {
            if key == "b" {
              _ = try? scanner.beginArray()
              _ = try? scanner.nextElement()
              read.append((try? scanner.readString()) ?? "<not read>")
              _ = try? scanner.nextElement()
            } else {
              read.append((try? scanner.readString()) ?? "<not read>")
            }
          }
        }
      }
      #expect(read == values.map(\.text), "\(text)")
      #if DEBUG
      // Three keys and three values, each found in a word or two or delimited as trusted bytes.
      let found = taken[.trustedString, default: 0] + taken[.shortScannedString, default: 0]
      #expect(found >= 6, "the strings were validated again")
      #endif
    }
  }

  /// The offset after each line break (LF, CRLF or CR) of `text`, found byte by byte.
  static func lineStarts(_ text: String) -> [Int] {
    let bytes = Array(text.utf8)
    var starts: [Int] = []
    for (at, byte) in bytes.enumerated() {
      if byte == 0x0A || (byte == 0x0D && (at + 1 == bytes.count || bytes[at + 1] != 0x0A)) {
        starts.append(at + 1)
      }
    }
    return starts
  }

  /// A document's text is decoded straight to bytes, and the lines the decoder notes on the
  /// way are the lines a byte-by-byte search of what the pieces spell finds.
  @Test func textReadsThePiecesAndTheirLines() {
    let lineBreaks: [(json: String, text: String)] = [
      (#"\n"#, "\n"), (#"\r"#, "\r"), (#"\r\n"#, "\r\n"), (#"\u000a"#, "\n"), (#"\u000D"#, "\r"),
      (#"\r\u000A"#, "\r\n"), (#"\u000d\n"#, "\r\n"), (#"\n\r"#, "\n\r"),
    ]
    var random = SplitMix64(seed: 47)
    for _ in 0..<2_000 {
      let count = Int.random(in: 0...24, using: &random)
      let chosen = (0..<count).map { _ in
        Bool.random(using: &random)
          ? lineBreaks[Int.random(in: 0..<lineBreaks.count, using: &random)]
          : Self.pieces[Int.random(in: 0..<Self.pieces.count, using: &random)]
      }
      let text = chosen.map(\.text).joined()
      var decoded: DecodedText?
      let taken = FastPath.counting {
        Self.lending(#"{"text":"\#(chosen.map(\.json).joined())"}"#) { body in
          decoded = Self.text(in: body)
        }
      }
      #expect(decoded?.utf8 == Array(text.utf8), "\(text.debugDescription)")
      #expect(decoded?.lineStarts == Self.lineStarts(text), "\(text.debugDescription)")
      #if DEBUG
      #expect(taken[.decodedLines, default: 0] == 1)
      #endif
    }
  }

  /// A value that is no string has no text (the caller reports the mismatch).
  @Test func noTextFromAValueThatIsNoString() {
    for value in ["5", "null", "[\"a\"]", "{\"a\":\"b\"}"] {
      Self.lending(#"{"text":\#(value)}"#) { body in
        #expect(body.slots(ofObjectAt: 0..<body.count, Self.text)?.value(0) != nil)
        #expect(Self.text(in: body) == nil, "\(value)")
      }
    }
  }

  /// The one member these bodies have.
  static let text = DeclaredMembers(["text"])

  /// The text of member `text` of `body`, an object.
  static func text(in body: MessageBytes) -> DecodedText? {
    let slots = body.slots(ofObjectAt: 0..<body.count, text)
    return slots?.value(0).flatMap { body.text(at: $0, isPlain: slots?.isPlainString(0) ?? false) }
  }

  /// `text` (valid JSON) lent as a body, as the envelope scan lends one.
  static func lending(_ text: String, _ body: (MessageBytes) -> Void) {
    Array(text.utf8).withUnsafeBufferPointer { body(MessageBytes(lendingValidated: $0)) }
  }
}
