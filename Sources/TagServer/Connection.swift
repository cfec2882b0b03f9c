public import JSONRPC

/// One client's byte stream, from the bytes read to the framed bytes to write.
///
/// The framer, the server, and framing of the replies. No I/O: the executable (`StdioLoop`) and the fuzzer both
/// drive this one value, so they cannot differ.
public struct Connection: Sendable {
  /// The server behind the connection.
  public private(set) var server: Server
  private var decoder: FrameDecoder

  /// Creates a connection; `framing` nil detects it from the first non-blank byte.
  public init(config: ServerConfig = ServerConfig(), framing: Framing? = nil) {
    server = Server(config: config)
    decoder = FrameDecoder(framing: framing, limits: config.frameLimits)
  }

  /// The framing replies are written in (Content-Length until the stream says otherwise).
  public var framing: Framing { decoder.framing ?? .contentLength }

  /// Reads stream bytes into the framer (``FrameDecoder/feed(reading:_:)``), no copy between.
  public mutating func read(_ capacity: Int, _ fill: (inout OutputSpan<UInt8>) -> Void) {
    decoder.feed(reading: capacity, fill)
  }

  /// Handles every complete frame in `bytes` and what came before, queuing framed replies and
  /// effects in `outbox`, until the outbox holds `limit` bytes or the server asks to exit.
  ///
  /// Returns true when it stopped for the limit: call again (with no new bytes) once the outbox
  /// is written and cleared. So the client reads the first replies of a pipelined stream before
  /// the last are made, and the outbox never grows (and copies) past the limit.
  @discardableResult
  public mutating func receive(
    _ bytes: Span<UInt8>,
    into outbox: inout Outbox,
    upTo limit: Int = .max
  ) -> Bool {
    if !bytes.isEmpty { decoder.feed(bytes) }  // a call to go on compacts nothing
    while outbox.exitCode == nil {
      if outbox.withWire({ $0.count }) >= limit { return true }
      let handled = decoder.nextBorrowed(
        message: { body, framing in
          outbox.framing = framing
          server.handle(message: body, into: &outbox)
        },
        error: { error, framing in
          outbox.framing = framing
          server.handle(.frameError(error), into: &outbox)
        }
      )
      if !handled { return false }
    }
    return false
  }

  /// The input stream ended: reports a message cut short, then ends the session.
  public mutating func inputClosed(into outbox: inout Outbox) {
    outbox.framing = framing
    if let error = decoder.finish() { server.handle(.frameError(error), into: &outbox) }
    server.handle(.inputClosed, into: &outbox)
  }

  /// Hands the server an event from the executable between messages: its file work (a note
  /// read, a vault indexed) or the client process gone.
  public mutating func handle(_ event: ServerEvent, into outbox: inout Outbox) {
    outbox.framing = framing
    server.handle(event, into: &outbox)
  }
}
