import JSONRPC
public import TagCore

/// `field/open` (request).
///
/// Opens a tag field session. Result: ``FieldStateResult``.
public struct FieldOpenRequest: TagMessage, Hashable {
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
        try strings(items, at: params.path("tags"))
      } ?? []
    text = try params.optionalString("text") ?? ""
    options = try FieldOptions(params: params.optionalObject("options"))
    sync = try params.optionalObject("sync").map { p throws(ParamsError) in
      try FieldSyncOptions(params: p)
    }
  }
}

/// `field/change` (request).
///
/// The draft changed. Result: ``FieldStateResult``.
///
/// Either `{field, text}` (the whole new draft) or `{field, version, changes}`: LSP-style edits
/// applied in order to the draft of FieldState `version` (which must be the current one).
public struct FieldChangeRequest: TagMessage, Hashable {
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
    if let changes = try params.optionalArray("changes") {
      let version = try params.integer("version")
      change = .edits(version: version, changes: try textEdits(changes, at: params.path("changes")))
    } else if params["text"] != nil {
      change = .text(try params.string("text"))
    } else {
      throw ParamsError(
        path: "",
        problem: "needs `text` (the whole draft) or `version` and `changes`"
      )
    }
  }
}

/// `field/submit` (request).
///
/// Return was pressed. Result: ``FieldStateResult``.
public struct FieldSubmitRequest: TagMessage, Hashable {
  public static let method = "field/submit"
  /// The field's id.
  public var field: String
  public init(params: Params) throws(ParamsError) { field = try params.string("field") }
}

/// `field/deleteBackward` (request).
///
/// Backspace at the start of the box. Result: ``FieldStateResult``.
public struct FieldDeleteBackwardRequest: TagMessage, Hashable {
  public static let method = "field/deleteBackward"
  /// The field's id.
  public var field: String
  public init(params: Params) throws(ParamsError) { field = try params.string("field") }
}

/// `field/addTags` (request).
///
/// Tags from outside the box. Result: ``FieldStateResult``.
public struct FieldAddTagsRequest: TagMessage, Hashable {
  public static let method = "field/addTags"
  /// The field's id.
  public var field: String
  /// The candidates.
  public var tags: [String]

  public init(params: Params) throws(ParamsError) {
    field = try params.string("field")
    tags = try strings(try params.array("tags"), at: params.path("tags"))
  }
}

/// `field/removeTag` (request).
///
/// `{field, index}` or `{field, tag}`. Result: ``FieldStateResult``.
public struct FieldRemoveTagRequest: TagMessage, Hashable {
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
    if params["index"] != nil {
      target = .index(try params.integer("index"))
    } else if params["tag"] != nil {
      target = .tag(try params.string("tag"))
    } else {
      throw ParamsError(path: "", problem: "needs `index` (a tag position) or `tag` (a tag's text)")
    }
  }
}

/// `field/state` (request).
///
/// The field's current state. Result: ``FieldStateResult``.
public struct FieldStateRequest: TagMessage, Hashable {
  public static let method = "field/state"
  /// The field's id.
  public var field: String
  public init(params: Params) throws(ParamsError) { field = try params.string("field") }
}

/// `field/close` (request).
///
/// Ends the session. Result: `null`.
public struct FieldCloseRequest: TagMessage, Hashable {
  public static let method = "field/close"
  /// The field's id.
  public var field: String
  public init(params: Params) throws(ParamsError) { field = try params.string("field") }
}

func strings(_ items: [JSONValue], at path: String) throws(ParamsError) -> [String] {
  var result: [String] = []
  result.reserveCapacity(items.count)
  for (i, item) in items.enumerated() {
    result.append(try Params.string(item, path: "\(path)[\(i)]"))
  }
  return result
}

func textEdits(_ items: [JSONValue], at path: String) throws(ParamsError) -> [TextEdit] {
  var edits: [TextEdit] = []
  for (i, item) in items.enumerated() {
    let change = try Params.object(item, path: "\(path)[\(i)]")
    let text = try change.string("text")
    let range = try change.optionalObject("range").map { r throws(ParamsError) in
      TextRange(
        start: try position(r.requiredObject("start")),
        end: try position(r.requiredObject("end"))
      )
    }
    edits.append(TextEdit(range: range, newText: text))
  }
  return edits
}

func position(_ params: Params) throws(ParamsError) -> TextPosition {
  TextPosition(line: try params.integer("line"), character: try params.integer("character"))
}
