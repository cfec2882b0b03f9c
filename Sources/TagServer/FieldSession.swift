import JSONRPC
import TagCore
import TagProtocol

/// One open tag field: the core state, its version and its prompt.
struct FieldSession: Sendable {
  /// The id the client chose.
  let id: String
  /// Tags, draft and rules.
  var field: TagField
  /// Increments whenever tags or draft change.
  var version = 0
  /// The placeholder for an empty draft.
  private(set) var prompt: String
  /// The JSON text of ``id`` and ``prompt`` every FieldState starts with.
  private(set) var head: FieldStateHead
  /// The language of the field's announcements (the connection's).
  let language: Language
  /// The mirror of the editor buffer holding the draft, for synced fields (Protocol/sync.md).
  var buffer: EditorBuffer?
  /// The cell layout pushed with every update, when the client asked for one.
  var cellLayout: CellLayout?
  /// The tags and chip frames of the last `field/layout` that asked for motion.
  var lastLayout: (tags: [String], frames: [Frame])?
  /// The indexed vocabulary for `field/suggest`.
  var suggestions: SuggestionIndex?
  /// Whether the vault's tags follow ``suggestions`` (`suggestFromVault`).
  private(set) var suggestsFromVault: Bool
  /// The tags' JSON text as last written, after ``head``'s prompt, reused while they do not
  /// change and forgotten when the prompt does.
  private(set) var encodedTags: EncodedTags?
  /// Whether the last change must be pushed as `field/didUpdate` (decided by ``change``).
  private(set) var updateDue = false

  init(id: String, options: FieldOptions, config: ServerConfig, language: Language = .en) {
    self.id = id
    self.field = TagField(rules: Self.rules(options, config))
    let prompt = options.prompt ?? language.words(for: .defaultPrompt)
    self.prompt = prompt
    self.head = FieldStateHead(field: id, prompt: prompt)
    self.language = language
    self.suggestions = options.suggestions.map(SuggestionIndex.init)
    self.suggestsFromVault = options.suggestFromVault
  }

  /// The rules of `options`, under the server's limits.
  private static func rules(_ options: FieldOptions, _ config: ServerConfig) -> FieldRules {
    var rules = options.rules
    rules.maxTags = min(rules.maxTags ?? config.maxTags, config.maxTags)
    rules.maxTagLength = min(rules.maxTagLength ?? config.maxTagLength, config.maxTagLength)
    return rules
  }

  /// `field/setOptions`: the field takes `options` as if opened with them, keeping its tags,
  /// draft, selection and history; tags that break the new rules are flagged, never removed.
  mutating func setOptions(_ options: FieldOptions, config: ServerConfig) -> FieldOutcome {
    let outcome = field.setRules(Self.rules(options, config))
    prompt = options.prompt ?? language.words(for: .defaultPrompt)
    head = FieldStateHead(field: id, prompt: prompt)
    encodedTags = nil
    suggestions = options.suggestions.map(SuggestionIndex.init)
    suggestsFromVault = options.suggestFromVault
    version += 1
    return outcome
  }

  /// The one door every change of a field goes through: a request's event (undo and redo
  /// included) or the editor's `field/didChange`.
  ///
  /// It enforces `--max-field-bytes` (`limit`) on both paths, asks the core once what changed
  /// (``FieldOutcome/changed``), moves the version when anything did and decides whether a
  /// `field/didUpdate` is due (``updateDue``). A change refused for the limit changes nothing
  /// in the field; on the sync path the mirror still takes the client's text, to be taken back
  /// out by the update (``EditorBuffer/refuse(version:edits:encoding:)``).
  mutating func change(
    _ input: FieldInput,
    limit: Int,
    encoding: PositionEncoding
  ) throws(FieldChangeError) -> FieldOutcome {
    let outcome: FieldOutcome
    let draftBytes = field.draft.utf8.count
    if field.tagBytes + draftBytes + Self.maxGrowth(of: input, draftBytes: draftBytes) <= limit {
      // Cannot overflow: applied in place, no copy of the tags.
      outcome = try perform(input, encoding: encoding)
    } else {
      var changed = self
      outcome = try changed.perform(input, encoding: encoding)
      guard changed.byteCount <= limit else {
        let bytes = changed.byteCount
        if case .buffer(let version, let edits, _, _) = input {
          // The client's buffer holds the text: the mirror follows it, the field does not.
          do throws(EditorBufferError) {
            try buffer?.refuse(version: version, edits: edits, encoding: encoding)
          } catch {
            throw .buffer(error)
          }
          updateDue = true
        }
        throw .tooLarge(bytes: bytes)
      }
      self = changed
    }
    if !outcome.changed.isEmpty { version += 1 }
    // Pushed when the rule did something, when the selection changed (typing clears a
    // selected chip, which the client draws until told) or when the buffer still holds text
    // to change; a draft the client typed itself is not told back.
    // Read in place (a `buffer.map` copied the mirror for the question).
    updateDue =
      isSynced
      && (!outcome.isEmpty || outcome.changed.contains(.selection)
        || buffer?.hasPendingEdits == true)
    return outcome
  }

  /// Applies `input` in place: through the editor buffer when the field is synced (a field
  /// opened without `sync` becomes synced at its first `field/didChange`).
  private mutating func perform(
    _ input: FieldInput,
    encoding: PositionEncoding
  ) throws(FieldChangeError) -> FieldOutcome {
    switch input {
    case .event(let event):
      guard isSynced else { return field.apply(event) }
      return buffer?.apply(event, to: &field) ?? FieldOutcome()
    case .buffer(let version, let edits, let composing, let applied):
      if !isSynced { buffer = EditorBuffer(text: field.draft, version: Int.min) }
      do throws(EditorBufferError) {
        return try buffer?.clientChanged(
          version: version,
          edits: edits,
          encoding: encoding,
          composing: composing,
          applied: applied,
          field: &field
        ) ?? FieldOutcome()
      } catch {
        throw .buffer(error)
      }
    }
  }

  /// Whether the field is synced with an editor buffer (``buffer`` is set).
  ///
  /// Asked by a switch: `buffer == nil` picked `Optional`'s `==` for an `Equatable` wrapped
  /// type, which copied the mirror into a tuple and destroyed it through its metadata on every
  /// keystroke.
  var isSynced: Bool {
    switch buffer {
    case .none: false
    case .some: true
    }
  }

  /// The UTF-8 bytes held by the field's tags and draft: what `--max-field-bytes` bounds.
  var byteCount: Int {
    field.tagBytes + field.draft.utf8.count
  }

  /// An upper bound on the bytes `input` can add to a field whose draft holds `draftBytes`.
  ///
  /// A candidate's transform can lengthen it (`ΐ` uppercases to three scalars), but never by more
  /// than 6 bytes per input byte; a removal or Backspace adds nothing. Static: as a method it
  /// copied the whole session (617 bytes) on every keystroke.
  private static func maxGrowth(of input: FieldInput, draftBytes: Int) -> Int {
    switch input {
    case .buffer(_, let edits, _, _): 6 * edits.textBytes
    case .event(.draftChanged(let text)): 6 * text.utf8.count
    case .event(.tagsAdded(let tags)): tags.reduce(0) { $0 + 6 * $1.utf8.count }
    case .event(.tagReplaced(_, let text)): 6 * text.utf8.count
    case .event(.draftComposing(let text)): text.utf8.count
    // These may commit the draft (edit commits a non-empty draft first, blur may commit it).
    case .event(.submitted), .event(.deletedBackward), .event(.tagEdited), .event(.blurred):
      6 * draftBytes
    // Undo and redo only return to states that were within the limit when they were made.
    case .event(.tagRemoved), .event(.tagRemovedMatching), .event(.selected), .event(.tagMoved),
      .event(.undo), .event(.redo):
      0
    }
  }

  /// Writes the tags' JSON text (``encodedTags``) again when they changed since it was last
  /// written.
  mutating func keepTagsText() {
    guard encodedTags?.isText(of: field.tags) != true else { return }
    encodedTags = EncodedTags(field.tags, after: head)
  }

  /// Writes the response carrying ``state(_:)``'s result, without making the result.
  mutating func writeReply(id: RequestID, _ outcome: FieldOutcome, to w: inout JSONWriter) {
    keepTagsText()
    w.beginMessage(id: id)
    w.fieldState(
      head: head,
      inResponse: true,
      version: version,
      tags: field.tags,
      encodedTags: encodedTags,
      text: field.draft,
      outcome: outcome,
      selected: field.selected,
      canUndo: field.canUndo,
      canRedo: field.canRedo,
      language: language,
      flagged: field.flagged
    )
    w.endObject()
  }

  /// Writes the `field/didUpdate` of a synced field (nothing when it is not) in place, as
  /// ``writeReply(id:_:to:)``: no closure copies the mirror or the session's members.
  mutating func writeUpdate(
    _ outcome: FieldOutcome,
    resync: Bool = false,
    error: ResponseError? = nil,
    encoding: PositionEncoding,
    to w: inout JSONWriter
  ) {
    guard let bufferVersion = buffer?.version else { return }
    let cells = cellLayout?.layout(for: field.tags)
    keepTagsText()
    w.fragment(#"{"jsonrpc":"2.0","method":"field/didUpdate","params":"#)
    w.fieldUpdate(
      head: head,
      version: bufferVersion,
      edits: resync ? nil : buffer,
      encoding: encoding,
      stateVersion: version,
      tags: field.tags,
      encodedTags: encodedTags,
      text: field.draft,
      outcome: outcome,
      resync: resync,
      error: error,
      layout: cells?.flow,
      labels: cells?.labels ?? [],
      selected: field.selected,
      canUndo: field.canUndo,
      canRedo: field.canRedo,
      language: language,
      flagged: field.flagged
    )
    w.endObject()
  }

  mutating func state(_ outcome: consuming FieldOutcome = FieldOutcome()) -> FieldStateResult {
    keepTagsText()
    return FieldStateResult(
      field: id,
      version: version,
      tags: field.tags,
      text: field.draft,
      prompt: prompt,
      outcome: outcome,
      selected: field.selected,
      encodedTags: encodedTags,
      canUndo: field.canUndo,
      canRedo: field.canRedo,
      language: language,
      flagged: field.flagged,
      head: head
    )
  }
}

/// What reaches a field through ``FieldSession/change(_:limit:encoding:)``.
enum FieldInput {
  /// A request's event.
  case event(FieldEvent)
  /// The editor's buffer changed (`field/didChange`): its version after `edits`, whether an
  /// input method composes, whether the edits apply the server's.
  case buffer(version: Int, edits: TextEdits, composing: Bool, applied: Bool)
}

/// Why a change did not reach a field.
enum FieldChangeError: Error {
  /// The field would hold `bytes` bytes, over `--max-field-bytes`.
  case tooLarge(bytes: Int)
  /// The editor's change does not fit the mirror.
  case buffer(EditorBufferError)
}
