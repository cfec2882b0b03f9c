import JSONRPC
import TagCore
import TagProtocol

extension Server {
  /// `field/didChange`, the kept ``didChange``: the editor's changes go through the field's door.
  ///
  /// The client is told what happened (Protocol/sync.md): a change not taken is never dropped in
  /// silence; the update says why (`error`) and either asks for the whole text (`resync`) or,
  /// for a change over a limit, takes the text back out of the buffer.
  mutating func bufferChanged(outbox: inout Outbox) {
    let (id, last) = (didChange.field, FastPath.lastFieldLookup.isOn ? lastField : nil)
    guard let index = last?.id == id ? last?.index : fields.index(forKey: id) else {
      return outbox.log(.warning, "field/didChange for \"\(id)\", which is not open; ignored")
    }
    if last?.id == id { FastPath.lastFieldLookup.taken() }
    Self.changed(didChange, &fields.values[index], config.maxFieldBytes, positionEncoding, &outbox)
    lastField = (id, index)
  }

  private static func changed(
    _ change: FieldDidChangeNotification,
    _ session: inout FieldSession,
    _ limit: Int,
    _ encoding: PositionEncoding,
    _ outbox: inout Outbox
  ) {
    let input = FieldInput.buffer(
      version: change.version,
      edits: change.changes,
      composing: change.composing,
      applied: change.applied != nil
    )
    do throws(FieldChangeError) {
      let outcome = try session.change(input, limit: limit, encoding: encoding)
      if session.updateDue { sendUpdate(&session, outcome, encoding: encoding, outbox: &outbox) }
    } catch {
      let problem: SessionError
      switch error {
      case .tooLarge(let bytes):
        problem = .fieldTooLarge(bytes: bytes, limit: limit, field: session.id)
      case .buffer(.staleVersion(let current, let given)):
        problem = .bufferVersionNotAfter(current: current, given: given, field: session.id)
      case .buffer(.invalidEdit(let edit)):
        problem = .invalidEdit(edit, path: "contentChanges")
      }
      refused(&session, ResponseError(.session(problem)), encoding: encoding, outbox: &outbox)
    }
  }

  /// Tells the client its `field/didChange` for `session` was not taken, and why: over a limit,
  /// the update's edits take the text back out; else the update asks for the whole text.
  static func refused(
    _ session: inout FieldSession,
    _ error: ResponseError,
    encoding: PositionEncoding,
    outbox: inout Outbox
  ) {
    outbox.log(.warning, "field/didChange not taken: \(error.message)")
    if !session.isSynced {
      session.buffer = EditorBuffer(text: session.field.draft, version: Int.min)
    }
    let resync = error.code != .limitExceeded
    outbox.write {
      session.writeUpdate(FieldOutcome(), resync: resync, error: error, encoding: encoding, to: &$0)
    }
  }

  /// A `field/didChange` whose params did not decode: if they name an open field, its client
  /// is asked for the whole text, with the reason.
  mutating func undecodableBufferChange(
    _ error: ParamsError,
    params: ParamsSource,
    outbox: inout Outbox
  ) {
    let response = ResponseError(.params(error))
    guard let id = FieldDidChangeNotification.field(in: params),
      let index = fields.index(forKey: id)
    else {
      outbox.log(.warning, "ignored notification field/didChange: \(error.description)")
      return
    }
    Server.refused(&fields.values[index], response, encoding: positionEncoding, outbox: &outbox)
  }

  /// Writes a `field/didUpdate` for a synced field, positions in `encoding`.
  static func sendUpdate(
    _ session: inout FieldSession,
    _ outcome: FieldOutcome,
    encoding: PositionEncoding,
    outbox: inout Outbox
  ) {
    outbox.write { session.writeUpdate(outcome, encoding: encoding, to: &$0) }
  }
}
