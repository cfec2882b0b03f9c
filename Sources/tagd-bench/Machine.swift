#if canImport(Glibc)
import Glibc
#endif

/// The machine the figures were taken on.
struct Machine {
  var cpu: String
  var cores: Int
  var kernel: String
  var swift: String

  static func current() -> Machine {
    let cpuinfo = Procfs.read("/proc/cpuinfo") ?? ""
    let model =
      cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
      .flatMap { $0.split(separator: ":", maxSplits: 1).last }
      .map { String($0.drop { $0 == " " }) } ?? "unknown"
    var name = utsname()
    uname(&name)
    let release = withUnsafeBytes(of: &name.release) {
      String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
    }
    let sysname = withUnsafeBytes(of: &name.sysname) {
      String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
    }
    return Machine(
      cpu: model,
      cores: sysconf(Int32(_SC_NPROCESSORS_ONLN)),
      kernel: "\(sysname) \(release)",
      swift: swiftVersion() ?? "unknown"
    )
  }

  /// The first line of `swift --version`, via the shell's PATH.
  private static func swiftVersion() -> String? {
    guard
      let child = try? Child(path: "/bin/sh", arguments: ["-c", "swift --version 2>&1 | head -1"])
    else { return nil }
    var text: [UInt8] = []
    while true {
      var pfd = pollfd(fd: child.output, events: Int16(POLLIN), revents: 0)
      guard poll(&pfd, 1, 10_000) > 0 else { break }
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = chunk.withUnsafeMutableBytes { read(child.output, $0.baseAddress, $0.count) }
      if count <= 0 { break }
      text.append(contentsOf: chunk[0..<count])
    }
    child.finish()
    let line = String(decoding: text, as: UTF8.self).split(separator: "\n").first.map(String.init)
    return line
  }
}
