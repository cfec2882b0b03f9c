import TagCore
import TagProtocol

// `vault/rename` (SPEC §6d): the notes carrying the tag are read (the editor's text for open
// notes, the disk's for the others, by the executable), and TagCore's `NoteRename` plans each.

extension Server {
  /// The notes to read from the disk for a request on `tag`: those carrying it (with
  /// `children`, or a tag below it) that the editor does not have open, in path order.
  func notesToRead(carrying tag: String, children: Bool) -> [String] {
    vault.index.places(of: tag, children: children).map(\.note).filter { vault.open[$0] == nil }
  }

  /// `vault/rename` and `textDocument/rename`: the edits renaming `from` to `to`.
  mutating func renameEdit(
    from: String,
    to: String,
    outbox: inout Outbox
  ) throws(RequestError) -> VaultRenameResult {
    guard !to.allSatisfy(\.isWhitespace) else {
      throw .params(ParamsError(path: "to", problem: "must be a tag, got a blank string"))
    }
    var merged = vault.index.tag(to) != nil && CaselessKey(to) != CaselessKey(from)
    var changes: [(uri: String, edits: [TextEdit])] = []
    for place in vault.index.places(of: from, children: true) {
      let path = place.note
      guard let text = noteText(path) else {
        outbox.log(.warning, "vault/rename: \(path) could not be read; left out of the edit")
        continue
      }
      let plan: NoteRename.Plan
      do throws(RenameError) {
        plan = try NoteRename.plan(
          text,
          kind: NoteKind(fileName: path) ?? .markdown,
          from: from,
          to: to
        )
      } catch {
        throw .session(.cannotRename(error, note: FileURI.uri(ofPath: path)))
      }
      guard !plan.edits.isEmpty else { continue }
      merged = merged || plan.merged
      changes.append((FileURI.uri(ofPath: path), textEdits(plan.edits, in: text)))
    }
    return VaultRenameResult(edit: WorkspaceEdit(changes: changes), merged: merged)
  }
}
