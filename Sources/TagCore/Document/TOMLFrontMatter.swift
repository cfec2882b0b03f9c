/// TOML front matter: a first line `+++`, TOML, then a line `+++`.
///
/// Only the top-level `key` is read (before the first `[table]` header): an array of strings
/// (basic `"…"` or literal `'…'`), on one line or several, with comments and a trailing comma,
/// or one string.
enum TOMLFrontMatter {
  static func list(in doc: DocumentText, key: String) throws(DocumentError) -> TagList {
    let top = doc.bodyStart
    guard let body = doc.fence(at: top, "+") else {
      return TagList(tags: [], valueRange: nil) { tags in
        let eol = doc.lineBreak
        return [
          DocumentEdit(
            range: top..<top,
            newText: "+++" + eol + keyLine(key, tags, eol) + "+++" + eol
          )
        ]
      }
    }
    var line = body
    var close: Int?
    var tableStart: Int?
    var found: (line: Int, valueStart: Int)?
    while line < doc.count {
      if doc.fence(at: line, "+") != nil {
        close = line
        break
      }
      let end = doc.lineEnd(line)
      let first = doc.skipBlanks(line, to: end)
      if tableStart == nil, first < end {
        let b = doc.bytes[first]
        if b == UInt8(ascii: "[") {
          tableStart = line
        } else if b != UInt8(ascii: "#"), let (name, valueStart) = keyOfLine(doc, first, end),
          name == key
        {
          if let found {
            throw .malformed(
              line: doc.lineNumber(line),
              problem: "`\(key)` appears twice (first on line \(doc.lineNumber(found.line)))"
            )
          }
          found = (line, valueStart)
        }
      }
      line = doc.nextLine(line)
    }
    guard let close else {
      throw .malformed(
        line: doc.lineNumber(top),
        problem: "the front matter opened by `+++` is never closed by a `+++` line"
      )
    }
    guard let found else {
      let at = tableStart ?? close
      return TagList(tags: [], valueRange: nil) { tags in
        [DocumentEdit(range: at..<at, newText: keyLine(key, tags, doc.lineBreak))]
      }
    }
    return try value(doc, at: found.valueStart, limit: close)
  }

  /// `key = ["a", "b"]` and a line break; nothing for no tags.
  static func keyLine(_ key: String, _ tags: [String], _ eol: String) -> String {
    guard !tags.isEmpty else { return "" }
    let bare = !key.isEmpty && key.utf8.allSatisfy { isBareKey($0) }
    return (bare ? key : basicString(key)) + " = ["
      + tags.map(basicString).joined(separator: ", ") + "]" + eol
  }

  static func isBareKey(_ b: UInt8) -> Bool {
    (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
      || b == UInt8(ascii: "_") || b == UInt8(ascii: "-")
  }

  /// The key of a `key = value` line starting at `first`, and where its value starts.
  static func keyOfLine(_ doc: DocumentText, _ first: Int, _ end: Int) -> (String, Int)? {
    let bytes = doc.bytes
    var at = first
    let name: String
    if bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") {
      guard let read = try? string(doc, at: at, limit: end) else { return nil }
      name = read.value
      at = read.end
    } else {
      while at < end, isBareKey(bytes[at]) { at += 1 }
      name = doc.string(first..<at)
    }
    at = doc.skipBlanks(at, to: end)
    guard at < end, bytes[at] == UInt8(ascii: "=") else { return nil }
    return (name, doc.skipBlanks(at + 1, to: end))
  }

  /// A TOML string at `at` (basic or literal, one line) and the offset after it.
  static func string(
    _ doc: DocumentText,
    at start: Int,
    limit: Int
  ) throws(DocumentError) -> (value: String, end: Int) {
    let bytes = doc.bytes
    let quote = bytes[start]
    if start + 2 < limit, bytes[start + 1] == quote, bytes[start + 2] == quote {
      throw .malformed(
        line: doc.lineNumber(start),
        problem: "multi-line strings are not supported in the tags' value"
      )
    }
    var value: [UInt8] = []
    var at = start + 1
    while true {
      guard at < limit, bytes[at] != 0x0A, bytes[at] != 0x0D else {
        throw .malformed(
          line: doc.lineNumber(start),
          problem: "the string is not closed on its line"
        )
      }
      let b = bytes[at]
      if b == quote { return (String(decoding: value, as: UTF8.self), at + 1) }
      guard quote == UInt8(ascii: "\""), b == UInt8(ascii: "\\") else {
        value.append(b)
        at += 1
        continue
      }
      guard at + 1 < limit else { continue }
      let code = bytes[at + 1]
      switch code {
      case UInt8(ascii: "b"): value.append(8)
      case UInt8(ascii: "t"): value.append(9)
      case UInt8(ascii: "n"): value.append(10)
      case UInt8(ascii: "f"): value.append(12)
      case UInt8(ascii: "r"): value.append(13)
      case UInt8(ascii: "\""), UInt8(ascii: "\\"): value.append(code)
      case UInt8(ascii: "u"), UInt8(ascii: "U"):
        let digits = code == UInt8(ascii: "u") ? 4 : 8
        var number: UInt32 = 0
        for i in 0..<digits {
          guard at + 2 + i < limit, let digit = YAMLScalar.hexValue(bytes[at + 2 + i]) else {
            throw .malformed(
              line: doc.lineNumber(at),
              problem: "`\\\(Character(Unicode.Scalar(code)))` needs \(digits) hexadecimal digits"
            )
          }
          number = number << 4 | digit
        }
        guard let scalar = Unicode.Scalar(number) else {
          throw .malformed(line: doc.lineNumber(at), problem: "an escape names no character")
        }
        value += Array(String(Character(scalar)).utf8)
        at += digits
      default:
        throw .malformed(
          line: doc.lineNumber(at),
          problem: "unknown escape `\\\(String(decoding: [code], as: UTF8.self))` in a string"
        )
      }
      at += 2
    }
  }

  /// `text` as a TOML basic string.
  static func basicString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": out += "\\\\"
      case "\"": out += "\\\""
      case "\t": out += "\\t"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          out += "\\u" + YAMLScalar.hex(scalar.value, 4)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  /// One item: a string, or another value (a number, a Boolean, a date) read as its text.
  static func item(_ doc: DocumentText, at: Int, limit: Int) throws(DocumentError) -> ListItem {
    let bytes = doc.bytes
    let b = bytes[at]
    if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
      let read = try string(doc, at: at, limit: limit)
      return ListItem(span: at..<read.end, value: read.value, lines: at..<read.end)
    }
    if b == UInt8(ascii: "[") || b == UInt8(ascii: "{") {
      throw .malformed(
        line: doc.lineNumber(at),
        problem: "an item is \(b == UInt8(ascii: "[") ? "an array" : "a table"), not a tag"
      )
    }
    var end = at
    while end < limit, !isBlank(bytes[end]), !",]#\r\n".utf8.contains(bytes[end]) { end += 1 }
    guard end > at else {
      throw .malformed(line: doc.lineNumber(at), problem: "expected a value")
    }
    return ListItem(span: at..<end, value: doc.string(at..<end), lines: at..<end)
  }

  static func value(_ doc: DocumentText, at: Int, limit: Int) throws(DocumentError) -> TagList {
    let bytes = doc.bytes
    let lineEnd = doc.lineEnd(at)
    guard at < lineEnd, bytes[at] != UInt8(ascii: "#") else {
      throw .malformed(line: doc.lineNumber(at), problem: "the key has no value")
    }
    guard bytes[at] == UInt8(ascii: "[") else {
      let single = try item(doc, at: at, limit: limit)
      try expectLineEnd(doc, after: single.span.upperBound)
      let isString = bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'")
      return TagList(
        tags: [single.value ?? ""],
        valueRange: single.span,
        spans: [single.span]
      ) { tags in
        let text =
          tags.count == 1 && isString
          ? basicString(tags[0]) : "[" + tags.map(basicString).joined(separator: ", ") + "]"
        return [DocumentEdit(range: single.span, newText: text)]
      }
    }
    let open = at
    var items: [ListItem] = []
    var cursor = open + 1
    func skip() {
      while cursor < limit {
        let b = bytes[cursor]
        if isBlank(b) || b == 0x0A || b == 0x0D {
          cursor += 1
        } else if b == UInt8(ascii: "#") {
          cursor = doc.lineEnd(cursor)
        } else {
          break
        }
      }
    }
    while true {
      skip()
      guard cursor < limit else {
        throw .malformed(
          line: doc.lineNumber(open),
          problem: "the array's `[` is never closed by `]`"
        )
      }
      if bytes[cursor] == UInt8(ascii: "]") { break }
      let next = try item(doc, at: cursor, limit: limit)
      items.append(next)
      cursor = next.span.upperBound
      skip()
      guard cursor < limit else { continue }
      if bytes[cursor] == UInt8(ascii: ",") {
        cursor += 1
      } else if bytes[cursor] != UInt8(ascii: "]") {
        throw .malformed(line: doc.lineNumber(cursor), problem: "expected `,` or `]` in the array")
      }
    }
    let close = cursor
    try expectLineEnd(doc, after: close + 1)
    return TagList(
      tags: items.compactMap(\.value),
      valueRange: open..<(close + 1),
      spans: ListItem.tagSpans(items)
    ) { tags in
      ListEdits.flow(doc, items: items, open: open, close: close, tags: tags, render: basicString)
    }
  }

  static func expectLineEnd(_ doc: DocumentText, after at: Int) throws(DocumentError) {
    let end = doc.lineEnd(at)
    let next = doc.skipBlanks(at, to: end)
    guard next == end || doc.bytes[next] == UInt8(ascii: "#") else {
      throw .malformed(
        line: doc.lineNumber(next),
        problem: "unexpected `\(doc.string(next..<end))` after the tags' value"
      )
    }
  }
}
