/// The iterative RFC 8259 parser behind ``JSONReader``; works on a borrowed byte buffer.
///
/// Containers being built live on explicit stacks (`containers`, `values`, `keys`), so the
/// nesting depth costs heap, never call stack.
struct JSONParser {
  private let input: UnsafeBufferPointer<UInt8>
  private let maxDepth: Int
  /// The offset of the next byte to read.
  private(set) var position = 0

  /// An open array or object: where its elements (and, for objects, keys) start on the stacks.
  private struct Container {
    var isObject: Bool
    var valueStart: Int
    var keyStart: Int
  }

  private var containers: [Container] = []
  private var values: [JSONValue] = []
  private var keys: [String] = []

  /// Containers already open around `position` (a ``JSONScanner`` reading one dynamic value).
  private let outerDepth: Int

  /// A parser of `input` from `position`, inside `outerDepth` open containers
  /// (``JSONScanner`` reads a dynamic value through it).
  init(input: UnsafeBufferPointer<UInt8>, maxDepth: Int, position: Int = 0, outerDepth: Int = 0) {
    self.input = input
    self.maxDepth = maxDepth
    self.position = position
    self.outerDepth = outerDepth
    // One allocation each up front instead of several regrowths on typical messages.
    containers.reserveCapacity(8)
    values.reserveCapacity(16)
    keys.reserveCapacity(16)
  }

  /// Parses the whole input as one JSON text with optional surrounding whitespace.
  mutating func parseDocument() throws(JSONParseError) -> JSONValue {
    let value = try parseValue()
    skipWhitespace()
    if position < input.count {
      throw failure("unexpected \(describe(input[position])) after the JSON text")
    }
    return value
  }

  // MARK: Structure

  /// Parses one value (with the whitespace before it) from `position`.
  mutating func parseValue() throws(JSONParseError) -> JSONValue {
    var current: JSONValue
    expectingValue: while true {
      skipWhitespace()
      guard position < input.count else { throw failure("unexpected end of input") }
      switch input[position] {
      case UInt8(ascii: "{"):
        try open(isObject: true)
        skipWhitespace()
        if position < input.count, input[position] == UInt8(ascii: "}") {
          position += 1
          containers.removeLast()
          current = .object(JSONObject())
        } else {
          try parseKeyAndColon()
          continue expectingValue
        }
      case UInt8(ascii: "["):
        try open(isObject: false)
        skipWhitespace()
        if position < input.count, input[position] == UInt8(ascii: "]") {
          position += 1
          containers.removeLast()
          current = .array([])
        } else {
          continue expectingValue
        }
      default:
        current = try parseScalar()
      }

      // A value is complete: store it in its container, closing containers as they end.
      while let top = containers.last {
        values.append(current)
        skipWhitespace()
        guard position < input.count else { throw failure("unexpected end of input") }
        let byte = input[position]
        if byte == UInt8(ascii: ",") {
          position += 1
          if top.isObject {
            skipWhitespace()
            try parseKeyAndColon()
          }
          continue expectingValue
        }
        if top.isObject ? byte == UInt8(ascii: "}") : byte == UInt8(ascii: "]") {
          position += 1
          containers.removeLast()
          current = close(top)
          continue
        }
        throw failure(
          "expected ',' or '\(top.isObject ? "}" : "]")' but found \(describe(byte))"
        )
      }
      return current
    }
  }

  private mutating func open(isObject: Bool) throws(JSONParseError) {
    guard containers.count + outerDepth < maxDepth else {
      throw failure("nesting deeper than \(maxDepth)")
    }
    containers.append(
      Container(isObject: isObject, valueStart: values.count, keyStart: keys.count)
    )
    position += 1
  }

  private mutating func close(_ container: Container) -> JSONValue {
    let count = values.count - container.valueStart
    defer { values.removeSubrange(container.valueStart...) }
    guard container.isObject else {
      return .array(Array(values[container.valueStart...]))
    }
    var members: [JSONMember] = []
    members.reserveCapacity(count)
    for index in 0..<count {
      members.append(
        JSONMember(keys[container.keyStart + index], values[container.valueStart + index])
      )
    }
    keys.removeSubrange(container.keyStart...)
    return .object(JSONObject(members))
  }

  private mutating func parseKeyAndColon() throws(JSONParseError) {
    guard position < input.count else { throw failure("unexpected end of input") }
    guard input[position] == UInt8(ascii: "\"") else {
      throw failure("expected a string key but found \(describe(input[position]))")
    }
    keys.append(try parseString())
    skipWhitespace()
    guard position < input.count else { throw failure("unexpected end of input") }
    guard input[position] == UInt8(ascii: ":") else {
      throw failure("expected ':' but found \(describe(input[position]))")
    }
    position += 1
  }

  // MARK: Scalars

  private mutating func parseScalar() throws(JSONParseError) -> JSONValue {
    switch input[position] {
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"):
      try expectLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expectLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expectLiteral("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return try parseNumber()
    default:
      throw failure("unexpected \(describe(input[position]))")
    }
  }

  private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
    let count = literal.utf8CodeUnitCount
    let matches = literal.withUTF8Buffer { expected in
      guard input.count - position >= count else { return false }
      for index in 0..<count where input[position + index] != expected[index] {
        return false
      }
      return true
    }
    guard matches else { throw failure("invalid literal, expected '\(literal)'") }
    position += count
  }

  private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
    let start = position
    let negative = input[position] == UInt8(ascii: "-")
    if negative { position += 1 }
    guard position < input.count, isDigit(input[position]) else {
      throw failure("expected a digit in a number")
    }
    var integer: Int64 = 0
    var fitsInteger = true
    if input[position] == UInt8(ascii: "0") {
      position += 1
      if position < input.count, isDigit(input[position]) {
        throw failure("leading zero in a number")
      }
    } else {
      while position < input.count, isDigit(input[position]) {
        let digit = Int64(input[position] &- UInt8(ascii: "0"))
        if fitsInteger {
          let (scaled, overflow1) = integer.multipliedReportingOverflow(by: 10)
          let (next, overflow2) =
            negative
            ? scaled.subtractingReportingOverflow(digit) : scaled.addingReportingOverflow(digit)
          if overflow1 || overflow2 { fitsInteger = false } else { integer = next }
        }
        position += 1
      }
    }
    var isInteger = true
    if position < input.count, input[position] == UInt8(ascii: ".") {
      isInteger = false
      position += 1
      try skipDigits(after: "'.'")
    }
    if position < input.count, input[position] | 0x20 == UInt8(ascii: "e") {
      isInteger = false
      position += 1
      if position < input.count,
        input[position] == UInt8(ascii: "+") || input[position] == UInt8(ascii: "-")
      {
        position += 1
      }
      try skipDigits(after: "the exponent")
    }
    if isInteger && fitsInteger {
      return negative && integer == 0 ? .double(-0.0) : .integer(integer)
    }
    let text = String(
      decoding: UnsafeBufferPointer(rebasing: input[start..<position]),
      as: UTF8.self
    )
    guard let double = Double(text) else {
      throw JSONParseError(offset: start, reason: "unreadable number")
    }
    return .double(double)
  }

  private mutating func skipDigits(after what: String) throws(JSONParseError) {
    guard position < input.count, isDigit(input[position]) else {
      throw failure("expected a digit after \(what)")
    }
    while position < input.count, isDigit(input[position]) { position += 1 }
  }

  // MARK: Strings

  /// Parses a string starting at its opening quote; the fast path copies an escape-free run once.
  private mutating func parseString() throws(JSONParseError) -> String {
    let opening = position
    position += 1
    let start = position
    while position < input.count {
      let byte = input[position]
      if byte == UInt8(ascii: "\"") {
        let text = String(
          decoding: UnsafeBufferPointer(rebasing: input[start..<position]),
          as: UTF8.self
        )
        position += 1
        return text
      }
      if byte == UInt8(ascii: "\\") { return try parseEscapedString(from: start) }
      if byte < 0x20 { throw failure("raw control character \(hex(byte)) in a string") }
      if byte < 0x80 { position += 1 } else { try skipUTF8Sequence() }
    }
    throw JSONParseError(offset: opening, reason: "unterminated string")
  }

  /// The slow path: the string has escapes, so its bytes are rebuilt in a buffer.
  private mutating func parseEscapedString(from start: Int) throws(JSONParseError) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(position - start + 16)
    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<position]))
    while position < input.count {
      let byte = input[position]
      if byte == UInt8(ascii: "\"") {
        position += 1
        return String(decoding: bytes, as: UTF8.self)
      }
      if byte == UInt8(ascii: "\\") {
        try decodeEscape(into: &bytes)
      } else if byte < 0x20 {
        throw failure("raw control character \(hex(byte)) in a string")
      } else if byte < 0x80 {
        bytes.append(byte)
        position += 1
      } else {
        let sequenceStart = position
        try skipUTF8Sequence()
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: input[sequenceStart..<position]))
      }
    }
    throw JSONParseError(offset: start - 1, reason: "unterminated string")
  }

  private mutating func decodeEscape(into bytes: inout [UInt8]) throws(JSONParseError) {
    guard position + 1 < input.count else { throw failure("unterminated escape") }
    let escaped = input[position + 1]
    let simple: UInt8
    switch escaped {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): simple = escaped
    case UInt8(ascii: "b"): simple = 0x08
    case UInt8(ascii: "f"): simple = 0x0C
    case UInt8(ascii: "n"): simple = 0x0A
    case UInt8(ascii: "r"): simple = 0x0D
    case UInt8(ascii: "t"): simple = 0x09
    case UInt8(ascii: "u"):
      appendScalar(try decodeUnicodeEscape(), to: &bytes)
      return
    default:
      throw failure("invalid escape '\\\(describeRaw(escaped))'")
    }
    bytes.append(simple)
    position += 2
  }

  /// Decodes `\uXXXX` (and its low-surrogate partner) at `position`; rejects lone surrogates.
  private mutating func decodeUnicodeEscape() throws(JSONParseError) -> UInt32 {
    let escapeStart = position
    let first = try readHex4(at: position + 2)
    position += 6
    switch first {
    case 0xD800...0xDBFF:
      guard input.count - position >= 6, input[position] == UInt8(ascii: "\\"),
        input[position + 1] == UInt8(ascii: "u")
      else {
        throw JSONParseError(offset: escapeStart, reason: "lone surrogate escape \\u\(hex4(first))")
      }
      let second = try readHex4(at: position + 2)
      guard (0xDC00...0xDFFF).contains(second) else {
        throw JSONParseError(offset: escapeStart, reason: "lone surrogate escape \\u\(hex4(first))")
      }
      position += 6
      return 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
    case 0xDC00...0xDFFF:
      throw JSONParseError(offset: escapeStart, reason: "lone surrogate escape \\u\(hex4(first))")
    default:
      return first
    }
  }

  private func readHex4(at offset: Int) throws(JSONParseError) -> UInt32 {
    guard input.count - offset >= 4 else {
      throw JSONParseError(offset: offset, reason: "truncated \\u escape")
    }
    var value: UInt32 = 0
    for index in offset..<(offset + 4) {
      let byte = input[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte &- UInt8(ascii: "A") &+ 10
      default: throw JSONParseError(offset: index, reason: "invalid hex digit in \\u escape")
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  private func appendScalar(_ scalar: UInt32, to bytes: inout [UInt8]) {
    switch scalar {
    case 0..<0x80:
      bytes.append(UInt8(truncatingIfNeeded: scalar))
    case 0x80..<0x800:
      bytes.append(UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6))
      bytes.append(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
      bytes.append(UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12))
      bytes.append(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
      bytes.append(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
    default:
      bytes.append(UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18))
      bytes.append(UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F))
      bytes.append(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
      bytes.append(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
    }
  }

  /// Validates one multi-byte UTF-8 sequence at `position` (Unicode Table 3-7) and skips it.
  private mutating func skipUTF8Sequence() throws(JSONParseError) {
    let lead = input[position]
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      high = 0x9F
    case 0xF0:
      length = 4
      low = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      high = 0x8F
    default: throw failure("invalid UTF-8")
    }
    guard input.count - position >= length, (low...high).contains(input[position + 1]) else {
      throw failure("invalid UTF-8")
    }
    for index in (position + 2)..<(position + length) where input[index] & 0xC0 != 0x80 {
      throw failure("invalid UTF-8")
    }
    position += length
  }

  // MARK: Helpers

  private mutating func skipWhitespace() {
    while position < input.count {
      switch input[position] {
      case 0x20, 0x0A, 0x0D, 0x09: position += 1
      default: return
      }
    }
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10
  }

  private func failure(_ reason: String) -> JSONParseError {
    JSONParseError(offset: position, reason: reason)
  }

  private func describe(_ byte: UInt8) -> String {
    (0x21..<0x7F).contains(byte) ? "character '\(describeRaw(byte))'" : "byte \(hex(byte))"
  }

  private func describeRaw(_ byte: UInt8) -> String {
    (0x21..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : hex(byte)
  }

  private func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return byte < 0x10 ? "0x0\(digits)" : "0x\(digits)"
  }

  private func hex4(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
