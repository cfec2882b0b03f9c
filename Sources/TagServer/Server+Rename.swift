import TagCore
import TagProtocol

// `vault/rename` (SPEC §6d): the notes carrying the tag are read (the editor's text for open
// notes, the disk's for the others, by the executable), and TagCore's `NoteRename` plans each.

extension Server {
  /// The notes `vault/rename` must read from the disk: those carrying `from` (or a tag below
  /// it) that the editor does not have open, in path order.
  func notesToRename(_ from: String) -> [String] {
    vault.index.places(of: from, children: true).map(\.note).filter { vault.open[$0] == nil }
  }

  /// Plans the rename on the texts delivered and the open notes'.
  mutating func rename(
    _ request: VaultRenameRequest,
    outbox: inout Outbox
  ) throws(RequestError) -> VaultRenameResult {
    try renameEdit(from: request.from, to: request.to, outbox: &outbox)
  }

  /// `vault/rename` and `textDocument/rename`: the edits renaming `from` to `to`.
  mutating func renameEdit(
    from: String,
    to: String,
    outbox: inout Outbox
  ) throws(RequestError) -> VaultRenameResult {
    let request = (from: from, to: to)
    guard !to.allSatisfy(\.isWhitespace) else {
      throw .params(ParamsError(path: "to", problem: "must be a tag, got a blank string"))
    }
    let existed =
      vault.index.tag(request.to) != nil && CaselessKey(request.to) != CaselessKey(request.from)
    var merged = existed
    var changes: [(uri: String, edits: [TextEdit])] = []
    for place in vault.index.places(of: request.from, children: true) {
      let path = place.note
      let text =
        vault.open[path].map { DocumentText($0.text) }
        ?? vault.delivered[path].map { DocumentText(utf8: $0, lineStarts: nil) }
      guard let text else {
        outbox.log(.warning, "vault/rename: \(path) could not be read; left out of the edit")
        continue
      }
      let plan: NoteRename.Plan
      do throws(RenameError) {
        plan = try NoteRename.plan(
          text,
          kind: NoteKind(fileName: path) ?? .markdown,
          from: request.from,
          to: request.to
        )
      } catch {
        throw .session(.cannotRename(error, note: FileURI.uri(ofPath: path)))
      }
      guard !plan.edits.isEmpty else { continue }
      merged = merged || plan.merged
      let edits = DocumentEditsResult(plan.edits.reversed(), in: text, encoding: positionEncoding)
      changes.append((FileURI.uri(ofPath: path), edits.edits))
    }
    return VaultRenameResult(
      edit: WorkspaceEdit(changes: changes),
      notes: changes.count,
      merged: merged
    )
  }
}
