import JSONRPC
import TagCore
import TagTestSupport
import Testing

/// The editor-sync guarantee over the real binary and real pipes: keystrokes are written as
/// they happen, replies are read whenever they happen to have arrived.
@Suite struct SyncEndToEndTests {
  /// Seeds 11–15 type, paste, Backspace and Return; 21–26 add undo, redo and chip edits, moves
  /// and removals, in each Backspace mode (SPEC §6).
  @Test(arguments: [UInt64(11), 12, 13, 14, 15, 21, 22, 23, 24, 25, 26])
  func burstsOverPipesMatchSlowTyping(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let features = seed > 20
    let mode = features ? BackspaceMode.allCases[Int(seed % 3)] : .remove
    let keys = randomKeystrokes(count: 60, features: features, using: &random)
    let child = try spawnTagd(["--framing=ndjson"])
    var editor = ModelEditor(field: "e2e", backspace: mode)
    var consumed = 0
    func send(_ bodies: [String]) {
      for body in bodies { child.write(frame(body, .newlineDelimited)) }
    }
    func deliverArrived() {
      let bodies = splitFrames(child.stdout, framing: .newlineDelimited)
      while consumed < bodies.count {
        editor.receive(bodies[consumed])
        consumed += 1
      }
      send(editor.outgoing)
      editor.outgoing.removeAll()
    }
    send([initialize, editor.openMessage])
    for key in keys {
      editor.press(key)
      send(editor.outgoing)
      editor.outgoing.removeAll()
      if Int.random(in: 0..<3, using: &random) == 0 {
        child.pump(timeoutMilliseconds: 0)
        deliverArrived()
      }
    }
    // Settle: ask for the state until a round trip brings no new client message.
    var state: JSONObject?
    for round in 0..<50 {
      let marker = 50_000 + round
      send([#"{"jsonrpc":"2.0","id":\#(marker),"method":"field/state","params":{"field":"e2e"}}"#])
      _ = child.waitFor {
        splitFrames($0, framing: .newlineDelimited).contains { $0.contains("\"id\":\(marker)") }
      }
      let before = editor.version
      deliverArrived()
      if editor.version == before {
        state = reply(splitFrames(child.stdout, framing: .newlineDelimited), id: Int64(marker))
        break
      }
    }
    let expected = slowTypingResult(keys, backspace: mode)
    guard case .object(let result)? = state?["result"] else {
      Issue.record("no settled state for seed \(seed)")
      return
    }
    #expect(result["tags"] == .array(expected.tags.map(JSONValue.string)), "seed \(seed): \(keys)")
    #expect(result["text"] == .string(expected.draft), "seed \(seed)")
    #expect(editor.buffer == expected.draft, "seed \(seed): buffer")
    #expect(editor.problems.isEmpty, "\(editor.problems)")
    #expect(child.finish() == 1)
  }

  /// Typing into a synced field clears a selected chip (SPEC §6); the client draws the chip as
  /// selected until tagd says otherwise, so that keystroke is answered with a `field/didUpdate`
  /// carrying no `selected`.
  @Test func typingThatClearsTheSelectionIsPushed() throws {
    let edit =
      #"{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"text":"x"}"#
    let (replies, _, _, _) = try session([
      initialize,
      #"{"jsonrpc":"2.0","id":1,"method":"field/open","params":{"field":"s","tags":["a","b"],"sync":{"version":1}}}"#,
      #"{"jsonrpc":"2.0","id":2,"method":"field/select","params":{"field":"s","index":1}}"#,
      #"{"jsonrpc":"2.0","method":"field/didChange","params":{"field":"s","version":2,"contentChanges":[\#(edit)]}}"#,
      #"{"jsonrpc":"2.0","id":3,"method":"field/state","params":{"field":"s"}}"#,
    ])
    let selectedFirst = try #require(reply(replies, id: 2)?["result"])
    guard case .object(let selectedState) = selectedFirst else { throw Unexpected() }
    #expect(selectedState["selected"] == .integer(1))
    guard case .object(let state)? = reply(replies, id: 3)?["result"] else { throw Unexpected() }
    #expect(state["selected"] == nil, "the core cleared the selection: \(state)")
    #expect(state["text"] == .string("x"))
    let selectAt = try #require(replies.firstIndex { $0.contains(#""id":2,"#) })
    let stateAt = try #require(replies.firstIndex { $0.contains(#""id":3,"#) })
    let updates = replies[(selectAt + 1)..<stateAt].filter { $0.contains("field/didUpdate") }
    #expect(updates.count == 1, "one field/didUpdate after the keystroke: \(replies)")
    #expect(updates.allSatisfy { !$0.contains(#""selected""#) }, "\(updates)")
  }

  /// A `field/didChange` tagd cannot take is never dropped in silence: the client gets a
  /// `field/didUpdate` asking for its whole text, with the reason (issue 33 item 3).
  @Test(arguments: [
    // A misspelled member.
    (#""version":2,"contentChange":[{"text":"x"}]"#, "`contentChange` is not a known member"),
    // A wrong type.
    (#""version":"2","contentChanges":[{"text":"x"}]"#, "`version`"),
    // A repeated version.
    (#""version":1,"contentChanges":[{"text":"x"}]"#, "`version` 1 is not after 1"),
  ])
  func aChangeNotTakenAsksForTheWholeText(params: String, reason: String) throws {
    let (replies, _, _, _) = try session([
      initialize,
      #"{"jsonrpc":"2.0","id":1,"method":"field/open","params":{"field":"s","text":"ab","sync":{"version":1}}}"#,
      #"{"jsonrpc":"2.0","method":"field/didChange","params":{"field":"s",\#(params)}}"#,
      #"{"jsonrpc":"2.0","method":"field/didChange","params":{"field":"s","version":5,"contentChanges":[{"text":"abc"}]}}"#,
      #"{"jsonrpc":"2.0","id":2,"method":"field/state","params":{"field":"s"}}"#,
    ])
    let updates = replies.filter { $0.contains("field/didUpdate") }
    #expect(updates.count == 1, "\(replies)")
    guard case .object(let message)? = updates.first.flatMap(JSONCompare.parse),
      case .object(let update)? = message["params"]
    else { throw Unexpected() }
    #expect(update["resync"] == .bool(true), "\(update)")
    #expect(update["version"] == .integer(1), "the last version taken")
    guard case .object(let error)? = update["error"], case .string(let text)? = error["message"]
    else {
      Issue.record("no error in \(update)")
      return
    }
    #expect(error["code"] == .integer(-32602))
    #expect(text.contains(reason), "\(text)")
    // The whole text, sent as asked, is taken.
    guard case .object(let state)? = reply(replies, id: 2)?["result"] else { throw Unexpected() }
    #expect(state["text"] == .string("abc"), "\(state)")
  }
}

/// A reply that is not the expected shape.
private struct Unexpected: Error {}
