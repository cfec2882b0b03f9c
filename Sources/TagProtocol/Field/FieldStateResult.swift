public import JSONRPC
public import TagCore

/// FieldState: the answer to every `field/*` request but `field/layout` and `field/close`.
///
/// `{field, version, tags, text, prompt, outcome: {added, removed, dropped}}` — `text` is the
/// draft; `version` counts changes of tags or draft; `outcome` says what this request did.
public struct FieldStateResult: JSONWritable, Hashable, Sendable {
  /// The field's id.
  public var field: String
  /// Increments on every change of tags or draft.
  public var version: Int
  /// The tags.
  public var tags: [String]
  /// The draft.
  public var text: String
  /// The placeholder for an empty draft.
  public var prompt: String
  /// What the request did.
  public var outcome: FieldOutcome

  /// Creates a result.
  public init(
    field: String,
    version: Int,
    tags: [String],
    text: String,
    prompt: String,
    outcome: FieldOutcome
  ) {
    self.field = field
    self.version = version
    self.tags = tags
    self.text = text
    self.prompt = prompt
    self.outcome = outcome
  }

  public func write(to w: inout JSONWriter) {
    w.beginObject()
    w.key("field")
    w.string(field)
    w.key("version")
    w.integer(version)
    w.key("prompt")
    w.string(prompt)
    w.fieldChange(tags: tags, text: text, outcome: outcome)
    w.endObject()
  }
}

extension JSONWriter {
  /// Writes the members FieldState and `field/didUpdate` share: `tags`, `text`, `outcome` and,
  /// when the outcome has something to say, `announcement`.
  mutating func fieldChange(tags: [String], text: String, outcome: FieldOutcome) {
    key("tags")
    strings(tags)
    key("text")
    string(text)
    key("outcome")
    write(outcome)
    if let announcement = Announcement.text(for: outcome, tags: tags) {
      key("announcement")
      string(announcement)
    }
  }
}

extension FieldOutcome: JSONWritable {
  /// `{added: [tag], removed: [{index, tag}], dropped: [{text, reason, duplicateOf? | limit?}]}`.
  public func write(to w: inout JSONWriter) {
    w.beginObject()
    w.key("added")
    w.strings(added)
    w.key("removed")
    w.beginArray()
    for removal in removed {
      w.beginObject()
      w.key("index")
      w.integer(removal.index)
      w.key("tag")
      w.string(removal.tag)
      w.endObject()
    }
    w.endArray()
    w.key("dropped")
    w.beginArray()
    for drop in dropped {
      w.beginObject()
      w.key("text")
      w.string(drop.text)
      w.key("reason")
      switch drop.reason {
      case .empty:
        w.string("empty")
      case .duplicate(let index):
        w.string("duplicate")
        w.key("duplicateOf")
        w.integer(index)
      case .tooLong(let limit):
        w.string("tooLong")
        w.key("limit")
        w.integer(limit)
      case .tooMany(let limit):
        w.string("tooMany")
        w.key("limit")
        w.integer(limit)
      case .pattern:
        w.string("pattern")
      case .notAllowed:
        w.string("notAllowed")
      case .denied:
        w.string("denied")
      }
      w.endObject()
    }
    w.endArray()
    w.endObject()
  }
}
