#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading inputs for replay mode (a build without the fuzzer runtime).
enum Replay {
  /// `path` itself, or the regular files directly inside it when it is a directory.
  static func files(at path: String) -> [String] {
    guard let directory = opendir(path) else { return [path] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if !name.hasPrefix(".") { names.append(path + "/" + name) }
    }
    return names.sorted()
  }

  /// The bytes of a file, or nil.
  static func read(_ path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 { return nil }
      if count == 0 { return result }
      result += chunk[0..<count]
    }
  }
}

/// Writes text to stderr.
func writeError(_ text: String) {
  let bytes = Array(text.utf8)
  bytes.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
}
