import JSONRPC
import TagTestSupport
import Testing

// MARK: - Helpers

/// What reading `bytes` gives: the value, or the error (offset and reason).
private func parsed(_ bytes: [UInt8], maxDepth: Int = 512) -> Result<JSONValue, JSONParseError> {
  Result { () throws(JSONParseError) in try JSONReader.parse(bytes, maxDepth: maxDepth) }
}

/// How a scanner walks each value.
private enum Walk {
  /// Every value skipped: the full scan.
  case skip
  /// Every value pulled through the typed readers and rebuilt as a ``JSONValue``.
  case pull
  /// At random, per value: skipped or pulled.
  case mixed(seed: UInt64)
}

/// What scanning `bytes` with `walk` gives: the rebuilt value (`.null` for skipped parts), or
/// the error.
private func scanned(
  _ bytes: [UInt8],
  walk: Walk,
  maxDepth: Int = 512
) -> Result<JSONValue, JSONParseError> {
  bytes.withUnsafeBufferPointer { buffer in
    var scanner = JSONScanner(buffer, maxDepth: maxDepth)
    var random = SplitMix64(seed: { if case .mixed(let seed) = walk { seed } else { 0 } }())
    do {
      let value = try walkValue(&scanner, walk, &random)
      try scanner.finish()
      return .success(value)
    } catch let error as JSONParseError {
      return .failure(error)
    } catch {
      Issue.record("unexpected \(error)")
      return .success(.null)
    }
  }
}

private func walkValue(
  _ scanner: inout JSONScanner,
  _ walk: Walk,
  _ random: inout SplitMix64
) throws -> JSONValue {
  switch walk {
  case .skip:
    try scanner.skipValue()
    return .null
  case .pull:
    return try pull(&scanner, walk, &random)
  case .mixed:
    switch random.next() % 4 {
    case 0:
      try scanner.skipValue()
      return .null
    default: return try pull(&scanner, walk, &random)
    }
  }
}

/// One value through the typed readers; containers through begin/next.
private func pull(
  _ scanner: inout JSONScanner,
  _ walk: Walk,
  _ random: inout SplitMix64
) throws -> JSONValue {
  switch try scanner.kind() {
  case .object:
    // The other readers must refuse an object without consuming it.
    #expect(try scanner.readString() == nil)
    #expect(try scanner.readNumber() == nil)
    #expect(try scanner.beginArray() == false)
    #expect(try scanner.beginObject())
    var members: [JSONMember] = []
    while let key = try scanner.nextKey() {
      members.append(JSONMember(key.string, try walkValue(&scanner, walk, &random)))
    }
    return .object(JSONObject(members))
  case .array:
    #expect(try scanner.readBool() == nil)
    #expect(try scanner.beginObject() == false)
    #expect(try scanner.beginArray())
    var elements: [JSONValue] = []
    while try scanner.nextElement() {
      elements.append(try walkValue(&scanner, walk, &random))
    }
    return .array(elements)
  case .string:
    #expect(try scanner.readNull() == false)
    guard let text = try scanner.readString() else { fatalError("kind said string") }
    return .string(text)
  case .number:
    #expect(try scanner.readStringBytes() == nil)
    guard let number = try scanner.readNumber() else { fatalError("kind said number") }
    return number
  case .bool:
    guard let flag = try scanner.readBool() else { fatalError("kind said bool") }
    return .bool(flag)
  case .null:
    #expect(try scanner.readString() == nil)
    #expect(try scanner.readNull())
    return .null
  }
}

/// `a` and `b` agree: the same error, or (when `compareValues`) the same value.
private func agree(
  _ a: Result<JSONValue, JSONParseError>,
  _ b: Result<JSONValue, JSONParseError>,
  compareValues: Bool
) -> Bool {
  switch (a, b) {
  case (.failure(let x), .failure(let y)): return x == y
  case (.success(let x), .success(let y)): return !compareValues || same(x, y)
  default: return false
  }
}

/// Equality that tells -0.0 from 0.0 and matches NaN-free infinities.
private func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
  switch (a, b) {
  case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern
  case (.array(let x), .array(let y)):
    return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
  case (.object(let x), .object(let y)):
    return x.members.count == y.members.count
      && zip(x.members, y.members).allSatisfy { $0.key == $1.key && same($0.value, $1.value) }
  default: return a == b
  }
}

private func text(_ bytes: [UInt8]) -> String {
  String(decoding: bytes.prefix(120), as: UTF8.self)
}

// MARK: - The public JSON suite

/// Skipped, with the suite's reason, where the suite is not beside the checkout.
@Suite(.enabled(if: JSONTestSuite.isPresent, Comment(rawValue: JSONTestSuite.absentReason)))
struct ScannerSuiteTests {
  @Test(arguments: JSONTestSuite.names)
  func scannerAgreesWithReaderOnTheSuite(_ name: String) {
    let bytes = JSONTestSuite.bytes(name)
    let reference = parsed(bytes)
    #expect(agree(reference, scanned(bytes, walk: .skip), compareValues: false), "skip \(name)")
    #expect(agree(reference, scanned(bytes, walk: .pull), compareValues: true), "pull \(name)")
    for seed in UInt64(1)...3 {
      #expect(
        agree(reference, scanned(bytes, walk: .mixed(seed: seed)), compareValues: false),
        "mixed \(seed) \(name)"
      )
    }
  }

  @Test func suiteFilesArePresentForTheScanner() {
    #expect(JSONTestSuite.names.count >= 318)
  }
}

// MARK: - Generated documents

/// Random JSON text exercising every rule: nesting, escapes of every kind, surrogate pairs,
/// raw UTF-8, numbers of every shape (big, -0, exponents, 1e400), random whitespace.
private struct DocumentGenerator {
  var random: SplitMix64

  mutating func pick<T>(_ choices: [T]) -> T {
    choices[Int(random.next() % UInt64(choices.count))]
  }

  mutating func space() -> String {
    random.next() % 3 == 0 ? pick([" ", "\n", "\t", "\r\n  ", ""]) : ""
  }

  mutating func value(depth: Int) -> String {
    let roll = random.next() % 10
    if depth > 0 && roll < 2 {
      let count = Int(random.next() % 5)
      let members = (0..<count).map { _ in
        space() + string() + space() + ":" + space() + value(depth: depth - 1) + space()
      }
      return "{" + space() + members.joined(separator: ",") + "}"
    }
    if depth > 0 && roll < 4 {
      let count = Int(random.next() % 5)
      let elements = (0..<count).map { _ in space() + value(depth: depth - 1) + space() }
      return "[" + space() + elements.joined(separator: ",") + "]"
    }
    switch roll {
    case 4, 5: return string()
    case 6, 7: return number()
    default: return pick(["true", "false", "null"])
    }
  }

  mutating func string() -> String {
    let pieces = [
      "a", "field", "text", " ", "é", "日本", "😀", "\\n", "\\\"", "\\\\", "\\/", "\\b", "\\f",
      "\\r", "\\t", "\\u0041", "\\u00e9", "\\u2028", "\\ud83d\\ude00", "\\u0000", "\\uFFFF",
    ]
    return "\"" + random.string(from: pieces, maxLength: 6) + "\""
  }

  mutating func number() -> String {
    switch random.next() % 9 {
    case 0: return String(Int64(bitPattern: random.next()))
    case 1: return "-0"
    case 2: return pick(["0", "-0.0", "1e400", "-1e400", "1E-400", "0.1", "1.5e+3", "2E2"])
    case 3: return "9223372036854775807"
    case 4: return pick(["9223372036854775808", "-9223372036854775808", "-9223372036854775809"])
    case 5: return "123456789012345678901234567890"
    case 6: return String(Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF))
    case 7: return "\(random.next() % 1000).\(random.next() % 1000)e-\(random.next() % 30)"
    default: return String(random.next() % 100_000)
    }
  }
}

/// A byte-level mutation of `bytes`: truncate, flip, insert or delete.
private func mutate(_ bytes: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
  guard !bytes.isEmpty else { return [UInt8(random.next() & 0xFF)] }
  var bytes = bytes
  let index = Int(random.next() % UInt64(bytes.count))
  let interesting: [UInt8] = [
    0x22, 0x5C, 0x2C, 0x3A, 0x7B, 0x7D, 0x5B, 0x5D, 0x20, 0x00, 0x1F, 0x2D, 0x2E, 0x65, 0x30,
    0x75, 0x80, 0xBF, 0xC0, 0xC3, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF,
  ]
  switch random.next() % 4 {
  case 0: bytes.removeSubrange(index...)
  case 1: bytes[index] = interesting[Int(random.next() % UInt64(interesting.count))]
  case 2: bytes.insert(interesting[Int(random.next() % UInt64(interesting.count))], at: index)
  default: bytes.remove(at: index)
  }
  return bytes
}

@Test(arguments: Array(UInt64(1)...UInt64(8)))
func scannerAgreesWithReaderOnGeneratedDocuments(seed: UInt64) {
  var generator = DocumentGenerator(random: SplitMix64(seed: seed))
  var random = SplitMix64(seed: seed ^ 0x5CA7)
  var valid = 0
  var invalid = 0
  for round in 0..<400 {
    let document = Array((generator.space() + generator.value(depth: 5) + generator.space()).utf8)
    var cases = [document]
    for _ in 0..<4 { cases.append(mutate(cases.last ?? document, &random)) }
    for bytes in cases {
      let reference = parsed(bytes)
      if case .success = reference { valid += 1 } else { invalid += 1 }
      #expect(
        agree(reference, scanned(bytes, walk: .skip), compareValues: false),
        "skip, seed \(seed) round \(round): \(text(bytes))"
      )
      #expect(
        agree(reference, scanned(bytes, walk: .pull), compareValues: true),
        "pull, seed \(seed) round \(round): \(text(bytes))"
      )
      #expect(
        agree(reference, scanned(bytes, walk: .mixed(seed: random.next())), compareValues: false),
        "mixed, seed \(seed) round \(round): \(text(bytes))"
      )
    }
  }
  // Both kinds of input must really have been tried.
  #expect(valid > 400)
  #expect(invalid > 400)
}

// MARK: - Limits and keys

@Test(arguments: [1, 2, 63, 64, 65, 130, 512])
func scannerHasTheReadersDepthLimit(maxDepth: Int) {
  for depth in [maxDepth - 1, maxDepth, maxDepth + 1] where depth >= 0 {
    for open in ["[", "{\"k\":"] {
      let close = open == "[" ? "]" : "}"
      let bytes = Array(
        (String(repeating: open, count: depth) + "0" + String(repeating: close, count: depth)).utf8
      )
      let reference = parsed(bytes, maxDepth: maxDepth)
      #expect(
        agree(reference, scanned(bytes, walk: .skip, maxDepth: maxDepth), compareValues: false)
      )
      #expect(
        agree(reference, scanned(bytes, walk: .pull, maxDepth: maxDepth), compareValues: true)
      )
      #expect(
        agree(
          reference,
          scanned(bytes, walk: .mixed(seed: UInt64(depth)), maxDepth: maxDepth),
          compareValues: false
        )
      )
    }
  }
}

@Test func keysCompareAsBytesAndThroughEscapes() throws {
  let bytes = Array(#"{"field":1,"f\u0069eld":2,"fiel":3,"fields":4,"":5}"#.utf8)
  try bytes.withUnsafeBufferPointer { buffer in
    var scanner = JSONScanner(buffer)
    #expect(try scanner.beginObject())
    var matches: [Bool] = []
    while let key = try scanner.nextKey() {
      matches.append(key == "field")
      try scanner.skipValue()
    }
    try scanner.finish()
    #expect(matches == [true, true, false, false, false])
  }
}

/// Long names are compared a word at a time: a difference in any byte still tells them apart.
@Test func longKeysCompareEveryByte() throws {
  for name: StaticString in ["contentChanges", "field/didChange!!", "abcdefgh"] {
    let text = Array("\(name)".utf8)
    for changed in [nil] + Array(text.indices) {
      var key = text
      if let changed { key[changed] ^= 0x01 }
      let bytes = Array("{\"".utf8) + key + Array("\":1}".utf8)
      try bytes.withUnsafeBufferPointer { buffer throws in
        var scanner = JSONScanner(buffer)
        #expect(try scanner.beginObject())
        #expect(try scanner.nextKey().map { $0 == name } == (changed == nil), "\(name) \(key)")
      }
    }
  }
}

@Test func stringBytesAreBorrowedFromTheInput() throws {
  let bytes = Array(#"["plain","esc\"aped"]"#.utf8)
  try bytes.withUnsafeBufferPointer { buffer in
    var scanner = JSONScanner(buffer)
    #expect(try scanner.beginArray())
    #expect(try scanner.nextElement())
    let plain = try #require(try scanner.readStringBytes())
    #expect(!plain.hasEscapes)
    #expect(plain.raw.baseAddress == buffer.baseAddress.map { $0 + 2 })
    #expect(try scanner.nextElement())
    let escaped = try #require(try scanner.readStringBytes())
    #expect(escaped.hasEscapes)
    #expect(escaped.string == #"esc"aped"#)
    #expect(try scanner.nextElement() == false)
    try scanner.finish()
  }
}

/// Strings of up to eighteen bytes, as keys and as values, of bytes that end a one- or two-word string
/// early or send it to the full scan (a quote, a backslash, a control character, bytes of a
/// multi-byte or a broken sequence): the scanner reads the string a byte-by-byte decoder of
/// the same bytes reads, or fails where it fails. (Not compared with ``JSONReader``, which
/// reads its strings with the scanner.)
@Test(arguments: Array(0...18))
func shortStringsReadAsAByteByByteDecoderReadsThem(length: Int) {
  let alphabet: [[UInt8]] = [
    [0x61], [0x22], [0x5C], [0x5C, 0x6E], [0x01], [0xC3, 0xA9], [0xFF], [0x7F],
  ]
  var random = SplitMix64(seed: UInt64(length) &+ 91)
  for _ in 0..<400 {
    var content: [UInt8] = []
    for _ in 0..<length { content += alphabet[Int.random(in: 0..<alphabet.count, using: &random)] }
    let string = [0x22] + content + [0x22]
    let expected = decodedByteByByte(content)
    let padding = Array(#",         "z":0}"#.utf8)
    let documents: [(bytes: [UInt8], key: Bool)] = [
      (Array(#"{"#.utf8) + string + Array(#":1"#.utf8) + padding, true),
      (Array(#"{"k":"#.utf8) + string + padding, false),
    ]
    for (document, asKey) in documents {
      let read: String? = document.withUnsafeBufferPointer { buffer in
        var scanner = JSONScanner(buffer, maxDepth: 8)
        do {
          guard try scanner.beginObject(), let key = try scanner.nextKey() else { return nil }
          let read: String?
          if asKey {
            read = key.string
            try scanner.skipValue()
          } else {
            read = try scanner.readString()
          }
          // The string ended where its closing quote is: the rest reads as written.
          guard let next = try scanner.nextKey(), next == "z" else { return nil }
          try scanner.skipValue()
          guard try scanner.nextKey() == nil else { return nil }
          try scanner.finish()
          return read
        } catch {
          return nil
        }
      }
      #expect(read == expected, "\(text(document))")
    }
  }
}

/// `content` as the text of a JSON string, decoded byte by byte (the escapes the test's
/// alphabet can spell); nil when `"content"` is not one valid JSON string.
private func decodedByteByByte(_ content: [UInt8]) -> String? {
  var decoded: [UInt8] = []
  var index = 0
  while index < content.count {
    let byte = content[index]
    guard byte != 0x22, byte >= 0x20 else { return nil }
    guard byte == 0x5C else {
      decoded.append(byte)
      index += 1
      continue
    }
    guard index + 1 < content.count else { return nil }
    switch content[index + 1] {
    case 0x6E: decoded.append(0x0A)
    case 0x22, 0x5C: decoded.append(content[index + 1])
    default: return nil
    }
    index += 2
  }
  return String(validating: decoded, as: UTF8.self)
}

/// Numbers of every length around the plain-integer reading's limits (18 digits, the 19 an
/// Int64 may hold, more), with and without a leading zero, a sign, a fraction or an exponent,
/// at the end of the text or before more: the scanner reads what Swift's own parsers read
/// from the same text, and refuses a leading zero. (Not compared with ``JSONReader``, which
/// reads its numbers with the scanner.)
@Test(arguments: Array(1...22))
func numbersReadAsSwiftReadsThem(digits: Int) {
  var random = SplitMix64(seed: UInt64(digits) &+ 7)
  for _ in 0..<200 {
    var text = String(Int.random(in: 1...9, using: &random))
    for _ in 1..<digits { text += String(Int.random(in: 0...9, using: &random)) }
    if Bool.random(using: &random) { text = String(text.prefix(1) == "1" ? "0" : "9") + text }
    let sign = Int.random(in: 0..<4, using: &random) == 0 ? "-" : ""
    let tail = ["", "", ".5", "e2", "E+1"][Int.random(in: 0..<5, using: &random)]
    let number = sign + text + tail
    let leadingZero = text.count > 1 && text.first == "0"
    let expected: JSONValue? =
      leadingZero
      ? nil
      : tail.isEmpty
        ? Int64(number).map(JSONValue.integer) ?? Double(number).map(JSONValue.double)
        : Double(number).map(JSONValue.double)
    for document in ["[\(number)]", "[\(number),1]", "[\(number) ]"] {
      let bytes = Array(document.utf8)
      let read: JSONValue? = bytes.withUnsafeBufferPointer { buffer in
        var scanner = JSONScanner(buffer, maxDepth: 8)
        do {
          guard try scanner.beginArray() else { return nil }
          var values: [JSONValue] = []
          while try scanner.nextElement() {
            guard let value = try scanner.readNumber() else { return nil }
            values.append(value)
          }
          try scanner.finish()
          return values.first
        } catch {
          return nil
        }
      }
      #expect(read.map { same($0, expected ?? .null) } ?? (expected == nil), "\(document)")
    }
  }
}
