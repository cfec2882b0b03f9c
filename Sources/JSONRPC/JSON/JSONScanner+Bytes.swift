/// The scanner's byte-level reading — whitespace, literals, numbers, UTF-8 sequences, `\u`
/// escapes — and the wording of its errors, which the tree (``JSONReader``) shares by reading
/// through the scanner.
extension JSONScanner {
  mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
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

  /// Decodes `\uXXXX` (and its low-surrogate partner) at `position`; rejects lone surrogates.
  mutating func decodeUnicodeEscape() throws(JSONParseError) -> UInt32 {
    let escapeStart = position
    let first = try readHex4(at: position + 2)
    position += 6
    guard (0xD800...0xDFFF).contains(first) else { return first }
    // A high surrogate followed by a low one's escape is one scalar; any other is alone.
    if first <= 0xDBFF, input.count - position >= 6, input[position] == UInt8(ascii: "\\"),
      input[position + 1] == UInt8(ascii: "u")
    {
      let second = try readHex4(at: position + 2)
      if (0xDC00...0xDFFF).contains(second) {
        position += 6
        return 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
      }
    }
    throw JSONParseError(offset: escapeStart, reason: "lone surrogate escape \\u\(hex4(first))")
  }

  func readHex4(at offset: Int) throws(JSONParseError) -> UInt32 {
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

  /// Writes `scalar` as UTF-8 at `to` and returns its length: 0 (nothing written) when it
  /// needs more than `room` bytes.
  static func encodeScalar(_ scalar: UInt32, into to: UnsafeMutablePointer<UInt8>, room: Int) -> Int
  {
    let length = scalar < 0x80 ? 1 : scalar < 0x800 ? 2 : scalar < 0x10000 ? 3 : 4
    guard length <= room else { return 0 }
    switch length {
    case 1:
      to[0] = UInt8(truncatingIfNeeded: scalar)
    case 2:
      to[0] = UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6)
      to[1] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
    case 3:
      to[0] = UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12)
      to[1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
      to[2] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
    default:
      to[0] = UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18)
      to[1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F)
      to[2] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
      to[3] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
    }
    return length
  }

  /// The length of the UTF-8 sequence at `position` when it is well formed and of a common kind,
  /// else nil.
  ///
  /// The common kinds: two bytes; three after a lead other than E0 and ED; four after F0 with
  /// 90–BF, or after F1–F3. The string scan's fast path: every other lead, and every error,
  /// goes to ``skipUTF8Sequence()``, which names it.
  @inline(__always)
  func wellFormedSequence(at position: Int) -> Int? {
    let left = input.count - position
    guard left >= 2 else { return nil }
    let lead = input[position]
    let second = input[position + 1]
    guard second & 0xC0 == 0x80 else { return nil }
    switch lead {
    case 0xC2...0xDF:
      return 2
    case 0xE1...0xEC, 0xEE...0xEF:
      return left >= 3 && input[position + 2] & 0xC0 == 0x80 ? 3 : nil
    case 0xF0 where second >= 0x90, 0xF1...0xF3:
      guard left >= 4, input[position + 2] & 0xC0 == 0x80, input[position + 3] & 0xC0 == 0x80
      else { return nil }
      return 4
    default:
      return nil
    }
  }

  /// Validates one multi-byte UTF-8 sequence at `position` (Unicode Table 3-7) and skips it.
  mutating func skipUTF8Sequence() throws(JSONParseError) {
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

  @inline(__always)
  mutating func skipWhitespace() {
    while position < input.count {
      switch input[position] {
      case 0x20, 0x0A, 0x0D, 0x09: position += 1
      default: return
      }
    }
  }

  func isDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10
  }

  func failure(_ reason: String) -> JSONParseError {
    JSONParseError(offset: position, reason: reason)
  }

  func describe(_ byte: UInt8) -> String {
    (0x21..<0x7F).contains(byte) ? "character '\(describeRaw(byte))'" : "byte \(hex(byte))"
  }

  func describeRaw(_ byte: UInt8) -> String {
    (0x21..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : hex(byte)
  }

  func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return byte < 0x10 ? "0x0\(digits)" : "0x\(digits)"
  }

  func hex4(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  /// Scans a number; its value (as ``JSONReader`` reads it) only when `build` is set.
  mutating func scanNumber(build: Bool) throws(JSONParseError) -> JSONValue? {
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
        if build && fitsInteger {
          let digit = Int64(input[position] &- UInt8(ascii: "0"))
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
    // Reading the text as a Double cannot fail for this grammar, so a skip need not do it.
    guard build else { return nil }
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

  mutating func skipDigits(after what: StaticString) throws(JSONParseError) {
    guard position < input.count, isDigit(input[position]) else {
      throw failure("expected a digit after \(what)")
    }
    while position < input.count, isDigit(input[position]) { position += 1 }
  }
}
