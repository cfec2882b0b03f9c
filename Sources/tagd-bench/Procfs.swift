#if canImport(Glibc)
import Glibc
#endif

/// What the kernel says about a process: memory high-water mark, resident size, CPU time.
enum Procfs {
  /// A `kB` field of `/proc/PID/status` (`VmHWM`, `VmRSS`), in bytes.
  static func status(_ pid: pid_t, _ field: String) -> Int? {
    guard let text = read("/proc/\(pid)/status") else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
      let digits = line.dropFirst(field.count + 1).filter { $0.isNumber }
      return Int(digits).map { $0 * 1024 }
    }
    return nil
  }

  /// CPU time the process has run, in nanoseconds (`/proc/PID/schedstat`, nanosecond resolution).
  static func cpuNanoseconds(_ pid: pid_t) -> UInt64? {
    guard let text = read("/proc/\(pid)/schedstat"),
      let first = text.split(separator: " ").first
    else { return nil }
    return UInt64(first)
  }

  /// The whole of a small text file, or nil.
  static func read(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count <= 0 { break }
      bytes.append(contentsOf: chunk[0..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

extension Procfs {
  /// This executable's path, symlinks resolved (`/proc/self/exe`).
  static func executablePath() -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The nearest ancestor of `directory` holding a Package.swift.
  static func packageRoot(from directory: String) -> String? {
    var path = directory
    while !path.isEmpty {
      if access(path + "/Package.swift", F_OK) == 0 { return path }
      guard let slash = path.lastIndex(of: "/") else { return nil }
      path = String(path[..<slash])
    }
    return nil
  }

  /// Replaces the file at `path` with `text`.
  static func write(_ path: String, _ text: String) -> Bool {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var text = text
    return text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = Glibc.write(fd, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
        if written <= 0 { return false }
        offset += written
      }
      return true
    }
  }
}
