/// The iterative RFC 8259 parser behind ``JSONReader``; works on a borrowed byte buffer.
///
/// Containers being built live on explicit stacks (`containers`, `values`, `keys`), so the
/// nesting depth costs heap, never call stack.
struct JSONParser: JSONByteCursor {
  let input: UnsafeBufferPointer<UInt8>
  private let maxDepth: Int
  /// The offset of the next byte to read.
  var position = 0

  /// An open array or object: where its elements (and, for objects, keys) start on the stacks.
  private struct Container {
    var isObject: Bool
    var valueStart: Int
    var keyStart: Int
  }

  private var containers: [Container] = []
  private var values: [JSONValue] = []
  private var keys: [String] = []

  /// A parser of `input`.
  init(input: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
    self.input = input
    self.maxDepth = maxDepth
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
    guard containers.count < maxDepth else {
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
      // With `build` set the scan always yields the value.
      guard let number = try scanNumber(build: true) else { throw failure("unreadable number") }
      return number
    default:
      throw failure("unexpected \(describe(input[position]))")
    }
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
}
