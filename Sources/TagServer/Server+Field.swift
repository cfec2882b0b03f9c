import JSONRPC
import TagCore
import TagProtocol

extension Server {
  mutating func openField(
    _ params: FieldOpenRequest,
    outbox: inout Outbox
  ) throws(RequestError) -> FieldStateResult {
    try checkCanOpen(params.field, in: fields, kind: "field")
    var options = params.options
    // A field that suggests from the vaults is in them: their `.tagd.toml` applies to it.
    if options.suggestFromVault { vault.applyVocabularies(to: &options.rules) }
    var session = FieldSession(
      id: params.field,
      options: options,
      config: config,
      language: language
    )
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
    // The initial tags and text are where the history starts, not a step to undo.
    session.field.resetHistory()
    session.version = 1
    try checkSize(of: session)
    fields[params.field] = session
    if session.buffer?.hasConsumedText == true {
      Self.sendUpdate(&session, outcome, encoding: positionEncoding, outbox: &outbox)
    }
    return session.state(outcome)
  }

  /// Throws when a session `id` is already open in `table` or no more sessions may open.
  func checkCanOpen<Session>(
    _ id: String,
    in table: [String: Session],
    kind: String
  ) throws(RequestError) {
    guard table[id] == nil else { throw .session(.alreadyOpen(kind: kind, id: id)) }
    guard sessionCount < config.maxSessions else {
      throw .session(.tooManySessions(limit: config.maxSessions))
    }
  }

  /// Runs `body` on the open field `id` in place: one lookup, no copy of its tags.
  ///
  /// A field named by the message before is not looked up again: its place in the table is
  /// kept until the table changes (``lastField``, ``FastPath/lastFieldLookup``).
  mutating func withField<T>(
    _ id: String,
    _ body: (inout FieldSession) throws(RequestError) -> T
  ) throws(RequestError) -> T {
    let index: [String: FieldSession].Index
    if FastPath.lastFieldLookup.isOn, let last = lastField, last.id == id {
      FastPath.lastFieldLookup.taken()
      index = last.index
    } else {
      guard let found = fields.index(forKey: id) else {
        throw .session(.unknownSession(kind: "field", id: id))
      }
      index = found
    }
    // Changing the session in place runs the table's `didSet`, which forgets the place: it is
    // noted after, still valid (a session changed in place moves no entry).
    defer { lastField = (id, index) }
    return try body(&fields.values[index])
  }

  /// `field/change`: the whole draft, or edits of the draft of the current version, as the
  /// event ``FieldEvent/draftChanged(_:)`` (not on a synced field: its buffer is the editor's).
  ///
  /// `reply` makes the answer from the session once the change is made (nothing is thrown
  /// after it).
  mutating func changeField<T>(
    _ params: FieldChangeRequest,
    outbox: inout Outbox,
    reply: (inout FieldSession, FieldOutcome, inout Outbox) -> T
  ) throws(RequestError) -> T {
    let encoding = positionEncoding
    let limit = config.maxFieldBytes
    return try withField(params.field) { session throws(RequestError) in
      guard !session.isSynced else { throw .session(.syncedWithBuffer(field: params.field)) }
      let text: String
      switch params.change {
      case .text(let whole):
        text = whole
      case .edits(let version, let changes):
        guard version == session.version else {
          throw .session(
            .staleVersion(current: session.version, given: version, field: params.field)
          )
        }
        do throws(TextEditError) {
          text = try TextOffsets.apply(changes, to: session.field.draft, encoding: encoding)
        } catch {
          throw .session(.invalidEdit(error, path: "changes"))
        }
      }
      return try Server.change(
        &session,
        .draftChanged(text),
        limit: limit,
        encoding: encoding,
        outbox: &outbox,
        reply: reply
      )
    }
  }

  /// Applies `event` to field `id`.
  mutating func apply(
    _ event: FieldEvent,
    toField id: String,
    outbox: inout Outbox
  ) throws(RequestError) -> FieldStateResult {
    let limit = config.maxFieldBytes
    let encoding = positionEncoding
    return try withField(id) { session throws(RequestError) in
      try Server.change(&session, event, limit: limit, encoding: encoding, outbox: &outbox)
    }
  }

  /// A request's event through the field's one door; for a synced field, the update is
  /// pushed before the response.
  static func change(
    _ session: inout FieldSession,
    _ event: FieldEvent,
    limit: Int,
    encoding: PositionEncoding,
    outbox: inout Outbox
  ) throws(RequestError) -> FieldStateResult {
    try change(&session, event, limit: limit, encoding: encoding, outbox: &outbox) {
      session,
      outcome,
      _ in session.state(outcome)
    }
  }

  /// ``change(_:_:limit:encoding:outbox:)`` answered by `reply`, from the session.
  static func change<T>(
    _ session: inout FieldSession,
    _ event: FieldEvent,
    limit: Int,
    encoding: PositionEncoding,
    outbox: inout Outbox,
    reply: (inout FieldSession, FieldOutcome, inout Outbox) -> T
  ) throws(RequestError) -> T {
    let outcome: FieldOutcome
    do throws(FieldChangeError) {
      outcome = try session.change(.event(event), limit: limit, encoding: encoding)
    } catch {
      throw session.requestError(error, limit: limit)
    }
    if session.updateDue { sendUpdate(&session, outcome, encoding: encoding, outbox: &outbox) }
    return reply(&session, outcome, &outbox)
  }

  mutating func removeTag(
    _ params: FieldRemoveTagRequest,
    outbox: inout Outbox
  ) throws(RequestError) -> FieldStateResult {
    let event: FieldEvent
    switch params.target {
    case .index(let index):
      let count = try withField(params.field) { session throws(RequestError) in
        session.field.tags.count
      }
      guard index < count else {
        throw .session(.indexOutOfRange(index: index, count: count, field: params.field))
      }
      event = .tagRemoved(at: index)
    case .tag(let text):
      let found = try withField(params.field) { session throws(RequestError) in
        session.field.index(of: text) != nil
      }
      guard found else { throw .session(.noMatchingTag(text, field: params.field)) }
      event = .tagRemovedMatching(text)
    }
    return try apply(event, toField: params.field, outbox: &outbox)
  }

  mutating func layoutField(_ params: FieldLayoutRequest) throws(RequestError) -> LayoutResult {
    let reducedMotion = reducedMotion
    return try withField(params.field) { session throws(RequestError) in
      let result: FlowResult
      var labels: [String]? = nil
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
        result = FlowLayout.field(
          chips: sizes,
          fieldHeight: params.fieldHeight,
          width: params.width,
          spacing: params.spacing,
          fieldMinWidth: params.fieldMinWidth
        )
      case .cells(let chips):
        let spec = CellLayout(
          width: params.width,
          chips: chips,
          fieldHeight: params.fieldHeight,
          spacing: params.spacing,
          fieldMinWidth: params.fieldMinWidth
        )
        if session.isSynced { session.cellLayout = spec }
        (result, labels) = spec.layout(for: session.field.tags)
      }
      guard params.motion, !reducedMotion else {
        return LayoutResult(frames: result.frames, size: result.size, labels: labels)
      }
      // Chip motions since the previous layout that asked for them.
      let chips = Array(result.frames.dropLast())
      let tags = session.field.tags
      let previous = session.lastLayout ?? (tags, chips)
      session.lastLayout = (tags, chips)
      let motion = ChipMotion.between(previous, (tags, chips))
      return LayoutResult(frames: result.frames, size: result.size, motion: motion, labels: labels)
    }
  }

  /// Closes session `id` of `table` (`kind` names it in the error).
  mutating func close<Session>(
    _ id: String,
    in table: WritableKeyPath<Server, [String: Session]>,
    kind: String
  ) throws(RequestError) -> NullResult {
    guard self[keyPath: table].removeValue(forKey: id) != nil else {
      throw .session(.unknownSession(kind: kind, id: id))
    }
    shrinkIfSparse(&self[keyPath: table])
    return NullResult()
  }
}

extension FieldSession {
  /// The request error for a change that did not reach the field.
  func requestError(_ error: FieldChangeError, limit: Int) -> RequestError {
    switch error {
    case .tooLarge(let bytes): .session(.fieldTooLarge(bytes: bytes, limit: limit, field: id))
    // A request's event never meets the buffer's errors: those come from the editor's edits.
    case .buffer(.staleVersion(let current, let given)):
      .session(.staleVersion(current: current, given: given, field: id))
    case .buffer(.invalidEdit(let problem)): .session(.invalidEdit(problem, path: "changes"))
    }
  }

  static func tooLarge(_ session: FieldSession, limit: Int) -> RequestError {
    .session(.fieldTooLarge(bytes: session.byteCount, limit: limit, field: session.id))
  }
}

extension Server {
  /// Throws LimitExceeded when `session` holds more than `--max-field-bytes`.
  func checkSize(of session: FieldSession) throws(RequestError) {
    guard session.byteCount <= config.maxFieldBytes else {
      throw FieldSession.tooLarge(session, limit: config.maxFieldBytes)
    }
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
