public import JSONRPC
public import TagCore

// SPEC §6e: the LSP requests tagd serves on notes. Their params are strict like every tagd
// method's, knowing the members LSP defines for them (`workDoneToken`, `partialResultToken`,
// and `context`, whose members are LSP's to extend and are accepted).

/// `{textDocument: {uri}, position}`: where a request points.
public struct TextDocumentPosition: Hashable, Sendable {
  /// The note's URI.
  public var uri: String
  /// The position, in the negotiated encoding.
  public var position: TextPosition

  init(params: Params<some PositionedMember>) throws(ParamsError) {
    uri = try params.requiredObject(.textDocument, as: DocumentMember.self).string(.uri)
    position = try TagProtocol.position(params.requiredObject(.position))
  }
}

/// The members of params that hold a ``TextDocumentPosition`` (LSP's `workDoneToken` and
/// `partialResultToken` beside them, accepted and not read).
protocol PositionedMember: ParamsMember {
  static var textDocument: Self { get }
  static var position: Self { get }
}

/// The members of a request's `textDocument`, `{uri}`.
enum DocumentMember: Int, ParamsMember {
  case uri
  static let declared = declare()
}

/// The members of a request's `context`: LSP's to extend, so any is accepted.
enum ContextMember: Int, ParamsMember {
  case includeDeclaration
  static let declared = declare(acceptingAnyMember: true)
}

/// `textDocument/completion` (request): the vault's tags where a tag is being typed.
public struct CompletionRequest: TagRequest, Hashable {
  public typealias Result = CompletionResult
  public static let method = "textDocument/completion"
  public enum Member: Int, PositionedMember {
    case textDocument, position, workDoneToken, partialResultToken, context
    public static let declared = declare()
  }
  public var at: TextDocumentPosition
  public init(params: Params<Member>) throws(ParamsError) {
    at = try TextDocumentPosition(params: params)
    _ = try params.optionalObject(.context, as: ContextMember.self)
  }
}

/// An LSP `CompletionList`.
public struct CompletionResult: JSONWritable, Sendable {
  /// One completion: the tag as the vault spells it (never starting with `#`), "N notes", a
  /// key that orders the items as tagd ranked them, and what replaces the typed part, and where.
  public typealias Item = (label: String, detail: String, sortText: String, edit: TextEdit)

  /// The items, best first.
  public var items: [Item]
  /// More tags matched than were sent: the client asks again as the user types.
  public var isIncomplete: Bool

  public init(items: [Item], isIncomplete: Bool = false) {
    self.items = items
    self.isIncomplete = isIncomplete
  }

  public func write(to w: inout JSONWriter) {
    w.beginObject()
    w.member("isIncomplete", isIncomplete)
    w.key("items")
    w.beginArray()
    for item in items {
      w.beginObject()
      w.member("label", item.label)
      w.member("kind", 14)  // CompletionItemKind.Keyword
      w.member("detail", item.detail)
      w.member("sortText", item.sortText)
      w.member("filterText", item.label)
      w.member("textEdit", item.edit)
      w.endObject()
    }
    w.endArray()
    w.endObject()
  }
}

/// `textDocument/hover` (request): a tag's spelling, notes and other spellings.
public struct HoverRequest: TagRequest, Hashable {
  public typealias Result = HoverResult
  public static let method = "textDocument/hover"
  public enum Member: Int, PositionedMember {
    case textDocument, position, workDoneToken, partialResultToken
    public static let declared = declare()
  }
  public var at: TextDocumentPosition
  public init(params: Params<Member>) throws(ParamsError) {
    at = try TextDocumentPosition(params: params)
  }
}

/// An LSP `Hover` (`{contents: MarkupContent, range}`), or `null` off a tag.
public struct HoverResult: JSONWritable, Hashable, Sendable {
  /// The Markdown shown; nil writes `null`.
  public var markdown: String?
  /// The tag's range.
  public var range: TextRange?

  public init(markdown: String?, range: TextRange?) {
    self.markdown = markdown
    self.range = range
  }

  public func write(to w: inout JSONWriter) {
    guard let markdown else { return w.null() }
    w.beginObject()
    w.key("contents")
    w.beginObject()
    w.member("kind", "markdown")
    w.member("value", markdown)
    w.endObject()
    if let range { w.member("range", range) }
    w.endObject()
  }
}

/// `textDocument/references` (request): every place the tag is written, all spellings.
public struct ReferencesRequest: TagRequest, Hashable {
  public typealias Result = LocationsResult
  public static let method = "textDocument/references"
  public typealias Member = CompletionRequest.Member
  public var at: TextDocumentPosition
  public init(params: Params<Member>) throws(ParamsError) {
    at = try TextDocumentPosition(params: params)
    _ = try params.optionalObject(.context, as: ContextMember.self)?.optionalBool(
      .includeDeclaration
    )
  }
}

/// LSP `Location`s: `[{uri, range}]`.
public struct LocationsResult: JSONWritable, Sendable {
  /// The places, by note in path order.
  public var locations: [(uri: String, range: TextRange)]

  public init(locations: [(uri: String, range: TextRange)]) { self.locations = locations }

  public func write(to w: inout JSONWriter) {
    w.beginArray()
    for location in locations {
      w.beginObject()
      w.member("uri", location.uri)
      w.member("range", location.range)
      w.endObject()
    }
    w.endArray()
  }
}

/// `textDocument/prepareRename` (request): the tag under the cursor, or `null`.
public struct PrepareRenameRequest: TagRequest, Hashable {
  public typealias Result = PrepareRenameResult
  public static let method = "textDocument/prepareRename"
  public typealias Member = HoverRequest.Member
  public var at: TextDocumentPosition
  public init(params: Params<Member>) throws(ParamsError) {
    at = try TextDocumentPosition(params: params)
  }
}

/// `{range, placeholder}` or `null`.
public struct PrepareRenameResult: JSONWritable, Sendable {
  /// The tag's range and text; nil writes `null`.
  public var tag: (range: TextRange, placeholder: String)?

  public init(range: TextRange, placeholder: String) { tag = (range, placeholder) }
  /// `null`: nothing to rename there.
  public init() { tag = nil }

  public func write(to w: inout JSONWriter) {
    guard let tag else { return w.null() }
    w.beginObject()
    w.member("range", tag.range)
    w.member("placeholder", tag.placeholder)
    w.endObject()
  }
}

/// `textDocument/rename` (request): the tag under the cursor renamed in every note.
public struct RenameRequest: TagRequest, Hashable {
  public typealias Result = WorkspaceEdit
  public static let method = "textDocument/rename"
  public enum Member: Int, PositionedMember {
    case textDocument, position, workDoneToken, partialResultToken, newName
    public static let declared = declare()
  }
  public var at: TextDocumentPosition
  /// The new tag.
  public var newName: String
  public init(params: Params<Member>) throws(ParamsError) {
    at = try TextDocumentPosition(params: params)
    newName = try params.string(.newName)
  }
}

extension TextRange: JSONWritable {
  /// `{start: {line, character}, end: {line, character}}`, its names in four constant runs.
  public func write(to w: inout JSONWriter) {
    w.beginObject()
    write(to: &w, from: #""start":{"line":"#)
    w.members("}}")
  }

  /// `opening` (ending in `"start":{"line":`, so a ``TextEdit``'s `"range":` joins the run),
  /// then the range up to its end's last digit.
  func write(to w: inout JSONWriter, from opening: StaticString) {
    w.fragment(opening)
    w.integer(start.line)
    w.fragment(#","character":"#)
    w.integer(start.character)
    w.fragment(#"},"end":{"line":"#)
    w.integer(end.line)
    w.fragment(#","character":"#)
    w.integer(end.character)
  }
}

/// `textDocument/publishDiagnostics` (server → client notification): a note's tag problems.
public struct PublishDiagnosticsNotification: JSONWritable, Hashable, Sendable {
  /// The method name.
  public static let method = "textDocument/publishDiagnostics"
  /// One problem.
  public struct Diagnostic: Hashable, Sendable {
    /// The tag's range.
    public var range: TextRange
    /// `tag-variant`, `tag-repeated`, `tag-not-allowed` or `tag-alias`.
    public var code: String
    /// The message.
    public var message: String

    public init(range: TextRange, code: String, message: String) {
      self.range = range
      self.code = code
      self.message = message
    }
  }
  /// The note's URI, as the client sent it.
  public var uri: String
  /// The editor's version the diagnostics are for.
  public var version: Int
  /// The problems.
  public var diagnostics: [Diagnostic]

  public init(uri: String, version: Int, diagnostics: [Diagnostic]) {
    self.uri = uri
    self.version = version
    self.diagnostics = diagnostics
  }

  public func write(to w: inout JSONWriter) {
    w.notification(method: Self.method) { w in
      w.beginObject()
      w.member("uri", uri)
      w.member("version", version)
      w.key("diagnostics")
      w.beginArray()
      for d in diagnostics {
        w.beginObject()
        w.member("range", d.range)
        w.member("severity", d.code == "tag-not-allowed" ? 1 : 2)
        w.member("code", d.code)
        w.member("source", "tagd")
        w.member("message", d.message)
        w.endObject()
      }
      w.endArray()
      w.endObject()
    }
  }
}

/// `textDocument/codeAction` (request): quick fixes for the tag diagnostics in a range.
public struct CodeActionRequest: TagRequest, Hashable {
  public typealias Result = CodeActionsResult
  public static let method = "textDocument/codeAction"
  public enum Member: Int, ParamsMember {
    case textDocument, range, context, workDoneToken, partialResultToken
    public static let declared = declare()
  }
  /// The note's URI.
  public var uri: String
  /// The range asked about, in the negotiated encoding.
  public var range: TextRange

  public init(params: Params<Member>) throws(ParamsError) {
    uri = try params.requiredObject(.textDocument, as: DocumentMember.self).string(.uri)
    range = try textRange(params.requiredObject(.range))
    // The client's diagnostics and filters: tagd finds the note's own problems again.
    _ = try params.optionalObject(.context, as: ContextMember.self)
  }
}

/// LSP `CodeAction`s: `[{title, kind: "quickfix", isPreferred, edit}]`.
public struct CodeActionsResult: JSONWritable, Sendable {
  /// The fixes: what each does, in English, and its edit.
  public var actions: [(title: String, edit: WorkspaceEdit)]

  public init(actions: [(title: String, edit: WorkspaceEdit)]) { self.actions = actions }

  public func write(to w: inout JSONWriter) {
    w.beginArray()
    for action in actions {
      w.beginObject()
      w.member("title", action.title)
      w.member("kind", "quickfix")
      w.member("isPreferred", true)
      w.member("edit", action.edit)
      w.endObject()
    }
    w.endArray()
  }
}

/// `workspace/symbol` (request): the vault's tags matching `query`, each at one place.
public struct WorkspaceSymbolRequest: TagRequest, Hashable {
  public typealias Result = SymbolsResult
  public static let method = "workspace/symbol"
  public enum Member: Int, ParamsMember {
    case query, workDoneToken, partialResultToken
    public static let declared = declare()
  }
  /// The most symbols returned.
  public static let limit = 100
  /// What to match (caseless, accent-aware, as field suggestions match); empty: every tag.
  public var query: String

  public init(params: Params<Member>) throws(ParamsError) {
    query = try params.string(.query)
  }
}

/// LSP `SymbolInformation`s: `[{name, kind, location: {uri, range}, containerName}]`.
public struct SymbolsResult: JSONWritable, Sendable {
  /// One tag at one place: its vault spelling, "N notes", the note and where in it.
  public typealias Symbol = (name: String, detail: String, uri: String, range: TextRange)

  /// The symbols, best match first.
  public var symbols: [Symbol]

  public init(symbols: [Symbol]) { self.symbols = symbols }

  public func write(to w: inout JSONWriter) {
    w.beginArray()
    for symbol in symbols {
      w.beginObject()
      w.member("name", symbol.name)
      w.member("kind", 20)  // SymbolKind.Key
      w.key("location")
      w.beginObject()
      w.member("uri", symbol.uri)
      w.member("range", symbol.range)
      w.endObject()
      w.member("containerName", symbol.detail)
      w.endObject()
    }
    w.endArray()
  }
}
