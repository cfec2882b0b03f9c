import JSONRPC
import TagCore
import TagProtocol

extension Server {
  /// `field/didChange`: applies the editor's changes to the field's buffer mirror, then tells
  /// the client what happened (Protocol/sync.md).
  mutating func bufferChanged(_ change: FieldDidChangeNotification, outbox: inout Outbox) {
    let encoding = positionEncoding
    do throws(RequestError) {
      try withField(change.field) { session throws(RequestError) in
        Server.bufferChanged(change, in: &session, encoding: encoding, outbox: &outbox)
      }
    } catch {
      outbox.log(.warning, "field/didChange for \"\(change.field)\", which is not open; ignored")
    }
  }

  private static func bufferChanged(
    _ change: FieldDidChangeNotification,
    in session: inout FieldSession,
    encoding: PositionEncoding,
    outbox: inout Outbox
  ) {
    // A field opened without `sync` becomes synced at its first didChange.
    var buffer = session.buffer ?? EditorBuffer(text: session.field.draft, version: Int.min)
    session.buffer = nil
    let before = session.mark
    do throws(EditorBufferError) {
      let outcome = try buffer.clientChanged(
        version: change.version,
        edits: change.changes,
        encoding: encoding,
        composing: change.composing,
        applied: change.applied != nil,
        field: &session.field
      )
      session.buffer = buffer
      session.noteChange(outcome, since: before)
      if session.updateDue {
        sendUpdate(&session, outcome, encoding: encoding, outbox: &outbox)
      }
    } catch {
      session.buffer = buffer
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
        sendUpdate(&session, FieldOutcome(), resync: true, encoding: encoding, outbox: &outbox)
      }
    }
  }

  /// Writes a `field/didUpdate` for a synced field.
  func sendUpdate(_ session: inout FieldSession, _ outcome: FieldOutcome, outbox: inout Outbox) {
    Server.sendUpdate(&session, outcome, encoding: positionEncoding, outbox: &outbox)
  }

  /// Writes a `field/didUpdate` for a synced field, positions in `encoding`.
  static func sendUpdate(
    _ session: inout FieldSession,
    _ outcome: FieldOutcome,
    resync: Bool = false,
    encoding: PositionEncoding,
    outbox: inout Outbox
  ) {
    guard let buffer = session.buffer else { return }
    let cells = session.cellLayout?.layout(for: session.field.tags)
    let update = FieldUpdateNotification(
      field: session.id,
      version: buffer.version,
      edits: resync ? [] : buffer.pendingEdits(encoding: encoding),
      tags: session.field.tags,
      text: session.field.draft,
      stateVersion: session.version,
      outcome: outcome,
      resync: resync,
      layout: cells?.flow,
      labels: cells?.labels ?? [],
      selected: session.field.selected,
      encodedTags: session.tagsText(),
      canUndo: session.field.canUndo,
      canRedo: session.field.canRedo,
      language: session.language,
      flagged: session.field.flagged
    )
    outbox.write { $0.notification(method: FieldUpdateNotification.method) { $0.write(update) } }
  }
}
