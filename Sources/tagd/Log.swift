import TagServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes diagnostics at or above a level to a file descriptor (stderr or a log file).
struct LogSink {
  let level: LogLevel
  let descriptor: Int32

  func write(_ record: LogRecord) {
    guard record.level <= level else { return }
    writeText("tagd: \(record.level.name): \(record.message)\n", to: descriptor)
  }
}

/// Writes text straight to a file descriptor (no stdio buffering, no shared FILE state).
func writeText(_ text: String, to descriptor: Int32) {
  let bytes = Array(text.utf8)
  bytes.withUnsafeBytes { _ = write(descriptor, $0.baseAddress, $0.count) }
}
