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
  /// The selected chip, if any.
  public var selected: Int?
  /// The session's JSON text of `tags`, written as is when it is still theirs.
  public var encodedTags: EncodedTags?
  /// Whether `field/undo` and `field/redo` have a step to take (written only when true).
  public var canUndo: Bool
  /// See ``canUndo``.
  public var canRedo: Bool
  /// The language of the `announcement`.
  public var language: Language
  /// The tags that break the field's rules (after `field/setOptions`), written when any do.
  public var flagged: [FlaggedTag]
  /// The session's JSON text of `field` and `prompt`, written as is (made here when nil).
  public var head: FieldStateHead?

  /// Creates a result.
  public init(
    field: String,
    version: Int,
    tags: [String],
    text: String,
    prompt: String,
    outcome: FieldOutcome,
    selected: Int? = nil,
    encodedTags: EncodedTags? = nil,
    canUndo: Bool = false,
    canRedo: Bool = false,
    language: Language = .en,
    flagged: [FlaggedTag] = [],
    head: FieldStateHead? = nil
  ) {
    self.head = head
    self.flagged = flagged
    self.canUndo = canUndo
    self.canRedo = canRedo
    self.language = language
    self.selected = selected
    self.encodedTags = encodedTags
    self.field = field
    self.version = version
    self.tags = tags
    self.text = text
    self.prompt = prompt
    self.outcome = outcome
  }

  public func write(to w: inout JSONWriter) {
    w.fieldState(
      head: head ?? FieldStateHead(field: field, prompt: prompt),
      inResponse: false,
      version: version,
      tags: tags,
      encodedTags: encodedTags,
      text: text,
      outcome: outcome,
      selected: selected,
      canUndo: canUndo,
      canRedo: canRedo,
      language: language,
      flagged: flagged
    )
  }
}

/// The JSON text of a field's id and prompt as a FieldState writes them, made when the field
/// opens (and when its prompt changes) and copied into every reply: they are escaped once, not
/// per keystroke.
public struct FieldStateHead: Hashable, Sendable {
  /// `,"result":{"field":"<id>","version":`, the text before the version in a response (the
  /// result's own starts after `,"result":`, ``resultName`` bytes).
  let field: [UInt8]
  /// The length of `,"result":`.
  static let resultName = 10
  /// `,"prompt":"<prompt>","tags":`, the member after it and the next one's name.
  let prompt: [UInt8]

  /// Writes the text of `field` and `prompt`.
  public init(field: String, prompt: String) {
    var w = JSONWriter()
    w.fragment(#","result":{"field":"#)
    w.string(field)
    w.fragment(#","version":"#)
    self.field = w.bytes
    w.reset()
    w.fragment(#","prompt":"#)
    w.string(prompt)
    w.fragment(#","tags":"#)
    self.prompt = w.bytes
  }
}

extension JSONWriter {
  /// Writes a ``FieldStateResult`` from its members, for a caller that holds them and need not
  /// make the result (the keystroke's reply, written from the session).
  ///
  /// `inResponse`: the response's `,"result":` is written here, from the head's text.
  /// `encodedTags`, when made after `head` (the caller keeps it so) and the text of `tags`, is
  /// copied in place of the prompt, the tags and the name of `text` as one run (three runs and
  /// a check cost ~90 instructions more; `tagsWritten` tells ``fieldChange``).
  public mutating func fieldState(
    head: FieldStateHead,
    inResponse: Bool,
    version: Int,
    tags: [String],
    encodedTags: EncodedTags?,
    text: String,
    outcome: FieldOutcome,
    selected: Int?,
    canUndo: Bool,
    canRedo: Bool,
    language: Language,
    flagged: [FlaggedTag]
  ) {
    fragment(head.field, from: inResponse ? 0 : FieldStateHead.resultName)
    integer(version)
    let kept =
      FastPath.keptStateMiddle.isOn && encodedTags?.array.lowerBound ?? 0 > 0
      && encodedTags?.isText(of: tags) == true
    if kept, let encodedTags {
      FastPath.keptStateMiddle.taken()
      fragment(encodedTags.run)
    } else {
      fragment(head.prompt)
    }
    fieldChange(
      tags: tags,
      encodedTags: encodedTags,
      text: text,
      outcome: outcome,
      selected: selected,
      canUndo: canUndo,
      canRedo: canRedo,
      language: language,
      flagged: flagged,
      tagsWritten: kept
    )
    endObject()
  }

  /// Writes the members FieldState and `field/didUpdate` share, after the name `"tags":`: the
  /// tags, `text`, `selected` (when
  /// a chip is selected), `flagged` (when a tag breaks the rules), `outcome`, `canUndo` and
  /// `canRedo` (when true) and, when the outcome has something to say, `announcement` in
  /// `language`.
  mutating func fieldChange(
    tags: [String],
    encodedTags: EncodedTags?,
    text: String,
    outcome: FieldOutcome,
    selected: Int?,
    canUndo: Bool,
    canRedo: Bool,
    language: Language,
    flagged: [FlaggedTag],
    tagsWritten: Bool = false
  ) {
    if !tagsWritten {
      self.tags(tags, encoded: encodedTags)
      fragment(#","text":"#)
    }
    string(text)
    if let selected {
      key("selected")
      integer(selected)
    }
    if !flagged.isEmpty {
      key("flagged")
      self.flagged(flagged)
    }
    let saysNothing = outcome.isEmpty
    if saysNothing, FastPath.emptyOutcome.isOn {
      // What most keystrokes do: nothing to report, and an undo step to take (one run).
      FastPath.emptyOutcome.taken()
      switch (canUndo, canRedo) {
      case (true, false):
        members(#","outcome":{"added":[],"removed":[],"dropped":[]},"canUndo":true"#)
      case (false, false): members(#","outcome":{"added":[],"removed":[],"dropped":[]}"#)
      default:
        members(#","outcome":{"added":[],"removed":[],"dropped":[]}"#)
        undoRedo(canUndo, canRedo)
      }
    } else {
      key("outcome")
      outcome.write(to: &self, tags: tags, encodedTags: encodedTags)
      undoRedo(canUndo, canRedo)
    }
    if !saysNothing {
      // Said straight into the reply; taken back when the outcome has nothing worth saying.
      let start = mark()
      fragment(#","announcement":""#)
      let words = count
      Announcement.say(outcome, tags: tags, in: language, into: &self)
      if count == words { rewind(to: start) } else { members("\"") }
    }
  }
}

/// An announcement's words go straight into the JSON string being written: the phrasebook's own
/// words as they are (they hold nothing JSON escapes), tags and texts escaped.
extension JSONWriter: PhraseSink {
  public mutating func words(_ text: StaticString) { appendRaw(text) }
  public mutating func text(_ text: String) { stringContents(text) }
  public mutating func number(_ value: Int) { digits(value) }
}

extension FieldOutcome {
  /// Writes `{added: [tag], removed: [{index, tag}], dropped: [{text, reason, duplicateOf? |
  /// limit?}], …}`, the outcome of a change that left the field holding `tags`, whose JSON text
  /// `encodedTags` (when it is theirs) may already hold `added`: tags added at the end (a
  /// paste) are the tail of that text, copied instead of written again.
  func write(to w: inout JSONWriter, tags: [String], encodedTags: EncodedTags?) {
    // The members every outcome has as constant runs; one when only drops (a tag typed again).
    if added.isEmpty && (hasOnlyCommonMembers || removed.isEmpty) {
      w.fragment(#"{"added":[],"removed":[],"dropped":["#)
    } else {
      if added.isEmpty {
        w.fragment(#"{"added":[]"#)
      } else {
        w.fragment(#"{"added":"#)
        if encodedTags?.writeTail(of: tags, matching: added, to: &w) != true { w.strings(added) }
      }
      if hasOnlyCommonMembers || removed.isEmpty {
        w.members(#","removed":[]"#)
      } else {
        w.fragment(#","removed":["#)
        for removal in removed { w.placed(removal.index, removal.tag) }
        w.endArray()
      }
      w.fragment(#","dropped":["#)
    }
    for (index, drop) in dropped.enumerated() {
      // `{"text":` as one run, with the comma before every object but the first.
      w.fragment(index == 0 ? #"{"text":"# : #",{"text":"#)
      w.string(drop.text)
      w.reason(drop.reason)
      w.endObject()
    }
    w.endArray()
    guard !hasOnlyCommonMembers else { return w.endObject() }
    // The SPEC §6 members appear only when they have something to say.
    if !inserted.isEmpty {
      w.key("inserted")
      w.beginArray()
      for tag in inserted { w.placed(tag.index, tag.tag) }
      w.endArray()
    }
    if !moved.isEmpty {
      w.key("moved")
      w.beginArray()
      for move in moved {
        w.beginObject()
        w.key("from")
        w.integer(move.from)
        w.key("to")
        w.integer(move.to)
        w.key("tag")
        w.string(move.tag)
        w.endObject()
      }
      w.endArray()
    }
    if !replaced.isEmpty {
      w.key("replaced")
      w.beginArray()
      for replacement in replaced {
        w.beginObject()
        w.key("index")
        w.integer(replacement.index)
        w.key("old")
        w.string(replacement.old)
        w.key("new")
        w.string(replacement.new)
        w.endObject()
      }
      w.endArray()
    }
    if let edited {
      w.key("edited")
      w.placed(edited.index, edited.tag)
    }
    if let selected {
      w.key("selected")
      w.placed(selected.index, selected.tag)
    }
    if let history {
      w.key("history")
      w.beginObject()
      w.key("direction")
      w.string(history.direction.rawValue)
      w.key("action")
      if let action = history.action { w.string(action.rawValue) } else { w.null() }
      w.endObject()
    }
    if !flagged.isEmpty {
      w.key("flagged")
      w.flagged(flagged)
    }
    w.endObject()
  }
}

extension JSONWriter {
  /// `canUndo` and `canRedo`, each when true.
  mutating func undoRedo(_ canUndo: Bool, _ canRedo: Bool) {
    if canUndo { members(#","canUndo":true"#) }
    if canRedo { members(#","canRedo":true"#) }
  }

  /// The members `reason` and, for the reasons that have one, `duplicateOf` or `limit`.
  mutating func reason(_ reason: DropReason) {
    switch reason {
    case .empty:
      members(#","reason":"empty""#)
    case .duplicate(let index):
      fragment(#","reason":"duplicate","duplicateOf":"#)
      integer(index)
    case .tooLong(let limit):
      fragment(#","reason":"tooLong","limit":"#)
      integer(limit)
    case .tooMany(let limit):
      fragment(#","reason":"tooMany","limit":"#)
      integer(limit)
    case .pattern:
      members(#","reason":"pattern""#)
    case .notAllowed:
      members(#","reason":"notAllowed""#)
    case .denied:
      members(#","reason":"denied""#)
    }
  }

  /// `[{index, tag, reason, duplicateOf? | limit?}]`.
  mutating func flagged(_ flagged: [FlaggedTag]) {
    beginArray()
    for tag in flagged {
      beginObject()
      key("index")
      integer(tag.index)
      key("tag")
      string(tag.tag)
      reason(tag.reason)
      endObject()
    }
    endArray()
  }

  /// `{index, tag}`.
  mutating func placed(_ index: Int, _ tag: String) {
    beginObject()
    key("index")
    integer(index)
    key("tag")
    string(tag)
    endObject()
  }
}
