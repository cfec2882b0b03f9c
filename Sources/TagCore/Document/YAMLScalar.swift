/// YAML scalars: reading plain, single- and double-quoted ones (YAML 1.2 rules, which PyYAML's
/// YAML 1.1 shares for strings), and writing a string so that YAML 1.1 and 1.2 parsers both
/// read it back as that string.
enum YAMLScalar {
  /// A scalar read from a document.
  struct Read {
    /// Its value; nil for a plain null (`~`, `null`, `Null`, `NULL`).
    var value: String?
    /// Its text, quotes included, trailing blanks excluded.
    var span: Range<Int>
  }

  /// Whether `byte` may not start a plain scalar (YAML's indicators: ``-?:,[]{}#&*!|>'"%@` ``).
  static func isIndicator(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: ","),
      UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"),
      UInt8(ascii: "#"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"),
      UInt8(ascii: "|"), UInt8(ascii: ">"), UInt8(ascii: "'"), UInt8(ascii: "\""),
      UInt8(ascii: "%"), UInt8(ascii: "@"), UInt8(ascii: "`"):
      true
    default: false
    }
  }

  /// Reads the scalar starting at `at`, which ends before `limit`.
  ///
  /// In `flow` context a plain scalar also stops at `,`, `]` and `}`; in block context its
  /// continuation lines must be indented at least `minIndent` spaces.
  static func read(
    _ doc: DocumentText,
    at: Int,
    limit: Int,
    flow: Bool,
    minIndent: Int
  ) throws(DocumentError) -> Read {
    let byte = doc.bytes[at]
    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
      return try quoted(doc, at: at, limit: limit)
    }
    if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
      throw .malformed(
        line: doc.lineNumber(at),
        problem: "an item is a \(byte == UInt8(ascii: "[") ? "list" : "mapping"), not a tag"
      )
    }
    if byte == UInt8(ascii: "&") || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "!") {
      throw .malformed(
        line: doc.lineNumber(at),
        problem: "anchors, aliases and tags (`&`, `*`, `!`) are not supported in the tags' value"
      )
    }
    if byte == UInt8(ascii: "|") || byte == UInt8(ascii: ">") {
      throw .malformed(
        line: doc.lineNumber(at),
        problem: "block scalars (`|`, `>`) are not supported in the tags' value"
      )
    }
    let next = at + 1 < doc.count ? doc.bytes[at + 1] : 0x0A
    let spaced = isBlank(next) || next == 0x0A || next == 0x0D
    if isIndicator(byte),
      !(byte == UInt8(ascii: "-") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: ":"))
        || spaced || (flow && ",[]{}".utf8.contains(next))
    {
      throw .malformed(
        line: doc.lineNumber(at),
        problem: "`\(Character(Unicode.Scalar(byte)))` cannot start a plain value here; quote it"
      )
    }
    return try plain(doc, at: at, limit: limit, flow: flow, minIndent: minIndent)
  }

  private static func plain(
    _ doc: DocumentText,
    at start: Int,
    limit: Int,
    flow: Bool,
    minIndent: Int
  ) throws(DocumentError) -> Read {
    let bytes = doc.bytes
    var value: [UInt8] = []
    var firstSegment: Range<Int>?
    var at = start
    var spanEnd = start
    while true {
      // One line's part.
      let end = min(doc.lineEnd(at), limit)
      var stopped = false
      var i = at
      while i < end {
        let b = bytes[i]
        if b == UInt8(ascii: "#"), i > at, isBlank(bytes[i - 1]) {
          stopped = true
          break
        }
        if b == UInt8(ascii: ":") {
          let n = i + 1 < end ? bytes[i + 1] : 0x20
          if isBlank(n) || (flow && ",[]{}".utf8.contains(n)) {
            throw .malformed(
              line: doc.lineNumber(i),
              problem: "`: ` makes this a mapping, not a tag; quote the tag"
            )
          }
        }
        if flow && (b == UInt8(ascii: ",") || b == UInt8(ascii: "]") || b == UInt8(ascii: "}")) {
          stopped = true
          break
        }
        if flow && (b == UInt8(ascii: "[") || b == UInt8(ascii: "{")) {
          throw .malformed(
            line: doc.lineNumber(i),
            problem: "`\(Character(Unicode.Scalar(b)))` inside a plain value; quote the tag"
          )
        }
        i += 1
      }
      let segmentEnd = doc.trimBlanks(i, from: at)
      if at == start {
        // The first line's part: most values have no other, and need no buffer.
        firstSegment = at..<segmentEnd
      } else {
        value += bytes[at..<segmentEnd]
      }
      if segmentEnd > at { spanEnd = segmentEnd }
      if stopped || end >= limit || i < end { break }
      // A continuation line: more indented (block), not a comment, not past the limit.
      var line = doc.afterBreak(end)
      var breaks = 0
      var next: Int?
      while line < limit {
        let lineEnd = doc.lineEnd(line)
        let first = doc.skipBlanks(line, to: lineEnd)
        if first == lineEnd {
          breaks += 1
          line = doc.afterBreak(lineEnd)
          continue
        }
        if bytes[first] == UInt8(ascii: "#") { break }
        if !flow && doc.indent(line) < minIndent { break }
        if flow && (bytes[first] == UInt8(ascii: ",") || bytes[first] == UInt8(ascii: "]")) {
          break
        }
        next = first
        break
      }
      guard let next else { break }
      if let first = firstSegment {
        value += bytes[first]
        firstSegment = nil
      }
      value += breaks == 0 ? [0x20] : [UInt8](repeating: 0x0A, count: breaks)
      at = next
    }
    let text = firstSegment.map(doc.string) ?? String(decoding: value, as: UTF8.self)
    let isNull = text == "~" || text == "null" || text == "Null" || text == "NULL"
    return Read(value: isNull ? nil : text, span: start..<spanEnd)
  }

  private static func quoted(
    _ doc: DocumentText,
    at start: Int,
    limit: Int
  ) throws(DocumentError) -> Read {
    let bytes = doc.bytes
    let quote = bytes[start]
    let double = quote == UInt8(ascii: "\"")
    var value: [UInt8] = []
    var kept = 0  // value[..<kept] is never trimmed by folding (escapes)
    var at = start + 1
    while true {
      guard at < limit else {
        throw .malformed(
          line: doc.lineNumber(start),
          problem: "the \(double ? "double" : "single")-quoted string is not closed"
        )
      }
      let b = bytes[at]
      if b == quote {
        if !double, at + 1 < limit, bytes[at + 1] == quote {
          value.append(quote)
          kept = value.count
          at += 2
          continue
        }
        return Read(
          value: String(decoding: value, as: UTF8.self),
          span: start..<(at + 1)
        )
      }
      if b == 0x0A || b == 0x0D {
        while value.count > kept, isBlank(value[value.count - 1]) { value.removeLast() }
        var line = doc.afterBreak(at)
        var breaks = 0
        while line < limit {
          let end = doc.lineEnd(line)
          let first = doc.skipBlanks(line, to: end)
          guard first == end, end < limit else {
            line = first
            break
          }
          breaks += 1
          line = doc.afterBreak(end)
        }
        value += breaks == 0 ? [0x20] : [UInt8](repeating: 0x0A, count: breaks)
        at = line
        continue
      }
      if double && b == UInt8(ascii: "\\") {
        at = try escape(doc, at: at, limit: limit, into: &value)
        kept = value.count
        continue
      }
      value.append(b)
      at += 1
    }
  }

  /// Reads the escape at `at` (a backslash) into `value`; returns the offset after it.
  private static func escape(
    _ doc: DocumentText,
    at: Int,
    limit: Int,
    into value: inout [UInt8]
  ) throws(DocumentError) -> Int {
    let bytes = doc.bytes
    guard at + 1 < limit else {
      throw .malformed(line: doc.lineNumber(at), problem: "the double-quoted string is not closed")
    }
    let code = bytes[at + 1]
    func append(_ scalar: Unicode.Scalar) { value += Array(String(Character(scalar)).utf8) }
    switch code {
    case UInt8(ascii: "0"): value.append(0)
    case UInt8(ascii: "a"): value.append(7)
    case UInt8(ascii: "b"): value.append(8)
    case UInt8(ascii: "t"), 0x09: value.append(9)
    case UInt8(ascii: "n"): value.append(10)
    case UInt8(ascii: "v"): value.append(11)
    case UInt8(ascii: "f"): value.append(12)
    case UInt8(ascii: "r"): value.append(13)
    case UInt8(ascii: "e"): value.append(27)
    case 0x20, UInt8(ascii: "\""), UInt8(ascii: "/"), UInt8(ascii: "\\"): value.append(code)
    case UInt8(ascii: "N"): append("\u{85}")
    case UInt8(ascii: "_"): append("\u{A0}")
    case UInt8(ascii: "L"): append("\u{2028}")
    case UInt8(ascii: "P"): append("\u{2029}")
    case 0x0A, 0x0D:
      // An escaped line break: the lines join with nothing between them.
      var line = doc.afterBreak(at + 1)
      while line < limit {
        let end = doc.lineEnd(line)
        let first = doc.skipBlanks(line, to: end)
        guard first == end, end < limit else {
          line = first
          break
        }
        value.append(0x0A)
        line = doc.afterBreak(end)
      }
      return line
    case UInt8(ascii: "x"), UInt8(ascii: "u"), UInt8(ascii: "U"):
      let digits = code == UInt8(ascii: "x") ? 2 : code == UInt8(ascii: "u") ? 4 : 8
      var number: UInt32 = 0
      for i in 0..<digits {
        let at = at + 2 + i
        guard at < limit, let digit = hexValue(bytes[at]) else {
          throw .malformed(
            line: doc.lineNumber(at),
            problem: "`\\\(Character(Unicode.Scalar(code)))` needs \(digits) hexadecimal digits"
          )
        }
        number = number << 4 | digit
      }
      guard let scalar = Unicode.Scalar(number) else {
        throw .malformed(
          line: doc.lineNumber(at),
          problem:
            "`\\\(Character(Unicode.Scalar(code)))` names no character (a surrogate or past U+10FFFF)"
        )
      }
      append(scalar)
      return at + 2 + digits
    default:
      throw .malformed(
        line: doc.lineNumber(at),
        problem:
          "unknown escape `\\\(String(decoding: [code], as: UTF8.self))` in a double-quoted string"
      )
    }
    return at + 2
  }

  static func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  // MARK: - Writing

  /// `text` as a YAML scalar that YAML 1.1 and 1.2 parsers both read as this string: plain when
  /// that is safe, else single-quoted, else double-quoted with escapes (control characters,
  /// tabs, line breaks and the other characters a printable YAML stream cannot hold).
  static func quote(_ text: String, flow: Bool) -> String {
    if text.unicodeScalars.contains(where: needsEscape) { return doubleQuoted(text) }
    if isPlainSafe(text, flow: flow) { return text }
    var out = "'"
    for character in text {
      out.append(character)
      if character == "'" { out.append("'") }
    }
    return out + "'"
  }

  /// Whether a scalar must be written as an escape (double quotes).
  static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF: true
    default: false
    }
  }

  static func doubleQuoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": out += "\\\\"
      case "\"": out += "\\\""
      case "\t": out += "\\t"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\0": out += "\\0"
      default:
        guard needsEscape(scalar) else {
          out.unicodeScalars.append(scalar)
          continue
        }
        out += scalar.value < 0x100 ? "\\x" + hex(scalar.value, 2) : "\\u" + hex(scalar.value, 4)
      }
    }
    return out + "\""
  }

  static func hex(_ value: UInt32, _ digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }

  /// Words some YAML 1.1 or 1.2 schema reads as null or a Boolean (compared ignoring case), and
  /// the 1.1 merge and value keys.
  static let keywords: Set<String> = [
    "~", "null", "y", "n", "yes", "no", "true", "false", "on", "off", "<<", "=",
  ]

  /// Whether `text`, written plain, reads as this string in YAML 1.1 and 1.2 (a little more
  /// cautious than the grammar: anything that starts like a number, a date or a time is quoted).
  static func isPlainSafe(_ text: String, flow: Bool) -> Bool {
    let bytes = Array(text.utf8)
    guard let first = bytes.first, let last = bytes.last else { return false }
    if first == 0x20 || last == 0x20 || isIndicator(first) { return false }
    if keywords.contains(text.lowercased()) || looksNumeric(bytes) { return false }
    if bytes.starts(with: Array("...".utf8)) { return false }
    if last == UInt8(ascii: ":") { return false }
    for (i, b) in bytes.enumerated() {
      let next = i + 1 < bytes.count ? bytes[i + 1] : 0
      if b == UInt8(ascii: ":") && (next == 0x20 || flow) { return false }
      if b == 0x20 && next == UInt8(ascii: "#") { return false }
      // PyYAML also ends a plain scalar at `?` inside a flow collection.
      if flow && ",[]{}?".utf8.contains(b) { return false }
    }
    return true
  }

  /// Whether `bytes` could be a YAML 1.1 or 1.2 int, float, sexagesimal, infinity, NaN, date or
  /// timestamp: after an optional sign, it starts with a digit (or `.` and a digit) and holds
  /// only what numbers are written with, or it starts like a date (`2024-`), or it is
  /// `.inf`/`.nan` in any case.
  static func looksNumeric(_ bytes: [UInt8]) -> Bool {
    var rest = bytes[...]
    if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
      rest = rest.dropFirst()
    }
    let lowered = String(decoding: rest, as: UTF8.self).lowercased()
    if lowered == ".inf" || lowered == ".nan" { return true }
    func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    guard let first = rest.first else { return false }
    let second = rest.dropFirst().first ?? 0
    guard isDigit(first) || (first == UInt8(ascii: ".") && isDigit(second)) else { return false }
    let numeric = Set("0123456789abcdefABCDEFxXoO_.:+-".utf8)
    if rest.allSatisfy(numeric.contains) { return true }
    let head = Array(rest.prefix(5))
    return head.count == 5 && head[0..<4].allSatisfy(isDigit) && head[4] == UInt8(ascii: "-")
  }
}
