public import JSONRPC
public import TagCore
import TagProtocol

/// Something that happened to the server; the executable turns stdin and the clock into these.
public enum ServerEvent: Hashable, Sendable {
  /// One complete message body from the framer.
  case message([UInt8])
  /// The framer found a problem in the byte stream.
  case frameError(FrameError)
  /// stdin reached end of file.
  case inputClosed
  /// The process named by `initialize`'s `processId` is gone.
  case clientProcessGone
}

/// The whole daemon as a value: lifecycle plus open sessions, driven by events.
///
/// `handle(_:into:)` is the reducer: it reads one event, updates the state and queues replies
/// and effects in an ``Outbox``. It performs no I/O, reads no clock and never traps on input.
///
/// - Important: Events must be handled one at a time, in arrival order; that order is what
///   makes every keystroke land exactly once.
public struct Server: Sendable {
  /// Where the server is in the LSP lifecycle.
  public enum Lifecycle: Hashable, Sendable {
    /// Only `initialize` (and `exit`) are accepted.
    case awaitingInitialize
    /// Serving.
    case running
    /// `shutdown` was answered; only `exit` is accepted.
    case shutDown
  }

  /// The lifecycle state.
  public internal(set) var lifecycle: Lifecycle = .awaitingInitialize
  /// The limits and identity.
  public let config: ServerConfig
  /// The negotiated position encoding (UTF-16 until `initialize` says otherwise).
  public internal(set) var positionEncoding: PositionEncoding = .utf16
  /// Whether the client asked for reduced motion at `initialize`.
  public internal(set) var reducedMotion = false

  var fields: [String: FieldSession] = [:]
  var clouds: [String: CloudSession] = [:]
  var writer = JSONWriter()
  /// Whether single calls are decoded straight from their bytes (the tests turn it off to
  /// compare with the ``JSONValue`` path, which must answer identically).
  var decodesFromBytes = true

  /// Creates a server awaiting `initialize`.
  public init(config: ServerConfig = ServerConfig()) {
    self.config = config
  }

  /// The number of open sessions.
  public var sessionCount: Int { fields.count + clouds.count }

  /// Handles one event, queuing replies and effects in `outbox`.
  public mutating func handle(_ event: ServerEvent, into outbox: inout Outbox) {
    switch event {
    case .message(let body):
      handle(body: body, into: &outbox)
    case .frameError(let error):
      handle(frameError: error, into: &outbox)
    case .inputClosed:
      outbox.log(.info, "stdin closed; exiting")
      outbox.exitCode = lifecycle == .shutDown ? 0 : 1
    case .clientProcessGone:
      outbox.log(.info, "client process is gone; exiting")
      outbox.exitCode = lifecycle == .shutDown ? 0 : 1
    }
  }

  private mutating func handle(body: [UInt8], into outbox: inout Outbox) {
    // The reply writer is moved out while the message is handled (so handlers can mutate the
    // sessions while writing into it) and moved back with its capacity for the next message.
    var w = writer
    writer = JSONWriter()
    defer { writer = w }
    w.reset()
    // The fast path: one well-formed request or notification, classified and decoded straight
    // from the bytes. Everything else (batches, responses, any error) takes the JSONValue path,
    // which gives the exact answers.
    if decodesFromBytes,
      let call = body.withUnsafeBufferPointer({
        Envelope.scanCall($0, maxDepth: config.maxDepth)
      })
    {
      let params = ParamsSource.bytes(body, call.params)
      if let id = call.id {
        reply(to: call.method, id: id, params: params, writer: &w, outbox: &outbox)
      } else {
        notify(method: call.method, params: params, outbox: &outbox)
      }
      if !w.isEmpty { w.withBytes { outbox.send($0) } }
      return
    }
    switch Envelope.decode(body, maxDepth: config.maxDepth) {
    case .single(let message):
      handle(message, writer: &w, outbox: &outbox)
    case .batch(let messages):
      w.beginArray()
      var answered = 0
      for message in messages where handle(message, writer: &w, outbox: &outbox) {
        answered += 1
      }
      w.endArray()
      guard answered > 0 else { return }
    }
    if !w.isEmpty {
      w.withBytes { outbox.send($0) }
    }
  }

  /// Handles one classified message, writing its reply (if any) as one value into `w`.
  ///
  /// Returns whether a reply was written.
  @discardableResult
  private mutating func handle(
    _ message: Result<Message, EnvelopeError>,
    writer w: inout JSONWriter,
    outbox: inout Outbox
  ) -> Bool {
    switch message {
    case .failure(let failure):
      outbox.log(.warning, "rejected message: \(failure.error.message)")
      w.errorResponse(id: failure.id, error: failure.error)
      return true
    case .success(.request(let id, let method, let params)):
      return reply(to: method, id: id, params: .tree(params), writer: &w, outbox: &outbox)
    case .success(.notification(let method, let params)):
      notify(method: method, params: .tree(params), outbox: &outbox)
      return false
    case .success(.response(let id, _)):
      outbox.log(
        .debug,
        "ignored a response to \(id.map { "\($0)" } ?? "null"): tagd has no request pending"
      )
      return false
    }
  }

  private mutating func handle(frameError: FrameError, into outbox: inout Outbox) {
    guard let error = ResponseError(frameError) else {
      // The one place the stream cannot be resynchronised: said on stderr at the default level.
      if case .truncated(let expected, let received) = frameError {
        outbox.log(
          .error,
          "stdin ended inside a message (\(received) of \(expected) bytes); the message is lost"
        )
      }
      return
    }
    outbox.log(.warning, error.message)
    writer.reset()
    writer.errorResponse(id: nil, error: error)
    writer.withBytes { outbox.send($0) }
  }
}
