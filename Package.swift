// swift-tools-version: 6.2
// tagd: a JSON-RPC daemon that hosts tag-field and tag-cloud edit sessions for editors and GUIs.
//
// Layers (each a module; the build enforces the edges with
// --explicit-target-dependency-import-check error):
//   tagd -> TagServer -> { TagProtocol, TagCore }; TagProtocol -> { JSONRPC, TagCore }
//   tagd -> TagTerminal -> { JSONRPC, TagCore } (a client: it talks to a tagd child, never to
//   TagServer directly)
//   JSONRPC and TagCore depend on nothing but Shortcuts (the registry of shortcuts, which
//   depends on nothing), not even Foundation.

import PackageDescription

let settings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "tagd",
  products: [
    .executable(name: "tagd", targets: ["tagd"]),
    .executable(name: "tagd-bench", targets: ["tagd-bench"]),
  ],
  targets: [
    // MARK: Shortcuts — the one registry of shortcuts (FastPath), for every layer above it
    .target(name: "Shortcuts"),

    // MARK: JSONRPC — JSON reader/writer, framing, message envelope, error codes
    .target(name: "JSONRPC", dependencies: ["Shortcuts"]),
    .testTarget(
      name: "JSONRPCTests",
      dependencies: [
        "JSONRPC",
        "TagTestSupport",
      ]
    ),

    // MARK: TagCore — pure rules, flow layout, caseless keys, display widths
    .target(
      name: "TagCore",
      dependencies: ["Shortcuts"],
      // Double.squareRoot() calls libm's sqrt in debug builds; nothing else links libm.
      linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]
    ),
    .testTarget(
      name: "TagCoreTests",
      dependencies: [
        "TagCore",
        "TagTestSupport",
      ]
    ),

    // MARK: TagProtocol — typed params and results, method registry
    .target(
      name: "TagProtocol",
      dependencies: [
        "JSONRPC",
        "TagCore",
      ]
    ),

    // MARK: TagServer — lifecycle and sessions as a reducer: event -> effects
    .target(
      name: "TagServer",
      dependencies: [
        "JSONRPC",
        "TagCore",
        "TagProtocol",
      ]
    ),
    .testTarget(
      name: "TagServerTests",
      dependencies: [
        "JSONRPC",
        "TagTestSupport",
        "TagCore",
        "TagProtocol",
        "TagServer",
        "tagd",
      ]
    ),

    // MARK: Spawn — the one spawner: a child over pipes (tagd try, tests, the benchmark)
    .target(name: "Spawn"),

    // MARK: TagTestSupport — transcript reading and JSON comparison shared by the test targets
    .target(
      name: "TagTestSupport",
      dependencies: [
        "Spawn",
        "JSONRPC",
        "TagCore",
      ]
    ),

    // MARK: TagTerminal — `tagd try`: a terminal tag field that drives a tagd child over pipes
    .target(
      name: "TagTerminal",
      dependencies: [
        "Spawn",
        "JSONRPC",
        "TagCore",
      ]
    ),
    .testTarget(
      name: "TagTerminalTests",
      dependencies: ["TagTerminal"]
    ),

    // MARK: VaultFiles — the only code that touches the notes' files: walk, parallel read,
    // size limit, UTF-8 check, symlink policy, inotify watcher, atomic write
    .target(name: "VaultFiles"),
    .testTarget(
      name: "VaultFilesTests",
      dependencies: [
        "TagTestSupport",
        "VaultFiles",
      ]
    ),

    // MARK: VaultCommands — `tagd tags|check|rename` (SPEC §6f): TagCore's vault rules on
    // the files VaultFiles reads and writes
    .target(
      name: "VaultCommands",
      dependencies: [
        "JSONRPC",
        "TagCore",
        "VaultFiles",
      ]
    ),

    // MARK: tagd — the executable: flags, stdio loop, stdout protection
    .executableTarget(
      name: "tagd",
      dependencies: [
        "JSONRPC",
        "TagCore",
        "TagServer",
        "TagTerminal",
        "VaultCommands",
        "VaultFiles",
      ],
      // Start-up is a product goal: a fully static executable spares the dynamic loader every
      // library (measured in BENCHMARKS.md; reasons in ARCHITECTURE.md "Performance"). Release
      // only: the debug test bundle links tagd's objects with XCTest, which needs shared ones.
      linkerSettings: [.unsafeFlags(["-static-executable"], .when(configuration: .release))]
    ),

    // MARK: tagdTests — the executable's own logic (the flag table), in-process
    .testTarget(
      name: "tagdTests",
      dependencies: [
        "JSONRPC",
        "TagServer",
        "TagTerminal",
        "TagTestSupport",
        "VaultCommands",
        "tagd",
      ]
    ),

    // MARK: tagd-bench — the benchmark command: spawns the release tagd, writes BENCHMARKS.md
    .executableTarget(
      name: "tagd-bench",
      dependencies: ["Spawn", "JSONRPC"]
    ),
    // MARK: TagFuzz — libFuzzer harness over the whole input path; built with the fuzzer runtime
    // only by Tests/Fuzz/run, a plain build replays inputs (see Tests/Fuzz/README.md)
    .executableTarget(
      name: "TagFuzz",
      dependencies: [
        "JSONRPC",
        "TagServer",
      ]
    ),
    .testTarget(
      name: "EndToEndTests",
      dependencies: [
        "JSONRPC",
        "TagTestSupport",
        "tagd",
      ]
    ),
  ]
)

// Memory safety is checked by the compiler outside the byte layer: in these modules every
// unsafe construct (a pointer, an unchecked subscript or load) is a warning, and CI fails on
// warnings. Raw bytes reach them as `Span`s lent by JSONRPC. (`@unchecked Sendable` is not
// flagged; the one left, TagPattern's box of an immutable Regex, carries no pointer.)
let memorySafe: Set<String> = ["TagCore", "TagProtocol", "TagServer"]

// Release builds optimize across modules: each layer is its own module, and without this a
// generic of one called from the next runs unspecialized (the phrasebook writing a reply's
// announcement through `PhraseSink` witnesses, ~650 instructions a duplicate). Measured with `tagd-bench --instructions --quick`: every workload
// fell (keystroke 6,092 -> 6,078, sync 8,916 -> 8,799), replies byte-identical.
let optimizeAcrossModules: [SwiftSetting] = [
  .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))
]

for target in package.targets {
  target.swiftSettings =
    (target.swiftSettings ?? []) + settings
    + (memorySafe.contains(target.name) ? [.strictMemorySafety()] : [])
    + optimizeAcrossModules
}
