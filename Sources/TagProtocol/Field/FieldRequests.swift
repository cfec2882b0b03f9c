import JSONRPC
public import TagCore

/// `field/open` (request).
///
/// Opens a tag field session. Result: ``FieldStateResult``.
public struct FieldOpenRequest: TagRequest, Hashable {
  public typealias Result = FieldStateResult
  public static let method = "field/open"
  /// The client-chosen id of the field.
  public var field: String
  /// Initial tags, added with the typed-tag rules.
  public var tags: [String]
  /// The initial draft.
  public var text: String
  /// Rules and prompt.
  public var options: FieldOptions
  /// Present when an editor buffer holds the draft (Protocol/sync.md).
  public var sync: FieldSyncOptions?

  public init(params: Params) throws(ParamsError) {
    field = try params.string("field")
    tags =
      try params.optionalArray("tags").map { items throws(ParamsError) in
        try params.strings(items, at: params.path("tags"))
      } ?? []
    text = try params.optionalString("text") ?? ""
    options = try FieldOptions(
      params: params.optionalObject("options")
    )
    sync = try params.optionalObject("sync").map {
      p throws(ParamsError) in
      try FieldSyncOptions(params: p)
    }
  }
}

/// `field/setOptions` (request).
///
/// `{field, options}`: the field's options become `options`, exactly as `field/open` takes them
/// (an option left out takes its default). Tags that break the new rules stay, flagged.
/// Result: ``FieldStateResult``.
public struct FieldSetOptionsRequest: TagRequest, Hashable {
  public typealias Result = FieldStateResult
  public static let method = "field/setOptions"
  /// The field's id.
  public var field: String
  /// The new options, all of them.
  public var options: FieldOptions

  public init(params: Params) throws(ParamsError) {
    field = try params.string("field")
    options = try FieldOptions(params: params.requiredObject("options"))
  }
}

/// `field/change` (request).
///
/// The draft changed. Result: ``FieldStateResult``.
///
/// Either `{field, text}` (the whole new draft) or `{field, version, changes}`: LSP-style edits
/// applied in order to the draft of FieldState `version` (which must be the current one).
public struct FieldChangeRequest: TagRequest, Hashable {
  public typealias Result = FieldStateResult
  public static let method = "field/change"
  /// The field's id.
  public var field: String
  /// What changed.
  public var change: Change

  /// The two forms of a change.
  public enum Change: Hashable, Sendable {
    /// The whole new draft.
    case text(String)
    /// Edits against the draft of the given FieldState version.
    case edits(version: Int, changes: [TextEdit])
  }

  public init(params: Params) throws(ParamsError) {
    field = try params.string("field")
    let wholeDraft = params.has("text")
    let hasVersion = params.has("version")
    if wholeDraft {
      // The whole draft, what typing sends: neither alternative may come with it.
      if params.has("changes") { try params.refuse(params.alternatives("text", "changes")) }
      if hasVersion { try params.refuse(params.alternatives("text", "version")) }
      change = .text(try params.string("text"))
    } else if let changes = params.plainTextEdits("changes") {
      change = .edits(version: try params.integer("version"), changes: changes)
    } else if let changes = try params.optionalArray("changes") {
      let version = try params.integer("version")
      change = .edits(
        version: version,
        changes: try params.textEdits(changes, at: params.path("changes"))
      )
    } else {
      try params.refuse(
        ParamsError(path: "", problem: "needs `text` (the whole draft) or `version` and `changes`")
      )
      change = .text("")
    }
  }
}

/// `field/submit` (request).
///
/// Return was pressed. Result: ``FieldStateResult``.
public struct FieldSubmitRequest: TagRequest, Hashable {
  public typealias Result = FieldStateResult
  public static let method = "field/submit"
  /// The field's id.
  public var field: String
  public init(params: Params) throws(ParamsError) { field = try params.string("field") }
}

/// `field/deleteBackward` (request).
///
/// Backspace at the start of the box. Result: ``FieldStateResult``.
public struct FieldDeleteBackwardRequest: TagRequest, Hashable {
  public typealias Result = FieldStateResult
  public static let method = "field/deleteBackward"
  /// The field's id.
  public var field: String
  public init(params: Params) throws(ParamsError) { field = try params.string("field") }
}

/// `field/addTags` (request).
///
/// Tags from outside the box. Result: ``FieldStateResult``.
public struct FieldAddTagsRequest: TagRequest, Hashable {
  public typealias Result = FieldStateResult
  public static let method = "field/addTags"
  /// The field's id.
  public var field: String
  /// The candidates.
  public var tags: [String]

  public init(params: Params) throws(ParamsError) {
    field = try params.string("field")
    tags = try params.strings("tags")
  }
}

/// `field/removeTag` (request).
///
/// `{field, index}` or `{field, tag}`. Result: ``FieldStateResult``.
public struct FieldRemoveTagRequest: TagRequest, Hashable {
  public typealias Result = FieldStateResult
  public static let method = "field/removeTag"
  /// The field's id.
  public var field: String
  /// Which tag.
  public var target: Target

  /// How the tag to remove is named.
  public enum Target: Hashable, Sendable {
    /// By position.
    case index(Int)
    /// By value (caseless under the field's rules).
    case tag(String)
  }

  public init(params: Params) throws(ParamsError) {
    field = try params.string("field")
    try params.exclusive("index", "tag")
    if params.has("index") {
      target = .index(try params.integer("index"))
    } else if params.has("tag") {
      target = .tag(try params.string("tag"))
    } else {
      try params.refuse(
        ParamsError(path: "", problem: "needs `index` (a tag position) or `tag` (a tag's text)")
      )
      target = .index(0)
    }
  }
}

/// `field/state` (request).
///
/// The field's current state. Result: ``FieldStateResult``.
public struct FieldStateRequest: TagRequest, Hashable {
  public typealias Result = FieldStateResult
  public static let method = "field/state"
  /// The field's id.
  public var field: String
  public init(params: Params) throws(ParamsError) { field = try params.string("field") }
}

/// `field/close` (request).
///
/// Ends the session. Result: `null`.
public struct FieldCloseRequest: TagRequest, Hashable {
  public typealias Result = NullResult
  public static let method = "field/close"
  /// The field's id.
  public var field: String
  public init(params: Params) throws(ParamsError) { field = try params.string("field") }
}

/// An LSP `Range`: `{start, end}`.
func textRange(_ range: Params) throws(ParamsError) -> TextRange {
  TextRange(
    start: try position(range.requiredObject("start")),
    end: try position(range.requiredObject("end"))
  )
}

/// An LSP `Position`: `{line, character}`.
func position(_ params: Params) throws(ParamsError) -> TextPosition {
  TextPosition(line: try params.integer("line"), character: try params.integer("character"))
}
