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
