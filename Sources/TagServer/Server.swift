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
  /// Notes read and parsed by the executable (an index's batch, a change on disk).
  case notesRead([ReadNote])
  /// Notes, or folders of notes, gone from the disk.
  case notesGone([String])
  /// Vault `vault`'s walk is done and every note of `paths` was delivered: its first full
  /// index is ready (or, after a re-walk, the notes not in `paths` are gone).
  case vaultIndexed(vault: Int, paths: [String])
  /// The texts read for the request parked on `ticket`.
  case textsRead(ticket: Int, texts: [NoteText])
  /// The notes of reread `ticket` were delivered.
  case rereadDone(ticket: Int)
  /// Vault `vault`'s `.tagd.toml` as read (nil: it has none).
  case vocabularyRead(vault: Int, text: String?)
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
    /// Throws unless the request is accepted now (here, not on `Server`: that call copied the server).
    func check(isInitialize: Bool) throws(RequestError) {
      switch self {
      case .awaitingInitialize where !isInitialize: throw .lifecycle(.notInitialized)
      case .shutDown: throw .lifecycle(.shutDown)
      case .running where isInitialize: throw .lifecycle(.initializedTwice)
      default: break
      }
    }
  }

  /// The lifecycle state.
  public internal(set) var lifecycle: Lifecycle = .awaitingInitialize
  /// The limits and identity.
  public let config: ServerConfig
  /// The negotiated position encoding (UTF-16 until `initialize` says otherwise).
  public internal(set) var positionEncoding: PositionEncoding = .utf16
  /// Whether the client asked for reduced motion at `initialize`.
  public internal(set) var reducedMotion = false
  /// The language of announcements and default prompts, from `initialize`'s `locale`.
  public internal(set) var language = Language.en

  var fields: [String: FieldSession] = [:] {
    // Any change of the table may move its entries: where a field was last found is forgotten
    // (``withField(_:_:)`` notes it again after changing a session in place).
    didSet { lastField = nil }
  }
  /// Where ``withField(_:_:)`` last found a field, by id (``FastPath/lastFieldLookup``).
  var lastField: (id: String, index: [String: FieldSession].Index)?
  var clouds: [String: CloudSession] = [:]
  /// The vaults, their index and the editor's open notes (SPEC §6d).
  var vault = VaultState()
  /// The buffer the params' member ranges are scanned into, kept between messages.
  var paramsMembers: [JSONObjectRanges.Member] = []
  /// Whether single calls are decoded straight from their bytes (the tests turn it off to
  /// compare with the ``JSONValue`` path, which must answer identically).
  var decodesFromBytes = true
  /// The last `field/didChange`, kept to fill the next in place: none is destroyed per message.
  var didChange = FieldDidChangeNotification()

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
      handle(message: body.span, into: &outbox)
    case .frameError(let error):
      handle(frameError: error, into: &outbox)
    case .inputClosed:
      inputClosed(outbox: &outbox)
    case .clientProcessGone:
      outbox.log(.info, "client process is gone; exiting")
      outbox.exitCode = lifecycle == .shutDown ? 0 : 1
    case .notesRead, .notesGone, .vaultIndexed, .textsRead, .rereadDone, .vocabularyRead:
      handle(vaultEvent: event, into: &outbox)
    }
  }

  /// Handles one complete message body, lent for the call (the framer's buffer).
  public mutating func handle(message body: Span<UInt8>, into outbox: inout Outbox) {
    // The fast path: one well-formed request or notification decoded straight from the bytes (a
    // `field/didChange`, a keystroke in an editor, in the pass that validates it), its reply written
    // straight into the outbox. All else (batches, responses, errors) takes the exact JSONValue path.
    if decodesFromBytes, Envelope.startsNotification(body), lifecycle == .running,
      FieldDidChangeNotification.scan(body, maxDepth: config.maxDepth, into: &didChange)
    {
      return bufferChanged(outbox: &outbox)
    }
    if decodesFromBytes, FastPath.envelopeScan.isOn,
      let call = Envelope.scanCall(body, maxDepth: config.maxDepth, reusing: &paramsMembers)
    {
      FastPath.envelopeScan.taken()
      // Params made where passed: a `let` was destroyed through metadata (~250 a keystroke).
      let method = body.extracting(call.method)
      if let id = call.id {
        reply(to: method, id: id, params: .bytes(call.body, call.params), outbox: &outbox)
      } else {
        notify(method: method, params: .bytes(call.body, call.params), outbox: &outbox)
      }
      return
    }
    switch Envelope.decode(body, maxDepth: config.maxDepth) {
    case .single(let message):
      handle(message, outbox: &outbox)
    case .batch(let messages):
      // The replies of a batch are one array, written aside (a request in it may push a
      // `field/didUpdate` first) and sent when every message has been handled.
      var w = JSONWriter()
      w.beginArray()
      var answered = 0
      for message in messages {
        var one = Outbox()
        let replied = handle(message, outbox: &one)
        var bodies = one.messages
        if replied, let reply = bodies.popLast() {
          w.raw(reply)
          answered += 1
        }
        for body in bodies { outbox.send(body.span) }
        outbox.takeEffects(of: one)
      }
      w.endArray()
      guard answered > 0 else { return }
      w.withBytes { outbox.send($0) }
    }
  }

  /// Handles one classified message, writing its reply (if any) into `outbox` last.
  ///
  /// Returns whether a reply was written.
  @discardableResult
  private mutating func handle(
    _ message: Result<Message, EnvelopeError>,
    outbox: inout Outbox
  ) -> Bool {
    switch message {
    case .failure(let failure):
      outbox.log(.warning, "rejected message: \(failure.error.message)")
      outbox.write { $0.errorResponse(id: failure.id, error: failure.error) }
      return true
    case .success(.request(let id, let method, let params)):
      return reply(to: method.utf8.span, id: id, params: .tree(params), outbox: &outbox)
    case .success(.notification(let method, let params)):
      notify(method: method.utf8.span, params: .tree(params), outbox: &outbox)
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
    outbox.write { $0.errorResponse(id: nil, error: error) }
  }
}
