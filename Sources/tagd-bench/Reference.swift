#if canImport(Glibc)
import Glibc
#endif

/// The C reference: `bench/reference/field-ref.c`, compiled at run time with the system C
/// compiler, the yardstick of issue 25's "≤ 2× a C implementation".
///
/// It is built fresh on every run (`cc -std=c11 -O2`: about 1.5 s of CPU), so what is measured
/// is always the committed source with this machine's compiler. Without `cc` or the
/// source, the C rows are skipped and the reason is printed and reported; a source that does
/// not compile fails the run.
enum CReference {
  /// The compiled program.
  case built(String)
  /// No C reference in this run, and why.
  case skipped(String)

  /// The source, relative to the package root.
  static let source = "bench/reference/field-ref.c"

  /// The program's path, when it was built.
  var path: String? {
    if case .built(let path) = self { return path }
    return nil
  }

  /// Why there is no C reference, when there is none.
  var skipReason: String? {
    if case .skipped(let reason) = self { return reason }
    return nil
  }

  /// Compiles the source under `root` (the package root) into `directory` as `field-ref` (into
  /// a new temporary directory when `directory` is not writable).
  ///
  /// The compiler writes a name of its own first and the result is renamed into place, so two
  /// runs at once never execute a half-written program. Compiler warnings are passed to
  /// `progress`; a failed compile throws with the compiler's messages.
  static func build(
    root: String?,
    into directory: String,
    progress: (String) -> Void
  ) throws(BenchError) -> CReference {
    guard let cc = onPath("cc") else {
      return .skipped("no cc on PATH to compile \(source)")
    }
    let sourcePath = (root ?? ".") + "/" + source
    guard access(sourcePath, R_OK) == 0 else { return .skipped("no \(sourcePath)") }
    let binary = try writable(directory) + "/field-ref"
    let partial = binary + ".\(getpid())"
    let messages = try Instructions.temporaryFile([])
    defer { unlink(messages) }
    progress("C reference: cc -std=c11 -O2 \(source)…")
    let status = Instructions.run(
      cc,
      ["-std=c11", "-O2", "-Wall", "-Wextra", "-o", partial, sourcePath],
      stdin: "/dev/null",
      stderr: messages
    )
    let said = Procfs.read(messages) ?? ""
    guard status == 0 else {
      unlink(partial)
      throw BenchError("cc could not build \(sourcePath) (status \(status)):\n\(said)")
    }
    guard rename(partial, binary) == 0 else {
      unlink(partial)
      throw BenchError("cannot rename \(partial) to \(binary): errno \(errno)")
    }
    if !said.isEmpty { progress("C reference: cc warned:\n\(said)") }
    return .built(binary)
  }

  /// `directory` when this process may write there, else a new directory under `$TMPDIR` (or
  /// /tmp).
  private static func writable(_ directory: String) throws(BenchError) -> String {
    if access(directory, W_OK) == 0 { return directory }
    var template = Array((Instructions.temporaryDirectory + "/tagd-bench-cref-XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { mkdtemp($0) != nil } ?? false
    }
    guard made else { throw BenchError("mkdtemp failed: errno \(errno)") }
    return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
