import TagCore
import TagProtocol

// SPEC §6e: the language server on the vault. Every request points into a note the editor has
// open (its text is the editor's); the tags there are read with TagCore's NoteReader and
// answered from the index.

extension Server {
  /// The open note `uri` points into and the tag at `position` in it, if any.
  func tag(at point: TextDocumentPosition) -> (path: String, text: DocumentText, tag: NoteTag)? {
    guard let path = FileURI.path(ofURI: point.uri), let note = vault.open[path],
      let offset = try? byteOffset(of: point.position, in: note.text)
    else { return nil }
    let text = DocumentText(note.text)
    let tags = NoteReader.read(text, kind: note.kind).tags
    guard
      let tag = tags.first(where: { $0.range.contains(offset) || $0.range.upperBound == offset })
    else { return nil }
    return (path, text, tag)
  }

  /// The UTF-8 offset of `position` in `text`, counted in the negotiated encoding.
  func byteOffset(of position: TextPosition, in text: String) throws(TextEditError) -> Int {
    let index = try TextOffsets.index(of: position, in: text, encoding: positionEncoding)
    return text.utf8.distance(from: text.startIndex, to: index)
  }

  /// The LSP range of UTF-8 `range` in `text`.
  func textRange(_ range: Range<Int>, in text: DocumentText) -> TextRange {
    let ends = Document.positions(
      of: [range.lowerBound, range.upperBound],
      in: text,
      encoding: positionEncoding
    )
    return TextRange(start: ends[0], end: ends[1])
  }

  // MARK: Hover

  /// `textDocument/hover`: the tag's vault spelling, its notes, its other spellings.
  func hover(_ request: HoverRequest) -> HoverResult {
    guard let found = tag(at: request.at), let entry = vault.index.tag(found.tag.text) else {
      return HoverResult(markdown: nil, range: nil)
    }
    var text = "**\(entry.spelling)** · \(Self.notes(entry.notes))"
    let others = entry.spellings.filter { $0.text != entry.spelling }
    if !others.isEmpty {
      text +=
        "\n\nAlso spelled: "
        + others.map { "`\($0.text)` (\(Self.notes($0.notes)))" }.joined(separator: ", ")
    }
    return HoverResult(markdown: text, range: textRange(found.tag.range, in: found.text))
  }

  /// "1 note", "N notes".
  static func notes(_ count: Int) -> String { count == 1 ? "1 note" : "\(count) notes" }

  // MARK: References and rename

  /// `textDocument/references`: every place the tag is written, all spellings.
  func references(_ request: ReferencesRequest, outbox: inout Outbox) -> LocationsResult {
    guard let found = tag(at: request.at) else { return LocationsResult(locations: []) }
    var locations: [(uri: String, range: TextRange)] = []
    for place in vault.index.places(of: found.tag.text) {
      guard let text = noteText(place.note) else {
        outbox.log(.warning, "references: \(place.note) could not be read; left out")
        continue
      }
      // Read again: the index's ranges are of the text it read, which may have changed since.
      let key = CaselessKey(found.tag.text)
      let kind = NoteKind(fileName: place.note) ?? .markdown
      for tag in NoteReader.read(text, kind: kind).tags where CaselessKey(tag.text) == key {
        locations.append((FileURI.uri(ofPath: place.note), textRange(tag.range, in: text)))
      }
    }
    return LocationsResult(locations: locations)
  }

  /// The text of note `path`: the editor's when open, else the one just read for a request.
  func noteText(_ path: String) -> DocumentText? {
    vault.open[path].map { DocumentText($0.text) }
      ?? vault.delivered[path].map { DocumentText(utf8: $0, lineStarts: nil) }
  }

  /// `textDocument/prepareRename`: the tag under the cursor.
  func prepareRename(_ request: PrepareRenameRequest) -> PrepareRenameResult {
    guard let found = tag(at: request.at) else { return PrepareRenameResult() }
    return PrepareRenameResult(
      range: textRange(found.tag.range, in: found.text),
      placeholder: found.tag.text
    )
  }

  /// `textDocument/rename`: `vault/rename` of the tag under the cursor.
  mutating func rename(
    _ request: RenameRequest,
    outbox: inout Outbox
  ) throws(RequestError)
    -> WorkspaceEdit
  {
    guard let found = tag(at: request.at) else {
      throw .session(.noTagAt(request.at.position, uri: request.at.uri))
    }
    return try renameEdit(from: found.tag.text, to: request.newName, outbox: &outbox).edit
  }

  // MARK: Completion

  /// The most items a completion sends.
  ///
  /// When more tags match, the list says `isIncomplete` and the client asks again as the user
  /// types, which narrows it (markdown-oxide sends 50 the same way); a longer list than an
  /// editor's menu shows only costs time on both sides.
  static let completionLimit = 50

  /// `textDocument/completion`: the vault's tags where one is being typed.
  mutating func complete(_ request: CompletionRequest) -> CompletionResult {
    guard let path = FileURI.path(ofURI: request.at.uri), let note = vault.open[path],
      let offset = try? byteOffset(of: request.at.position, in: note.text)
    else { return CompletionResult(items: []) }
    let bytes = Array(note.text.utf8)
    guard let spot = TagCompletionSpot.find(in: bytes, at: offset, kind: note.kind) else {
      return CompletionResult(items: [])
    }
    let typed = String(decoding: bytes[spot.start..<offset], as: UTF8.self)
    let text = DocumentText(utf8: bytes, lineStarts: nil)
    let range = textRange(spot.start..<offset, in: text)
    // The tag being typed is in the index already (the editor's text is): not offered when no
    // other note carries it.
    let typedKey = CaselessKey(typed)
    let carriedHere =
      vault.index.tags(ofNote: path)?.contains { CaselessKey($0.text) == typedKey } ?? false
    let onlyHere = carriedHere && vault.index.tag(typed)?.notes == 1
    // One more than is sent, to know whether there are more.
    let found = vault.suggest(typed, limit: Self.completionLimit + 1) { tag in
      !spot.canHold(tag) || (onlyHere && CaselessKey(tag) == typedKey)
    }
    let items = found.prefix(Self.completionLimit).enumerated().map { rank, found in
      let label = found.suggestion.text
      let edit = TextEdit(range: range, newText: spot.render(label))
      return (label, Self.notes(found.notes), Self.sortKey(rank), edit)
    }
    return CompletionResult(items: items, isIncomplete: found.count > Self.completionLimit)
  }

  /// `rank` as five digits, so that clients sorting by text keep tagd's order.
  static func sortKey(_ rank: Int) -> String {
    let digits = String(rank)
    return String(repeating: "0", count: max(0, 5 - digits.count)) + digits
  }

  // MARK: Diagnostics

  /// Publishes the diagnostics of every open note in a vault whose diagnostics changed since
  /// they were last published (none before the first full index).
  mutating func publishDiagnostics(outbox: inout Outbox) {
    guard vault.isReady else { return }
    for (path, note) in vault.open.sorted(by: { $0.key < $1.key })
    where vault.vault(holding: path) != nil {
      let (text, found) = vault.diagnostics(of: note, at: path)
      let diagnostics = found.map {
        PublishDiagnosticsNotification.Diagnostic(
          range: textRange($0.range, in: text),
          code: $0.code.rawValue,
          message: $0.message
        )
      }
      // Nothing published reads as none: an open note without problems sends nothing.
      guard vault.published[path, default: []] != diagnostics else { continue }
      vault.published[path] = diagnostics
      outbox.write { $0.write(PublishDiagnosticsNotification(note, diagnostics)) }
    }
  }

  /// Clears the diagnostics of a note the editor closes.
  mutating func clearDiagnostics(of path: String, outbox: inout Outbox) {
    guard let published = vault.published.removeValue(forKey: path), !published.isEmpty,
      let note = vault.open[path]
    else { return }
    outbox.write { $0.write(PublishDiagnosticsNotification(note, [])) }
  }
}

extension PublishDiagnosticsNotification {
  /// `diagnostics` of the editor's version of `note`.
  init(_ note: VaultState.OpenNote, _ diagnostics: [Diagnostic]) {
    self.init(uri: note.uri, version: note.version, diagnostics: diagnostics)
  }
}

/// Where a tag is being typed, and how the completion is written there.
struct TagCompletionSpot {
  enum Flavor {
    /// A YAML flow list `[a, b]` (quoted for YAML as §6b quotes).
    case yamlFlow
    /// A YAML block list item `- a`.
    case yamlBlock
    /// Inside quotes the user opened: written as is.
    case quoted
    /// A TOML array: a basic string.
    case toml
    /// An Org heading's or `#+FILETAGS:` group.
    case org
    /// After an inline `#`.
    case inline
  }
  /// Where the typed part starts (UTF-8 offset).
  var start: Int
  var flavor: Flavor

  /// Whether `tag` can be written here (Org and inline tags have a narrower alphabet).
  func canHold(_ tag: String) -> Bool {
    switch flavor {
    case .org:
      return tag.unicodeScalars.allSatisfy {
        Self.isASCIILetterOrDigit($0) || "_@#%".unicodeScalars.contains($0)
          || (!$0.isASCII && $0.properties.isAlphabetic)
      }
    case .inline:
      return tag.unicodeScalars.allSatisfy {
        Self.isASCIILetterOrDigit($0) || "_-/".unicodeScalars.contains($0)
          || (!$0.isASCII
            && ($0.properties.isAlphabetic || $0.properties.generalCategory == .nonspacingMark
              || $0.properties.numericType == .decimal))
      }
    default:
      return true
    }
  }

  /// `a`–`z`, `A`–`Z`, `0`–`9`: the ASCII scalars that are alphabetic or decimal digits (the
  /// Unicode properties' answer, without looking them up for the common case).
  static func isASCIILetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value | 0x20
    return (0x61...0x7A).contains(value) || (0x30...0x39).contains(scalar.value)
  }

  /// The text inserted for `tag`.
  func render(_ tag: String) -> String {
    switch flavor {
    case .yamlFlow: Document.yamlListItem(tag, flow: true)
    case .yamlBlock: Document.yamlListItem(tag, flow: false)
    case .toml:
      "\"" + tag.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    case .quoted, .org, .inline: tag
    }
  }

  /// The spot at UTF-8 `offset` of a note of `kind`, or nil where no tag is being typed.
  static func find(in bytes: [UInt8], at offset: Int, kind: NoteKind) -> TagCompletionSpot? {
    guard offset <= bytes.count else { return nil }
    var lineStart = offset
    while lineStart > 0, bytes[lineStart - 1] != 0x0A, bytes[lineStart - 1] != 0x0D {
      lineStart -= 1
    }
    // The part typed so far: back over the characters a tag may hold.
    var start = offset
    while start > lineStart, !" \t,[]:#\"'".utf8.contains(bytes[start - 1]) { start -= 1 }
    let before: UInt8? = start > lineStart ? bytes[start - 1] : nil
    let line = Array(bytes[lineStart..<offset])
    switch kind {
    case .org:
      let heading = line.first == UInt8(ascii: "*")
      let filetags = String(decoding: line.prefix(11), as: UTF8.self).uppercased() == "#+FILETAGS:"
      guard heading || filetags,
        before == UInt8(ascii: ":") || (filetags && start >= lineStart + 11 && before == 0x20)
      else { return nil }
      return TagCompletionSpot(start: start, flavor: .org)
    case .markdown:
      if let front = frontMatter(bytes), front.body.contains(offset) {
        return inFrontMatter(
          bytes,
          front: front,
          lineStart: lineStart,
          start: start,
          before: before
        )
      }
      guard before == UInt8(ascii: "#") else { return nil }
      let hash = start - 1
      guard hash == lineStart || bytes[hash - 1] == 0x20 || bytes[hash - 1] == 0x09 else {
        return nil
      }
      return TagCompletionSpot(start: start, flavor: .inline)
    }
  }

  /// The front matter's fence (`-` or `+`) and the range between its fences.
  static func frontMatter(_ bytes: [UInt8]) -> (fence: UInt8, body: Range<Int>)? {
    let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
    let skip = bytes.count - text.count
    for fence in [UInt8(ascii: "-"), UInt8(ascii: "+")] {
      guard text.starts(with: [fence, fence, fence, 0x0A]) else { continue }
      var at = skip + 4
      while at < bytes.count {
        var end = at
        while end < bytes.count, bytes[end] != 0x0A { end += 1 }
        let line = bytes[at..<end].filter { $0 != 0x0D && $0 != 0x20 }
        if line == [fence, fence, fence]
          || (fence == UInt8(ascii: "-") && line == Array("...".utf8))
        {
          return (fence, (skip + 4)..<at)
        }
        at = end + 1
      }
      return (fence, (skip + 4)..<bytes.count)
    }
    return nil
  }

  /// A spot inside front matter: in the `tags` list, or nil.
  static func inFrontMatter(
    _ bytes: [UInt8],
    front: (fence: UInt8, body: Range<Int>),
    lineStart: Int,
    start: Int,
    before: UInt8?
  ) -> TagCompletionSpot? {
    // The key this line belongs to: the last line at column 0 at or before it.
    var keyLine = lineStart
    while keyLine > front.body.lowerBound, bytes[keyLine] == 0x20 || bytes[keyLine] == 0x2D {
      var previous = keyLine - 1
      while previous > front.body.lowerBound, bytes[previous - 1] != 0x0A { previous -= 1 }
      keyLine = previous
    }
    let key = String(decoding: bytes[keyLine..<min(keyLine + 5, bytes.count)], as: UTF8.self)
    guard key.hasPrefix("tags") else { return nil }
    let quoted = before == UInt8(ascii: "\"") || before == UInt8(ascii: "'")
    if front.fence == UInt8(ascii: "+") {
      return TagCompletionSpot(start: start, flavor: quoted ? .quoted : .toml)
    }
    if quoted { return TagCompletionSpot(start: start, flavor: .quoted) }
    let flow = bytes[lineStart..<start].contains(UInt8(ascii: "["))
    return TagCompletionSpot(start: start, flavor: flow ? .yamlFlow : .yamlBlock)
  }
}
