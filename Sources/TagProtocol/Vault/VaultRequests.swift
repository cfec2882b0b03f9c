public import JSONRPC
public import TagCore

/// `vault/tags` (request): every tag of every vault, most notes first.
///
/// `{prefix?, limit?}`. Result: ``VaultTagsResult``. Parked until the vaults are indexed.
public struct VaultTagsRequest: TagRequest, Hashable {
  public typealias Result = VaultTagsResult
  public static let method = "vault/tags"
  public enum Member: Int, ParamsMember {
    case prefix, limit
    public static let declared = declare()
  }
  /// Only tags starting with this (caseless, accent-aware, as field suggestions match).
  public var prefix: String?
  /// At most this many tags.
  public var limit: Int?

  public init(params: Params<Member>) throws(ParamsError) {
    prefix = try params.optionalString(.prefix)
    limit = try params.optionalInteger(.limit, in: 0...Int.max)
  }
}

/// The result of `vault/tags`: `{tags: [{tag, notes, spellings: [{text, notes}]}]}`.
public struct VaultTagsResult: JSONWritable, Hashable, Sendable {
  /// The tags, most notes first: each written as its vault spelling (`tag`), its notes and
  /// every spelling with its notes, most used first.
  public var tags: [VaultTag]

  public init(tags: [VaultTag]) { self.tags = tags }

  public func write(to w: inout JSONWriter) {
    w.beginObject()
    w.key("tags")
    w.beginArray()
    for entry in tags {
      w.beginObject()
      w.member("tag", entry.spelling)
      w.member("notes", entry.notes)
      w.key("spellings")
      w.beginArray()
      for spelling in entry.spellings {
        w.beginObject()
        w.member("text", spelling.text)
        w.member("notes", spelling.notes)
        w.endObject()
      }
      w.endArray()
      w.endObject()
    }
    w.endArray()
    w.endObject()
  }
}

/// `vault/notes` (request): the notes carrying tags.
///
/// `{tags, match?: "all"|"any"}` (default `"all"`). Result: ``VaultNotesResult``.
public struct VaultNotesRequest: TagRequest, Hashable {
  public typealias Result = VaultNotesResult
  public static let method = "vault/notes"
  public enum Member: Int, ParamsMember {
    case tags, match
    public static let declared = declare()
  }
  /// How the tags combine.
  public enum Match: String, Hashable, Sendable, CaseIterable {
    /// Notes carrying every tag.
    case all
    /// Notes carrying at least one.
    case any
  }
  /// The tags, caseless.
  public var tags: [String]
  /// How they combine.
  public var match: Match

  public init(params: Params<Member>) throws(ParamsError) {
    tags = try params.strings(.tags)
    let name = try params.optionalString(.match) ?? Match.all.rawValue
    guard let match = Match(rawValue: name) else {
      throw ParamsError(
        path: params.path(.match),
        problem: "must be \"all\" or \"any\", got \"\(name)\""
      )
    }
    self.match = match
  }
}

/// The result of `vault/notes`: `{notes: [{uri, title?}]}`, in path order.
public struct VaultNotesResult: JSONWritable, Sendable {
  /// The notes: each one's `file://` URI and its title, when it has one.
  public var notes: [(uri: String, title: String?)]

  public init(notes: [(uri: String, title: String?)]) { self.notes = notes }

  public func write(to w: inout JSONWriter) {
    w.beginObject()
    w.key("notes")
    w.beginArray()
    for note in notes {
      w.beginObject()
      w.member("uri", note.uri)
      if let title = note.title { w.member("title", title) }
      w.endObject()
    }
    w.endArray()
    w.endObject()
  }
}

/// `vault/rename` (request): the edits renaming a tag in every note.
///
/// `{from, to}`. Result: ``VaultRenameResult``. Nothing is written: the client applies the edit
/// (an editor does, like LSP's `workspace/applyEdit`; `tagd rename` writes files itself).
public struct VaultRenameRequest: TagRequest, Hashable {
  public typealias Result = VaultRenameResult
  public static let method = "vault/rename"
  public enum Member: Int, ParamsMember {
    case from, to
    public static let declared = declare()
  }
  /// The tag to rename, caseless: every spelling is renamed.
  public var from: String
  /// The new tag, as spelled.
  public var to: String

  public init(params: Params<Member>) throws(ParamsError) {
    from = try params.string(.from)
    to = try params.string(.to)
    for (key, value) in [("from", from), ("to", to)] where value.allSatisfy(\.isWhitespace) {
      throw ParamsError(path: key, problem: "must be a tag, got a blank string")
    }
  }
}

/// An LSP `WorkspaceEdit` in its `changes` form: `{changes: {uri: [TextEdit]}}`.
public struct WorkspaceEdit: JSONWritable, Sendable {
  /// Each note's edits (non-overlapping, in document order), notes in path order.
  public var changes: [(uri: String, edits: [TextEdit])]

  public init(changes: [(uri: String, edits: [TextEdit])]) { self.changes = changes }

  public func write(to w: inout JSONWriter) {
    w.beginObject()
    w.key("changes")
    w.beginObject()
    for change in changes {
      w.key(named: change.uri)
      w.write(change.edits)
    }
    w.endObject()
    w.endObject()
  }
}

/// The result of `vault/rename`: `{edit, notes, merged}`.
public struct VaultRenameResult: JSONWritable, Sendable {
  /// The edits.
  public var edit: WorkspaceEdit
  /// Whether `to` was already a tag of the vault (the two tags become one).
  public var merged: Bool

  public init(edit: WorkspaceEdit, merged: Bool) {
    self.edit = edit
    self.merged = merged
  }

  /// How many notes change: one per note the edit changes.
  public var notes: Int { edit.changes.count }

  public func write(to w: inout JSONWriter) {
    w.beginObject()
    w.member("edit", edit)
    w.member("notes", notes)
    w.member("merged", merged)
    w.endObject()
  }
}
