import JSONRPC
import TagCore
import TagProtocol

/// What handling a request produced.
enum Reply {
  /// The whole response has been written.
  case answered
  /// An error response.
  case error(ResponseError)
  /// No reply at all (Vim's `$/cancelRequest` sent as a request).
  case silent
}

extension Server {
  /// Lifecycle gate, then typed decoding, then the one switch over request types.
  mutating func reply(
    to method: String,
    id: RequestID,
    params: JSONValue?,
    writer w: inout JSONWriter,
    outbox: inout Outbox
  ) -> Reply {
    if method == CancelRequestNotification.method {
      // Vim's documented cancel form is a request with the cancelled request's id; the
      // cancelled request was already answered in order, so nothing more is sent.
      return .silent
    }
    switch lifecycle {
    case .awaitingInitialize where method != InitializeRequest.method:
      return .error(
        ResponseError(
          code: .serverNotInitialized,
          message: "Server not initialized: send `initialize` first"
        )
      )
    case .shutDown:
      return .error(
        ResponseError(
          code: .invalidRequest,
          message: "Invalid Request: the server is shut down; only `exit` is accepted"
        )
      )
    case .running where method == InitializeRequest.method:
      return .error(
        ResponseError(
          code: .invalidRequest,
          message: "Invalid Request: `initialize` may only be sent once"
        )
      )
    default:
      break
    }
    guard let decoded = MessageRegistry.request(method: method, params: params) else {
      return .error(ResponseError(code: .methodNotFound, message: "Method not found: \(method)"))
    }
    do throws(RequestError) {
      let request: ClientRequest
      switch decoded {
      case .success(let value): request = value
      case .failure(let error): throw .params(error)
      }
      try perform(request, id: id, writer: &w, outbox: &outbox)
      return .answered
    } catch {
      return .error(ResponseError(error))
    }
  }

  /// Performs a decoded request and writes its response.
  ///
  /// Each result is computed before anything is written, so a thrown error leaves `w`
  /// untouched for the error response.
  private mutating func perform(
    _ request: ClientRequest,
    id: RequestID,
    writer w: inout JSONWriter,
    outbox: inout Outbox
  ) throws(RequestError) {
    switch request {
    case .initialize(let params): w.respond(id, initialize(params, outbox: &outbox))
    case .shutdown: w.respond(id, shutdown(outbox: &outbox))
    case .fieldOpen(let params): w.respond(id, try openField(params, outbox: &outbox))
    case .fieldChange(let params): w.respond(id, try changeField(params))
    case .fieldSubmit(let params):
      w.respond(id, try applyToField(params.field, .submitted, outbox: &outbox))
    case .fieldDeleteBackward(let params):
      w.respond(id, try applyToField(params.field, .deletedBackward, outbox: &outbox))
    case .fieldAddTags(let params):
      w.respond(id, try applyToField(params.field, .tagsAdded(params.tags), outbox: &outbox))
    case .fieldRemoveTag(let params): w.respond(id, try removeTag(params, outbox: &outbox))
    case .fieldState(let params): w.respond(id, try fieldState(params.field))
    case .fieldLayout(let params): w.respond(id, try layoutField(params))
    case .fieldClose(let params): w.respond(id, try closeField(params.field))
    case .cloudOpen(let params): w.respond(id, try openCloud(params))
    case .cloudToggle(let params): w.respond(id, try toggleCloud(params))
    case .cloudSelect(let params): w.respond(id, try selectInCloud(params))
    case .cloudSetTags(let params): w.respond(id, try setCloudTags(params))
    case .cloudState(let params): w.respond(id, try cloudState(params.cloud))
    case .cloudLayout(let params): w.respond(id, try layoutCloud(params))
    case .cloudClose(let params): w.respond(id, try closeCloud(params.cloud))
    }
  }

  /// Handles a notification; never replies.
  mutating func notify(method: String, params: JSONValue?, outbox: inout Outbox) {
    guard let decoded = MessageRegistry.notification(method: method, params: params) else {
      outbox.log(
        method.hasPrefix("$/") ? .debug : .warning,
        "ignored unknown notification \(method)"
      )
      return
    }
    switch decoded {
    case .failure(let error):
      outbox.log(.warning, "ignored notification \(method): \(error.description)")
    case .success(.exit):
      outbox.exitCode = lifecycle == .shutDown ? 0 : 1
    case .success(.fieldDidChange(let change)) where lifecycle == .running:
      bufferChanged(change, outbox: &outbox)
    case .success:
      guard lifecycle == .running else {
        outbox.log(.debug, "dropped notification \(method) outside the running state")
        return
      }
    }
  }

  private mutating func initialize(
    _ params: InitializeRequest,
    outbox: inout Outbox
  ) -> InitializeResult {
    lifecycle = .running
    positionEncoding = params.chosenEncoding
    reducedMotion = params.reducedMotion
    if let pid = params.processID { outbox.watchProcess = pid }
    outbox.log(.info, "initialized; position encoding \(positionEncoding.rawValue)")
    return InitializeResult(
      version: config.version,
      positionEncoding: positionEncoding,
      methods: MessageRegistry.requestMethods + MessageRegistry.notificationMethods,
      limits: config.limits
    )
  }

  private mutating func shutdown(outbox: inout Outbox) -> NullResult {
    lifecycle = .shutDown
    outbox.log(.info, "shutdown received")
    return NullResult()
  }

}

/// The `null` result of `shutdown`, `field/close` and `cloud/close`.
struct NullResult: JSONWritable {
  func write(to w: inout JSONWriter) { w.null() }
}

extension JSONWriter {
  /// Writes a success response carrying `result` (generic, so nothing is boxed).
  mutating func respond(_ id: RequestID, _ result: some JSONWritable) {
    response(id: id) { $0.write(result) }
  }
}
