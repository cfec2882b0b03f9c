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
    if method == CancelRequestNotification.method {
      // Vim's documented cancel form is a request with the cancelled request's id; the
      // cancelled request was already answered in order, so nothing more is sent.
      return false
    }
    do throws(RequestError) {
      try checkLifecycle(for: method)
      guard let type = Self.requestsByMethod[method] else { throw .methodNotFound(method) }
      try serve(type, id: id, params: params, outbox: &outbox)
    } catch {
      outbox.write { $0.errorResponse(id: id, error: ResponseError(error)) }
    }
    return true
  }

  private func checkLifecycle(for method: String) throws(RequestError) {
    switch lifecycle {
    case .awaitingInitialize where method != InitializeRequest.method:
      throw .lifecycle(.notInitialized)
    case .shutDown: throw .lifecycle(.shutDown)
    case .running where method == InitializeRequest.method: throw .lifecycle(.initializedTwice)
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
    guard let type = Self.notificationsByMethod[method] else {
      outbox.log(
        method.hasPrefix("$/") ? .debug : .warning,
        "ignored unknown notification \(method)"
      )
      return
    }
    guard lifecycle == .running || type.actsInEveryState else {
      outbox.log(.debug, "dropped notification \(method) outside the running state")
      return
    }
    act(on: type, params: params, outbox: &outbox)
  }

  private mutating func act<N: ServedNotification>(
    on type: N.Type,
    params: ParamsSource,
    outbox: inout Outbox
  ) {
    do throws(ParamsError) {
      try N.decode(params).perform(on: &self, outbox: &outbox)
    } catch {
      outbox.log(.warning, "ignored notification \(N.method): \(error.description)")
    }
  }

  mutating func initialize(_ params: InitializeRequest, outbox: inout Outbox) -> InitializeResult {
    lifecycle = .running
    positionEncoding = params.chosenEncoding
    reducedMotion = params.reducedMotion
    if let pid = params.processID { outbox.watchProcess = pid }
    outbox.log(.info, "initialized; position encoding \(positionEncoding.rawValue)")
    return InitializeResult(
      version: config.version,
      positionEncoding: positionEncoding,
      methods: Self.requestMethods + Self.notificationMethods,
      limits: config.limits
    )
  }
}
