// TagFuzz: the libFuzzer harness over tagd's whole input path (see Tests/Fuzz/README.md).
//
// Built by `Tests/Fuzz/run` with `-sanitize=fuzzer,address -DTAGD_FUZZER`, `main` hands over to
// libFuzzer's driver. In a normal build (no fuzzer runtime) it replays the inputs named on the
// command line (files or directories), so a finding can be reproduced with plain `swift build`.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libFuzzer's entry point: one input, always 0 (nothing is rejected from the corpus).
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data else { return 0 }
  FuzzInput(UnsafeRawBufferPointer(start: data, count: size))?.run()
  return 0
}

#if TAGD_FUZZER
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
  _ argc: UnsafeMutablePointer<Int32>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argc, &argv, fuzzTestOneInput))
#else
var replayed = 0
for path in CommandLine.arguments.dropFirst() {
  for file in Replay.files(at: path) {
    guard let bytes = Replay.read(file) else {
      writeError("TagFuzz: cannot read \(file)\n")
      exit(2)
    }
    _ = bytes.withUnsafeBufferPointer { fuzzTestOneInput($0.baseAddress, $0.count) }
    replayed += 1
  }
}
writeError("TagFuzz: replayed \(replayed) inputs without a finding\n")
#endif
