/// YAML front matter: a first line `---`, YAML, then a line `---` or `...`.
///
/// Only the top-level `key` is read (its value a flow list, a block list, or one scalar);
/// other keys are left as they are, but every top-level line must look like `key: value`, a
/// comment, or a list item, so that a text that is not YAML is refused rather than rewritten.
enum YAMLFrontMatter {
  static func list(in doc: DocumentText, key: String) throws(DocumentError) -> TagList {
    let top = doc.bodyStart
    guard let body = doc.fence(at: top, "-") else {
      return TagList(tags: [], valueRange: nil) { tags in
        let eol = doc.lineBreak
        let text = "---" + eol + keyLines(key, tags, eol) + "---" + eol
        return [DocumentEdit(range: top..<top, newText: text)]
      }
    }
    var line = body
    var close: Int?
    while line < doc.count {
      if doc.fence(at: line, "-") != nil || doc.fence(at: line, ".") != nil {
        close = line
        break
      }
      line = doc.nextLine(line)
    }
    guard let close else {
      throw .malformed(
        line: doc.lineNumber(top),
        problem: "the front matter opened by `---` is never closed by a `---` or `...` line"
      )
    }
    // Keys indented (`  tags: [a]`) make the whole mapping indented: read as nothing and
    // written at the start of a line, the result would not parse. Refused instead.
    line = body
    while line < close, doc.isBlankOrComment(line) { line = doc.afterBreak(doc.lineEnd(line)) }
    if line < close, isBlank(doc.bytes[line]) {
      throw .malformed(
        line: doc.lineNumber(line),
        problem:
          "the front matter's keys are indented; tagd reads and writes front matter whose keys start their line"
      )
    }
    var found: (line: Int, colonEnd: Int)?
    line = body
    while line < close {
      let end = doc.lineEnd(line)
      defer { line = doc.afterBreak(end) }
      guard line < end else { continue }
      let first = doc.bytes[line]
      // Indented lines, comments and the ends of flow collections belong to a value.
      if isBlank(first) || "#]},".utf8.contains(first) { continue }
      if first == UInt8(ascii: "-"), line + 1 == end || isBlank(doc.bytes[line + 1]) { continue }
      guard let (name, colonEnd) = try keyOfLine(doc, line, end) else {
        throw .malformed(line: doc.lineNumber(line), problem: "expected `key: value`")
      }
      guard name == key else { continue }
      if let found {
        throw .malformed(
          line: doc.lineNumber(line),
          problem: "`\(key)` appears twice (first on line \(doc.lineNumber(found.line)))"
        )
      }
      found = (line, colonEnd)
    }
    guard let found else {
      return TagList(tags: [], valueRange: nil) { tags in
        [DocumentEdit(range: close..<close, newText: keyLines(key, tags, doc.lineBreak))]
      }
    }
    return try value(doc, keyLine: found.line, colonEnd: found.colonEnd, limit: close)
  }

  /// `key:` and a block list of `tags`, each line ended by `eol`; nothing for no tags.
  static func keyLines(_ key: String, _ tags: [String], _ eol: String) -> String {
    guard !tags.isEmpty else { return "" }
    return YAMLScalar.quote(key, flow: false) + ":" + eol
      + tags.map { "  - " + YAMLScalar.quote($0, flow: false) + eol }.joined()
  }

  /// The key of a top-level line and the offset after its `:`; nil when the line has none.
  static func keyOfLine(
    _ doc: DocumentText,
    _ line: Int,
    _ end: Int
  ) throws(DocumentError) -> (String, Int)? {
    let bytes = doc.bytes
    var at: Int
    var name: String
    if bytes[line] == UInt8(ascii: "\"") || bytes[line] == UInt8(ascii: "'") {
      let read = try YAMLScalar.read(doc, at: line, limit: end, flow: true, minIndent: 1)
      name = read.value ?? ""
      at = doc.skipBlanks(read.span.upperBound, to: end)
      guard at < end, bytes[at] == UInt8(ascii: ":") else { return nil }
    } else {
      at = line
      while at < end {
        if bytes[at] == UInt8(ascii: ":"), at + 1 == end || isBlank(bytes[at + 1]) { break }
        if bytes[at] == UInt8(ascii: "#"), at > line, isBlank(bytes[at - 1]) { return nil }
        at += 1
      }
      guard at < end else { return nil }
      name = doc.string(line..<doc.trimBlanks(at, from: line))
    }
    guard at + 1 == end || isBlank(bytes[at + 1]) else { return nil }
    return (name, at + 1)
  }

  /// The value of the key on `keyLine`, which starts after `colonEnd`.
  static func value(
    _ doc: DocumentText,
    keyLine: Int,
    colonEnd: Int,
    limit: Int
  ) throws(DocumentError) -> TagList {
    let bytes = doc.bytes
    let end = doc.lineEnd(keyLine)
    let at = doc.skipBlanks(colonEnd, to: end)
    if at == end || bytes[at] == UInt8(ascii: "#") {
      // The value is on the following lines, or there is none.
      var line = doc.afterBreak(end)
      while line < limit, doc.isBlankOrComment(line) { line = doc.nextLine(line) }
      if line < limit {
        let indent = doc.indent(line)
        let first = line + indent
        let lineEnd = doc.lineEnd(line)
        if bytes[first] == UInt8(ascii: "-"), first + 1 == lineEnd || isBlank(bytes[first + 1]) {
          return try block(doc, from: line, indent: indent, colonEnd: colonEnd, limit: limit)
        }
        if indent > 0 {
          if bytes[first] == UInt8(ascii: "[") {
            return try flow(doc, open: first, limit: limit)
          }
          return try scalar(doc, at: first, limit: limit)
        }
      }
      return TagList(tags: [], valueRange: colonEnd..<colonEnd) { tags in
        let eol = doc.lineBreak(ofLineAt: keyLine)
        let lines = tags.map { eol + "  - " + YAMLScalar.quote($0, flow: false) }.joined()
        return [DocumentEdit(range: end..<end, newText: lines)]
      }
    }
    if bytes[at] == UInt8(ascii: "[") { return try flow(doc, open: at, limit: limit) }
    if bytes[at] == UInt8(ascii: "{") {
      throw .malformed(
        line: doc.lineNumber(at),
        problem: "the tags' value is a mapping, not a list"
      )
    }
    return try scalar(doc, at: at, limit: limit)
  }

  /// One scalar value (`tags: a, b` is the one tag `a, b`): rewritten as that scalar for one
  /// tag, as a flow list otherwise.
  static func scalar(_ doc: DocumentText, at: Int, limit: Int) throws(DocumentError) -> TagList {
    let read = try YAMLScalar.read(doc, at: at, limit: limit, flow: false, minIndent: 1)
    try expectLineEnd(doc, after: read.span.upperBound)
    let tags = read.value.map { [$0] } ?? []
    let spans = read.value == nil ? [] : [read.span]
    return TagList(tags: tags, valueRange: read.span, spans: spans) { tags in
      let text =
        tags.count == 1 && read.value != nil
        ? YAMLScalar.quote(tags[0], flow: false)
        : "[" + tags.map { YAMLScalar.quote($0, flow: true) }.joined(separator: ", ") + "]"
      return [DocumentEdit(range: read.span, newText: text)]
    }
  }

  /// Throws unless only blanks and a comment follow `at` on its line.
  static func expectLineEnd(_ doc: DocumentText, after at: Int) throws(DocumentError) {
    let end = doc.lineEnd(at)
    let next = doc.skipBlanks(at, to: end)
    guard next == end || (doc.bytes[next] == UInt8(ascii: "#") && next > at) else {
      throw .malformed(
        line: doc.lineNumber(next),
        problem: "unexpected `\(doc.string(next..<end))` after the tags' value"
      )
    }
  }

  /// A flow list `[a, 'b', "c"]` whose `[` is at `open`, on one line or several.
  static func flow(_ doc: DocumentText, open: Int, limit: Int) throws(DocumentError) -> TagList {
    let bytes = doc.bytes
    var items: [ListItem] = []
    items.reserveCapacity(8)
    var at = open + 1
    func skip() {
      while at < limit {
        let b = bytes[at]
        if isBlank(b) || b == 0x0A || b == 0x0D {
          at += 1
        } else if b == UInt8(ascii: "#") {
          at = doc.lineEnd(at)
        } else {
          break
        }
      }
    }
    while true {
      skip()
      guard at < limit else {
        throw .malformed(
          line: doc.lineNumber(open),
          problem: "the list's `[` is never closed by `]`"
        )
      }
      if bytes[at] == UInt8(ascii: "]") { break }
      let read = try YAMLScalar.read(doc, at: at, limit: limit, flow: true, minIndent: 0)
      items.append(ListItem(span: read.span, value: read.value, lines: read.span))
      at = read.span.upperBound
      skip()
      guard at < limit else { continue }
      if bytes[at] == UInt8(ascii: ",") {
        at += 1
      } else if bytes[at] == UInt8(ascii: ":") {
        throw .malformed(line: doc.lineNumber(at), problem: "an item is a mapping, not a tag")
      } else if bytes[at] != UInt8(ascii: "]") {
        throw .malformed(line: doc.lineNumber(at), problem: "expected `,` or `]` in the list")
      }
    }
    let close = at
    try expectLineEnd(doc, after: close + 1)
    return TagList(
      tags: items.compactMap(\.value),
      valueRange: open..<(close + 1),
      spans: ListItem.tagSpans(items)
    ) { tags in
      ListEdits.flow(doc, items: items, open: open, close: close, tags: tags) {
        YAMLScalar.quote($0, flow: true)
      }
    }
  }

  /// A block list, one `- item` per line at `indent`, starting on `line`.
  static func block(
    _ doc: DocumentText,
    from start: Int,
    indent: Int,
    colonEnd: Int,
    limit: Int
  ) throws(DocumentError) -> TagList {
    let bytes = doc.bytes
    var items: [ListItem] = []
    var line = start
    while line < limit {
      if doc.isBlankOrComment(line) {
        line = doc.nextLine(line)
        continue
      }
      let end = doc.lineEnd(line)
      let dash = line + indent
      guard doc.indent(line) == indent, bytes[dash] == UInt8(ascii: "-"),
        dash + 1 == end || isBlank(bytes[dash + 1])
      else {
        if doc.indent(line) > indent {
          throw .malformed(
            line: doc.lineNumber(line),
            problem: "unexpected indentation in the list"
          )
        }
        break
      }
      let at = doc.skipBlanks(dash + 1, to: end)
      if at == end || bytes[at] == UInt8(ascii: "#") {
        // `-` alone: a null item, unless its value is on the next line (not supported).
        let next = doc.nextLine(line)
        if next < limit, !doc.isBlankOrComment(next), doc.indent(next) > indent {
          throw .malformed(
            line: doc.lineNumber(next),
            problem: "write each item on the line of its `-`"
          )
        }
        var item = ListItem(span: at..<at, value: nil, lines: line..<next)
        // A tag written here must not touch the `-` (`-x` is no item) or a comment (`x# c`
        // is one scalar).
        item.padding = (at == dash + 1 ? " " : "", at < end ? " " : "")
        items.append(item)
        line = next
        continue
      }
      if bytes[at] == UInt8(ascii: "-"), at + 1 == end || isBlank(bytes[at + 1]) {
        throw .malformed(line: doc.lineNumber(at), problem: "an item is a list, not a tag")
      }
      let read = try YAMLScalar.read(doc, at: at, limit: limit, flow: false, minIndent: indent + 1)
      try expectLineEnd(doc, after: read.span.upperBound)
      let last = doc.lineStart(read.span.upperBound)
      let next = doc.nextLine(last)
      items.append(ListItem(span: read.span, value: read.value, lines: line..<next))
      line = next
    }
    // Emptied: `key: []` (a comment on the key's line stays) and the item lines go.
    let emptied = [
      DocumentEdit(range: colonEnd..<colonEnd, newText: " []"),
      DocumentEdit(
        range: items[0].lines.lowerBound..<items[items.count - 1].lines.upperBound,
        newText: ""
      ),
    ]
    let range = (items[0].lines.lowerBound + indent)..<items[items.count - 1].span.upperBound
    return TagList(
      tags: items.compactMap(\.value),
      valueRange: range,
      spans: ListItem.tagSpans(items)
    ) { tags in
      ListEdits.block(doc, items: items, tags: tags, emptied: emptied) {
        YAMLScalar.quote($0, flow: false)
      }
    }
  }
}
