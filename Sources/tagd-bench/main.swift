#if canImport(Glibc)
import Glibc
#endif

// tagd-bench: measures the release tagd against the issue-5 targets and writes BENCHMARKS.md.
//
//   swift build -c release && .build/release/tagd-bench     full run (~2 min), writes BENCHMARKS.md
//   .build/release/tagd-bench --quick                        smoke run (seconds), writes nothing
//   .build/release/tagd-bench --output PATH                  write the report elsewhere
//   .build/release/tagd-bench --emit-typing N                print the typing workload (for callgrind)
//   .build/release/tagd-bench --emit ID [--quick] [--base]    print the --instructions workload ID's
//                         stream (its base alone with --base), for callgrind or cmp of replies
//   .build/release/tagd-bench --documents [--quick]           the document/… figures only, printed
//   .build/release/tagd-bench --vault [--quick]               tagd tags/rename on generated vaults
//                         of 1k, 10k, 100k notes beside ripgrep, printed as Markdown
//   .build/release/tagd-bench --lsp [--quick]                 only the completion and hover
//                         latency on a 100k-note vault (10k with --quick) and their
//                         instructions on a 10k-note one, printed
//   .build/release/tagd-bench --throughput [--quick]          only the pipelined `field/change`
//                         runs (tagd, the floor, the peer, the C reference), printed
//   .build/release/tagd-bench --responder                    the do-nothing floor (used internally)
//   .build/release/tagd-bench --instructions [--quick] [--tagd PATH] [--callgrind-dir DIR]
//                         instruction counts per item under callgrind (start-up subtracted)
//   .build/release/tagd-bench --instructions --check [--quick] [--budgets PATH]
//                         the same, then fails (exit 1) when a workload is more than 3 % over
//                         its budget in bench/budgets.json (CI runs it with --quick)
//
// Every run but --documents first compiles the C reference, bench/reference/field-ref.c, with
// `cc` into this executable's directory (without cc its rows are skipped, saying so) and checks
// its replies equal tagd's before measuring it.

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--responder" { Responder.run() }

func fail(_ message: String) -> Never {
  writeText("tagd-bench: \(message)\n", to: STDERR_FILENO)
  exit(1)
}

func writeText(_ text: String, to fd: Int32) {
  var text = text
  text.withUTF8 { bytes in
    var offset = 0
    while offset < bytes.count {
      let written = write(fd, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
      if written <= 0 { return }
      offset += written
    }
  }
}

/// The directory of this executable (symlinks resolved).
let executable = Procfs.executablePath() ?? CommandLine.arguments[0]
let directory = String(executable[..<(executable.lastIndex(of: "/") ?? executable.startIndex)])

if arguments.first == "--emit-typing", arguments.count == 2, let count = Int(arguments[1]) {
  var writer = FrameWriter()
  writer.append(Workloads.initialize(id: 0))
  writer.request(
    id: 1,
    method: "field/open",
    params: #"{"field":"f","tags":\#(Workloads.stringArray(Workloads.openTags))}"#
  )
  var bytes = writer.bytes
  bytes += Workloads.typing(count: count, firstID: 100, field: "f").frames.bytes
  writeText(String(decoding: bytes, as: UTF8.self), to: STDOUT_FILENO)
  exit(0)
}

if arguments.first == "--emit", arguments.count >= 2 {
  let quick = arguments.contains("--quick")
  guard let workload = Instructions.workloads(quick: quick).first(where: { $0.id == arguments[1] })
  else { fail("no workload \(arguments[1]); see bench/budgets.json") }
  let bytes = arguments.contains("--base") ? workload.base : workload.full
  writeText(String(decoding: bytes, as: UTF8.self), to: STDOUT_FILENO)
  exit(0)
}

// `--decode-loop INDEX N`: runs decoder INDEX of the JSON comparison N times (for callgrind:
// the per-message instructions of one decoder are the difference of two counts).
if arguments.first == "--decode-loop", arguments.count == 3, let index = Int(arguments[1]),
  let count = Int(arguments[2])
{
  exit(JSONComparison.loop(decoder: index, count: count) == 0 ? 1 : 0)
}

var quick = false
var vaultOnly = false
var lspOnly = false
var output: String?
var instructionsOnly = false
var documentsOnly = false
var throughputOnly = false
var tagdPath: String?
var callgrindDirectory: String?
var check = false
var budgetsPath: String?
while let argument = arguments.first {
  arguments.removeFirst()
  switch argument {
  case "--quick": quick = true
  case "--instructions": instructionsOnly = true
  case "--check": check = true
  case "--documents": documentsOnly = true
  case "--vault": vaultOnly = true
  case "--lsp": lspOnly = true
  case "--throughput": throughputOnly = true
  case "--tagd", "--callgrind-dir", "--budgets":
    guard let path = arguments.first else { fail("\(argument) needs a path") }
    switch argument {
    case "--tagd": tagdPath = path
    case "--budgets": budgetsPath = path
    default: callgrindDirectory = path
    }
    arguments.removeFirst()
  case "--output":
    guard let path = arguments.first else { fail("--output needs a path") }
    output = path
    arguments.removeFirst()
  default:
    fail("unknown argument \(argument); try --quick, --output PATH, --instructions [--check]")
  }
}

/// The first executable `name` on `PATH`.
func onPath(_ name: String) -> String? {
  guard let path = getenv("PATH").map({ String(cString: $0) }) else { return nil }
  for directory in path.split(separator: ":") {
    let candidate = String(directory) + "/" + name
    if access(candidate, X_OK) == 0 { return candidate }
  }
  return nil
}
let tagd = tagdPath ?? directory + "/tagd"
guard access(tagd, X_OK) == 0 else {
  fail("no tagd at \(tagd); run `swift build -c release` first")
}

if check && !instructionsOnly { fail("--check goes with --instructions") }

let progress: (String) -> Void = { writeText($0 + "\n", to: STDERR_FILENO) }
let packageRoot = Procfs.packageRoot(from: directory)
let peerScript = (packageRoot ?? ".") + "/bench/peer/field-peer.js"
let peer = onPath("node").flatMap { node in
  access(peerScript, R_OK) == 0 ? (node: node, script: peerScript) : nil
}
if lspOnly {
  writeText(
    VaultBench.lsp(tagd: tagd, valgrind: Instructions.valgrind(), quick: quick, progress: progress),
    to: STDOUT_FILENO
  )
  exit(0)
}
if vaultOnly {
  writeText(
    VaultBench.measure(
      tagd: tagd,
      ripgrep: onPath("rg"),
      valgrind: Instructions.valgrind(),
      quick: quick,
      progress: progress
    ),
    to: STDOUT_FILENO
  )
  exit(0)
}

// The C reference is compiled for the runs that measure it (not for --documents): into this
// executable's directory, the build directory (.build/release), beside tagd.
let reference: CReference
do throws(BenchError) {
  reference =
    documentsOnly
    ? .skipped("not measured by --documents")
    : try CReference.build(root: packageRoot, into: directory, progress: progress)
} catch {
  fail(error.description)
}
if let reason = reference.skipReason, !documentsOnly {
  progress("no C reference: \(reason); its rows are left out")
}
let bench = Bench(
  tagd: tagd,
  bench: executable,
  peer: peer,
  reference: reference.path,
  quick: quick,
  progress: progress
)

if instructionsOnly {
  guard let valgrind = Instructions.valgrind() else {
    fail("--instructions needs valgrind on PATH")
  }
  do throws(BenchError) {
    // Read the budgets first: a missing or broken file fails before minutes of callgrind.
    let budgets =
      try check
      ? Instructions.budgets(
        at: budgetsPath ?? (packageRoot ?? ".") + "/bench/budgets.json",
        quick: quick
      ) : [:]
    if bench.reference != nil {
      progress("C reference: checking its replies equal tagd's…")
      try bench.checkParity(.reference)
    }
    let rows = try Instructions.measure(
      tagd: tagd,
      reference: bench.reference,
      valgrind: valgrind,
      quick: quick,
      keep: callgrindDirectory,
      progress: progress
    )
    writeText(
      Report.instructionTable(rows, referenceSkipped: reference.skipReason),
      to: STDOUT_FILENO
    )
    if check {
      let (lines, pass) = Instructions.check(rows, budgets: budgets)
      writeText(lines.joined(separator: "\n") + "\n", to: STDOUT_FILENO)
      if !pass { fail("instruction budgets exceeded (bench/budgets.json; see above)") }
    }
    exit(0)
  } catch {
    fail(error.description)
  }
}
if throughputOnly {
  do throws(BenchError) {
    let runs = try bench.measureThroughput()
    for (name, kind) in [
      ("tagd", runs.tagd), ("floor", runs.floor), ("peer", runs.peer), ("C", runs.reference),
    ]
    where !kind.isEmpty {
      let rate = Sample(kind.map { $0.rate / 1e3 })
      let cpu = Sample(kind.map(\.cpuMicroseconds))
      let client = Sample(kind.map(\.clientMicroseconds))
      writeText(
        "\(name): \(Format.sample(rate, 0, "k/s")), server CPU \(Format.sample(cpu, 3, "µs")) a request, client CPU \(Format.sample(client, 3, "µs"))\n",
        to: STDOUT_FILENO
      )
    }
    exit(0)
  } catch {
    fail(error.description)
  }
}
if documentsOnly {
  do throws(BenchError) {
    for row in try bench.measureDocuments() {
      let perByte = row.server.median * 1e6 / Double(row.size)
      writeText(
        "\(row.name), \(row.size) bytes: server \(Format.sample(row.server, 3, "ms")) (\(Format.fixed(perByte, 2)) ns/byte), round trip \(Format.sample(row.roundTrip, 3, "ms"))\n",
        to: STDOUT_FILENO
      )
    }
    exit(0)
  } catch {
    fail(error.description)
  }
}

do throws(BenchError) {
  let began = Clock.seconds()
  bench.progress("start-up…")
  let start = try bench.measureStart()
  if peer == nil {
    bench.progress("no node on PATH or no bench/peer/field-peer.js: no Node.js peer")
  } else {
    bench.progress("Node.js peer: checking its replies equal tagd's…")
    try bench.checkParity(.peer)
  }
  if bench.reference != nil {
    bench.progress("C reference: checking its replies equal tagd's…")
    try bench.checkParity(.reference)
  }
  bench.progress("pipelined field/change…")
  let throughput = try bench.measureThroughput()
  bench.progress("round trips…")
  let latency = try bench.measureLatency()
  var scale: [ScaleRow] = []
  for kind in ScaleKind.allCases {
    for size in bench.scaleSizes {
      bench.progress("\(kind.rawValue), \(size) tags…")
      scale.append(try bench.measureScale(kind, size: size))
    }
  }
  bench.progress("suggestions and undo (SPEC §6)…")
  let features = try bench.measureFeatures()
  for row in features {
    bench.progress(
      "\(row.name), \(row.size): server \(Format.sample(row.server, 3, "ms")), round trip \(Format.sample(row.roundTrip, 3, "ms"))"
    )
  }
  bench.progress("memory…")
  let memory = try bench.measureMemory()
  bench.progress("JSON decoders…")
  let decoders = try JSONComparison.measure(iterations: quick ? 20_000 : 200_000, runs: bench.runs)
  var instructions: [Instructions.Row]?
  if let valgrind = Instructions.valgrind() {
    instructions = try Instructions.measure(
      tagd: tagd,
      reference: bench.reference,
      valgrind: valgrind,
      quick: quick,
      keep: callgrindDirectory,
      progress: bench.progress
    )
  } else {
    bench.progress("no valgrind on PATH: no instruction counts")
  }
  let results = Results(
    start: start,
    throughput: throughput,
    latency: latency,
    scale: scale,
    memory: memory,
    decoders: decoders,
    instructions: instructions,
    referenceSkipped: reference.skipReason,
    pipelinedCount: bench.pipelinedCount,
    openFieldCount: bench.openFieldCount,
    seconds: Clock.seconds() - began
  )
  for figure in results.figures {
    bench.progress(
      "\(figure.pass ? "ok  " : "MISS") \(figure.name): \(figure.measured) [target \(figure.target); floor \(figure.floor)]"
    )
  }
  if quick && output == nil {
    bench.progress("quick run: every reply verified; no report written")
    exit(0)
  }
  let path = output ?? (packageRoot ?? ".") + "/BENCHMARKS.md"
  let report = Report.render(
    results,
    machine: .current(),
    kept: Report.keptPart(of: Procfs.read(path))
  ).replacing(
    Report.marker,
    with: FeatureReport.section(features) + Report.marker,
    maxReplacements: 1
  )
  guard Procfs.write(path, report) else { fail("cannot write \(path)") }
  bench.progress("wrote \(path)")
} catch {
  fail(error.description)
}
