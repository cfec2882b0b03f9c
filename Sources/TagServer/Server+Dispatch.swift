import JSONRPC
import TagCore
import TagProtocol

/// The reply a request handler produced.
enum Reply {
  /// Encoded result JSON.
  case answer([UInt8])
  /// An error response.
  case error(ResponseError)
  /// No reply at all (Vim's `$/cancelRequest` sent as a request).
  case silent
}

extension Server {
  /// Lifecycle gate, then typed decoding, then the one switch over request types.
  mutating func reply(to method: String, params: JSONValue?, outbox: inout Outbox) -> Reply {
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
      return .answer(try perform(request, outbox: &outbox))
    } catch {
      return .error(ResponseError(error))
    }
  }

  /// Performs a decoded request and returns its encoded result.
  private mutating func perform(
    _ request: ClientRequest,
    outbox: inout Outbox
  ) throws(RequestError) -> [UInt8] {
    switch request {
    case .initialize(let params): return encode(initialize(params, outbox: &outbox))
    case .shutdown: return shutdown(outbox: &outbox)
    case .fieldOpen(let params): return encode(try openField(params))
    case .fieldChange(let params): return encode(try changeField(params))
    case .fieldSubmit(let params):
      return encode(try applyToField(params.field, .submitted, outbox: &outbox))
    case .fieldDeleteBackward(let params):
      return encode(try applyToField(params.field, .deletedBackward, outbox: &outbox))
    case .fieldAddTags(let params):
      return encode(try applyToField(params.field, .tagsAdded(params.tags), outbox: &outbox))
    case .fieldRemoveTag(let params): return encode(try removeTag(params, outbox: &outbox))
    case .fieldState(let params): return encode(try fieldState(params.field))
    case .fieldLayout(let params): return encode(try layoutField(params))
    case .fieldClose(let params): return try closeField(params.field)
    case .cloudOpen(let params): return encode(try openCloud(params))
    case .cloudToggle(let params): return encode(try toggleCloud(params))
    case .cloudSelect(let params): return encode(try selectInCloud(params))
    case .cloudSetTags(let params): return encode(try setCloudTags(params))
    case .cloudState(let params): return encode(try cloudState(params.cloud))
    case .cloudLayout(let params): return encode(try layoutCloud(params))
    case .cloudClose(let params): return try closeCloud(params.cloud)
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

  private mutating func shutdown(outbox: inout Outbox) -> [UInt8] {
    lifecycle = .shutDown
    outbox.log(.info, "shutdown received")
    return Array("null".utf8)
  }

  /// Encodes a result with a scratch writer (the reply writer may be mid-batch).
  func encode(_ value: some JSONWritable) -> [UInt8] {
    // Room for a typical FieldState up front: one allocation, no regrowth on the keystroke path.
    var w = JSONWriter(reservingCapacity: 512)
    value.write(to: &w)
    return w.bytes
  }
}
