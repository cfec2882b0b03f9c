import JSONRPC
import Testing

private func parse(
  _ text: String,
  maxDepth: Int = JSONReader.defaultMaxDepth
) throws(JSONParseError) -> JSONValue {
  try JSONReader.parse(Array(text.utf8), maxDepth: maxDepth)
}

@Test(arguments: [
  ("0", JSONValue.integer(0)),
  ("-1", .integer(-1)),
  ("9223372036854775807", .integer(.max)),
  ("-9223372036854775808", .integer(.min)),
  ("9223372036854775808", .double(9_223_372_036_854_775_808)),
  ("-9223372036854775809", .double(-9_223_372_036_854_775_808)),
  ("123456789012345678901234567890", .double(1.2345678901234568e29)),
  ("1.5", .double(1.5)),
  ("1e2", .double(100)),
  ("1E+2", .double(100)),
  ("-1.25e-2", .double(-0.0125)),
  ("0.1", .double(0.1)),
  ("1e400", .double(.infinity)),
  ("-1e400", .double(-.infinity)),
  ("1e-400", .double(0)),
  (" 42 ", .integer(42)),
])
func numbers(_ text: String, _ expected: JSONValue) throws {
  #expect(try parse(text) == expected)
}

@Test func negativeZeroIsADouble() throws {
  guard case .double(let value) = try parse("-0") else {
    Issue.record("-0 did not read as a double")
    return
  }
  #expect(value == 0 && value.sign == .minus)
  #expect(try parse("0") == .integer(0))
}

@Test(arguments: [
  (#""a\"b\\c\/d""#, "a\"b\\c/d"),
  (#""\b\f\n\r\t""#, "\u{8}\u{C}\n\r\t"),
  (#""\u0041\u00e9\u20AC""#, "Aé€"),
  (#""\uD834\uDD1E""#, "𝄞"),
  (#""\u0000""#, "\u{0}"),
  (#""é€𝄞""#, "é€𝄞"),
  (#""plain""#, "plain"),
  (#""""#, ""),
])
func strings(_ text: String, _ expected: String) throws {
  #expect(try parse(text) == .string(expected))
}

@Test(arguments: [
  (#""\uD800""#, "lone surrogate"),
  (#""\uDC00""#, "lone surrogate"),
  (#""\uD800\u0041""#, "lone surrogate"),
  (#""\uD800x""#, "lone surrogate"),
  (#""\x""#, "invalid escape"),
  (#""\u12G4""#, "invalid hex digit"),
  ("\"a\nb\"", "raw control character"),
  ("\"abc", "unterminated string"),
  ("01", "leading zero"),
  ("1.", "expected a digit"),
  ("-", "expected a digit"),
  ("[1,]", "unexpected character ']'"),
  ("{\"a\" 1}", "expected ':'"),
  ("[1 2]", "expected ',' or ']'"),
  ("tru", "invalid literal"),
  ("1 2", "after the JSON text"),
  ("", "unexpected end of input"),
])
func rejects(_ text: String, _ reasonFragment: String) {
  do throws(JSONParseError) {
    _ = try parse(text)
    Issue.record("accepted \(text)")
  } catch {
    #expect(error.reason.contains(reasonFragment), "\(error)")
  }
}

@Test(
  arguments: [
    [0x22, 0xC0, 0xAF, 0x22],  // overlong "/"
    [0x22, 0xE0, 0x80, 0xAF, 0x22],  // overlong 3-byte
    [0x22, 0xED, 0xA0, 0x80, 0x22],  // UTF-8-encoded surrogate U+D800
    [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
    [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22],  // byte > F4
    [0x22, 0xE2, 0x82, 0x22],  // truncated sequence
    [0x22, 0x80, 0x22],  // lone continuation byte
    [0x22, 0xFF, 0x22],
  ] as [[UInt8]]
)
func rejectsInvalidUTF8(_ bytes: [UInt8]) {
  #expect(throws: JSONParseError.self) { try JSONReader.parse(bytes) }
}

@Test func reportsTheOffset() {
  #expect(throws: JSONParseError(offset: 3, reason: "unexpected character ']'")) {
    try parse("[1,]")
  }
}

@Test func depthLimit() throws {
  let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
  _ = try parse(ok)
  let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
  #expect(throws: JSONParseError.self) { try parse(deep) }
  do throws(JSONParseError) {
    _ = try parse(deep)
  } catch {
    #expect(error.reason == "nesting deeper than 512")
  }
  #expect(throws: JSONParseError.self) { try parse(#"{"a":{"b":1}}"#, maxDepth: 1) }
}

@Test func aMillionBracketsNeitherCrashesNorOverflows() throws {
  let bytes = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
  #expect(throws: JSONParseError.self) { try JSONReader.parse(bytes) }
  // An absurd limit is capped, so no value too deep to release is ever built.
  let nested = bytes + [UInt8](repeating: UInt8(ascii: "]"), count: 1_000_000)
  #expect(throws: JSONParseError(offset: 1024, reason: "nesting deeper than 1024")) {
    try JSONReader.parse(nested, maxDepth: .max)
  }
  let limit = JSONReader.maxSupportedDepth
  let deepest = Array(nested[(1_000_000 - limit)..<(1_000_000 + limit)])
  _ = try JSONReader.parse(deepest, maxDepth: .max)
}

@Test func duplicateKeysLastWins() throws {
  let value = try parse(#"{"a":1,"b":2,"a":3}"#)
  #expect(value["a"] == .integer(3))
  #expect(value.objectValue?.members.count == 3)
}

@Test func nestedStructures() throws {
  let value = try parse(#" { "a" : [ 1 , { "b" : null } , [ ] , { } ] , "c" : true } "#)
  let expected: JSONValue = ["a": [1, ["b": .null], [], [:]], "c": true]
  #expect(value == expected)
}

@Test func parsesASlice() throws {
  let bytes = Array("xx[1]yy".utf8)
  #expect(try JSONReader.parse(bytes[2..<5]) == [1])
  #expect(throws: JSONParseError(offset: 0, reason: "unexpected character 'x'")) {
    try JSONReader.parse(bytes[0..<3])
  }
}

@Test func typicalRequest() throws {
  let text =
    #"{"jsonrpc":"2.0","id":12,"method":"field/change","params":{"field":"f1","text":"red, gre"}}"#
  let value = try parse(text)
  #expect(value["id"] == .integer(12))
  #expect(value["params"]?["text"]?.stringValue == "red, gre")
}

/// Every lead byte with continuation candidates at each boundary of Unicode Table 3-7, inside a
/// string after ASCII text: the reader accepts exactly what the standard library's UTF-8
/// validation accepts (the string scan has a fast path for common sequences and the exact
/// check for the rest), and the text read back is those bytes.
@Test func utf8AcceptedExactlyAsTheStandardLibraryValidates() {
  let edges: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]
  var accepted = 0
  var rejected = 0
  for lead in UInt8(0x80)...UInt8(0xFF) {
    for second in edges {
      for third in edges {
        for fourth in edges {
          let sequence = [lead, second, third, fourth]
          let body = [0x22, 0x61, 0x62] + sequence + [0x22]
          // What the sequence is worth as string content: valid UTF-8 without raw control
          // characters, quotes or backslashes (never in these bytes but 0x00 and 0x41/0x7F).
          let valid =
            String(validating: sequence, as: UTF8.self) != nil
            && !sequence.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C })
          let value = try? JSONReader.parse(body)
          #expect((value != nil) == valid, "\(sequence.map { String($0, radix: 16) })")
          if valid {
            #expect(value == .string("ab" + String(decoding: sequence, as: UTF8.self)))
            accepted += 1
          } else {
            rejected += 1
          }
        }
      }
    }
  }
  #expect(accepted > 1000 && rejected > 1000)
}
