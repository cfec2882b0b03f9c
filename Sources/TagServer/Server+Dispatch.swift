import JSONRPC
import TagCore
import TagProtocol

extension Server {
  /// Answers one request: the lifecycle gate, the method's type, its typed params, its handler.
  ///
  /// Writes the whole response into `outbox` and returns true, or returns false when the request
  /// gets no reply at all (Vim's `$/cancelRequest` sent as a request). Every failure on the way
  /// is one ``RequestError``, turned into a response in one place.
  /// The method is given as its UTF-8 (lent from the body, or a tree's `String`).
  @discardableResult
  mutating func reply(
    to method: Span<UInt8>,
    id: RequestID,
    params: ParamsSource,
    outbox: inout Outbox
  ) -> Bool {
    let type = Self.requestsByMethod[method]
    let notification = type == nil ? Self.notificationsByMethod[method] : nil
    if notification.map(ObjectIdentifier.init) == ObjectIdentifier(CancelRequestNotification.self) {
      // Vim's documented cancel form is a request with the cancelled request's id; the
      // cancelled request was already answered in order, so nothing more is sent.
      return false
    }
    do throws(RequestError) {
      try lifecycle.check(
        isInitialize: type.map(ObjectIdentifier.init) == ObjectIdentifier(InitializeRequest.self)
      )
      guard let type else {
        if let notification { throw .notificationWithID(notification.method) }
        throw .methodNotFound(method.text())
      }
      return try type.serve(id: id, params: params, on: &self, outbox: &outbox)
    } catch {
      outbox.write { $0.errorResponse(id: id, error: ResponseError(error)) }
    }
    return true
  }

  /// A request method sent without an id: a notification, as JSON-RPC says, so it is performed
  /// and nothing is answered; it is logged, since a client that meant it as a request waits in
  /// vain.
  private mutating func performUnanswered(
    _ type: any ServedRequest.Type,
    params: ParamsSource,
    outbox: inout Outbox
  ) {
    do throws(RequestError) {
      try lifecycle.check(
        isInitialize: ObjectIdentifier(type) == ObjectIdentifier(InitializeRequest.self)
      )
      _ = try type.decoded(params).perform(on: &self, outbox: &outbox)
      outbox.log(
        .warning,
        "request \(type.method) sent without an id: performed as a notification, so no reply is sent"
      )
    } catch {
      outbox.log(
        .warning,
        "request \(type.method) sent without an id (no reply is sent) failed: \(ResponseError(error).message)"
      )
    }
  }

  /// Acts on a notification, named by its UTF-8; never replies.
  mutating func notify(
    method name: Span<UInt8>,
    params: ParamsSource,
    outbox: inout Outbox
  ) {
    guard let type = Self.notificationsByMethod[name] else {
      if let request = Self.requestsByMethod[name] {
        return performUnanswered(request, params: params, outbox: &outbox)
      }
      let method = name.text()
      outbox.log(
        method.hasPrefix("$/") ? .debug : .warning,
        "ignored unknown notification \(method)"
      )
      return
    }
    guard lifecycle == .running || type.actsInEveryState else {
      outbox.log(.debug, "dropped notification \(type.method) outside the running state")
      return
    }
    type.act(params: params, on: &self, outbox: &outbox)
  }

  mutating func initialize(_ params: InitializeRequest, outbox: inout Outbox) -> InitializeResult {
    lifecycle = .running
    positionEncoding = params.chosenEncoding
    reducedMotion = params.reducedMotion
    language = Language(locale: params.locale)
    if let pid = params.processID { outbox.watchProcess = pid }
    if let folders = params.workspaceFolders {
      addVaults(folders.map(\.uri), outbox: &outbox)
    } else if let uri = params.rootURI {
      addVaults([uri], outbox: &outbox)
    } else if let path = params.rootPath {
      addVault(path: path, outbox: &outbox)
    }
    outbox.log(.info, "initialized; position encoding \(positionEncoding.rawValue)")
    return InitializeResult(
      version: config.version,
      positionEncoding: positionEncoding,
      methods: Self.requestMethods + Self.notificationMethods,
      limits: config.limits,
      language: language
    )
  }
}
