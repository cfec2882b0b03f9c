/// Org tags: a heading's `:a:b:` group and the `#+FILETAGS:` line.
enum OrgTags {
  /// The column a heading's tags end at when it had none (Org's `org-tags-column`, -77).
  static let defaultEndColumn = 77

  /// Whether `tag` can be an Org tag: letters, digits, `_`, `@`, `#` and `%`, at least one.
  static func canHold(_ tag: String) -> Bool {
    !tag.isEmpty && tag.unicodeScalars.allSatisfy(isTagScalar)
  }

  /// Whether `scalar` may be in an Org tag: Org's `[[:alnum:]_@#%]`, where Emacs's `alnum`
  /// is a letter (with the marks that belong to letters, so `cafe` + U+0301 is a tag as its
  /// precomposed spelling is, and letter numbers such as `Ⅻ`) or a decimal digit.
  static func isTagScalar(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "_", "@", "#", "%": return true
    default: break
    }
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
      .nonspacingMark, .spacingMark, .enclosingMark, .letterNumber, .decimalNumber:
      return true
    default: return false
    }
  }

  /// The tags of the heading on `line` (0-based).
  static func heading(in doc: DocumentText, line: Int) throws(DocumentError) -> TagList {
    guard let start = doc.start(ofLine: line) else {
      throw .lineOutOfRange(line: line, lineCount: doc.lineCount)
    }
    return try heading(in: doc, line: line, start: start)
  }

  /// The tags of the heading on `line` (0-based), which starts at offset `start`.
  static func heading(
    in doc: DocumentText,
    line: Int,
    start: Int
  ) throws(DocumentError) -> TagList {
    let bytes = doc.bytes
    let end = doc.lineEnd(start)
    var stars = start
    while stars < end, bytes[stars] == UInt8(ascii: "*") { stars += 1 }
    guard stars > start, stars < end, isBlank(bytes[stars]) else { throw .notAHeading(line: line) }
    let contentEnd = doc.trimBlanks(end, from: stars)
    // The tag group: `:a:b:` after a blank, at the end of the line.
    var group: Range<Int>?
    if contentEnd - stars >= 3, bytes[contentEnd - 1] == UInt8(ascii: ":") {
      var at = contentEnd - 1
      while at > stars, !isBlank(bytes[at - 1]) { at -= 1 }
      let text = doc.string(at..<contentEnd)
      if at > stars, text.count >= 3, text.first == ":",
        text.unicodeScalars.allSatisfy({ $0 == ":" || isTagScalar($0) }),
        text.contains(where: { $0 != ":" })
      {
        group = at..<contentEnd
      }
    }
    let titleEnd = group.map { doc.trimBlanks($0.lowerBound, from: stars) } ?? contentEnd
    let spans = group.map { pieces(doc, $0) } ?? []
    let tags = spans.map(doc.string)
    let lineStart = start
    return TagList(tags: tags, valueRange: group, spans: spans) { tags in
      let replaced = titleEnd..<(group?.upperBound ?? end)
      guard !tags.isEmpty else { return [DocumentEdit(range: replaced, newText: "")] }
      let text = ":" + tags.joined(separator: ":") + ":"
      let endColumn = group.map { columns(doc, lineStart..<$0.upperBound) } ?? defaultEndColumn
      let titleColumns = columns(doc, lineStart..<titleEnd)
      let pad = max(1, endColumn - titleColumns - DisplayWidth.cells(text))
      return [DocumentEdit(range: replaced, newText: String(repeating: " ", count: pad) + text)]
    }
  }

  /// The non-empty pieces of `range` between colons, spaces and tabs.
  static func pieces(_ doc: DocumentText, _ range: Range<Int>) -> [Range<Int>] {
    var pieces: [Range<Int>] = []
    var start = range.lowerBound
    for at in range {
      let b = doc.bytes[at]
      guard b == UInt8(ascii: ":") || isBlank(b) else { continue }
      if at > start { pieces.append(start..<at) }
      start = at + 1
    }
    if range.upperBound > start { pieces.append(start..<range.upperBound) }
    return pieces
  }

  /// The display columns of `range` (a line's start to somewhere in it): tabs to the next
  /// multiple of 8, wide characters 2, as Emacs counts them.
  static func columns(_ doc: DocumentText, _ range: Range<Int>) -> Int {
    var column = 0
    for character in doc.string(range) {
      column = character == "\t" ? (column / 8 + 1) * 8 : column + DisplayWidth.cells(of: character)
    }
    return column
  }

  /// The first `#+FILETAGS:` line (any case, blanks before it allowed): its start and the
  /// offset after the colon.
  static func filetagsLine(in doc: DocumentText) -> (line: Int, colonEnd: Int)? {
    let keyword = Array("#+filetags:".utf8)
    var line = doc.bodyStart
    while line < doc.count {
      let end = doc.lineEnd(line)
      let first = doc.skipBlanks(line, to: end)
      if end - first >= keyword.count,
        zip(doc.bytes[first..<(first + keyword.count)], keyword).allSatisfy({
          $0 | ($0 >= 0x41 && $0 <= 0x5A ? 0x20 : 0) == $1
        })
      {
        return (line, first + keyword.count)
      }
      line = doc.afterBreak(end)
    }
    return nil
  }

  /// The tags of the first `#+FILETAGS:` line, `:a:b:` or `a b` (split at colons and blanks).
  static func filetags(in doc: DocumentText) -> TagList {
    guard let (line, colonEnd) = filetagsLine(in: doc) else {
      // Inserted after the leading `#` lines (`#+TITLE:` and the like, comments).
      var at = doc.bodyStart
      while at < doc.count, doc.bytes[at] == UInt8(ascii: "#") { at = doc.nextLine(at) }
      let insertAt = at
      return TagList(tags: [], valueRange: nil) { tags in
        let eol = doc.lineBreak
        var text = "#+FILETAGS: :" + tags.joined(separator: ":") + ":" + eol
        if insertAt == doc.count, insertAt > doc.bodyStart,
          doc.bytes[insertAt - 1] != 0x0A, doc.bytes[insertAt - 1] != 0x0D
        {
          text = eol + text.dropLast(eol.count)
        }
        return [DocumentEdit(range: insertAt..<insertAt, newText: text)]
      }
    }
    let end = doc.lineEnd(line)
    let valueStart = doc.skipBlanks(colonEnd, to: end)
    let valueEnd = doc.trimBlanks(end, from: valueStart)
    let spans = pieces(doc, valueStart..<valueEnd)
    let tags = spans.map(doc.string)
    let spaced = !tags.isEmpty && !doc.bytes[valueStart..<valueEnd].contains(UInt8(ascii: ":"))
    return TagList(tags: tags, valueRange: valueStart..<valueEnd, spans: spans) { tags in
      guard !tags.isEmpty else { return [DocumentEdit(range: colonEnd..<valueEnd, newText: "")] }
      let text = spaced ? tags.joined(separator: " ") : ":" + tags.joined(separator: ":") + ":"
      let lead = valueStart == colonEnd ? " " : ""
      return [DocumentEdit(range: valueStart..<valueEnd, newText: lead + text)]
    }
  }
}
