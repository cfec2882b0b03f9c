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
    guard let items = try params.optionalArray(key) else { return nil }
    var folders: [WorkspaceFolder] = []
    let path = params.path(key)
    for (i, item) in items.enumerated() {
      folders.append(try WorkspaceFolder(params: .element(item, path: path + "[\(i)]")))
    }
    return folders
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
  /// LSP's `FileChangeType`.
  public enum Change: Int, Hashable, Sendable {
    case created = 1
    case changed = 2
    case deleted = 3
  }
  /// The URIs and what happened to them, in order.
  public var changes: [(uri: String, change: Change)]

  public init(params: Params<Member>) throws(ParamsError) {
    let items = try params.array(.changes)
    let path = params.path(.changes)
    changes = []
    for (i, item) in items.enumerated() {
      let event = try Params<EventMember>.element(item, path: path + "[\(i)]")
      let uri = try event.string(.uri)
      let type = try event.integer(.type, in: 1...3)
      changes.append((uri, Change(rawValue: type) ?? .changed))
    }
  }

  /// The members of a file event tagd reads, among any others.
  enum EventMember: Int, ParamsMember {
    case uri, type
    static let declared = declare(acceptingAnyMember: true)
  }

  public static func == (a: Self, b: Self) -> Bool {
    a.changes.elementsEqual(b.changes) { $0.uri == $1.uri && $0.change == $1.change }
  }

  public func hash(into hasher: inout Hasher) {
    for change in changes { hasher.combine(change.uri) }
  }
}
