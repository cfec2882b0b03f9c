public import JSONRPC
public import TagCore

/// `field/open` (request).
///
/// Opens a tag field session. Result: ``FieldStateResult``.
public struct FieldOpenRequest: TagRequest, Hashable {
  public typealias Result = FieldStateResult
  public static let method = "field/open"
  public enum Member: Int, ParamsMember {
    case field, tags, text, options, sync
    public static let declared = declare()
  }
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

  public init(params: Params<Member>) throws(ParamsError) {
    field = try params.string(.field)
    tags =
      try params.optionalStrings(.tags) ?? []
    text = try params.optionalString(.text) ?? ""
    options = try FieldOptions(params: params.optionalObject(.options))
    sync = try params.optionalObject(.sync).map(FieldSyncOptions.init(params:))
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
  public enum Member: Int, ParamsMember {
    case field, options
    public static let declared = declare()
  }
  /// The field's id.
  public var field: String
  /// The new options, all of them.
  public var options: FieldOptions

  public init(params: Params<Member>) throws(ParamsError) {
    field = try params.string(.field)
    options = try FieldOptions(params: params.requiredObject(.options))
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
  public enum Member: Int, ParamsMember {
    case field, text, version, changes
    public static let declared = declare()
  }
  /// The field's id.
  public var field: String
  /// What changed.
  public var change: Change

  /// The two forms of a change.
  public enum Change: Hashable, Sendable {
    /// The whole new draft.
    case text(String)
    /// Edits against the draft of the given FieldState version (an array: ``TextEdits`` here
    /// made every keystroke's request a value copied and destroyed through its metadata).
    case edits(version: Int, changes: [TextEdit])
  }

  public init(params: Params<Member>) throws(ParamsError) {
    try self.init(params: params, lastField: nil)
  }

  /// Decodes a keystroke whose `field` is usually `lastField`, the one the message before named:
  /// then that string is kept, and none is made (``FastPath/lastFieldID``).
  public static func decode(_ source: ParamsSource, lastField: String?) throws(ParamsError) -> Self
  {
    guard case .bytes(let body, .object(let ranges)) = source else {
      return try Self(params: .root(source), lastField: lastField)
    }
    return try Self(params: Params(root: body, ranges), lastField: lastField)
  }

  init(params: Params<Member>, lastField: String?) throws(ParamsError) {
    let (slots, slot) = (params.slots, Member.field.slot)
    if FastPath.lastFieldID.isOn, let lastField, case .bytes(let body) = params.object,
      let value = slots.value(slot), slots.isPlainString(slot),
      body.isPlainString(at: value, lastField)
    {
      FastPath.lastFieldID.taken()
      field = lastField
    } else {
      field = try params.string(.field)
    }
    if params.has(.text) {
      // The whole draft, what typing sends: neither alternative may come with it.
      if params.has(.changes) { throw params.alternatives(.text, .changes) }
      if params.has(.version) { throw params.alternatives(.text, .version) }
      change = .text(try params.string(.text))
    } else if let changes = params.plainTextEdits(.changes) {
      change = .edits(version: try params.integer(.version), changes: Array(changes))
    } else if let changes = try params.optionalArray(.changes) {
      change = .edits(
        version: try params.integer(.version),
        changes: Array(try params.textEdits(changes, at: params.path(.changes)))
      )
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
public struct FieldSubmitRequest: TagRequest, Hashable {
  public typealias Result = FieldStateResult
  public static let method = "field/submit"
  public typealias Member = FieldMember
  /// The field's id.
  public var field: String
  public init(params: Params<Member>) throws(ParamsError) { field = try params.string(.field) }
}

/// `field/deleteBackward` (request).
///
/// Backspace at the start of the box. Result: ``FieldStateResult``.
public struct FieldDeleteBackwardRequest: TagRequest, Hashable {
  public typealias Result = FieldStateResult
  public static let method = "field/deleteBackward"
  public typealias Member = FieldMember
  /// The field's id.
  public var field: String
  public init(params: Params<Member>) throws(ParamsError) { field = try params.string(.field) }
}

/// `field/addTags` (request).
///
/// Tags from outside the box. Result: ``FieldStateResult``.
public struct FieldAddTagsRequest: TagRequest, Hashable {
  public typealias Result = FieldStateResult
  public static let method = "field/addTags"
  public enum Member: Int, ParamsMember {
    case field, tags
    public static let declared = declare()
  }
  /// The field's id.
  public var field: String
  /// The candidates.
  public var tags: [String]

  public init(params: Params<Member>) throws(ParamsError) {
    field = try params.string(.field)
    tags = try params.strings(.tags)
  }
}

/// `field/removeTag` (request).
///
/// `{field, index}` or `{field, tag}`. Result: ``FieldStateResult``.
public struct FieldRemoveTagRequest: TagRequest, Hashable {
  public typealias Result = FieldStateResult
  public static let method = "field/removeTag"
  public enum Member: Int, ParamsMember {
    case field, index, tag
    public static let declared = declare()
  }
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

  public init(params: Params<Member>) throws(ParamsError) {
    field = try params.string(.field)
    try params.exclusive(.index, .tag)
    if params.has(.index) {
      target = .index(try params.integer(.index))
    } else if params.has(.tag) {
      target = .tag(try params.string(.tag))
    } else {
      throw ParamsError(path: "", problem: "needs `index` (a tag position) or `tag` (a tag's text)")
    }
  }
}

/// `field/state` (request).
///
/// The field's current state. Result: ``FieldStateResult``.
public struct FieldStateRequest: TagRequest, Hashable {
  public typealias Result = FieldStateResult
  public static let method = "field/state"
  public typealias Member = FieldMember
  /// The field's id.
  public var field: String
  public init(params: Params<Member>) throws(ParamsError) { field = try params.string(.field) }
}

/// `field/close` (request).
///
/// Ends the session. Result: `null`.
public struct FieldCloseRequest: TagRequest, Hashable {
  public typealias Result = NullResult
  public static let method = "field/close"
  public typealias Member = FieldMember
  /// The field's id.
  public var field: String
  public init(params: Params<Member>) throws(ParamsError) { field = try params.string(.field) }
}

/// The members of a request that names only its field.
public enum FieldMember: Int, ParamsMember {
  case field
  public static let declared = declare()
}
