/// One of LSP's `WorkspaceFolder`s: `{uri, name}`.
public struct WorkspaceFolder: Hashable, Sendable {
  /// The folder's URI.
  public var uri: String
  /// Its name (LSP requires one; tagd only logs it).
  public var name: String?

  /// Decodes `{uri, name?}` (open, as LSP's objects are).
  public init(params: Params) throws(ParamsError) {
    params.acceptAnyMember()
    uri = try params.string("uri")
    name = try params.optionalString("name")
  }

  /// Creates a folder.
  public init(uri: String, name: String? = nil) {
    self.uri = uri
    self.name = name
  }

  /// Reads an array of folders at member `key` of `params`.
  static func list(_ params: Params, _ key: StaticString) throws(ParamsError) -> [WorkspaceFolder]?
  {
    guard let items = try params.optionalArray(key) else { return nil }
    var folders: [WorkspaceFolder] = []
    let path = params.path(key)
    for (i, item) in items.enumerated() {
      folders.append(try WorkspaceFolder(params: params.object(item, path: path + "[\(i)]")))
    }
    return folders
  }
}

/// `workspace/didChangeWorkspaceFolders` (notification): vaults added and removed.
public struct DidChangeWorkspaceFoldersNotification: TagNotification, Hashable {
  public static let method = "workspace/didChangeWorkspaceFolders"
  /// Folders that became vaults.
  public var added: [WorkspaceFolder]
  /// Folders that stopped being vaults.
  public var removed: [WorkspaceFolder]

  public init(params: Params) throws(ParamsError) {
    params.acceptAnyMember()
    let event = try params.requiredObject("event")
    event.acceptAnyMember()
    added = try WorkspaceFolder.list(event, "added") ?? []
    removed = try WorkspaceFolder.list(event, "removed") ?? []
  }
}

/// `workspace/didChangeWatchedFiles` (notification): files the client saw change on disk.
public struct DidChangeWatchedFilesNotification: TagNotification, Hashable {
  public static let method = "workspace/didChangeWatchedFiles"
  /// LSP's `FileChangeType`.
  public enum Change: Int, Hashable, Sendable {
    case created = 1
    case changed = 2
    case deleted = 3
  }
  /// The URIs and what happened to them, in order.
  public var changes: [(uri: String, change: Change)]

  public init(params: Params) throws(ParamsError) {
    params.acceptAnyMember()
    let items = try params.array("changes")
    let path = params.path("changes")
    changes = []
    for (i, item) in items.enumerated() {
      let event = try params.object(item, path: path + "[\(i)]")
      event.acceptAnyMember()
      let uri = try event.string("uri")
      let type = try event.integer("type", in: 1...3)
      changes.append((uri, Change(rawValue: type) ?? .changed))
    }
  }

  public static func == (a: Self, b: Self) -> Bool {
    a.changes.elementsEqual(b.changes) { $0.uri == $1.uri && $0.change == $1.change }
  }

  public func hash(into hasher: inout Hasher) {
    for change in changes { hasher.combine(change.uri) }
  }
}
