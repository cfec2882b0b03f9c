import TagCore
import TagProtocol

// SPEC §6e quick fixes (`textDocument/codeAction`) and `workspace/symbol`.

extension Server {
  /// The tag diagnostics of open note `uri` that touch `range`, with the note's text.
  func diagnostics(
    in uri: String,
    touching range: TextRange
  ) -> (path: String, text: DocumentText, kind: NoteKind, found: [TagDiagnostic])? {
    guard let path = FileURI.path(ofURI: uri), let note = vault.open[path],
      let start = try? byteOffset(of: range.start, in: note.text),
      let end = try? byteOffset(of: range.end, in: note.text)
    else { return nil }
    let (text, all) = vault.diagnostics(of: note, at: path)
    let found = all.filter { $0.range.lowerBound <= end && start <= $0.range.upperBound }
    return (path, text, note.kind, found)
  }

  /// The notes a quick fix "use the vault's spelling everywhere" must read.
  func notesToRead(forFixesIn request: CodeActionRequest) -> [String] {
    guard let found = diagnostics(in: request.uri, touching: request.range) else { return [] }
    var notes: [String] = []
    for diagnostic in found.found {
      guard case .useSpelling = diagnostic.fix else { continue }
      notes += vault.index.places(of: diagnostic.tag.text, children: true).map(\.note)
    }
    var seen = Set<String>()
    return notes.filter { vault.open[$0] == nil && seen.insert($0).inserted }
  }

  /// `textDocument/codeAction`: a quick fix for each diagnostic in the range that has one.
  mutating func codeActions(
    _ request: CodeActionRequest,
    outbox: inout Outbox
  ) -> CodeActionsResult {
    guard let found = diagnostics(in: request.uri, touching: request.range) else {
      return CodeActionsResult(actions: [])
    }
    var actions: [(title: String, edit: WorkspaceEdit)] = []
    for diagnostic in found.found {
      let tag = diagnostic.tag.text
      switch diagnostic.fix {
      case .useSpelling(let spelling):
        // Every spelling becomes the vault's, in every note: a rename to it.
        guard let edit = try? renameEdit(from: tag, to: spelling, outbox: &outbox).edit else {
          continue
        }
        actions.append(("Use the vault's spelling `\(spelling)` everywhere", edit))
      case .removeRepeat:
        let edits = NoteRename.removing(diagnostic.tag, in: found.text, kind: found.kind)
        let edit = WorkspaceEdit(changes: [(request.uri, textEdits(edits, in: found.text))])
        actions.append(("Remove the repeated `\(tag)`", edit))
      case .useTag(let target):
        guard
          let plan = try? NoteRename.plan(found.text, kind: found.kind, from: tag, to: target)
        else { continue }
        let edit = WorkspaceEdit(changes: [(request.uri, textEdits(plan.edits, in: found.text))])
        actions.append(("Use `\(target)` for the alias `\(tag)`", edit))
      case nil:
        continue
      }
    }
    return CodeActionsResult(actions: actions)
  }

  /// `edits` (last first, as TagCore gives them) as LSP text edits, in document order.
  func textEdits(_ edits: [DocumentEdit], in text: DocumentText) -> [TextEdit] {
    DocumentEditsResult(edits.reversed(), in: text, encoding: positionEncoding).edits
  }

  /// The tags `workspace/symbol` answers with, and the note each is shown at.
  func symbolPlaces(_ query: String) -> [(tag: VaultTag, note: String)] {
    let tags: [VaultTag]
    if query.isEmpty {
      tags = vault.index.tags(limit: WorkspaceSymbolRequest.limit)
    } else {
      let index = SuggestionIndex(vault.index.tags().map(\.spelling))
      tags = index.suggestions(for: query, limit: WorkspaceSymbolRequest.limit)
        .compactMap { vault.index.tag($0.text) }
    }
    return tags.compactMap { tag in
      vault.index.places(of: tag.spelling).first.map { (tag, $0.note) }
    }
  }

  /// `workspace/symbol`: each matching tag at the first place (in path order) it is written.
  func symbols(_ request: WorkspaceSymbolRequest) -> SymbolsResult {
    var symbols: [SymbolsResult.Symbol] = []
    for (tag, note) in symbolPlaces(request.query) {
      guard let text = noteText(note) else { continue }
      let kind = NoteKind(fileName: note) ?? .markdown
      guard
        let place = NoteReader.read(text, kind: kind).tags.first(where: {
          CaselessKey($0.text) == tag.key
        })
      else { continue }
      let uri = FileURI.uri(ofPath: note)
      symbols.append((tag.spelling, Self.notes(tag.notes), uri, textRange(place.range, in: text)))
    }
    return SymbolsResult(symbols: symbols)
  }
}
