import JSONRPC
import TagCore
import TagServer
import TagTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The guarantee of Protocol/sync.md, checked by simulation: a model editor types random
/// keystrokes while messages in both directions are delayed and delivered at random points;
/// the end state must equal the same keystrokes typed slowly.
///
/// `TAGD_SIM_RUNS` sets the number of runs (default 2,000, or 10,000 with `TAGD_SLOW_TESTS=1`:
/// ``simulationRuns``); `TAGD_SIM_SEED=N` replays one run.
@Suite struct SyncSimulationTests {
  static var runs: Int {
    getenv("TAGD_SIM_RUNS").flatMap { Int(String(cString: $0)) } ?? simulationRuns
  }

  /// The runs are split into `chunks` slices of consecutive seeds so that the test runner
  /// spreads them over the cores; together they are seeds 1…runs, as before.
  static let chunks = 8

  @Test(arguments: 0..<chunks)
  func randomRunsMatchSlowTyping(chunk: Int) {
    if let seed = getenv("TAGD_SIM_SEED").flatMap({ UInt64(String(cString: $0)) }) {
      if chunk == 0 { #expect(simulate(seed: seed) == nil) }
      return
    }
    let runs = (Self.runs * chunk / Self.chunks)..<(Self.runs * (chunk + 1) / Self.chunks)
    var failures: [String] = []
    for seed in runs.lazy.map({ UInt64($0 + 1) }) {
      if let failure = simulate(seed: seed) {
        failures.append(failure)
        if failures.count >= 3 { break }
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }

  /// Slow typing through the same machinery (every message delivered at once) also matches.
  @Test(arguments: ModelEditor.Reporting.allCases)
  func lockstepDeliveryMatchesSlowTyping(reporting: ModelEditor.Reporting) {
    var random = SplitMix64(seed: 77)
    for _ in 0..<200 {
      let keys = randomKeystrokes(count: 25, features: true, using: &random)
      let result = run(keys, seed: 0, lockstep: true, reporting: reporting)
      let expected = slowTypingResult(keys)
      #expect(result.tags == expected.tags && result.buffer == expected.draft, "\(keys)")
    }
  }

  /// A Backspace that reaches committed text the client has not yet deleted removes the last
  /// tag, as it would have on the empty buffer a slow typist sees.
  @Test func backspaceOnConsumedTextRemovesTheLastTag() {
    let keys: [Keystroke] = [.type("red"), .type(","), .backspace, .type("x")]
    let result = run(keys, seed: 0, lockstep: false, deliverEarly: false)
    #expect(result.tags == [])
    #expect(result.buffer == "x")
    #expect(slowTypingResult(keys).tags == [])
  }

  /// Returns a description of the mismatch, or nil when the run matches slow typing.
  func simulate(seed: UInt64) -> String? {
    var random = SplitMix64(seed: seed)
    let keys = randomKeystrokes(
      count: Int.random(in: 1...40, using: &random),
      features: true,
      using: &random
    )
    let mode = BackspaceMode.allCases[Int(seed % 3)]
    let reporting = ModelEditor.Reporting.allCases[Int(seed / 3 % 3)]
    let result = run(keys, seed: seed, lockstep: false, backspace: mode, reporting: reporting)
    let expected = slowTypingResult(keys, backspace: mode)
    guard result.tags == expected.tags, result.buffer == expected.draft,
      result.serverDraft == expected.draft,
      result.problems.isEmpty
    else {
      return """
        seed \(seed) backspace \(mode) reporting \(reporting) (replay: TAGD_SIM_SEED=\(seed) swift test --filter SyncSimulationTests): keys \(keys)
          got tags \(result.tags) buffer \(result.buffer.debugDescription) server draft \(result.serverDraft.debugDescription)
          want tags \(expected.tags) draft \(expected.draft.debugDescription) problems \(result.problems)
        """
    }
    return nil
  }

  struct Outcome {
    var tags: [String]
    var buffer: String
    var serverDraft: String
    var problems: [String]
  }

  /// Drives an in-process server and a model editor with order-preserving queues in both
  /// directions, delivering at random points (or at once, in lockstep).
  func run(
    _ keys: [Keystroke],
    seed: UInt64,
    lockstep: Bool,
    deliverEarly: Bool = true,
    backspace: BackspaceMode = .remove,
    reporting: ModelEditor.Reporting = .ranges
  ) -> Outcome {
    var random = SplitMix64(seed: seed &* 0x9E37_79B9 &+ 1)
    var server = Server()
    var outbox = Outbox()
    var editor = ModelEditor(field: "sim", backspace: backspace, reporting: reporting)
    var toServer: [String] = [
      #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"capabilities":{}}}"#,
      editor.openMessage,
    ]
    var toClient: [String] = []
    func deliverToServer() {
      let body = toServer.removeFirst()
      server.handle(.message(Array(body.utf8)), into: &outbox)
      toClient += outbox.texts
      outbox.clear()
    }
    func deliverToClient() {
      editor.receive(toClient.removeFirst())
      toServer += editor.outgoing
      editor.outgoing.removeAll()
    }
    var pending = keys[...]
    while let key = pending.first {
      let roll = lockstep ? 0 : Int.random(in: 0..<4, using: &random)
      if roll == 0 || (!deliverEarly && true) {
        editor.press(key)
        pending.removeFirst()
        toServer += editor.outgoing
        editor.outgoing.removeAll()
        if lockstep {
          while !toServer.isEmpty || !toClient.isEmpty {
            while !toServer.isEmpty { deliverToServer() }
            while !toClient.isEmpty { deliverToClient() }
          }
        }
      } else if roll == 1, !toServer.isEmpty {
        deliverToServer()
      } else if roll >= 2, !toClient.isEmpty {
        deliverToClient()
      }
    }
    while !toServer.isEmpty || !toClient.isEmpty {
      if !toServer.isEmpty && (toClient.isEmpty || Bool.random(using: &random)) {
        deliverToServer()
      } else {
        deliverToClient()
      }
    }
    var state = Outbox()
    server.handle(
      .message(
        Array(#"{"jsonrpc":"2.0","id":9999,"method":"field/state","params":{"field":"sim"}}"#.utf8)
      ),
      into: &state
    )
    var serverDraft = "?"
    var tags: [String] = ["?"]
    if case .object(let reply)? = JSONCompare.parse(
      state.texts[0]
    ),
      case .object(let result)? = reply["result"]
    {
      if case .string(let text)? = result["text"] { serverDraft = text }
      if case .array(let items)? = result["tags"] {
        tags = items.compactMap { if case .string(let s) = $0 { s } else { nil } }
      }
    }
    return Outcome(
      tags: tags,
      buffer: editor.buffer,
      serverDraft: serverDraft,
      problems: editor.problems
    )
  }
}
