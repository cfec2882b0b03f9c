import JSONRPC
import TagCore
import TagProtocol

extension Server {
  mutating func openField(
    _ params: FieldOpenRequest,
    outbox: inout Outbox
  ) throws(RequestError) -> FieldStateResult {
    guard fields[params.field] == nil else {
      throw .session(.alreadyOpen(kind: "field", id: params.field))
    }
    guard sessionCount < config.maxSessions else {
      throw .session(.tooManySessions(limit: config.maxSessions))
    }
    var session = FieldSession(id: params.field, options: params.options, config: config)
    var outcome = session.field.apply(.tagsAdded(params.tags))
    let typed: FieldOutcome
    if let sync = params.sync {
      // The text is the editor's buffer: what the rule commits is consumed, and the update
      // (before the response) asks the client to delete it.
      var buffer = EditorBuffer(text: params.text, version: sync.version)
      typed = buffer.commit(&session.field)
      session.buffer = buffer
      session.cellLayout = sync.layout
    } else {
      typed = session.field.apply(.draftChanged(params.text))
    }
    outcome.added += typed.added
    outcome.dropped += typed.dropped
    session.version = 1
    try checkSize(of: session)
    fields[params.field] = session
    if let buffer = session.buffer, buffer.hasConsumedText {
      sendUpdate(session, outcome, outbox: &outbox)
    }
    return session.state(outcome)
  }

  mutating func changeField(_ params: FieldChangeRequest) throws(RequestError) -> FieldStateResult {
    let session = try field(params.field)
    guard session.buffer == nil else {
      throw .params(
        ParamsError(
          path: "field",
          problem: "\"\(params.field)\" is synced with an editor buffer: send field/didChange"
        )
      )
    }
    switch params.change {
    case .text(let text):
      return try applyToField(params.field, .draftChanged(text))
    case .edits(let version, let changes):
      guard version == session.version else {
        throw .session(.staleVersion(current: session.version, given: version, field: params.field))
      }
      let text: String
      do throws(TextEditError) {
        text = try TextOffsets.apply(changes, to: session.field.draft, encoding: positionEncoding)
      } catch {
        throw .session(.invalidEdit(error, path: "changes"))
      }
      return try applyToField(params.field, .draftChanged(text))
    }
  }

  mutating func applyToField(
    _ id: String,
    _ event: FieldEvent
  ) throws(RequestError) -> FieldStateResult {
    if try cannotOverflow(id, event) {
      // Applied in place: no copy of the field's tags per keystroke.
      let outcome = fields[id]?.apply(event) ?? FieldOutcome()
      return try field(id).state(outcome)
    }
    var changed = try field(id)
    let outcome = changed.apply(event)
    try checkSize(of: changed)
    fields[id] = changed
    return changed.state(outcome)
  }

  /// Whether `event` cannot take field `id` past `--max-field-bytes`, so it needs no undo copy.
  private func cannotOverflow(_ id: String, _ event: FieldEvent) throws(RequestError) -> Bool {
    let session = try field(id)
    return session.byteCount + session.maxGrowth(of: event) <= config.maxFieldBytes
  }

  /// Throws LimitExceeded when `session` holds more than `--max-field-bytes`.
  func checkSize(of session: FieldSession) throws(RequestError) {
    let bytes = session.byteCount
    guard bytes <= config.maxFieldBytes else {
      throw .session(.fieldTooLarge(bytes: bytes, limit: config.maxFieldBytes, field: session.id))
    }
  }

  /// Applies an event and, for a synced field, pushes the update before the response.
  mutating func applyToField(
    _ id: String,
    _ event: FieldEvent,
    outbox: inout Outbox
  ) throws(RequestError) -> FieldStateResult {
    let state = try applyToField(id, event)
    if let session = fields[id], let buffer = session.buffer,
      !state.outcome.isEmpty || buffer.hasConsumedText
    {
      sendUpdate(session, state.outcome, outbox: &outbox)
    }
    return state
  }

  mutating func removeTag(
    _ params: FieldRemoveTagRequest,
    outbox: inout Outbox
  ) throws(RequestError) -> FieldStateResult {
    let session = try field(params.field)
    switch params.target {
    case .index(let index):
      guard index < session.field.tags.count else {
        throw .session(
          .indexOutOfRange(index: index, count: session.field.tags.count, field: params.field)
        )
      }
      return try applyToField(params.field, .tagRemoved(at: index), outbox: &outbox)
    case .tag(let text):
      guard session.field.index(of: text) != nil else {
        throw .session(.noMatchingTag(text, field: params.field))
      }
      return try applyToField(params.field, .tagRemovedMatching(text), outbox: &outbox)
    }
  }

  func fieldState(_ id: String) throws(RequestError) -> FieldStateResult {
    try field(id).state()
  }

  mutating func layoutField(_ params: FieldLayoutRequest) throws(RequestError) -> LayoutResult {
    let session = try field(params.field)
    let chips: [Size]
    switch params.chips {
    case .sizes(let sizes):
      guard sizes.count == session.field.tags.count else {
        throw .session(
          .chipCountMismatch(
            sizes: sizes.count,
            tags: session.field.tags.count,
            field: params.field
          )
        )
      }
      chips = sizes
    case .cells(let padding):
      let spec = CellLayout(
        width: params.width,
        padding: padding,
        fieldHeight: params.fieldHeight,
        spacing: params.spacing,
        fieldMinWidth: params.fieldMinWidth
      )
      if session.buffer != nil { fields[params.field]?.cellLayout = spec }
      return withMotion(spec.frames(for: session.field.tags), params)
    }
    let result = FlowLayout.field(
      chips: chips,
      fieldHeight: params.fieldHeight,
      width: params.width,
      spacing: params.spacing,
      fieldMinWidth: params.fieldMinWidth
    )
    return withMotion(result, params)
  }

  /// Adds chip motions since the previous layout when asked for, unless the client wants
  /// reduced motion (then no movement hints at all).
  private mutating func withMotion(
    _ result: FlowResult,
    _ params: FieldLayoutRequest
  ) -> LayoutResult {
    guard params.motion, !reducedMotion, let tags = fields[params.field]?.field.tags else {
      return LayoutResult(frames: result.frames, size: result.size)
    }
    let chips = Array(result.frames.dropLast())
    let previous = fields[params.field]?.lastLayout ?? (tags, chips)
    fields[params.field]?.lastLayout = (tags, chips)
    let motion = ChipMotion.between(previous, (tags, chips))
    return LayoutResult(frames: result.frames, size: result.size, motion: motion)
  }

  mutating func closeField(_ id: String) throws(RequestError) -> NullResult {
    guard fields.removeValue(forKey: id) != nil else {
      throw .session(.unknownSession(kind: "field", id: id))
    }
    shrinkIfSparse(&fields)
    return NullResult()
  }

  func field(_ id: String) throws(RequestError) -> FieldSession {
    guard let session = fields[id] else { throw .session(.unknownSession(kind: "field", id: id)) }
    return session
  }
}

/// Gives a session table's storage back once it is mostly empty.
///
/// Dictionaries never shrink by themselves; without this, memory stays at its peak after many
/// sessions close. Amortised O(1).
func shrinkIfSparse<Value>(_ table: inout [String: Value]) {
  guard table.capacity > 256, table.count * 8 < table.capacity else { return }
  table = Dictionary(uniqueKeysWithValues: table.map { ($0.key, $0.value) })
}
