import JSONRPC

/// What handling an event asks for: messages to send, a process to watch, logs, an exit.
///
/// The server never performs I/O itself, and never frames: it queues message bodies, and
/// the ``Connection`` frames them for the wire.
public struct Outbox: Sendable {
  /// The bodies (JSON texts) the server sent, concatenated in order; ``bodyEnds`` splits them.
  public private(set) var bodies: [UInt8] = []
  /// Where each body of ``bodies`` ends.
  public private(set) var bodyEnds: [Int] = []
  /// Framed bytes for stdout, in order: the bodies framed by the ``Connection``.
  public internal(set) var wire: [UInt8] = []
  /// Set when the process should exit with this code after writing ``wire``.
  public var exitCode: Int32?
  /// A client process id to poll; exit when it disappears.
  public var watchProcess: Int32?
  /// Diagnostics for stderr or the log file.
  public var logs: [LogRecord] = []

  /// Creates an empty outbox.
  public init() {}

  /// Queues one message body.
  public mutating func send(_ body: [UInt8]) {
    body.withUnsafeBufferPointer { send($0) }
  }

  /// Queues one message body (copied).
  public mutating func send(_ body: UnsafeBufferPointer<UInt8>) {
    bodies.append(contentsOf: body)
    bodyEnds.append(bodies.count)
  }

  /// The queued bodies, one per message.
  public var messages: [ArraySlice<UInt8>] {
    var start = 0
    return bodyEnds.map { end in
      defer { start = end }
      return bodies[start..<end]
    }
  }

  /// Frames the queued bodies onto ``wire`` and forgets them.
  mutating func frameBodies(as framing: Framing) {
    var start = 0
    for end in bodyEnds {
      FrameEncoder.append(bodies[start..<end], as: framing, to: &wire)
      start = end
    }
    bodies.removeAll(keepingCapacity: true)
    bodyEnds.removeAll(keepingCapacity: true)
  }

  /// Queues a diagnostic.
  public mutating func log(_ level: LogLevel, _ message: String) {
    logs.append(LogRecord(level: level, message: message))
  }

  /// Empties the outbox after the executable has performed it (keeps buffer capacity).
  public mutating func clear() {
    bodies.removeAll(keepingCapacity: true)
    bodyEnds.removeAll(keepingCapacity: true)
    wire.removeAll(keepingCapacity: true)
    logs.removeAll(keepingCapacity: true)
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
  public var name: String { "\(self)" }

  public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
}

/// One diagnostic line.
public struct LogRecord: Hashable, Sendable {
  /// Its level.
  public var level: LogLevel
  /// Its text.
  public var message: String

  /// Creates a record.
  public init(level: LogLevel, message: String) {
    self.level = level
    self.message = message
  }
}
