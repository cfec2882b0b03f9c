public import JSONRPC

/// What handling an event asks for: messages to send, a process to watch, logs, an exit.
///
/// The server never performs I/O itself. It writes each message body straight into the wire
/// through ``write(_:)``, which frames it in place in the connection's ``framing``: a
/// Content-Length header is reserved before the body and its digits are filled in once the
/// body's length is known, so a reply is never copied between buffers.
public struct Outbox: ~Copyable {
  /// How bodies are framed on the wire (the ``Connection`` sets it from the stream).
  public var framing: Framing = .contentLength
  /// Framed bytes for stdout, in order, with room to spare beyond ``flushBytes``.
  private var buffer = JSONWriter(reservingCapacity: 2 * Outbox.flushBytes)
  /// The bytes the executable lets the outbox hold before it writes them (never regrown).
  public static let flushBytes = 32 << 10
  /// The Content-Length digits the next header reserves: the last body's.
  private var guessedDigits = 3
  /// Set when the process should exit with this code after writing the wire.
  public var exitCode: Int32?
  /// A client process id to poll; exit when it disappears.
  public var watchProcess: Int32?
  /// Diagnostics for stderr or the log file.
  public var logs: [LogRecord] = []
  /// File work for the executable (reading vaults), in order.
  public var vaultTasks: [VaultTask] = []

  public init() {}

  /// Lends the framed bytes for stdout.
  public func withWire<R>(_ body: (Span<UInt8>) throws -> R) rethrows -> R {
    try buffer.withBytes(body)
  }

  /// The bodies sent, one per message, in order: read back from the wire (a batch's replies, the
  /// tests), so writing a message records nothing beside its bytes.
  public var messages: [ArraySlice<UInt8>] {
    var decoder = FrameDecoder(framing: framing, limits: FrameLimits(maxMessageBytes: buffer.count))
    decoder.feed(buffer.bytes)
    var bodies: [ArraySlice<UInt8>] = []
    while case .message(let body)? = decoder.next() { bodies.append(body[...]) }
    return bodies
  }

  /// Writes one message body in place and frames it; `body` writes one JSON value (writing
  /// nothing sends nothing).
  public mutating func write(_ body: (inout JSONWriter) -> Void) {
    _ = FrameEncoder.write(as: framing, into: &buffer, guessedDigits: &guessedDigits, body)
  }

  /// Sends one message body already written elsewhere (copied).
  public mutating func send(_ body: Span<UInt8>) {
    write { $0.raw(body) }
  }

  /// Takes on the logs, process watch and exit of `other` (its messages are not taken).
  mutating func takeEffects(of other: borrowing Outbox) {
    logs += other.logs
    vaultTasks += other.vaultTasks
    if let pid = other.watchProcess { watchProcess = pid }
    if let code = other.exitCode { exitCode = code }
  }

  /// Queues a diagnostic.
  public mutating func log(_ level: LogLevel, _ message: String) {
    logs.append(LogRecord(level: level, message: message))
  }

  /// Empties the outbox after the executable has performed it (keeps buffer capacity).
  public mutating func clear() {
    buffer.reset()
    logs.removeAll(keepingCapacity: true)
    vaultTasks.removeAll()
    exitCode = nil
    watchProcess = nil
  }
}

/// How serious a diagnostic is; `--log=LEVEL` chooses the lowest level written.
public enum LogLevel: Int, Comparable, Sendable, CaseIterable {
  /// Something the operator must know: a lost stream, a bug.
  case error
  /// Bad input from the client.
  case warning
  /// Lifecycle events.
  case info
  /// Every message.
  case debug

  /// The level's name as used by `--log`.
  ///
  /// Spelt out: `"\(self)"` would reflect on the type, which costs more than the rest of
  /// start-up together.
  public var name: String {
    switch self {
    case .error: "error"
    case .warning: "warning"
    case .info: "info"
    case .debug: "debug"
    }
  }

  public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
}

/// One diagnostic line.
public struct LogRecord: Hashable, Sendable {
  /// Its level.
  public var level: LogLevel
  /// Its text.
  public var message: String

  public init(level: LogLevel, message: String) {
    self.level = level
    self.message = message
  }
}
