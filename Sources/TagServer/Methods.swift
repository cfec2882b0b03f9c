import JSONRPC
import TagCore
import TagProtocol

/// A request tagd serves: its declaration (method, members, params, result type) lives in
/// TagProtocol; this adds the one handler that answers it.
protocol ServedRequest: TagRequest {
  /// Carries out the request on `server`; the result is written only after this returns, so a
  /// thrown error leaves nothing half-written.
  func perform(on server: inout Server, outbox: inout Outbox) throws(RequestError) -> Result
  /// Whether it needs the vaults' index: parked until their first full index is done.
  static var needsIndex: Bool { get }
  /// The notes whose texts it needs read from the disk before it can be performed (nil or
  /// empty: none); the server parks it while they are read (`Server.answer`).
  func notesToRead(on server: Server) -> [String]?
  /// Decodes, performs and answers one request of this type (`Server.reply`); returns false
  /// when it was parked. A requirement, not a generic function, so that each type's copy is
  /// compiled for that type: the keystroke path passes its result by no value witness.
  static func serve(
    id: RequestID,
    params: ParamsSource,
    on server: inout Server,
    outbox: inout Outbox
  ) throws(RequestError) -> Bool
}

extension ServedRequest {
  static var needsIndex: Bool { false }
  func notesToRead(on server: Server) -> [String]? { nil }

  /// Decodes a request of this type from its params.
  static func decoded(_ params: ParamsSource) throws(RequestError) -> Self {
    do throws(ParamsError) {
      return try decode(params)
    } catch {
      throw .params(error)
    }
  }

  static func serve(
    id: RequestID,
    params: ParamsSource,
    on server: inout Server,
    outbox: inout Outbox
  ) throws(RequestError) -> Bool {
    try server.answerOrPark(decoded(params), id: id, outbox: &outbox)
  }
}

/// A notification tagd acts on, with its handler.
protocol ServedNotification: TagNotification {
  /// Whether it is acted on in every lifecycle state (only `exit`); the others are dropped
  /// unless the server is running.
  static var actsInEveryState: Bool { get }
  /// Acts on the notification; a notification is never answered, problems are logged.
  func perform(on server: inout Server, outbox: inout Outbox)
  /// The notification's params did not decode: logged, unless the method can tell the client
  /// in some other way.
  static func undecodable(
    _ error: ParamsError,
    params: ParamsSource,
    on server: inout Server,
    outbox: inout Outbox
  )
  /// Decodes the notification and acts on it (`Server.notify`): a requirement, so that each
  /// type's copy is compiled for that type.
  static func act(params: ParamsSource, on server: inout Server, outbox: inout Outbox)
}

extension ServedNotification {
  static var actsInEveryState: Bool { false }

  static func act(params: ParamsSource, on server: inout Server, outbox: inout Outbox) {
    let notification: Self
    do throws(ParamsError) {
      notification = try decode(params)
    } catch {
      undecodable(error, params: params, on: &server, outbox: &outbox)
      return
    }
    notification.perform(on: &server, outbox: &outbox)
  }

  static func undecodable(
    _ error: ParamsError,
    params: ParamsSource,
    on server: inout Server,
    outbox: inout Outbox
  ) {
    outbox.log(.warning, "ignored notification \(method): \(error.description)")
  }
}

extension Server {
  /// Every request tagd serves.
  ///
  /// The one list: dispatch, `initialize`'s `methods` and the schema test are built from it. Adding a method is a type in TagProtocol, a `perform`
  /// below, and a line here (ARCHITECTURE.md, "Adding a method"). Hot methods first (lookup order).
  static let requestTypes: [any ServedRequest.Type] = [
    FieldChangeRequest.self, InitializeRequest.self, ShutdownRequest.self,
    FieldOpenRequest.self, FieldSubmitRequest.self,
    FieldDeleteBackwardRequest.self, FieldAddTagsRequest.self, FieldRemoveTagRequest.self,
    FieldStateRequest.self, FieldLayoutRequest.self, FieldCloseRequest.self,
    FieldSuggestRequest.self, FieldSetSuggestionsRequest.self, FieldMoveTagRequest.self,
    FieldReplaceTagRequest.self, FieldEditTagRequest.self, FieldSelectRequest.self,
    FieldUndoRequest.self, FieldRedoRequest.self, FieldBlurRequest.self,
    FieldSetOptionsRequest.self,
    CloudOpenRequest.self, CloudToggleRequest.self, CloudSelectRequest.self,
    CloudSetTagsRequest.self, CloudStateRequest.self, CloudLayoutRequest.self,
    CloudCloseRequest.self, DocumentTagsRequest.self, DocumentSetTagsRequest.self,
    VaultTagsRequest.self, VaultNotesRequest.self, VaultRenameRequest.self,
    CompletionRequest.self, HoverRequest.self, ReferencesRequest.self, PrepareRenameRequest.self,
    RenameRequest.self, CodeActionRequest.self, WorkspaceSymbolRequest.self,
  ]

  /// Every notification tagd acts on.
  static let notificationTypes: [any ServedNotification.Type] = [
    FieldDidChangeNotification.self, InitializedNotification.self, ExitNotification.self,
    CancelRequestNotification.self, SetTraceNotification.self,
    DidChangeWorkspaceFoldersNotification.self, DidChangeWatchedFilesNotification.self,
    DidOpenTextDocumentNotification.self, DidChangeTextDocumentNotification.self,
    DidSaveTextDocumentNotification.self, DidCloseTextDocumentNotification.self,
  ]

  /// The request types by method name, looked up by the name's bytes.
  static let requestsByMethod = MethodTable(requestTypes.map { ($0.method, $0) })
  /// The notification types by method name, looked up by the name's bytes.
  static let notificationsByMethod = MethodTable(notificationTypes.map { ($0.method, $0) })

  /// All request method names, sorted.
  public static var requestMethods: [String] { requestTypes.map { $0.method }.sorted() }
  /// All notification method names, sorted.
  public static var notificationMethods: [String] { notificationTypes.map { $0.method }.sorted() }
}

/// Method names and what serves them, found from a name's UTF-8 without making a String or
/// hashing it: each name is kept as its ``MethodKey`` (its length and first and last eight
/// bytes), so a lookup compares three integers an entry, and the bytes too only for a name
/// under 8 or over 16 bytes.
struct MethodTable<Value: Sendable>: Sendable {
  private let keys: [MethodKey]
  /// Every name's UTF-8, for names under 8 or over 16 bytes.
  private let names: [[UInt8]]
  private let values: [Value]

  init(_ entries: [(String, Value)]) {
    names = entries.map { Array($0.0.utf8) }
    keys = names.map { MethodKey($0.span) }
    values = entries.map(\.1)
  }

  /// The value for the method spelt by `name`.
  subscript(_ name: Span<UInt8>) -> Value? {
    let key = MethodKey(name)
    for entry in keys.indices where keys[entry] == key {
      if (8...16).contains(key.count) || Self.same(names[entry], name) { return values[entry] }
    }
    return nil
  }

  /// Whether `a` and `b` hold the same bytes.
  private static func same(_ a: [UInt8], _ b: Span<UInt8>) -> Bool {
    a.count == b.count && a.indices.allSatisfy { a[$0] == b[$0] }
  }
}

// MARK: - The handlers, one per method

extension InitializeRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) -> InitializeResult {
    s.initialize(self, outbox: &outbox)
  }
}

extension ShutdownRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) -> NullResult {
    s.lifecycle = .shutDown
    outbox.log(.info, "shutdown received")
    return NullResult()
  }
}

extension FieldOpenRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> FieldStateResult {
    try s.openField(self, outbox: &outbox)
  }
}

extension FieldSetOptionsRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> FieldStateResult {
    let config = s.config
    var options = options
    // As at field/open: a field that suggests from the vaults is in them.
    if options.suggestFromVault { s.vault.applyVocabularies(to: &options.rules) }
    return try s.withField(field) { session throws(RequestError) in
      session.state(session.setOptions(options, config: config))
    }
  }
}

extension FieldChangeRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> FieldStateResult {
    try s.changeField(self, outbox: &outbox) { session, outcome, _ in session.state(outcome) }
  }

  /// The keystroke, answered from the session in place.
  ///
  /// A ``FieldStateResult`` would be built, copied out of a temporary and destroyed (about
  /// 1,300 of a keystroke's instructions); `FieldSession.writeReply` writes the same bytes.
  static func serve(
    id: RequestID,
    params: ParamsSource,
    on s: inout Server,
    outbox: inout Outbox
  ) throws(RequestError) -> Bool {
    guard FastPath.stateInPlace.isOn else {
      return try s.answer(decoded(params), id: id, outbox: &outbox)
    }
    let request: FieldChangeRequest
    do throws(ParamsError) {
      request = try .decode(params, lastField: s.lastField?.id)
    } catch {
      throw .params(error)
    }
    try s.changeField(request, outbox: &outbox) { session, outcome, outbox in
      FastPath.stateInPlace.taken()
      outbox.write { session.writeReply(id: id, outcome, to: &$0) }
    }
    return true
  }
}

extension FieldSubmitRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> FieldStateResult {
    try s.apply(.submitted, toField: field, outbox: &outbox)
  }
}

extension FieldDeleteBackwardRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> FieldStateResult {
    try s.apply(.deletedBackward, toField: field, outbox: &outbox)
  }
}

extension FieldAddTagsRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> FieldStateResult {
    try s.apply(.tagsAdded(tags), toField: field, outbox: &outbox)
  }
}

extension FieldRemoveTagRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> FieldStateResult {
    try s.removeTag(self, outbox: &outbox)
  }
}

extension FieldStateRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> FieldStateResult {
    try s.withField(field) { session throws(RequestError) in session.state() }
  }
}

extension FieldLayoutRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> LayoutResult {
    try s.layoutField(self)
  }
}

extension FieldCloseRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> NullResult {
    try s.close(field, in: \.fields, kind: "field")
  }
}

extension FieldSuggestRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> SuggestResult {
    let encoding = s.positionEncoding
    let session = try s.withField(field) { session throws(RequestError) in session }
    return session.suggest(query, limit: limit, encoding: encoding) { query, limit, excluded in
      s.vault.suggest(query, limit: limit, excluding: excluded).map(\.suggestion)
    }
  }
}

extension FieldSetSuggestionsRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> NullResult {
    try s.withField(field) { session throws(RequestError) in
      session.suggestions = SuggestionIndex(suggestions)
    }
    return NullResult()
  }
}

extension FieldMoveTagRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> FieldStateResult {
    try s.checkIndex(from, member: "from", ofField: field)
    try s.checkIndex(to, member: "to", ofField: field)
    return try s.apply(.tagMoved(from: from, to: to), toField: field, outbox: &outbox)
  }
}

extension FieldReplaceTagRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> FieldStateResult {
    try s.checkIndex(index, ofField: field)
    return try s.apply(.tagReplaced(at: index, with: text), toField: field, outbox: &outbox)
  }
}

extension FieldEditTagRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> FieldStateResult {
    try s.checkIndex(index, ofField: field)
    return try s.apply(.tagEdited(at: index), toField: field, outbox: &outbox)
  }
}

extension FieldSelectRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> FieldStateResult {
    if let index { try s.checkIndex(index, ofField: field) }
    return try s.apply(.selected(index), toField: field, outbox: &outbox)
  }
}

extension FieldUndoRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> FieldStateResult {
    try s.apply(.undo, toField: field, outbox: &outbox)
  }
}

extension FieldRedoRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> FieldStateResult {
    try s.apply(.redo, toField: field, outbox: &outbox)
  }
}

extension FieldBlurRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> FieldStateResult {
    try s.apply(.blurred, toField: field, outbox: &outbox)
  }
}

extension CloudOpenRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> CloudStateResult {
    try s.openCloud(self)
  }
}

extension CloudToggleRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> CloudStateResult {
    let language = s.language
    return try s.withCloud(cloud) { session throws(RequestError) in
      let before = session.cloud.selection
      guard let selected = session.cloud.toggle(title) else {
        throw .session(.unknownTitle(title, cloud: cloud))
      }
      session.version += 1
      return session.state(since: before, toggled: (title, selected), language: language)
    }
  }
}

extension CloudSelectRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> CloudStateResult {
    let language = s.language
    return try s.withCloud(cloud) { session throws(RequestError) in
      let before = session.cloud.selection
      if let unknown = session.cloud.select(selection) {
        throw .session(.unknownTitle(unknown, cloud: cloud))
      }
      session.version += 1
      return session.state(since: before, language: language)
    }
  }
}

extension CloudSetTagsRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> CloudStateResult {
    let limit = s.config.maxTags
    return try s.withCloud(cloud) { session throws(RequestError) in
      try CloudSession.check(tags, limit: limit)
      guard session.cloud.replaceTags(tags) else { throw CloudSession.repeatedTitle(in: tags) }
      session.version += 1
      return session.state()
    }
  }
}

extension CloudStateRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> CloudStateResult {
    try s.withCloud(cloud) { session throws(RequestError) in session.state() }
  }
}

extension CloudLayoutRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> LayoutResult {
    let reducedMotion = s.reducedMotion
    return try s.withCloud(cloud) { session throws(RequestError) in
      try session.layout(self, reducedMotion: reducedMotion)
    }
  }
}

extension CloudCloseRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> NullResult {
    try s.close(cloud, in: \.clouds, kind: "cloud")
  }
}

extension DocumentTagsRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> DocumentTagsResult
  {
    let t = target
    do throws(DocumentError) {
      let found = try Document.tags(in: t.text, format: t.format, key: t.keyOrDefault, line: t.line)
      let line = try t.allOnLine(found.format)
      return DocumentTagsResult(found, in: t.text, encoding: s.positionEncoding, allOnLine: line)
    } catch {
      throw .session(.document(error))
    }
  }
}

extension DocumentSetTagsRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> DocumentEditsResult
  {
    let t = target
    do throws(DocumentError) {
      let set = try Document.setTags(
        tags,
        in: t.text,
        format: t.format,
        key: t.keyOrDefault,
        line: t.line
      )
      let line = try t.allOnLine(set.format)
      return DocumentEditsResult(
        set.edits,
        in: t.text,
        encoding: s.positionEncoding,
        allOnLine: line
      )
    } catch {
      throw .session(.document(error))
    }
  }
}

extension DocumentTarget {
  /// The line of a text read as `format` that all positions are on (an Org heading's, see
  /// `Document.positions`); throws when `key` was given for a text read as Org (the format
  /// detected, not given).
  fileprivate func allOnLine(_ format: DocumentFormat) throws(DocumentError) -> Int? {
    guard key == nil || format != .orgHeading && format != .orgFiletags else {
      throw .keyWithoutFrontMatter(format)
    }
    return format == .orgHeading ? line ?? 0 : nil
  }
}

extension InitializedNotification: ServedNotification {
  /// Nothing to do: tagd is ready as soon as `initialize` is answered.
  func perform(on s: inout Server, outbox: inout Outbox) {}
}

extension ExitNotification: ServedNotification {
  static var actsInEveryState: Bool { true }
  func perform(on s: inout Server, outbox: inout Outbox) {
    outbox.exitCode = s.lifecycle == .shutDown ? 0 : 1
  }
}

extension CancelRequestNotification: ServedNotification {
  /// Nothing to cancel: every request was answered, in order, before this was read.
  func perform(on s: inout Server, outbox: inout Outbox) {}
}

extension SetTraceNotification: ServedNotification {
  /// tagd sends no traces.
  func perform(on s: inout Server, outbox: inout Outbox) {}
}

extension FieldDidChangeNotification: ServedNotification {
  func perform(on s: inout Server, outbox: inout Outbox) {
    s.didChange = self
    s.bufferChanged(outbox: &outbox)
  }

  /// An editor whose change is dropped would differ from tagd for good: it is asked for its
  /// whole text, with the reason.
  static func undecodable(
    _ error: ParamsError,
    params: ParamsSource,
    on s: inout Server,
    outbox: inout Outbox
  ) {
    s.undecodableBufferChange(error, params: params, outbox: &outbox)
  }
}

// MARK: - The vault (SPEC §6d; Server+Vault.swift)

extension VaultTagsRequest: ServedRequest {
  static var needsIndex: Bool { true }
  func perform(on s: inout Server, outbox: inout Outbox) -> VaultTagsResult {
    s.vaultTags(prefix: prefix, limit: limit)
  }
}

extension VaultNotesRequest: ServedRequest {
  static var needsIndex: Bool { true }
  func perform(on s: inout Server, outbox: inout Outbox) -> VaultNotesResult {
    s.vaultNotes(self)
  }
}

extension VaultRenameRequest: ServedRequest {
  static var needsIndex: Bool { true }
  func notesToRead(on s: Server) -> [String]? { s.notesToRead(carrying: from, children: true) }
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> VaultRenameResult {
    try s.renameEdit(from: from, to: to, outbox: &outbox)
  }
}

extension DidChangeWorkspaceFoldersNotification: ServedNotification {
  func perform(on s: inout Server, outbox: inout Outbox) {
    s.removeVaults(removed.map(\.uri), outbox: &outbox)
    s.addVaults(added.map(\.uri), outbox: &outbox)
  }
}

extension DidChangeWatchedFilesNotification: ServedNotification {
  func perform(on s: inout Server, outbox: inout Outbox) {
    s.watchedFilesChanged(self, outbox: &outbox)
  }
}

extension DidOpenTextDocumentNotification: ServedNotification {
  func perform(on s: inout Server, outbox: inout Outbox) { s.opened(self, outbox: &outbox) }
}

extension DidChangeTextDocumentNotification: ServedNotification {
  func perform(on s: inout Server, outbox: inout Outbox) { s.changed(self, outbox: &outbox) }
}

extension DidSaveTextDocumentNotification: ServedNotification {
  func perform(on s: inout Server, outbox: inout Outbox) { s.saved(self, outbox: &outbox) }
}

extension DidCloseTextDocumentNotification: ServedNotification {
  func perform(on s: inout Server, outbox: inout Outbox) { s.closed(self, outbox: &outbox) }
}

// MARK: - The language server (SPEC §6e; Server+LSP.swift)

extension CompletionRequest: ServedRequest {
  static var needsIndex: Bool { true }
  func perform(on s: inout Server, outbox: inout Outbox) -> CompletionResult { s.complete(self) }
}

extension HoverRequest: ServedRequest {
  static var needsIndex: Bool { true }
  func perform(on s: inout Server, outbox: inout Outbox) -> HoverResult { s.hover(self) }
}

extension ReferencesRequest: ServedRequest {
  static var needsIndex: Bool { true }
  func notesToRead(on s: Server) -> [String]? {
    s.tag(at: at).map { s.notesToRead(carrying: $0.tag.text, children: false) }
  }
  func perform(on s: inout Server, outbox: inout Outbox) -> LocationsResult {
    s.references(self, outbox: &outbox)
  }
}

extension PrepareRenameRequest: ServedRequest {
  func perform(on s: inout Server, outbox: inout Outbox) -> PrepareRenameResult {
    s.prepareRename(self)
  }
}

extension RenameRequest: ServedRequest {
  static var needsIndex: Bool { true }
  func notesToRead(on s: Server) -> [String]? {
    s.tag(at: at).map { s.notesToRead(carrying: $0.tag.text, children: true) }
  }
  func perform(on s: inout Server, outbox: inout Outbox) throws(RequestError) -> WorkspaceEdit {
    try s.rename(self, outbox: &outbox)
  }
}

extension CodeActionRequest: ServedRequest {
  static var needsIndex: Bool { true }
  func notesToRead(on s: Server) -> [String]? { s.notesToRead(forFixesIn: self) }
  func perform(on s: inout Server, outbox: inout Outbox) -> CodeActionsResult {
    s.codeActions(self, outbox: &outbox)
  }
}

extension WorkspaceSymbolRequest: ServedRequest {
  static var needsIndex: Bool { true }
  func notesToRead(on s: Server) -> [String]? {
    s.symbolPlaces(query).map(\.note).filter { s.vault.open[$0] == nil }
  }
  func perform(on s: inout Server, outbox: inout Outbox) -> SymbolsResult { s.symbols(self) }
}
