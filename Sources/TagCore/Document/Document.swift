/// Where a document keeps its tags (SPEC §6b).
public enum DocumentFormat: String, Hashable, Sendable, CaseIterable {
  /// YAML front matter between `---` lines (closed by `---` or `...`).
  case yaml
  /// TOML front matter between `+++` lines.
  case toml
  /// The tags at the end of an Org heading (`* Title   :a:b:`).
  case orgHeading = "org-heading"
  /// The Org `#+FILETAGS:` line.
  case orgFiletags = "org-filetags"

  /// The format of `text` when none is given: `line` given → Org heading; a first line `---` →
  /// YAML; `+++` → TOML; a `#+FILETAGS:` line → Org file tags; otherwise YAML.
  public static func detect(in text: String, line: Int?) -> DocumentFormat {
    detect(in: DocumentText(text), line: line)
  }

  static func detect(in doc: DocumentText, line: Int?) -> DocumentFormat {
    if line != nil { return .orgHeading }
    if doc.fence(at: doc.bodyStart, "-") != nil { return .yaml }
    if doc.fence(at: doc.bodyStart, "+") != nil { return .toml }
    if OrgTags.filetagsLine(in: doc) != nil { return .orgFiletags }
    return .yaml
  }
}

/// The tags a document carries and the UTF-8 byte range of their text (nil when it has none).
public struct DocumentTags: Hashable, Sendable {
  /// The format read.
  public var format: DocumentFormat
  /// The tags, in document order.
  public var tags: [String]
  /// The value's text (a whole list, brackets included; a scalar; an Org tag group) as UTF-8
  /// offsets; nil when the document has no such key, heading tags or line.
  public var range: Range<Int>?

  /// Creates a reading.
  public init(format: DocumentFormat, tags: [String], range: Range<Int>?) {
    self.format = format
    self.tags = tags
    self.range = range
  }
}

/// One replacement in a document, as UTF-8 byte offsets of the text it was computed on.
public struct DocumentEdit: Hashable, Sendable {
  /// The replaced bytes.
  public var range: Range<Int>
  /// What replaces them.
  public var newText: String

  /// Creates an edit.
  public init(range: Range<Int>, newText: String) {
    self.range = range
    self.newText = newText
  }
}

/// Why a document's tags could not be read or written.
///
/// Lines count from 0, as LSP's do.
public enum DocumentError: Error, Hashable, Sendable {
  /// The front matter (or the tags' value in it) is not what its format allows.
  case malformed(line: Int, problem: String)
  /// `line` is past the text's last line.
  case lineOutOfRange(line: Int, lineCount: Int)
  /// `line` is not an Org heading.
  case notAHeading(line: Int)
  /// The tag at `index` cannot be an Org tag (only letters, digits, `_`, `@`, `#`, `%`).
  case notAnOrgTag(String, index: Int)
  /// The text starts with front matter of another format than the one asked for.
  case otherFrontMatter(found: DocumentFormat, asked: DocumentFormat)
  /// A front-matter `key` was given for a text read as Org.
  case keyWithoutFrontMatter(DocumentFormat)
}

/// Reads and writes the tags of a document: front matter (YAML, TOML) and Org tags.
///
/// Pure: functions of the text, never I/O.
public enum Document {
  /// `tag` written as §6b writes an item of a YAML list.
  ///
  /// Plain where YAML 1.1 and 1.2 both read it back as that string, else quoted (`'yes'`);
  /// `flow` for an item of a `[a, b]` list.
  public static func yamlListItem(_ tag: String, flow: Bool) -> String {
    YAMLScalar.quote(tag, flow: flow)
  }

  /// The tags `text` carries in `format` (detected when nil).
  ///
  /// `key` is the front-matter key; `line` the Org heading's 0-based line.
  public static func tags(
    in doc: DocumentText,
    format: DocumentFormat? = nil,
    key: String = "tags",
    line: Int? = nil
  ) throws(DocumentError) -> DocumentTags {
    let format = format ?? DocumentFormat.detect(in: doc, line: line)
    let found = try list(in: doc, format: format, key: key, line: line)
    return DocumentTags(format: format, tags: found.tags, range: found.valueRange)
  }

  /// The edits that make `text` carry exactly `tags`, and the format used.
  ///
  /// `format` is detected when nil. The edits do not overlap and come last first, so applying
  /// them one after another in order, or all against the original text, gives the same
  /// document.
  public static func setTags(
    _ tags: [String],
    in doc: DocumentText,
    format: DocumentFormat? = nil,
    key: String = "tags",
    line: Int? = nil
  ) throws(DocumentError) -> (format: DocumentFormat, edits: [DocumentEdit]) {
    let format = format ?? DocumentFormat.detect(in: doc, line: line)
    if format == .orgHeading || format == .orgFiletags {
      for (index, tag) in tags.enumerated() where !OrgTags.canHold(tag) {
        throw .notAnOrgTag(tag, index: index)
      }
    }
    let found = try list(in: doc, format: format, key: key, line: line)
    guard found.tags != tags else { return (format, []) }
    let edits = found.edits(setting: tags, in: doc)
    return (format, edits.reversed().map { doc.trimmed($0) }.filter { !$0.isNoOp(in: doc) })
  }

  /// ``tags(in:format:key:line:)`` of `text`.
  public static func tags(
    in text: String,
    format: DocumentFormat? = nil,
    key: String = "tags",
    line: Int? = nil
  ) throws(DocumentError) -> DocumentTags {
    try tags(in: DocumentText(text), format: format, key: key, line: line)
  }

  /// ``setTags(_:in:format:key:line:)`` of `text`.
  public static func setTags(
    _ tags: [String],
    in text: String,
    format: DocumentFormat? = nil,
    key: String = "tags",
    line: Int? = nil
  ) throws(DocumentError) -> (format: DocumentFormat, edits: [DocumentEdit]) {
    try setTags(tags, in: DocumentText(text), format: format, key: key, line: line)
  }

  private static func list(
    in doc: DocumentText,
    format: DocumentFormat,
    key: String,
    line: Int?
  ) throws(DocumentError) -> TagList {
    switch format {
    case .yaml:
      if doc.fence(at: doc.bodyStart, "+") != nil {
        throw .otherFrontMatter(found: .toml, asked: .yaml)
      }
      return try YAMLFrontMatter.list(in: doc, key: key)
    case .toml:
      if doc.fence(at: doc.bodyStart, "-") != nil {
        throw .otherFrontMatter(found: .yaml, asked: .toml)
      }
      return try TOMLFrontMatter.list(in: doc, key: key)
    case .orgHeading: return try OrgTags.heading(in: doc, line: line ?? 0)
    case .orgFiletags: return OrgTags.filetags(in: doc)
    }
  }

  /// The LSP positions of UTF-8 `offsets` (in any order) in `text`, counted in `encoding`, in
  /// one pass up to the largest offset.
  ///
  /// When every offset is known to lie on one 0-based `line` (an Org heading's edits), pass it:
  /// each position is then found from its own line's start, without counting the lines before.
  public static func positions(
    of offsets: [Int],
    in doc: DocumentText,
    encoding: PositionEncoding,
    allOnLine line: Int? = nil
  ) -> [TextPosition] {
    if let line {
      let bytes = doc.bytes.span
      return offsets.map { offset in
        let target = min(max(offset, 0), bytes.count)
        var start = target
        while start > 0, bytes[start - 1] != 0x0A, bytes[start - 1] != 0x0D { start -= 1 }
        return TextPosition(
          line: line,
          character: characters(bytes, start..<target, encoding)
        )
      }
    }
    let order = offsets.indices.sorted { offsets[$0] < offsets[$1] }
    var result = [TextPosition](
      repeating: TextPosition(line: 0, character: 0),
      count: offsets.count
    )
    let bytes = doc.bytes.span
    var at = 0
    var line = 0
    var lineStart = 0
    for index in order {
      var target = min(offsets[index], bytes.count)
      // Never between the CR and LF of a CRLF.
      if target > 0, target < bytes.count, bytes[target - 1] == 0x0D, bytes[target] == 0x0A {
        target -= 1
      }
      while at < target {
        at = bytes.firstLineBreak(from: at)
        guard at < target else { break }
        at += bytes[at] == 0x0D && at + 1 < bytes.count && bytes[at + 1] == 0x0A ? 2 : 1
        line += 1
        lineStart = at
      }
      result[index] = TextPosition(
        line: line,
        character: characters(bytes, lineStart..<target, encoding)
      )
    }
    return result
  }

  /// The length of `range` (part of one line) in `encoding`'s code units.
  private static func characters(
    _ bytes: Span<UInt8>,
    _ range: Range<Int>,
    _ encoding: PositionEncoding
  ) -> Int {
    guard encoding != .utf8 else { return range.count }
    var character = 0
    for offset in range where bytes[offset] & 0xC0 != 0x80 {
      character += encoding == .utf16 && bytes[offset] >= 0xF0 ? 2 : 1
    }
    return character
  }
}
