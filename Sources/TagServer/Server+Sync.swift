import JSONRPC
import TagCore
import TagProtocol

extension Server {
  /// `field/didChange`: applies the editor's changes to the field's buffer mirror, then tells
  /// the client what happened (Protocol/sync.md).
  mutating func bufferChanged(_ change: FieldDidChangeNotification, outbox: inout Outbox) {
    guard var session = fields[change.field] else {
      outbox.log(.warning, "field/didChange for \"\(change.field)\", which is not open; ignored")
      return
    }
    var buffer = session.buffer ?? EditorBuffer(text: session.field.draft, version: Int.min)
    let draftBefore = session.field.draft
    let tagCountBefore = session.field.tags.count
    do throws(EditorBufferError) {
      let outcome = try buffer.clientChanged(
        version: change.version,
        edits: change.changes,
        encoding: positionEncoding,
        composing: change.composing,
        applied: change.applied != nil,
        field: &session.field
      )
      session.buffer = buffer
      session.noteChange(outcome, draftBefore: draftBefore, tagCountBefore: tagCountBefore)
      fields[change.field] = session
      if !outcome.isEmpty || buffer.hasConsumedText {
        sendUpdate(session, outcome, outbox: &outbox)
      }
    } catch {
      switch error {
      case .staleVersion(let current, let given):
        outbox.log(
          .warning,
          "field/didChange for \"\(change.field)\" has version \(given), not after \(current); ignored"
        )
      case .invalidEdit(let problem):
        outbox.log(
          .warning,
          "field/didChange for \"\(change.field)\" does not fit the buffer (\(problem.explanation)); asking for the whole text"
        )
        sendUpdate(session, FieldOutcome(), resync: true, outbox: &outbox)
      }
    }
  }

  /// Writes a `field/didUpdate` for a synced field.
  func sendUpdate(
    _ session: FieldSession,
    _ outcome: FieldOutcome,
    resync: Bool = false,
    outbox: inout Outbox
  ) {
    guard let buffer = session.buffer else { return }
    let update = FieldUpdateNotification(
      field: session.id,
      version: buffer.version,
      edits: resync ? [] : buffer.pendingEdits(encoding: positionEncoding),
      tags: session.field.tags,
      text: session.field.draft,
      stateVersion: session.version,
      outcome: outcome,
      resync: resync,
      layout: session.cellLayout?.frames(for: session.field.tags)
    )
    var w = JSONWriter()
    w.notification(method: FieldUpdateNotification.method) { $0.write(update) }
    outbox.send(w.bytes)
  }
}
