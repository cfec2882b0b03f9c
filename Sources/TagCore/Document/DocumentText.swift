/// A document's text as UTF-8 bytes, with the line helpers the parsers share: what
/// ``Document`` reads and writes.
///
/// Lines end at LF, CRLF or CR, as in LSP. Two texts are equal when their bytes are.
public struct DocumentText: Hashable, Sendable {
  let bytes: [UInt8]
  /// Where the text starts after a byte order mark.
  let bodyStart: Int
  /// The offset after each line break, when the text came with them; nil: found by scanning.
  private let lineStarts: [Int]?

  /// The text of `text`.
  public init(_ text: String) {
    self.init(utf8: Array(text.utf8), lineStarts: nil)
  }

  /// The text of `utf8` (valid UTF-8), whose lines start at 0 and after each offset of
  /// `lineStarts` (the offsets after its line breaks, in order; nil to find them when needed).
  public init(utf8: [UInt8], lineStarts: [Int]?) {
    bytes = utf8
    bodyStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    self.lineStarts = lineStarts
  }

  public static func == (a: DocumentText, b: DocumentText) -> Bool { a.bytes == b.bytes }
  public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }

  var count: Int { bytes.count }

  /// Where 0-based `line` starts; nil when the text has fewer lines.
  func start(ofLine line: Int) -> Int? {
    guard let lineStarts else { return bytes.span.start(afterLineBreaks: line, from: 0) }
    guard line > 0 else { return 0 }
    return line <= lineStarts.count ? lineStarts[line - 1] : nil
  }

  /// The number of lines (one more than the line breaks).
  var lineCount: Int { (lineStarts?.count ?? lineNumber(count)) + 1 }

  /// The end of the content of the line starting at `start` (where its line break begins).
  func lineEnd(_ start: Int) -> Int {
    bytes.span.firstLineBreak(from: start)
  }

  /// The start of the line after the one at `start` (the text's end on the last line).
  func nextLine(_ start: Int) -> Int {
    afterBreak(lineEnd(start))
  }

  /// The offset after the line break at `at` (`at` itself when there is none).
  func afterBreak(_ at: Int) -> Int {
    guard at < bytes.count else { return at }
    if bytes[at] == 0x0D, at + 1 < bytes.count, bytes[at + 1] == 0x0A { return at + 2 }
    return at + 1
  }

  /// The line break ending the line at `start`, or the document's when that line has none.
  func lineBreak(ofLineAt start: Int) -> String {
    let end = lineEnd(start)
    guard end < bytes.count else { return lineBreak }
    return string(end..<afterBreak(end))
  }

  /// The document's first line break (`\n` when it has none).
  var lineBreak: String {
    let end = lineEnd(0)
    guard end < bytes.count else { return "\n" }
    return string(end..<afterBreak(end))
  }

  /// Whether the line at `start` is a fence of three `character`s (trailing spaces and tabs
  /// allowed); the start of the next line when it is.
  func fence(at start: Int, _ character: Unicode.Scalar) -> Int? {
    let byte = UInt8(ascii: character)
    guard start + 3 <= bytes.count,
      bytes[start] == byte, bytes[start + 1] == byte, bytes[start + 2] == byte
    else { return nil }
    let end = lineEnd(start)
    for at in (start + 3)..<end where !isBlank(bytes[at]) { return nil }
    return afterBreak(end)
  }

  /// The 0-based line of `offset`.
  func lineNumber(_ offset: Int) -> Int {
    var line = 0
    var at = 0
    while at < min(offset, bytes.count) {
      if bytes[at] == 0x0A {
        line += 1
      } else if bytes[at] == 0x0D, !(at + 1 < bytes.count && bytes[at + 1] == 0x0A) {
        line += 1
      }
      at += 1
    }
    return line
  }

  /// The start of the line holding `offset`.
  func lineStart(_ offset: Int) -> Int {
    var at = offset
    while at > 0, bytes[at - 1] != 0x0A, bytes[at - 1] != 0x0D { at -= 1 }
    return at
  }

  /// How many spaces start the line at `start`.
  func indent(_ start: Int) -> Int {
    var at = start
    while at < bytes.count, bytes[at] == 0x20 { at += 1 }
    return at - start
  }

  /// The first offset at or after `at` in `at..<end` that is not a space or tab.
  func skipBlanks(_ at: Int, to end: Int) -> Int {
    var at = at
    while at < end, isBlank(bytes[at]) { at += 1 }
    return at
  }

  /// `end` moved back over spaces and tabs, not before `start`.
  func trimBlanks(_ end: Int, from start: Int) -> Int {
    var end = end
    while end > start, isBlank(bytes[end - 1]) { end -= 1 }
    return end
  }

  /// Whether the line at `start` holds nothing but blanks and perhaps a `#` comment.
  func isBlankOrComment(_ start: Int) -> Bool {
    let end = lineEnd(start)
    let first = skipBlanks(start, to: end)
    return first == end || bytes[first] == UInt8(ascii: "#")
  }

  /// `range` without its quotes when it is a quoted string (`'…'` or `"…"`).
  func unquoted(_ range: Range<Int>) -> Range<Int> {
    guard range.count >= 2 else { return range }
    let first = bytes[range.lowerBound]
    guard first == UInt8(ascii: "'") || first == UInt8(ascii: "\""),
      bytes[range.upperBound - 1] == first
    else { return range }
    return (range.lowerBound + 1)..<(range.upperBound - 1)
  }

  func string(_ range: Range<Int>) -> String {
    String(decoding: bytes[range], as: UTF8.self)
  }

  /// `edit` with the bytes it would rewrite unchanged left out at both ends (never splitting a
  /// character or a CRLF).
  func trimmed(_ edit: DocumentEdit) -> DocumentEdit {
    let new = Array(edit.newText.utf8)
    var lower = edit.range.lowerBound
    var upper = edit.range.upperBound
    var newLower = 0
    var newUpper = new.count
    while lower < upper, newLower < newUpper, bytes[lower] == new[newLower] {
      lower += 1
      newLower += 1
    }
    while lower > edit.range.lowerBound, !isBoundary(lower) {
      lower -= 1
      newLower -= 1
    }
    while upper > lower, newUpper > newLower, bytes[upper - 1] == new[newUpper - 1] {
      upper -= 1
      newUpper -= 1
    }
    while upper < edit.range.upperBound, !isBoundary(upper) {
      upper += 1
      newUpper += 1
    }
    return DocumentEdit(
      range: lower..<upper,
      newText: String(decoding: new[newLower..<newUpper], as: UTF8.self)
    )
  }

  /// Whether `at` is between two characters (not inside a UTF-8 sequence or a CRLF).
  private func isBoundary(_ at: Int) -> Bool {
    guard at > 0, at < bytes.count else { return true }
    if bytes[at] & 0xC0 == 0x80 { return false }
    return !(bytes[at - 1] == 0x0D && bytes[at] == 0x0A)
  }
}

extension DocumentEdit {
  func isNoOp(in doc: DocumentText) -> Bool {
    range.isEmpty && newText.isEmpty
  }
}

@inline(__always) func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

/// The tags found in a document and how to write others in their place.
struct TagList {
  /// The tags read.
  var tags: [String]
  /// The value's text, nil when there is none.
  var valueRange: Range<Int>?
  /// The text of each tag's item (parallel to ``tags``), quotes included.
  var spans: [Range<Int>] = []
  /// The edits (in document order, not overlapping) that make the document carry the given
  /// tags, which differ from ``tags``.
  var editor: ([String]) -> [DocumentEdit]

  func edits(setting tags: [String], in doc: DocumentText) -> [DocumentEdit] { editor(tags) }
}

/// One item of a list in a document: its text and, for a line-per-item list, its whole lines.
struct ListItem {
  /// The spans of `items` that are tags (not nulls).
  static func tagSpans(_ items: [ListItem]) -> [Range<Int>] {
    items.compactMap { $0.value == nil ? nil : $0.span }
  }

  /// The item's own text (quotes included).
  var span: Range<Int>
  /// What it reads as; nil for an item that is no tag (a YAML null).
  var value: String?
  /// The lines it occupies, line break included (block lists).
  var lines: Range<Int>
  /// Written around a tag put into the item's empty span, so that it stays apart from what
  /// touches it (the `-` of `-` alone, the `#` of `- # comment`).
  var padding: (before: String, after: String) = ("", "")
}

/// The edits that turn one list of items into another, touching only the items that change.
enum ListEdits {
  /// Replacements of the items that differ, when there are as many tags as items.
  static func inPlace(
    _ items: [ListItem],
    _ tags: [String],
    render: (String) -> String
  ) -> [DocumentEdit]? {
    guard items.count == tags.count else { return nil }
    var edits: [DocumentEdit] = []
    for (item, tag) in zip(items, tags) where item.value != tag {
      edits.append(
        DocumentEdit(
          range: item.span,
          newText: item.padding.before + render(tag) + item.padding.after
        )
      )
    }
    return edits
  }

  /// The common leading and trailing run of `items` and `tags`.
  static func common(_ items: [ListItem], _ tags: [String]) -> (prefix: Int, suffix: Int) {
    var prefix = 0
    while prefix < min(items.count, tags.count), items[prefix].value == tags[prefix] {
      prefix += 1
    }
    var suffix = 0
    while suffix < min(items.count, tags.count) - prefix,
      items[items.count - 1 - suffix].value == tags[tags.count - 1 - suffix]
    {
      suffix += 1
    }
    return (prefix, suffix)
  }

  /// A bracketed list `[a, b]` whose `[` is at `open` and `]` at `close`.
  static func flow(
    _ doc: DocumentText,
    items: [ListItem],
    open: Int,
    close: Int,
    tags: [String],
    render: (String) -> String
  ) -> [DocumentEdit] {
    if tags.isEmpty { return [DocumentEdit(range: open..<(close + 1), newText: "[]")] }
    if items.isEmpty {
      return [
        DocumentEdit(range: (open + 1)..<close, newText: tags.map(render).joined(separator: ", "))
      ]
    }
    if let edits = inPlace(items, tags, render: render) { return edits }
    var separator = ", "
    if items.count >= 2 {
      let between = doc.string(items[0].span.upperBound..<items[1].span.lowerBound)
      if !between.contains("#") { separator = between }
    }
    let (p, s) = common(items, tags)
    let added = tags[p..<(tags.count - s)].map(render).joined(separator: separator)
    let n = items.count
    if p + s == n {  // only insertions
      if p > 0 {
        let at = items[p - 1].span.upperBound
        return [DocumentEdit(range: at..<at, newText: separator + added)]
      }
      let at = items[0].span.lowerBound
      return [DocumentEdit(range: at..<at, newText: added + separator)]
    }
    if p + s == tags.count {  // only removals
      if p > 0 {
        let range = items[p - 1].span.upperBound..<items[n - s - 1].span.upperBound
        return [DocumentEdit(range: range, newText: "")]
      }
      return [
        DocumentEdit(range: items[0].span.lowerBound..<items[n - s].span.lowerBound, newText: "")
      ]
    }
    let range = items[p].span.lowerBound..<items[n - s - 1].span.upperBound
    return [DocumentEdit(range: range, newText: added)]
  }

  /// A list of one item per line (`  - a`); `emptied` are the edits that write an empty list.
  static func block(
    _ doc: DocumentText,
    items: [ListItem],
    tags: [String],
    emptied: [DocumentEdit],
    render: (String) -> String
  ) -> [DocumentEdit] {
    if tags.isEmpty { return emptied }
    if let edits = inPlace(items, tags, render: render) { return edits }
    let first = items[0]
    let prefix = doc.string(first.lines.lowerBound..<first.span.lowerBound)
    let eol = doc.lineBreak(ofLineAt: first.lines.lowerBound)
    let (p, s) = common(items, tags)
    let added = tags[p..<(tags.count - s)].map { prefix + render($0) + eol }.joined()
    let n = items.count
    let range: Range<Int>
    if p + s == n {
      let at = p > 0 ? items[p - 1].lines.upperBound : first.lines.lowerBound
      range = at..<at
    } else {
      range = items[p].lines.lowerBound..<items[n - s - 1].lines.upperBound
    }
    return [DocumentEdit(range: range, newText: added)]
  }
}
