import JSONRPC
import TagTestSupport
import Testing

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
  writer.request(id: .double(1.5), method: "m") {
    $0.beginArray()
    $0.endArray()
  }
  #expect(
    String(decoding: writer.bytes, as: UTF8.self)
      == #"{"jsonrpc":"2.0","id":1.5,"method":"m","params":[]}"#
  )
  writer.reset()
  writer.notification(method: "n") { $0.null() }
  #expect(
    String(decoding: writer.bytes, as: UTF8.self)
      == #"{"jsonrpc":"2.0","method":"n","params":null}"#
  )
}
