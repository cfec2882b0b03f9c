#if canImport(Glibc)
import Glibc
#endif

/// Instruction counts under callgrind: the figure to compare builds by on a noisy machine.
///
/// Each workload is two request streams fed to `tagd` on stdin: a base (start-up and set-up)
/// and the same base followed by the measured messages. The difference of the two totals,
/// divided by the number of items, is the cost per item with start-up and set-up subtracted.
/// Valgrind is run directly (`valgrind --tool=callgrind`); its total comes from the
/// `totals:` line of the output file.
enum Instructions {
  /// One measured stream pair.
  struct Workload {
    /// What is measured, as the report names it.
    var name: String
    /// What one item is ("keystroke", "tag", "chip").
    var unit: String
    /// The issue's goal per item, if it has one.
    var goal: Int?
    /// Start-up and set-up only.
    var base: [UInt8]
    /// The base followed by the measured messages.
    var full: [UInt8]
    /// The number of items the measured messages hold.
    var items: Int
  }

  /// One measured figure.
  struct Row {
    var workload: Workload
    /// Total instructions of the base stream and of the full stream.
    var base: Int
    var full: Int
    /// Instructions per item, start-up and set-up subtracted.
    var perItem: Double { Double(full - base) / Double(workload.items) }
  }

  /// The keystroke count of the typing workloads.
  static let keystrokes = 20_000
  /// The size of the bulk workloads.
  static let bulk = 100_000

  /// The workloads of issue 15, in report order.
  static func workloads(quick: Bool) -> [Workload] {
    let keystrokes = quick ? 2_000 : Self.keystrokes
    let bulk = quick ? 10_000 : Self.bulk
    var result: [Workload] = []

    var base = FrameWriter()
    base.append(Workloads.initialize(id: 0))
    base.request(
      id: 1,
      method: "field/open",
      params: #"{"field":"f","tags":\#(Workloads.stringArray(Workloads.openTags))}"#
    )
    let typing = Workloads.typing(count: keystrokes, firstID: 100, field: "f").frames
    result.append(
      Workload(
        name: "`field/change`, typing stream",
        unit: "keystroke",
        goal: 7_500,
        base: base.bytes,
        full: base.bytes + typing.bytes,
        items: keystrokes
      )
    )

    var syncBase = FrameWriter()
    syncBase.append(Workloads.initialize(id: 0))
    syncBase.request(
      id: 1,
      method: "field/open",
      params:
        #"{"field":"f","tags":\#(Workloads.stringArray(Workloads.openTags)),"sync":{"version":0}}"#
    )
    result.append(
      Workload(
        name: "`field/didChange` → `field/didUpdate`, same typing",
        unit: "keystroke",
        goal: nil,
        base: syncBase.bytes,
        full: syncBase.bytes + Workloads.syncTyping(count: keystrokes, field: "f").bytes,
        items: keystrokes
      )
    )

    let names = Workloads.tagNames(bulk)
    var pasteBase = FrameWriter()
    pasteBase.append(Workloads.initialize(id: 0))
    pasteBase.request(id: 1, method: "field/open", params: #"{"field":"p"}"#)
    var paste = FrameWriter()
    paste.request(
      id: 2,
      method: "field/change",
      params: #"{"field":"p","text":"\#(names.joined(separator: ",")),"}"#
    )
    result.append(
      Workload(
        name: "paste of \(Format.count(bulk)) tags into `field/change`",
        unit: "tag",
        goal: 1_100,
        base: pasteBase.bytes,
        full: pasteBase.bytes + paste.bytes,
        items: bulk
      )
    )

    var layoutBase = FrameWriter()
    layoutBase.append(Workloads.initialize(id: 0))
    layoutBase.request(
      id: 1,
      method: "field/open",
      params: #"{"field":"p","tags":\#(Workloads.stringArray(names))}"#
    )
    var layout = FrameWriter()
    layout.request(
      id: 2,
      method: "field/layout",
      params: #"{"field":"p","width":800,"fieldHeight":20,"chipSizes":\#(Workloads.sizes(bulk))}"#
    )
    result.append(
      Workload(
        name: "`field/layout` of \(Format.count(bulk)) chips",
        unit: "chip",
        goal: 2_500,
        base: layoutBase.bytes,
        full: layoutBase.bytes + layout.bytes,
        items: bulk
      )
    )

    var cloudBase = FrameWriter()
    cloudBase.append(Workloads.initialize(id: 0))
    cloudBase.request(
      id: 1,
      method: "cloud/open",
      params: #"{"cloud":"c","tags":\#(Workloads.cloudTags(bulk))}"#
    )
    var cloud = FrameWriter()
    cloud.request(
      id: 2,
      method: "cloud/layout",
      params:
        #"{"cloud":"c","width":800,"sizes":\#(Workloads.sizes(bulk)),"transition":{"from":3,"to":18,"progress":0.5}}"#
    )
    result.append(
      Workload(
        name: "`cloud/layout` of \(Format.count(bulk)) tags with merge groups",
        unit: "tag",
        goal: 4_800,
        base: cloudBase.bytes,
        full: cloudBase.bytes + cloud.bytes,
        items: bulk
      )
    )
    return result
  }

  /// The first `valgrind` on `PATH`, if any.
  static func valgrind() -> String? { onPath("valgrind") }

  /// Measures every workload against `tagd`; keeps callgrind's files in `keep` when given.
  static func measure(
    tagd: String,
    valgrind: String,
    quick: Bool,
    keep: String?,
    progress: (String) -> Void
  ) throws(BenchError) -> [Row] {
    var rows: [Row] = []
    for (number, workload) in workloads(quick: quick).enumerated() {
      progress("callgrind: \(workload.name)…")
      let base = try count(
        tagd: tagd,
        valgrind: valgrind,
        input: workload.base,
        keep: keep.map { "\($0)/callgrind.\(number).base" }
      )
      let full = try count(
        tagd: tagd,
        valgrind: valgrind,
        input: workload.full,
        keep: keep.map { "\($0)/callgrind.\(number).full" }
      )
      rows.append(Row(workload: workload, base: base, full: full))
    }
    return rows
  }

  /// The instructions `tagd` executes reading `input` to its end.
  static func count(
    tagd: String,
    valgrind: String,
    input: [UInt8],
    keep: String?
  ) throws(BenchError) -> Int {
    let inputPath = try temporaryFile(input)
    defer { unlink(inputPath) }
    let outputPath: String
    if let keep { outputPath = keep } else { outputPath = try temporaryFile([]) }
    defer { if keep == nil { unlink(outputPath) } }
    let status = run(
      valgrind,
      ["--tool=callgrind", "--callgrind-out-file=\(outputPath)", tagd],
      stdin: inputPath
    )
    // tagd exits 1 at end of input without `shutdown` (LSP's rule); only a crash is an error.
    guard status >= 0 else { throw BenchError("valgrind or tagd did not exit normally") }
    guard let text = Procfs.read(outputPath) else {
      throw BenchError("no callgrind output at \(outputPath)")
    }
    for line in text.split(separator: "\n") where line.hasPrefix("totals:") {
      if let total = Int(line.dropFirst("totals:".count).split(separator: " ").first ?? "") {
        return total
      }
    }
    throw BenchError("no totals line in \(outputPath)")
  }

  /// A new file in the temporary directory holding `bytes`; returns its path.
  private static func temporaryFile(_ bytes: [UInt8]) throws(BenchError) -> String {
    var template = Array("/tmp/tagd-bench-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { mkstemp($0) } ?? -1
    }
    guard fd >= 0 else { throw BenchError("mkstemp failed: errno \(errno)") }
    defer { close(fd) }
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { raw in
        raw.baseAddress.map { write(fd, $0 + offset, raw.count - offset) } ?? -1
      }
      guard written > 0 else { throw BenchError("cannot write a temporary file: errno \(errno)") }
      offset += written
    }
    return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Runs `path` with `arguments`, stdin from the file `stdin`, stdout and stderr discarded;
  /// returns the exit status.
  private static func run(_ path: String, _ arguments: [String], stdin: String) -> Int32 {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for arg in argv { free(arg) } }
    var child: pid_t = 0
    guard posix_spawn(&child, path, &actions, nil, argv, environ) == 0 else { return -1 }
    var status: Int32 = 0
    while waitpid(child, &status, 0) < 0 && errno == EINTR {}
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
  }
}
