import JSONRPC
import TagCore
import TagProtocol

extension Server {
  /// Answers one request: the lifecycle gate, the method's type, its typed params, its handler.
  ///
  /// Writes the whole response into `outbox` and returns true, or returns false when the request
  /// gets no reply at all (Vim's `$/cancelRequest` sent as a request). Every failure on the way
  /// is one ``RequestError``, turned into a response in one place.
  @discardableResult
  mutating func reply(
    to method: String,
    id: RequestID,
    params: ParamsSource,
    outbox: inout Outbox
  ) -> Bool {
    reply(to: method.utf8.span, id: id, params: params, outbox: &outbox)
  }

  /// ``reply(to:id:params:outbox:)`` for a method name given as its UTF-8 (lent from the body).
  @discardableResult
  mutating func reply(
    to method: Span<UInt8>,
    id: RequestID,
    params: ParamsSource,
    outbox: inout Outbox
  ) -> Bool {
    let type = Self.requestsByMethod[method]
    if type == nil,
      Self.notificationsByMethod[method].map(ObjectIdentifier.init)
        == ObjectIdentifier(CancelRequestNotification.self)
    {
      // Vim's documented cancel form is a request with the cancelled request's id; the
      // cancelled request was already answered in order, so nothing more is sent.
      return false
    }
    do throws(RequestError) {
      try checkLifecycle(
        isInitialize: type.map(ObjectIdentifier.init) == ObjectIdentifier(InitializeRequest.self)
      )
      guard let type else { throw .methodNotFound(method.text()) }
      try serve(type, id: id, params: params, outbox: &outbox)
    } catch {
      outbox.write { $0.errorResponse(id: id, error: ResponseError(error)) }
    }
    return true
  }

  private func checkLifecycle(isInitialize: Bool) throws(RequestError) {
    switch lifecycle {
    case .awaitingInitialize where !isInitialize: throw .lifecycle(.notInitialized)
    case .shutDown: throw .lifecycle(.shutDown)
    case .running where isInitialize: throw .lifecycle(.initializedTwice)
    default: break
    }
  }

  /// Decodes, performs and writes one request of type `R`.
  private mutating func serve<R: ServedRequest>(
    _ type: R.Type,
    id: RequestID,
    params: ParamsSource,
    outbox: inout Outbox
  ) throws(RequestError) {
    let request: R
    do throws(ParamsError) {
      request = try R.decode(params)
    } catch {
      throw .params(error)
    }
    let result = try request.perform(on: &self, outbox: &outbox)
    outbox.write { $0.response(id: id) { $0.write(result) } }
  }

  /// Acts on a notification; never replies.
  mutating func notify(method: String, params: ParamsSource, outbox: inout Outbox) {
    notify(method: method.utf8.span, params: params, outbox: &outbox)
  }

  /// ``notify(method:params:outbox:)`` for a method name given as its UTF-8.
  mutating func notify(
    method name: Span<UInt8>,
    params: ParamsSource,
    outbox: inout Outbox
  ) {
    guard let type = Self.notificationsByMethod[name] else {
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
    act(on: type, params: params, outbox: &outbox)
  }

  private mutating func act<N: ServedNotification>(
    on type: N.Type,
    params: ParamsSource,
    outbox: inout Outbox
  ) {
    let notification: N
    do throws(ParamsError) {
      notification = try N.decode(params)
    } catch {
      N.undecodable(error, params: params, on: &self, outbox: &outbox)
      return
    }
    notification.perform(on: &self, outbox: &outbox)
  }

  mutating func initialize(_ params: InitializeRequest, outbox: inout Outbox) -> InitializeResult {
    lifecycle = .running
    positionEncoding = params.chosenEncoding
    reducedMotion = params.reducedMotion
    language = Language(locale: params.locale)
    if let pid = params.processID { outbox.watchProcess = pid }
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
