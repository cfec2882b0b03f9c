public import JSONRPC
public import TagCore

// The SPEC §6 methods of a field: suggestions, selection, move, edit in place, undo, blur.

/// `field/suggest` (request).
///
/// Ranked suggestions from the field's vocabulary. Result: ``SuggestResult``.
public struct FieldSuggestRequest: TagRequest, Hashable {
  public typealias Result = SuggestResult
  public static let method = "field/suggest"
  public enum Member: Int, ParamsMember {
    case field, query, limit
    public static let declared = declare()
  }
  /// The default `limit`.
  public static let defaultLimit = 10
  /// The field's id.
  public var field: String
  /// What to match; nil means the field's draft.
  public var query: String?
  /// The most items to return.
  public var limit: Int

  public init(params: Params<Member>) throws(ParamsError) {
    field = try params.string(.field)
    query = try params.optionalString(.query)
    limit = try params.optionalInteger(.limit, in: 0...10_000) ?? Self.defaultLimit
  }
}

/// `field/setSuggestions` (request).
///
/// Replaces the field's vocabulary (indexed once, here). Result: `null`.
public struct FieldSetSuggestionsRequest: TagRequest, Hashable {
  public typealias Result = NullResult
  public static let method = "field/setSuggestions"
  public enum Member: Int, ParamsMember {
    case field, suggestions
    public static let declared = declare()
  }
  /// The field's id.
  public var field: String
  /// The vocabulary, best first within equal matches is not implied: see Protocol/README.md.
  public var suggestions: [String]

  public init(params: Params<Member>) throws(ParamsError) {
    field = try params.string(.field)
    suggestions = try params.strings(.suggestions)
  }
}

/// `field/moveTag` (request).
///
/// The tag at `from` moves so that it ends at index `to`. Result: ``FieldStateResult``.
public struct FieldMoveTagRequest: TagRequest, Hashable {
  public typealias Result = FieldStateResult
  public static let method = "field/moveTag"
  public enum Member: Int, ParamsMember {
    case field, from, to
    public static let declared = declare()
  }
  /// The field's id.
  public var field: String
  /// The tag's index now.
  public var from: Int
  /// Its index after the move.
  public var to: Int

  public init(params: Params<Member>) throws(ParamsError) {
    field = try params.string(.field)
    from = try params.integer(.from)
    to = try params.integer(.to)
  }
}

/// `field/replaceTag` (request).
///
/// Edits the tag at `index` in place, with the typed-tag rules. Result: ``FieldStateResult``.
public struct FieldReplaceTagRequest: TagRequest, Hashable {
  public typealias Result = FieldStateResult
  public static let method = "field/replaceTag"
  public enum Member: Int, ParamsMember {
    case field, index, text
    public static let declared = declare()
  }
  /// The field's id.
  public var field: String
  /// Which tag.
  public var index: Int
  /// Its new text.
  public var text: String

  public init(params: Params<Member>) throws(ParamsError) {
    field = try params.string(.field)
    index = try params.integer(.index)
    text = try params.string(.text)
  }
}

/// `field/editTag` (request).
///
/// The tag at `index` leaves the list and its text becomes the draft. Result:
/// ``FieldStateResult``.
public struct FieldEditTagRequest: TagRequest, Hashable {
  public typealias Result = FieldStateResult
  public static let method = "field/editTag"
  public enum Member: Int, ParamsMember {
    case field, index
    public static let declared = declare()
  }
  /// The field's id.
  public var field: String
  /// Which tag.
  public var index: Int

  public init(params: Params<Member>) throws(ParamsError) {
    field = try params.string(.field)
    index = try params.integer(.index)
  }
}

/// `field/select` (request).
///
/// Selects the chip at `index`; `null` clears the selection. Result: ``FieldStateResult``.
public struct FieldSelectRequest: TagRequest, Hashable {
  public typealias Result = FieldStateResult
  public static let method = "field/select"
  public enum Member: Int, ParamsMember {
    case field, index
    public static let declared = declare()
  }
  /// The field's id.
  public var field: String
  /// The chip, or nil to clear.
  public var index: Int?

  public init(params: Params<Member>) throws(ParamsError) {
    field = try params.string(.field)
    if !params.has(.index) {
      throw ParamsError(path: "index", problem: "is missing: give a chip index, or null to clear")
    }
    index = try params.optionalInteger(.index)
  }
}

/// `field/undo` (request).
///
/// Back one step of the field's history. Result: ``FieldStateResult``.
public struct FieldUndoRequest: TagRequest, Hashable {
  public typealias Result = FieldStateResult
  public static let method = "field/undo"
  public typealias Member = FieldMember
  /// The field's id.
  public var field: String
  public init(params: Params<Member>) throws(ParamsError) { field = try params.string(.field) }
}

/// `field/redo` (request).
///
/// Forward one step of the field's history. Result: ``FieldStateResult``.
public struct FieldRedoRequest: TagRequest, Hashable {
  public typealias Result = FieldStateResult
  public static let method = "field/redo"
  public typealias Member = FieldMember
  /// The field's id.
  public var field: String
  public init(params: Params<Member>) throws(ParamsError) { field = try params.string(.field) }
}

/// `field/blur` (request).
///
/// The field lost focus. Result: ``FieldStateResult``.
public struct FieldBlurRequest: TagRequest, Hashable {
  public typealias Result = FieldStateResult
  public static let method = "field/blur"
  public typealias Member = FieldMember
  /// The field's id.
  public var field: String
  public init(params: Params<Member>) throws(ParamsError) { field = try params.string(.field) }
}

/// The answer to `field/suggest`: `{items: [{text, matches: [{start, end}]}], announcement}`.
///
/// `start` and `end` are offsets in `text`, counted in the negotiated position encoding
/// (UTF-16 code units unless `initialize` agreed on utf-8 or utf-32), `end` exclusive.
public struct SuggestResult: JSONWritable, Hashable, Sendable {
  /// One suggestion.
  public struct Item: Hashable, Sendable {
    /// The vocabulary entry.
    public var text: String
    /// Matched ranges of `text`, in the negotiated encoding.
    public var matches: [Range<Int>]

    /// Converts a core suggestion, counting its ranges in `encoding`.
    public init(_ suggestion: Suggestion, encoding: PositionEncoding) {
      let text = suggestion.text
      func offset(_ index: String.Index) -> Int {
        switch encoding {
        case .utf8: text.utf8.distance(from: text.startIndex, to: index)
        case .utf16: text.utf16.distance(from: text.startIndex, to: index)
        case .utf32: text.unicodeScalars.distance(from: text.startIndex, to: index)
        }
      }
      self.text = text
      matches = suggestion.matches.map { offset($0.lowerBound)..<offset($0.upperBound) }
    }
  }

  /// Best first.
  public var items: [Item]
  /// What a screen reader says when these suggestions appear: how many, and the first
  /// (Protocol/announcements.md, `suggestions`).
  public var announcement: String

  /// Creates a result.
  public init(items: [Item], announcement: String) {
    self.items = items
    self.announcement = announcement
  }

  public func write(to w: inout JSONWriter) {
    w.beginObject()
    w.key("items")
    w.beginArray()
    for item in items {
      w.beginObject()
      w.key("text")
      w.string(item.text)
      w.key("matches")
      w.beginArray()
      for range in item.matches {
        w.beginObject()
        w.key("start")
        w.integer(range.lowerBound)
        w.key("end")
        w.integer(range.upperBound)
        w.endObject()
      }
      w.endArray()
      w.endObject()
    }
    w.endArray()
    w.key("announcement")
    w.string(announcement)
    w.endObject()
  }
}
