import JSONRPC

/// Everything one benchmark run needs: where the binaries are and how much to do.
struct Bench {
  /// The release `tagd` next to this executable.
  let tagd: String
  /// This executable (re-run with `--responder` as the floor).
  let bench: String
  /// The Node.js peer (`bench/peer/field-peer.js`) and the `node` to run it, when both exist.
  let peer: (node: String, script: String)?
  /// The compiled C reference (``CReference``), when this run has one.
  let reference: String?
  /// A smoke run: fewer and smaller measurements.
  let quick: Bool
  /// Progress lines go to stderr.
  let progress: (String) -> Void

  /// How many timed runs each figure takes (after one warm-up).
  var runs: Int { quick ? 1 : 5 }

  /// Spawns tagd and initializes it (reply verified).
  func startTagd() throws(BenchError) -> Child {
    let child = try Child(path: tagd)
    try initialize(child, expectName: "tagd")
    return child
  }

  /// Spawns the do-nothing responder and initializes it.
  func startFloor() throws(BenchError) -> Child {
    let child = try Child(path: bench, arguments: ["--responder"])
    try initialize(child, expectName: nil)
    return child
  }

  /// Spawns the Node.js peer and initializes it.
  func startPeer() throws(BenchError) -> Child {
    guard let peer else { throw BenchError("no Node.js peer") }
    let child = try Child(path: peer.node, arguments: [peer.script])
    try initialize(child, expectName: "field-peer")
    return child
  }

  /// Spawns the C reference and initializes it.
  func startReference() throws(BenchError) -> Child {
    guard let reference else { throw BenchError("no C reference") }
    let child = try Child(path: reference)
    try initialize(child, expectName: "field-ref")
    return child
  }

  /// The servers a comparison runs, in the order of each round.
  var servers: [ServerKind] {
    [.tagd, .floor] + (peer == nil ? [] : [.peer]) + (reference == nil ? [] : [.reference])
  }

  /// Spawns and initializes one of the servers.
  func start(_ kind: ServerKind) throws(BenchError) -> Child {
    switch kind {
    case .tagd: try startTagd()
    case .floor: try startFloor()
    case .peer: try startPeer()
    case .reference: try startReference()
    }
  }

  /// Sends `initialize` and checks the reply (`serverInfo.name` when `expectName` is given).
  func initialize(_ child: Child, expectName: String?) throws(BenchError) {
    var writer = FrameWriter()
    writer.append(Workloads.initialize(id: 0))
    let before = child.frames.count
    try child.exchange(writer.bytes, untilFrames: before + 1)
    try Verify.replies(child, frames: before..<(before + 1), ids: 0..<1) { _, result in
      guard let expectName else { return nil }
      return result["serverInfo"]?["name"] == .string(expectName)
        ? nil : "not tagd's initialize result"
    }
  }

  /// Sends one request and waits for its verified reply; returns the round trip in ms.
  @discardableResult
  func call(
    _ child: Child,
    id: Int,
    method: String,
    params: String,
    check: (JSONValue) -> String? = { _ in nil }
  ) throws(BenchError) -> Double {
    var writer = FrameWriter()
    writer.request(id: id, method: method, params: params)
    let before = child.frames.count
    let start = Clock.nanoseconds()
    try child.exchange(writer.bytes, untilFrames: before + 1)
    let elapsed = Double(Clock.nanoseconds() - start) / 1e6
    try Verify.replies(child, frames: before..<(before + 1), ids: id..<(id + 1)) { _, result in
      check(result)
    }
    return elapsed
  }
}

/// The servers measured side by side: tagd, the do-nothing floor, the Node.js peer and the C
/// reference.
enum ServerKind {
  case tagd
  case floor
  case peer
  case reference

  /// What a parity failure calls it.
  var name: String {
    switch self {
    case .tagd: "tagd"
    case .floor: "the floor"
    case .peer: "the Node.js peer"
    case .reference: "the C reference"
    }
  }
}
