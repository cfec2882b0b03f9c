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
  var prompt: String
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
  /// The tags' JSON text as last written, reused while they do not change.
  private var encodedTags: EncodedTags?
  /// Whether the last change must be pushed as `field/didUpdate` (decided by ``noteChange``).
  private(set) var updateDue = false

  init(id: String, options: FieldOptions, config: ServerConfig, language: Language = .en) {
    self.id = id
    self.field = TagField(rules: Self.rules(options, config))
    self.prompt = options.prompt ?? language.words(for: .defaultPrompt)
    self.language = language
    self.suggestions = options.suggestions.map(SuggestionIndex.init)
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
    suggestions = options.suggestions.map(SuggestionIndex.init)
    version += 1
    return outcome
  }

  /// Applies an event (through the editor buffer when the field is synced), moving the version
  /// when tags or draft changed.
  mutating func apply(_ event: FieldEvent) -> FieldOutcome {
    let before = mark
    let outcome: FieldOutcome
    if buffer != nil {
      outcome = buffer?.apply(event, to: &field) ?? FieldOutcome()
    } else {
      outcome = field.apply(event)
    }
    noteChange(outcome, since: before)
    return outcome
  }

  /// What the version is compared against: the tag count, draft and selection before a change.
  var mark: (tagCount: Int, draft: String, selected: Int?) {
    (field.tags.count, field.draft, field.selected)
  }

  /// The one place that decides what a change did, once per event or keystroke.
  ///
  /// The version moves when it added, removed, moved or replaced tags, or changed the draft or
  /// the selection. For a synced field it is due as `field/didUpdate` (``updateDue``) when the
  /// rule did something, when the selection changed (typing clears a selected chip, which the
  /// client draws until told) or when the buffer still holds committed text to delete; a draft
  /// the client typed itself is not told back.
  mutating func noteChange(
    _ outcome: FieldOutcome,
    since before: (tagCount: Int, draft: String, selected: Int?)
  ) {
    let selectionChanged = before.selected != field.selected
    if !outcome.added.isEmpty || !outcome.removed.isEmpty || !outcome.inserted.isEmpty
      || !outcome.moved.isEmpty || !outcome.replaced.isEmpty || before.tagCount != field.tags.count
      || selectionChanged || !before.draft.hasSameUTF8(as: field.draft)
    {
      version += 1
    }
    updateDue = buffer.map { !outcome.isEmpty || selectionChanged || $0.hasConsumedText } ?? false
  }

  /// The tags' JSON text, written again only when they changed since it was last asked for.
  mutating func tagsText() -> EncodedTags {
    if let encodedTags, encodedTags.isText(of: field.tags) { return encodedTags }
    let fresh = EncodedTags(field.tags)
    encodedTags = fresh
    return fresh
  }

  mutating func state(_ outcome: consuming FieldOutcome = FieldOutcome()) -> FieldStateResult {
    FieldStateResult(
      field: id,
      version: version,
      tags: field.tags,
      text: field.draft,
      prompt: prompt,
      outcome: outcome,
      selected: field.selected,
      encodedTags: tagsText(),
      canUndo: field.canUndo,
      canRedo: field.canRedo,
      language: language,
      flagged: field.flagged
    )
  }
}
