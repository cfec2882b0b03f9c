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
  let prompt: String
  /// The mirror of the editor buffer holding the draft, for synced fields (Protocol/sync.md).
  var buffer: EditorBuffer?
  /// The cell layout pushed with every update, when the client asked for one.
  var cellLayout: CellLayout?
  /// The tags and chip frames of the last `field/layout` that asked for motion.
  var lastLayout: (tags: [String], frames: [Frame])?

  init(id: String, options: FieldOptions, config: ServerConfig) {
    var rules = options.rules
    rules.maxTags = min(rules.maxTags ?? config.maxTags, config.maxTags)
    rules.maxTagLength = min(rules.maxTagLength ?? config.maxTagLength, config.maxTagLength)
    self.id = id
    self.field = TagField(rules: rules)
    self.prompt = options.prompt
  }

  /// Applies an event, bumping the version when tags or draft changed.
  mutating func apply(_ event: FieldEvent) -> FieldOutcome {
    let before = (field.tags.count, field.draft)
    let outcome: FieldOutcome
    if buffer != nil {
      outcome = buffer?.apply(event, to: &field) ?? FieldOutcome()
    } else {
      outcome = field.apply(event)
    }
    if !outcome.added.isEmpty || !outcome.removed.isEmpty || before.0 != field.tags.count
      || before.1 != field.draft
    {
      version += 1
    }
    return outcome
  }

  /// Counts a change made outside ``apply(_:)`` (a buffer change) when tags or draft moved.
  mutating func noteChange(_ outcome: FieldOutcome, draftBefore: String, tagCountBefore: Int) {
    if !outcome.isEmpty || draftBefore != field.draft || tagCountBefore != field.tags.count {
      version += 1
    }
  }

  func state(_ outcome: FieldOutcome = FieldOutcome()) -> FieldStateResult {
    FieldStateResult(
      field: id,
      version: version,
      tags: field.tags,
      text: field.draft,
      prompt: prompt,
      outcome: outcome
    )
  }
}
