/// Renaming a tag in one note (SPEC §6d `vault/rename`): the edits that touch only the tag's
/// bytes.
///
/// Every tag whose caseless key is `from`'s is renamed to `to`, and every tag below it
/// (`from/…`) gets `to` in place of its first part (`a/x` → `b/x` when `a` becomes `b`; the
/// rest keeps its spelling). Front-matter items are rewritten in place, quoted for YAML 1.1 and
/// 1.2 alike as §6b writes them (flow stays flow, block stays block); an inline `#from` becomes
/// `#to`; an Org heading's tags are rewritten with their end column kept, as §6b's Org writer
/// does. When a list already carries the new tag (caseless), the renamed entry is removed from
/// it instead: a merge.
public enum NoteRename {
  /// What renaming does to one note.
  public struct Plan: Hashable, Sendable {
    /// The edits, in the text's UTF-8 offsets, not overlapping, last first (as §6b's
    /// `setTags` returns them): apply them in order, or all against the original text.
    public var edits: [DocumentEdit]
    /// The tags renamed (each occurrence once, merged ones included).
    public var renamed: Int
    /// Whether an entry was removed because its list already carried the new tag.
    public var merged: Bool

    /// Creates a plan.
    public init(edits: [DocumentEdit], renamed: Int, merged: Bool) {
      self.edits = edits
      self.renamed = renamed
      self.merged = merged
    }
  }

  /// The edits renaming `from` to `to` in `doc`, a note of `kind`.
  ///
  /// Throws when `from` or `to` is empty, or when a place in the note cannot hold the new tag
  /// (an Org tag is letters, digits, `_`, `@`, `#` and `%`; an inline tag letters, marks,
  /// digits, `_`, `-` and `/`, not all digits): the error names the place and its line, and
  /// nothing is planned for the note.
  public static func plan(
    _ doc: DocumentText,
    kind: NoteKind,
    from: String,
    to: String
  ) throws(RenameError) -> Plan {
    guard !from.isEmpty, !to.isEmpty else { throw .emptyTag }
    let reading = NoteReader.read(doc, kind: kind)
    let renamer = Renamer(from: from, to: to)
    var edits: [DocumentEdit] = []
    var renamed = 0
    var merged = false
    var index = 0
    let tags = reading.tags
    while index < tags.count {
      let tag = tags[index]
      guard let list = tag.list else {
        if let new = renamer.rename(tag.text) {
          try check(new, at: tag)
          edits.append(DocumentEdit(range: tag.range, newText: new))
          renamed += 1
        }
        index += 1
        continue
      }
      // The run of tags of this list.
      var end = index + 1
      while end < tags.count, tags[end].list == list { end += 1 }
      let members = Array(tags[index..<end])
      index = end
      let news = members.map { renamer.rename($0.text) }
      guard news.contains(where: { $0 != nil }) else { continue }
      for (tag, new) in zip(members, news) {
        if let new { try check(new, at: tag) }
      }
      let result = mergedList(members.map(\.text), news)
      renamed += news.count { $0 != nil }
      merged = merged || result.dropped
      edits += listEdits(doc, members: members, news: news, result: result)
    }
    edits.sort { $0.range.lowerBound > $1.range.lowerBound }
    return Plan(
      edits: edits.map { doc.trimmed($0) }.filter { !$0.isNoOp(in: doc) },
      renamed: renamed,
      merged: merged
    )
  }

  /// ``plan(_:kind:from:to:)`` of a string.
  public static func plan(
    _ text: String,
    kind: NoteKind,
    from: String,
    to: String
  ) throws(RenameError) -> Plan {
    try plan(DocumentText(text), kind: kind, from: from, to: to)
  }

  /// The edits removing `tag` (read from `doc` by ``NoteReader``) from its list.
  ///
  /// The quick fix of a `tag-repeated` diagnostic. None for an inline tag, or when `doc` no
  /// longer has it.
  public static func removing(
    _ tag: NoteTag,
    in doc: DocumentText,
    kind: NoteKind
  ) -> [DocumentEdit] {
    guard tag.list != nil else { return [] }
    let members = NoteReader.read(doc, kind: kind).tags.filter { $0.list == tag.list }
    guard let position = members.firstIndex(where: { $0.range == tag.range }),
      let list = tagList(doc, of: members[position])
    else { return [] }
    var kept = list.tags
    kept.remove(at: position)
    return list.edits(setting: kept, in: doc).reversed().map { doc.trimmed($0) }.filter {
      !$0.isNoOp(in: doc)
    }
  }

  /// A list's tags after the rename: each renamed entry whose new tag the list already carries
  /// (another entry, not renamed, or an earlier renamed one) is dropped.
  static func mergedList(
    _ texts: [String],
    _ news: [String?]
  ) -> (tags: [String], dropped: Bool) {
    var carried = Set(zip(texts, news).compactMap { $1 == nil ? CaselessKey($0) : nil })
    var tags: [String] = []
    var dropped = false
    for (text, new) in zip(texts, news) {
      guard let new else {
        tags.append(text)
        continue
      }
      if carried.insert(CaselessKey(new)).inserted {
        tags.append(new)
      } else {
        dropped = true
      }
    }
    return (tags, dropped)
  }

  private static func listEdits(
    _ doc: DocumentText,
    members: [NoteTag],
    news: [String?],
    result: (tags: [String], dropped: Bool)
  ) -> [DocumentEdit] {
    let place = members[0].place
    if !result.dropped, place == .yamlFrontMatter || place == .tomlFrontMatter {
      // In place: each renamed item's text, quotes included, and nothing else.
      let flow = valueIsFlow(doc, members[0])
      var edits: [DocumentEdit] = []
      for (tag, new) in zip(members, news) {
        guard let new else { continue }
        let text =
          place == .yamlFrontMatter
          ? YAMLScalar.quote(new, flow: flow) : TOMLFrontMatter.basicString(new)
        edits.append(DocumentEdit(range: quoted(doc, tag.range), newText: text))
      }
      return edits
    }
    guard let list = tagList(doc, of: members[0]) else { return [] }
    return list.edits(setting: result.tags, in: doc)
  }

  /// Whether the YAML item holding `tag` is inside a flow list `[…]`.
  private static func valueIsFlow(_ doc: DocumentText, _ tag: NoteTag) -> Bool {
    guard let list = tagList(doc, of: tag), let range = list.valueRange, !range.isEmpty else {
      return false
    }
    return doc.bytes[range.lowerBound] == UInt8(ascii: "[")
  }

  /// `range` (a tag's text) with the quotes around it, when it is quoted.
  private static func quoted(_ doc: DocumentText, _ range: Range<Int>) -> Range<Int> {
    guard range.lowerBound > 0, range.upperBound < doc.count else { return range }
    let before = doc.bytes[range.lowerBound - 1]
    guard before == UInt8(ascii: "'") || before == UInt8(ascii: "\""),
      doc.bytes[range.upperBound] == before
    else { return range }
    return (range.lowerBound - 1)..<(range.upperBound + 1)
  }

  /// The §6b list `tag` was read from.
  static func tagList(_ doc: DocumentText, of tag: NoteTag) -> TagList? {
    switch tag.place {
    case .yamlFrontMatter: try? YAMLFrontMatter.list(in: doc, key: "tags")
    case .tomlFrontMatter: try? TOMLFrontMatter.list(in: doc, key: "tags")
    case .orgHeading:
      try? OrgTags.heading(in: doc, line: tag.line, start: doc.lineStart(tag.range.lowerBound))
    case .orgFiletags: OrgTags.filetags(in: doc)
    case .inline: nil
    }
  }

  private static func check(_ new: String, at tag: NoteTag) throws(RenameError) {
    switch tag.place {
    case .inline:
      if let reason = InlineTags.whyNot(new) {
        throw .cannotHold(tag: new, place: tag.place, line: tag.line, reason: reason)
      }
    case .orgHeading, .orgFiletags:
      if !OrgTags.canHold(new) {
        throw .cannotHold(
          tag: new,
          place: tag.place,
          line: tag.line,
          reason: "an Org tag is letters, digits, `_`, `@`, `#` and `%`"
        )
      }
    case .yamlFrontMatter, .tomlFrontMatter: break
    }
  }
}

/// Renames one tag's text: `from` itself (caseless) and the tags below it.
struct Renamer {
  let from: CaselessKey
  let to: String
  /// The number of `/` in `from`.
  let depth: Int

  init(from: String, to: String) {
    self.from = CaselessKey(from)
    self.to = to
    depth = from.utf8.count { $0 == UInt8(ascii: "/") }
  }

  /// The new text of `text`; nil when it is not renamed (or would not change).
  func rename(_ text: String) -> String? {
    var new: String?
    if CaselessKey(text) == from {
      new = to
    } else {
      // The part before the (depth + 1)-th `/`.
      var slashes = 0
      for index in text.utf8.indices where text.utf8[index] == UInt8(ascii: "/") {
        if slashes == depth {
          if CaselessKey(String(text[..<index])) == from {
            new = to + String(text[index...])
          }
          break
        }
        slashes += 1
      }
    }
    guard let new, !new.hasSameUTF8(as: text) else { return nil }
    return new
  }
}

/// Why a tag cannot be renamed in a note.
public enum RenameError: Error, Hashable, Sendable, CustomStringConvertible {
  /// `from` or `to` is empty.
  case emptyTag
  /// A place in the note cannot hold the renamed tag `tag` (the new text of the tag there):
  /// `reason` says why.
  case cannotHold(tag: String, place: TagPlace, line: Int, reason: String)

  /// The error in English; lines counted from 1.
  public var description: String {
    switch self {
    case .emptyTag: "a tag cannot be empty"
    case .cannotHold(let tag, let place, let line, let reason):
      "`\(tag)` cannot be written in \(place.name) on line \(line + 1): \(reason)"
    }
  }
}
