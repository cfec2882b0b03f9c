import TagTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Memory figures of a live process from `/proc/PID/status`, in KiB.
enum ProcessMemory {
  /// The peak resident set size so far (`VmHWM`); read it before the process exits.
  static func peakKiB(_ pid: pid_t) -> Int? { field("VmHWM:", of: pid) }

  /// The current resident set size (`VmRSS`).
  static func currentKiB(_ pid: pid_t) -> Int? { field("VmRSS:", of: pid) }

  private static func field(_ name: String, of pid: pid_t) -> Int? {
    guard let bytes = Files.read("/proc/\(pid)/status") else { return nil }
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n")
    where line.hasPrefix(name) {
      return Int(line.dropFirst(name.count).split { $0 == " " || $0 == "\t" }.first ?? "")
    }
    return nil
  }

  /// A generous memory bound in KiB for `megabytes`, scaled up under a sanitizer, whose shadow
  /// memory and quarantine inflate RSS (`Tests/sanitizers` sets `TAGD_SANITIZER`).
  static func bound(megabytes: Int) -> Int {
    getenv("TAGD_SANITIZER") == nil ? megabytes << 10 : (megabytes << 10) * 4
  }
}

/// Requests used by the hostile-input and resource tests.
enum Requests {
  static func open(_ id: Int, field: String, tags: [String] = []) -> String {
    let list = tags.map { "\"\($0)\"" }.joined(separator: ",")
    return
      #"{"jsonrpc":"2.0","id":\#(id),"method":"field/open","params":{"field":"\#(field)","tags":[\#(list)]}}"#
  }

  static func state(_ id: Int, field: String = "f") -> String {
    #"{"jsonrpc":"2.0","id":\#(id),"method":"field/state","params":{"field":"\#(field)"}}"#
  }

  static func close(_ id: Int, field: String) -> String {
    #"{"jsonrpc":"2.0","id":\#(id),"method":"field/close","params":{"field":"\#(field)"}}"#
  }

  static func change(_ id: Int, text: String, field: String = "f") -> String {
    #"{"jsonrpc":"2.0","id":\#(id),"method":"field/change","params":{"field":"\#(field)","text":"\#(text)"}}"#
  }
}

/// Whether `stdout` (Content-Length or NDJSON) ends with the reply to request `id`.
func endsWithReply(_ stdout: [UInt8], id: Int) -> Bool {
  let tail = String(decoding: stdout.suffix(1 << 16), as: UTF8.self)
  return tail.contains(#""id":\#(id),"#)
}
