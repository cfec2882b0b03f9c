public import JSONRPC
public import TagCore

/// `initialize` (request).
///
/// Starts the session. Result: ``InitializeResult``.
public struct InitializeRequest: TagRequest, Hashable {
  public typealias Result = InitializeResult
  public static let method = "initialize"
  public enum Member: Int, ParamsMember {
    case processId, capabilities, initializationOptions, locale, workspaceFolders, rootUri, rootPath
    public static let declared = declare(acceptingAnyMember: true)
  }
  /// The client's process id.
  ///
  /// Tagd exits when it dies. nil when absent or `null`.
  public var processID: Int32?
  /// The client's position encodings in order of preference (`general.positionEncodings`).
  public var positionEncodings: [String]
  /// `initializationOptions.reducedMotion`: the client wants no movement hints.
  public var reducedMotion: Bool
  /// LSP's `locale` (`"es"`, `"de-CH"`, `"fr_FR.UTF-8"`): the language of announcements.
  public var locale: String?
  /// LSP's `workspaceFolders`: the vaults (SPEC §6d); nil when absent or `null`.
  public var workspaceFolders: [WorkspaceFolder]?
  /// LSP's `rootUri`: the vault when `workspaceFolders` is absent.
  public var rootURI: String?
  /// LSP's deprecated `rootPath`: the vault when neither of the others is given.
  public var rootPath: String?

  /// Open: LSP clients send many members (`clientInfo`, `rootUri`, `workspaceFolders`, …) and
  /// new LSP versions add more; tagd reads the ones below and ignores the rest.
  public init(params: Params<Member>) throws(ParamsError) {
    processID = try params.optionalInteger(.processId, in: 0...Int(Int32.max)).map { Int32($0) }
    let capabilities = try params.optionalObject(.capabilities, as: CapabilitiesMember.self)
    let general = try capabilities?.optionalObject(.general, as: GeneralMember.self)
    positionEncodings = try general?.optionalStrings(.positionEncodings) ?? []
    reducedMotion =
      try params.optionalObject(.initializationOptions, as: OptionsMember.self)?
      .optionalBool(.reducedMotion) ?? false
    locale = try params.optionalString(.locale)
    workspaceFolders = try WorkspaceFolder.list(params, .workspaceFolders)
    rootURI = try params.optionalString(.rootUri)
    rootPath = try params.optionalString(.rootPath)
  }

  /// The encoding to use: the first offered one tagd supports, else UTF-16 (LSP 3.17).
  public var chosenEncoding: PositionEncoding {
    positionEncodings.lazy.compactMap(PositionEncoding.init(rawValue:)).first ?? .utf16
  }
}

/// The members of `initialize`'s `capabilities` tagd reads, among any others.
enum CapabilitiesMember: Int, ParamsMember {
  case general
  static let declared = declare(acceptingAnyMember: true)
}

/// The members of `capabilities.general` tagd reads, among any others.
enum GeneralMember: Int, ParamsMember {
  case positionEncodings
  static let declared = declare(acceptingAnyMember: true)
}

/// The members of `initialize`'s `initializationOptions` (tagd's own, so strict).
enum OptionsMember: Int, ParamsMember {
  case reducedMotion
  static let declared = declare()
}

/// The result of `initialize`: who the server is and what it supports.
public struct InitializeResult: JSONWritable, Sendable {
  /// The server's version string.
  public var version: String
  /// The negotiated position encoding.
  public var positionEncoding: PositionEncoding
  /// Every request and notification method the server handles.
  public var methods: [String]
  /// The effective limits, so clients can stay inside them.
  public var limits: [(name: String, value: Int)]
  /// The language chosen from the client's `locale`.
  public var language: Language

  public init(
    version: String,
    positionEncoding: PositionEncoding,
    methods: [String],
    limits: [(name: String, value: Int)],
    language: Language = .en
  ) {
    self.language = language
    self.version = version
    self.positionEncoding = positionEncoding
    self.methods = methods
    self.limits = limits
  }

  public func write(to w: inout JSONWriter) {
    w.beginObject()
    w.key("serverInfo")
    w.beginObject()
    w.member("name", "tagd")
    w.member("version", version)
    w.endObject()
    w.key("capabilities")
    w.beginObject()
    w.member("positionEncoding", positionEncoding.rawValue)
    // LSP's TextDocumentSyncOptions: open/close, incremental changes, saves (`field/didChange`
    // is incremental too); then the §6e features on notes. Constant: written from literals.
    w.key("textDocumentSync")
    w.value(["openClose": true, "change": 2, "save": ["includeText": false]])
    w.key("completionProvider")
    w.value(["triggerCharacters": ["#", ":", "[", ","]])
    w.member("hoverProvider", true)
    w.member("referencesProvider", true)
    w.key("renameProvider")
    w.value(["prepareProvider": true])
    w.key("codeActionProvider")
    w.value(["codeActionKinds": ["quickfix"]])
    w.member("workspaceSymbolProvider", true)
    w.key("workspace")
    w.value(["workspaceFolders": ["supported": true, "changeNotifications": true]])
    w.member("methods", methods)
    w.key("limits")
    w.beginObject()
    for (name, value) in limits {
      w.key(named: name)
      w.integer(value)
    }
    w.endObject()
    w.endObject()
    w.member("languages", Language.allCases.map(\.rawValue).sorted())
    w.member("language", language.rawValue)
    w.endObject()
  }
}

/// `initialized` (notification).
///
/// The client finished initialising. No effect.
public struct InitializedNotification: TagNotification, Hashable {
  public static let method = "initialized"
  public typealias Member = NoMembers
  public init(params: Params<Member>) throws(ParamsError) {}
}

/// `shutdown` (request).
///
/// Stop serving requests; result `null`. `exit` then exits with 0.
public struct ShutdownRequest: TagRequest, Hashable {
  public typealias Result = NullResult
  public static let method = "shutdown"
  public typealias Member = NoMembers
  public init(params: Params<Member>) throws(ParamsError) {}
}

/// `exit` (notification): exit the process, 0 after `shutdown`, otherwise 1.
public struct ExitNotification: TagNotification, Hashable {
  public static let method = "exit"
  public typealias Member = NoMembers
  public init(params: Params<Member>) throws(ParamsError) {}
}

/// `$/cancelRequest` (notification): requests are answered in order as they arrive, so by the
/// time this is read the request has been answered; it is accepted and ignored.
public struct CancelRequestNotification: TagNotification, Hashable {
  public static let method = "$/cancelRequest"
  public enum Member: Int, ParamsMember {
    case id
    public static let declared = declare()
  }
  public init(params: Params<Member>) throws(ParamsError) {}
}

/// `$/setTrace` (notification): accepted and ignored (tagd sends no traces).
public struct SetTraceNotification: TagNotification, Hashable {
  public static let method = "$/setTrace"
  public enum Member: Int, ParamsMember {
    case value
    public static let declared = declare()
  }
  public init(params: Params<Member>) throws(ParamsError) {}
}
