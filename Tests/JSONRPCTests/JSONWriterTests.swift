import TagTestSupport
import Testing

@testable import JSONRPC

private func written(_ value: JSONValue) -> String {
  var writer = JSONWriter()
  writer.value(value)
  return String(decoding: writer.bytes, as: UTF8.self)
}

@Test(
  arguments: [
    (JSONValue.null, "null"),
    (true, "true"),
    (false, "false"),
    (.integer(-42), "-42"),
    (.integer(.min), "-9223372036854775808"),
    (.integer(.max), "9223372036854775807"),
    (.double(104), "104"),
    (.double(-0.0), "-0"),
    (.double(0), "0"),
    (.double(1.5), "1.5"),
    (.double(0.1), "0.1"),
    (.double(1e-7), "1e-07"),
    (.double(5e20), "5e+20"),
    (.double(9_007_199_254_740_992), "9007199254740992.0"),
    (.double(.infinity), "null"),
    (.double(-.infinity), "null"),
    (.double(.nan), "null"),
    ("a\"b\\c/d", #""a\"b\\c/d""#),
    ("\n\r\t\u{8}\u{C}\u{1}\u{1F}", #""\n\r\t\b\f\u0001\u001f""#),
    ("é€𝄞", "\"é€𝄞\""),
    ([], "[]"),
    ([:], "{}"),
    ([1, [2, [3]], ["a": [], "b": [:]]], #"[1,[2,[3]],{"a":[],"b":{}}]"#),
    (["a": 1, "b": "x"], #"{"a":1,"b":"x"}"#),
  ] as [(JSONValue, String)]
)
func writesValues(_ value: JSONValue, _ expected: String) {
  #expect(written(value) == expected)
}

@Test func insertsCommasAcrossNestingAndRaw() {
  var writer = JSONWriter()
  writer.beginObject()
  writer.key("a")
  writer.integer(1)
  writer.key("b")
  writer.beginArray()
  writer.raw(Array("{\"x\":1}".utf8))
  writer.beginObject()
  writer.endObject()
  writer.string("s")
  writer.endArray()
  writer.key("c")
  writer.null()
  writer.endObject()
  #expect(
    String(decoding: writer.bytes, as: UTF8.self) == #"{"a":1,"b":[{"x":1},{},"s"],"c":null}"#
  )
  writer.reset()
  writer.integer(7)
  #expect(writer.bytes == Array("7".utf8))
}

@Test func neverWritesARawNewline() throws {
  var controls = ""
  for scalar in 0..<0x20 { controls.unicodeScalars.append(Unicode.Scalar(UInt8(scalar))) }
  let value: JSONValue = [
    "text\nkey": .string("line1\nline2\r\n" + controls), "list": [.string("\u{2028}")],
  ]
  var writer = JSONWriter()
  writer.value(value)
  #expect(!writer.bytes.contains(0x0A))
  #expect(!writer.bytes.contains(0x0D))
  #expect(try JSONReader.parse(writer.bytes) == value)
}

@Test func doublesRoundTripBitForBit() throws {
  var generator = SplitMix64(seed: 0x7A6D)
  var samples: [Double] = [
    0.1, 1e-7, 5e20, 1e16, 9_007_199_254_740_994, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
    .leastNormalMagnitude, -Double.leastNormalMagnitude / 3, 123_456.789, -0.0,
  ]
  for _ in 0..<5000 {
    let candidate = Double(bitPattern: generator.next())
    if candidate.isFinite { samples.append(candidate) }
    samples.append(Double.random(in: -1e6...1e6, using: &generator))
  }
  for sample in samples {
    var writer = JSONWriter()
    writer.double(sample)
    let back = try JSONReader.parse(writer.bytes)
    let bits: UInt64? =
      switch back {
      case .double(let value): value.bitPattern
      case .integer(let value): Double(value).bitPattern
      default: nil
      }
    #expect(
      bits == sample.bitPattern,
      "\(sample) → \(String(decoding: writer.bytes, as: UTF8.self))"
    )
  }
}

@Test func writesMessages() {
  var writer = JSONWriter()
  writer.response(id: .integer(1)) { $0.value(["ok": true]) }
  #expect(
    String(decoding: writer.bytes, as: UTF8.self)
      == #"{"jsonrpc":"2.0","id":1,"result":{"ok":true}}"#
  )
  writer.reset()
  writer.errorResponse(
    id: nil,
    error: ResponseError(code: .parseError, message: "Parse error", data: [1])
  )
  #expect(
    String(decoding: writer.bytes, as: UTF8.self)
      == #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error","data":[1]}}"#
  )
  writer.reset()
  writer.errorResponse(id: .string("a"), error: ResponseError(code: .methodNotFound, message: "no"))
  #expect(
    String(decoding: writer.bytes, as: UTF8.self)
      == #"{"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"no"}}"#
  )
  writer.reset()
  writer.notification(method: "n") { $0.null() }
  #expect(
    String(decoding: writer.bytes, as: UTF8.self)
      == #"{"jsonrpc":"2.0","method":"n","params":null}"#
  )
}

/// The bytes tagd 1.0 wrote for a double.
///
/// Integral values below 2^53 as integers, everything else through `description`. The number
/// writer must produce exactly these.
private func descriptionRule(_ value: Double) -> String {
  guard value.isFinite else { return "null" }
  if value.magnitude < 9_007_199_254_740_992, Double(Int64(value)) == value {
    return value == 0 && value.sign == .minus ? "-0" : String(Int64(value))
  }
  return value.description
}

@Test func doublesAreWrittenByteForByteAsDescriptionWrites() {
  var generator = SplitMix64(seed: 0xD7_0A)
  var samples: [Double] = [
    0.0001, 0.00012, 0.0001.nextDown, 0.0001.nextUp, 0.30000000000000004, 562_949_953_421_312.25,
    1e15 + 0.5, 0.1, 100.5, 4_503_599_627_370_495.5, 0x1p52.nextDown, 0x1p53.nextDown, 0.5,
    1.0.nextDown, 1.0.nextUp, 2.0.nextDown, 1e-4 * 3, 2.675, 1.005, 123_456_789_012_345.6,
  ]
  for power in -20...60 {
    let base = Double(sign: .plus, exponent: power, significand: 1)
    samples += [base, base.nextUp, base.nextDown, -base.nextUp]
  }
  for _ in 0..<20_000 {
    // Bits anywhere, and the shapes layouts produce: halves, quarters, mixes, decimals.
    samples.append(Double(bitPattern: generator.next()))
    let a = Double(Int.random(in: 0...2_000, using: &generator))
    let b = Double(Int.random(in: 0...2_000, using: &generator))
    let p = Double(Int.random(in: 0...1_000, using: &generator)) / 1_000
    samples.append((1 - p) * a + p * b)
    samples.append(a / Double(Int.random(in: 1...64, using: &generator)))
    samples.append(
      Double(Int.random(in: -1_000_000...1_000_000, using: &generator))
        / [10.0, 100, 1000, 1e6, 1e9][Int.random(in: 0...4, using: &generator)]
    )
    samples.append(Double.random(in: -1e15...1e15, using: &generator))
    samples.append(Double.random(in: 0.0001...0.01, using: &generator))
  }
  var mismatches: [String] = []
  for sample in samples {
    var writer = JSONWriter()
    writer.double(sample)
    let written = String(decoding: writer.bytes, as: UTF8.self)
    if written != descriptionRule(sample) {
      mismatches.append("\(sample.bitPattern): \(written) vs \(descriptionRule(sample))")
    }
  }
  #expect(mismatches.isEmpty, "\(mismatches.count) differ, e.g. \(mismatches.prefix(5))")
}

/// JSON's escaping of one string, written out by hand: the reference for the writer's paths.
private func referenceQuoted(_ text: String) -> String {
  var out = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\r": out += "\\r"
    case "\t": out += "\\t"
    case "\u{08}": out += "\\b"
    case "\u{0C}": out += "\\f"
    case let c where c.value < 0x20:
      let hex = String(c.value, radix: 16)
      out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    default: out.unicodeScalars.append(scalar)
    }
  }
  return out + "\""
}

@Test func stringsOfEveryLengthAreEscapedAsTheReferenceDoes() {
  // Short strings take a copy-and-check loop, long ones the word-at-a-time scan; small
  // (inline) and heap strings lend their bytes differently. All must agree with the reference.
  let alphabet: [Unicode.Scalar] = [
    "a", "Z", " ", "\"", "\\", "\n", "\u{01}", "\u{1F}", "/", "é", "€", "😀",
  ]
  var random = SystemRandomNumberGenerator()
  for length in 0...48 {
    for _ in 0..<40 {
      var text = ""
      for _ in 0..<length {
        // Mostly plain letters, so many strings have no escape at all.
        let pick = Int.random(in: 0..<(alphabet.count * 3), using: &random)
        text.unicodeScalars.append(pick < alphabet.count ? alphabet[pick] : "x")
      }
      var w = JSONWriter()
      w.beginArray()
      w.string(text)
      w.string(text)
      w.endArray()
      let quoted = referenceQuoted(text)
      #expect(String(decoding: w.bytes, as: UTF8.self) == "[\(quoted),\(quoted)]")
    }
  }
}

/// A member written and taken back leaves the writer as it was, comma state included, wherever
/// the mark was taken: after a value, after a key, right after `{`.
@Test func rewindingToAMarkTakesBackTheCommaStateToo() {
  var w = JSONWriter()
  w.beginObject()
  let first = w.mark()
  w.key("gone")
  w.integer(1)
  w.rewind(to: first)
  w.key("a")
  let afterKey = w.mark()
  w.beginArray()
  w.rewind(to: afterKey)
  w.integer(1)
  let afterValue = w.mark()
  w.key("gone")
  w.string("x")
  w.rewind(to: afterValue)
  w.key("b")
  w.integer(2)
  w.endObject()
  #expect(String(decoding: w.bytes, as: UTF8.self) == #"{"a":1,"b":2}"#)
}
