/// What kind of note a file is, by the end of its name (SPEC §6d).
public enum NoteKind: String, Hashable, Sendable, CaseIterable {
  /// A Markdown note: front-matter tags and inline `#tags`.
  case markdown
  /// An Org note: heading tags and `#+FILETAGS:`, no inline tags.
  case org

  /// The kind of a file named `name` (`.md` and `.markdown` are Markdown, `.org` is Org, in
  /// lower case as the vault's rule writes them); nil for any other file.
  public init?(fileName name: String) {
    if name.hasUTF8Suffix(".md") || name.hasUTF8Suffix(".markdown") {
      self = .markdown
    } else if name.hasUTF8Suffix(".org") {
      self = .org
    } else {
      return nil
    }
  }
}

extension String {
  /// Whether the UTF-8 bytes end with `suffix`'s (no canonical equivalence: a file name).
  fileprivate func hasUTF8Suffix(_ suffix: String) -> Bool {
    utf8.count >= suffix.utf8.count && utf8.reversed().starts(with: suffix.utf8.reversed())
  }
}

/// Where in a note a tag is written.
public enum TagPlace: UInt8, Hashable, Sendable, CaseIterable {
  /// The `tags` list of YAML front matter (`---`).
  case yamlFrontMatter
  /// The `tags` array of TOML front matter (`+++`).
  case tomlFrontMatter
  /// An inline `#tag` in a Markdown note's body.
  case inline
  /// An Org heading's `:a:b:` group; the heading is on the tag's ``NoteTag/line``.
  case orgHeading
  /// The Org `#+FILETAGS:` line.
  case orgFiletags

  /// The §6b format whose `document/setTags` writes this place's list (nil for inline tags).
  public var documentFormat: DocumentFormat? {
    switch self {
    case .yamlFrontMatter: .yaml
    case .tomlFrontMatter: .toml
    case .inline: nil
    case .orgHeading: .orgHeading
    case .orgFiletags: .orgFiletags
    }
  }

  /// How the place is named in messages ("the YAML front matter", "an inline tag").
  public var name: String {
    switch self {
    case .yamlFrontMatter: "the YAML front matter"
    case .tomlFrontMatter: "the TOML front matter"
    case .inline: "an inline tag"
    case .orgHeading: "an Org heading's tags"
    case .orgFiletags: "the #+FILETAGS: line"
    }
  }
}

/// One tag written in a note.
public struct NoteTag: Hashable, Sendable {
  /// The tag as spelled (without `#`, without quotes, escapes resolved).
  public var text: String
  /// The UTF-8 byte range of the tag's text in the note: after the `#` of an inline tag, inside
  /// the quotes of a quoted front-matter item (whose escapes it then holds as written).
  public var range: Range<Int>
  /// The 0-based line the tag's text starts on (LF, CRLF and CR end lines, as in LSP).
  public var line: Int
  /// Where it is written.
  public var place: TagPlace
  /// The list it belongs to, numbered from 0 in the order the note's lists start (the front
  /// matter's list; each Org heading's group and the `#+FILETAGS:` line); nil for an inline tag,
  /// which belongs to no list (the same inline tag twice is no repeat).
  public var list: Int?

  /// Creates a tag.
  public init(text: String, range: Range<Int>, line: Int, place: TagPlace, list: Int?) {
    self.text = text
    self.range = range
    self.line = line
    self.place = place
    self.list = list
  }
}

/// The tags read from one note.
public struct NoteReading: Hashable, Sendable {
  /// The tags, in the order they are written.
  public var tags: [NoteTag]
  /// Why the front matter's tags could not be read (they are then missing; the body's inline
  /// tags are still read); nil when it was read or there is none.
  public var problem: DocumentError?
  /// The note's title, when it has one (see ``NoteReader/read(_:kind:)``).
  public var title: String?

  /// Creates a reading.
  public init(tags: [NoteTag], problem: DocumentError?, title: String? = nil) {
    self.tags = tags
    self.problem = problem
    self.title = title
  }
}

/// Reads the tags of one note (SPEC §6d): pure, in time linear in the note's length.
public enum NoteReader {
  /// The tags of `text`, a note of `kind`.
  ///
  /// Markdown: the front matter's `tags` (YAML `---` or TOML `+++`, read by §6b's readers) and
  /// the body's inline `#tags` (see ``InlineTags``). Org: every heading's tags and the first
  /// `#+FILETAGS:` line.
  ///
  /// With `title` (only then: the readers that want tags alone skip the work), the title:
  /// Markdown's front-matter `title` (one non-blank string), else its first level-1 heading
  /// (`# Text`, outside fenced code, a closing run of `#` dropped); Org's first `#+TITLE:`
  /// line. Blanks around it are trimmed; a blank title is none.
  public static func read(
    _ text: DocumentText,
    kind: NoteKind,
    title: Bool = false
  ) -> NoteReading {
    switch kind {
    case .markdown: markdown(text, title: title)
    case .org: org(text, title: title)
    }
  }

  /// ``read(_:kind:title:)`` of a string.
  public static func read(_ text: String, kind: NoteKind, title: Bool = false) -> NoteReading {
    read(DocumentText(text), kind: kind, title: title)
  }

  private static func markdown(_ doc: DocumentText, title wanted: Bool) -> NoteReading {
    var tags: [NoteTag] = []
    tags.reserveCapacity(8)
    var problem: DocumentError?
    var body = doc.bodyStart
    var bodyLine = 0
    var title: String?
    if let front = FrontMatterBounds(doc) {
      if wanted { title = frontMatterTitle(doc, place: front.place) }
      do {
        let list =
          front.place == .yamlFrontMatter
          ? try YAMLFrontMatter.list(in: doc, key: "tags")
          : try TOMLFrontMatter.list(in: doc, key: "tags")
        appendList(list, place: front.place, number: 0, in: doc, to: &tags)
      } catch {
        problem = error
      }
      body = front.end
      bodyLine = front.lines
    } else if doc.fence(at: doc.bodyStart, "-") != nil || doc.fence(at: doc.bodyStart, "+") != nil {
      // Opened and never closed: the §6b reader's error names it; the text is all body.
      do {
        _ =
          doc.fence(at: doc.bodyStart, "-") != nil
          ? try YAMLFrontMatter.list(in: doc, key: "tags")
          : try TOMLFrontMatter.list(in: doc, key: "tags")
      } catch {
        problem = error
      }
    }
    InlineTags.scan(doc, from: body, line: bodyLine, into: &tags)
    if wanted && title == nil { title = headingTitle(doc, from: body) }
    return NoteReading(tags: tags, problem: problem, title: title)
  }

  /// The front matter's `title`, when it is one non-blank string.
  private static func frontMatterTitle(_ doc: DocumentText, place: TagPlace) -> String? {
    let list =
      place == .yamlFrontMatter
      ? try? YAMLFrontMatter.list(in: doc, key: "title")
      : try? TOMLFrontMatter.list(in: doc, key: "title")
    guard let list, list.tags.count == 1 else { return nil }
    let title = list.tags[0].trimmingBlanks
    return title.isEmpty ? nil : title
  }

  /// The text of the first level-1 ATX heading from `start` (a line's start), outside fenced
  /// code: up to three blanks, `#`, a blank, the text; a closing run of `#` after a blank is
  /// not part of it.
  private static func headingTitle(_ doc: DocumentText, from start: Int) -> String? {
    let bytes = doc.bytes.span
    var at = start
    var line = 0
    while at < bytes.count {
      let first = InlineTags.skipBlanks(bytes, at)
      if let fence = Fence(bytes, at: first) {
        at = fence.skipBlock(bytes, from: first, line: &line)
        continue
      }
      let end = bytes.firstLineBreak(from: first)
      if first - at <= 3, first + 1 < end, bytes[first] == UInt8(ascii: "#"),
        isBlank(bytes[first + 1])
      {
        let textStart = doc.skipBlanks(first + 1, to: end)
        var textEnd = doc.trimBlanks(end, from: textStart)
        var closing = textEnd
        while closing > textStart, bytes[closing - 1] == UInt8(ascii: "#") { closing -= 1 }
        if closing == textStart || isBlank(bytes[closing - 1]) {
          textEnd = doc.trimBlanks(closing, from: textStart)
        }
        if textEnd > textStart { return doc.string(textStart..<textEnd) }
      }
      guard end < bytes.count else { break }
      at = InlineTags.afterBreak(bytes, end)
    }
    return nil
  }

  /// The value of the Org keyword line at `start` (to `end`) when it is `#+TITLE:` (any case).
  private static func orgTitle(_ doc: DocumentText, _ start: Int, _ end: Int) -> String? {
    let keyword = Array("#+title:".utf8)
    let first = doc.skipBlanks(start, to: end)
    guard end - first >= keyword.count,
      zip(doc.bytes[first..<(first + keyword.count)], keyword).allSatisfy({
        $0 | ($0 >= 0x41 && $0 <= 0x5A ? 0x20 : 0) == $1
      })
    else { return nil }
    let valueStart = doc.skipBlanks(first + keyword.count, to: end)
    let valueEnd = doc.trimBlanks(end, from: valueStart)
    return valueEnd > valueStart ? doc.string(valueStart..<valueEnd) : nil
  }

  /// Appends the tags of `list` with their lines (counted from the list's start).
  static func appendList(
    _ list: TagList,
    place: TagPlace,
    number: Int,
    line knownLine: (offset: Int, line: Int) = (0, 0),
    in doc: DocumentText,
    to tags: inout [NoteTag]
  ) {
    var at = knownLine.offset
    var line = knownLine.line
    let bytes = doc.bytes.span
    for (text, span) in zip(list.tags, list.spans) {
      while at < span.lowerBound {
        let b = bytes[at]
        if b == 0x0A || (b == 0x0D && !(at + 1 < bytes.count && bytes[at + 1] == 0x0A)) {
          line += 1
        }
        at += 1
      }
      tags.append(
        NoteTag(text: text, range: doc.unquoted(span), line: line, place: place, list: number)
      )
    }
  }

  private static func org(_ doc: DocumentText, title wanted: Bool) -> NoteReading {
    var tags: [NoteTag] = []
    var title: String?
    let filetags = OrgTags.filetagsLine(in: doc)?.line
    let bytes = doc.bytes.span
    var start = doc.bodyStart
    var line = 0
    var lists = 0
    while start < bytes.count {
      let end = bytes.firstLineBreak(from: start)
      if wanted, title == nil, bytes[start] != UInt8(ascii: "*") {
        title = orgTitle(doc, start, end)
      }
      if start == filetags {
        let list = OrgTags.filetags(in: doc)
        appendList(
          list,
          place: .orgFiletags,
          number: lists,
          line: (start, line),
          in: doc,
          to: &tags
        )
        lists += list.tags.isEmpty ? 0 : 1
      } else if bytes[start] == UInt8(ascii: "*"),
        let list = try? OrgTags.heading(in: doc, line: line, start: start), !list.tags.isEmpty
      {
        appendList(
          list,
          place: .orgHeading,
          number: lists,
          line: (start, line),
          in: doc,
          to: &tags
        )
        lists += 1
      }
      start = doc.afterBreak(end)
      line += 1
    }
    return NoteReading(tags: tags, problem: nil, title: title)
  }
}

/// Where a Markdown note's front matter is: its format and the offset and line its body starts
/// at (after the closing fence's line).
struct FrontMatterBounds {
  var place: TagPlace
  var end: Int
  var lines: Int

  init?(_ doc: DocumentText) {
    let yaml = doc.fence(at: doc.bodyStart, "-")
    let toml = yaml == nil ? doc.fence(at: doc.bodyStart, "+") : nil
    guard let first = yaml ?? toml else { return nil }
    var line = first
    var lines = 1
    while line < doc.count {
      let next = doc.nextLine(line)
      lines += 1
      let closes =
        yaml != nil
        ? doc.fence(at: line, "-") != nil || doc.fence(at: line, ".") != nil
        : doc.fence(at: line, "+") != nil
      if closes {
        self.place = yaml != nil ? .yamlFrontMatter : .tomlFrontMatter
        self.end = next
        self.lines = lines
        return
      }
      line = next
    }
    return nil
  }
}

extension String {
  /// The string without the spaces and tabs around it.
  fileprivate var trimmingBlanks: String {
    let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) })
    else { return "" }
    return String(self[first...last])
  }
}
