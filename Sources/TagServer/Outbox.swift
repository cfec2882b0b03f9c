public import JSONRPC

/// What handling an event asks the executable to do.
///
/// Bytes to write, a process to watch, logs, and whether to exit. The server never performs I/O itself.
public struct Outbox: Sendable {
  /// The framing replies are written in.
  public var framing: Framing
  /// Framed messages to write to stdout, in order.
  public var bytes: [UInt8] = []
  /// Set when the process should exit with this code after writing `bytes`.
  public var exitCode: Int32?
  /// A client process id to poll; exit when it disappears.
  public var watchProcess: Int32?
  /// Diagnostics for stderr or the log file.
  public var logs: [LogRecord] = []

  /// Creates an empty outbox.
  public init(framing: Framing) {
    self.framing = framing
  }

  /// Frames `body` and queues it.
  public mutating func send(_ body: [UInt8]) {
    FrameEncoder.append(body, as: framing, to: &bytes)
  }

  /// Queues a diagnostic.
  public mutating func log(_ level: LogLevel, _ message: String) {
    logs.append(LogRecord(level: level, message: message))
  }

  /// Empties the outbox after the executable has performed it (keeps buffer capacity).
  public mutating func clear() {
    bytes.removeAll(keepingCapacity: true)
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
