public import JSONRPC

/// One of LSP's `WorkspaceFolder`s: `{uri, name}`.
public struct WorkspaceFolder: Hashable, Sendable {
  /// The folder's URI.
  public var uri: String

  /// The members tagd reads, among any others.
  public enum Member: Int, ParamsMember {
    case uri, name
    public static let declared = declare(acceptingAnyMember: true)
  }

  /// Decodes `{uri, name?}` (open, as LSP's objects are); the name, which LSP requires, is
  /// checked and not kept (nothing shows it).
  public init(params: Params<Member>) throws(ParamsError) {
    uri = try params.string(.uri)
    _ = try params.optionalString(.name)
  }

  /// Reads an array of folders at member `key` of `params`.
  static func list<M>(_ params: Params<M>, _ key: M) throws(ParamsError) -> [WorkspaceFolder]? {
    let path = params.path(key)
    return try params.optionalArray(key)?.enumerated().map { (i, item) throws(ParamsError) in
      try WorkspaceFolder(params: .element(item, path: path + "[\(i)]"))
    }
  }
}

/// `workspace/didChangeWorkspaceFolders` (notification): vaults added and removed.
public struct DidChangeWorkspaceFoldersNotification: TagNotification, Hashable {
  public static let method = "workspace/didChangeWorkspaceFolders"
  public enum Member: Int, ParamsMember {
    case event
    public static let declared = declare(acceptingAnyMember: true)
  }
  /// Folders that became vaults.
  public var added: [WorkspaceFolder]
  /// Folders that stopped being vaults.
  public var removed: [WorkspaceFolder]

  public init(params: Params<Member>) throws(ParamsError) {
    let event = try params.requiredObject(.event, as: EventMember.self)
    added = try WorkspaceFolder.list(event, .added) ?? []
    removed = try WorkspaceFolder.list(event, .removed) ?? []
  }

  /// The members of `event` tagd reads, among any others.
  enum EventMember: Int, ParamsMember {
    case added, removed
    static let declared = declare(acceptingAnyMember: true)
  }
}

/// `workspace/didChangeWatchedFiles` (notification): files the client saw change on disk.
public struct DidChangeWatchedFilesNotification: TagNotification, Hashable {
  public static let method = "workspace/didChangeWatchedFiles"
  public enum Member: Int, ParamsMember {
    case changes
    public static let declared = declare(acceptingAnyMember: true)
  }
  /// The URIs that changed, in order.
  ///
  /// What happened to each (LSP's `FileChangeType`, 1 to 3: created, changed, deleted) is
  /// checked and not kept: tagd reads each again, and a file it cannot read is gone.
  public var uris: [String]

  public init(params: Params<Member>) throws(ParamsError) {
    let path = params.path(.changes)
    uris = try params.array(.changes).enumerated().map { (i, item) throws(ParamsError) in
      let event = try Params<EventMember>.element(item, path: path + "[\(i)]")
      let uri = try event.string(.uri)
      _ = try event.integer(.type, in: 1...3)
      return uri
    }
  }

  /// The members of a file event tagd reads, among any others.
  enum EventMember: Int, ParamsMember {
    case uri, type
    static let declared = declare(acceptingAnyMember: true)
  }
}
