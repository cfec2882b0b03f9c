#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Small file helpers for tests (no Foundation needed).
public enum Files {
  /// The names in a directory, sorted; empty when it cannot be read.
  public static func list(_ directory: String) -> [String] {
    guard let dir = opendir(directory) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
  }

  /// The bytes of a file, or nil.
  public static func read(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if n <= 0 { break }
      result += chunk[0..<n]
    }
    return result
  }

  /// The transcripts in `Protocol/transcripts`, parsed.
  public static func transcripts() throws(TranscriptError) -> [Transcript] {
    let directory = packageRoot() + "/Protocol/transcripts"
    var result: [Transcript] = []
    for name in list(directory) where name.hasSuffix(".transcript") {
      let text = String(decoding: read(directory + "/" + name) ?? [], as: UTF8.self)
      result.append(try Transcript(name: String(name.dropLast(11)), text: text))
    }
    return result
  }
}

/// A folder of its own under `$TMPDIR` (or `/tmp`) for one test, removed with everything in
/// it when the value goes away.
public final class TemporaryFolder {
  /// Its absolute path.
  public let path: String

  public init(_ label: String = "tagd-test") {
    let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array((base + "/" + label + "-XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer {
      $0.baseAddress.map { mkdtemp($0) != nil } ?? false
    }
    precondition(made, "mkdtemp failed: errno \(errno)")
    path = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
      as: UTF8.self
    )
  }

  deinit { Self.remove(path) }

  /// `relative` under the folder.
  public func path(_ relative: String) -> String { path + "/" + relative }

  /// Writes `bytes` to `relative` (its folders made as needed), with the given mode.
  public func write(_ relative: String, _ bytes: [UInt8], mode: UInt32 = 0o644) {
    let full = path(relative)
    var slash = full.index(after: path.endIndex)
    while let next = full[slash...].firstIndex(of: "/") {
      mkdir(String(full[..<next]), 0o755)
      slash = full.index(after: next)
    }
    let descriptor = open(full, O_WRONLY | O_CREAT | O_TRUNC, mode_t(mode))
    precondition(descriptor >= 0, "cannot write \(full): errno \(errno)")
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeBytes {
        Glibc.write(descriptor, $0.baseAddress.map { $0 + offset }, $0.count - offset)
      }
      precondition(n > 0, "cannot write \(full): errno \(errno)")
      offset += n
    }
    close(descriptor)
  }

  /// Writes `text` as UTF-8.
  public func write(_ relative: String, _ text: String, mode: UInt32 = 0o644) {
    write(relative, Array(text.utf8), mode: mode)
  }

  /// Removes `path` and everything below it (links removed, never followed).
  public static func remove(_ path: String) {
    var status = stat()
    guard lstat(path, &status) == 0 else { return }
    if status.st_mode & S_IFMT == S_IFDIR {
      for name in Files.list(path) { remove(path + "/" + name) }
      rmdir(path)
    } else {
      unlink(path)
    }
  }
}
