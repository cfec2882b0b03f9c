import JSONRPC
import TagTestSupport
import Testing

/// Every documented limit (Protocol/limits.md), set by its flag, hit over real pipes: the
/// documented error or outcome, then the daemon keeps serving.
@Suite struct LimitsEndToEndTests {
  /// The dropped candidates of a field-state reply, as (text, reason, limit).
  private func dropped(_ object: JSONObject?) -> [(String, String, Int64?)] {
    guard case .object(let result)? = object?["result"],
      case .object(let outcome)? = result["outcome"],
      case .array(let items)? = outcome["dropped"]
    else { return [] }
    return items.compactMap { item in
      guard case .object(let drop) = item, case .string(let text)? = drop["text"],
        case .string(let reason)? = drop["reason"]
      else { return nil }
      if case .integer(let limit)? = drop["limit"] { return (text, reason, limit) }
      return (text, reason, nil)
    }
  }

  @Test func limitsAreReportedInInitialize() throws {
    let run = try session(
      [initialize],
      arguments: [
        "--max-message-bytes=1000", "--max-depth=7", "--max-sessions=3", "--max-tags=4",
        "--max-tag-length=5", "--max-field-bytes=600",
      ]
    )
    guard case .object(let result)? = reply(run.replies, id: 0)?["result"],
      case .object(let capabilities)? = result["capabilities"],
      case .object(let limits)? = capabilities["limits"]
    else {
      Issue.record("no limits in \(run.replies)")
      return
    }
    #expect(limits["maxMessageBytes"] == .integer(1000))
    #expect(limits["maxDepth"] == .integer(7))
    #expect(limits["maxSessions"] == .integer(3))
    #expect(limits["maxTags"] == .integer(4))
    #expect(limits["maxTagLength"] == .integer(5))
    #expect(limits["maxFieldBytes"] == .integer(600))
  }

  @Test func nestingDepth() throws {
    let deep =
      #"{"jsonrpc":"2.0","id":5,"method":"field/state","params":{"field":"f","x":[[[[]]]]}}"#
    let run = try session([initialize, deep, Requests.state(6)], arguments: ["--max-depth=4"])
    let codes = run.replies.flatMap(errorCodes)
    #expect(codes == [-32700, -32010], "\(run.replies)")
    #expect(run.replies.contains { $0.contains("nesting deeper than 4") })
  }

  @Test func openSessions() throws {
    let run = try session(
      [
        initialize, Requests.open(1, field: "a"), Requests.open(2, field: "b"),
        Requests.open(3, field: "c"),
        Requests.close(4, field: "a"), Requests.open(5, field: "c"),
      ],
      arguments: ["--max-sessions=2"]
    )
    #expect(errorCode(reply(run.replies, id: 3)) == -32012)
    #expect(run.replies.contains { $0.contains("--max-sessions") })
    #expect(reply(run.replies, id: 5)?["result"] != nil, "a closed session frees its slot")
  }

  @Test func tagsPerFieldAndTagLength() throws {
    let run = try session(
      [initialize, Requests.open(1, field: "f"), Requests.change(2, text: "a,b,c,toolong,")],
      arguments: ["--max-tags=2", "--max-tag-length=5"]
    )
    let drops = dropped(reply(run.replies, id: 2))
    #expect(drops.map(\.0) == ["c", "toolong"], "\(run.replies)")
    #expect(drops.map(\.1) == ["tooMany", "tooLong"])
    #expect(drops.map(\.2) == [2, 5])
  }

  @Test func bytesPerField() throws {
    let big = String(repeating: "x", count: 80)
    let run = try session(
      [
        initialize, Requests.open(1, field: "f", tags: ["abc"]),
        Requests.change(2, text: big + "," + big),  // 3 + 80 + 80 > 100: refused
        Requests.state(3),
        Requests.change(4, text: big),  // 3 + 80: fits
        #"{"jsonrpc":"2.0","id":5,"method":"field/open","params":{"field":"g","text":"\#(big)\#(big)"}}"#,
        #"{"jsonrpc":"2.0","id":6,"method":"field/addTags","params":{"field":"f","tags":["\#(big)"]}}"#,
      ],
      arguments: ["--max-field-bytes=100"]
    )
    #expect(errorCode(reply(run.replies, id: 2)) == -32012, "\(run.replies)")
    #expect(run.replies.contains { $0.contains("--max-field-bytes") })
    guard case .object(let state)? = reply(run.replies, id: 3)?["result"] else {
      Issue.record("no state")
      return
    }
    #expect(state["version"] == .integer(1), "the refused change changed nothing")
    #expect(state["tags"] == .array([.string("abc")]))
    #expect(reply(run.replies, id: 4)?["result"] != nil)
    #expect(errorCode(reply(run.replies, id: 5)) == -32012, "open over the limit opens nothing")
    #expect(errorCode(reply(run.replies, id: 6)) == -32012)
  }

  /// `--max-field-bytes` holds on the sync path too: a `field/didChange` that would take the
  /// field past it changes nothing in the field, and its `field/didUpdate` says why and asks the
  /// client to take the text back out of its buffer.
  @Test func bytesPerSyncedField() throws {
    let big = String(repeating: "x", count: 1500)
    func insert(_ version: Int, at character: Int, _ text: String) -> String {
      let position = #"{"line":0,"character":\#(character)}"#
      return
        #"{"jsonrpc":"2.0","method":"field/didChange","params":{"field":"s","version":\#(version),"contentChanges":[{"range":{"start":\#(position),"end":\#(position)},"text":"\#(text)"}]}}"#
    }
    let run = try session(
      [
        initialize,
        #"{"jsonrpc":"2.0","id":1,"method":"field/open","params":{"field":"s","sync":{"version":1}}}"#,
        insert(2, at: 0, big),
        insert(3, at: 1500, big),
        insert(4, at: 3000, "ab"),
        #"{"jsonrpc":"2.0","id":5,"method":"field/state","params":{"field":"s"}}"#,
      ],
      arguments: ["--max-field-bytes=1000"]
    )
    let updates = run.replies.compactMap(JSONCompare.parse).compactMap { value -> JSONObject? in
      guard case .object(let message) = value, message["method"] == .string("field/didUpdate"),
        case .object(let params)? = message["params"]
      else { return nil }
      return params
    }
    let refusals = updates.filter { $0["error"] != nil }
    #expect(refusals.count == 2, "one update per refused change: \(run.replies)")
    for update in refusals {
      #expect(errorCode(update) == -32012, "\(update)")
      #expect(update["text"] == .string(""), "the draft did not take the text")
      guard case .array(let edits)? = update["edits"] else {
        Issue.record("no edits in \(update)")
        continue
      }
      #expect(!edits.isEmpty, "the update takes the refused text out of the buffer")
    }
    #expect(run.replies.contains { $0.contains("--max-field-bytes") })
    guard case .object(let state)? = reply(run.replies, id: 5)?["result"] else {
      Issue.record("no state in \(run.replies)")
      return
    }
    #expect(state["text"] == .string("ab"), "what fits is taken: \(state)")
  }

  @Test func headerBlockSize() throws {
    let child = try spawnTagd(["--framing=content-length", "--max-header-bytes=100"])
    child.write(
      frame(initialize, .contentLength)
        + Array("X-Pad: \(String(repeating: "p", count: 200))\r\n".utf8)
        + frame(Requests.state(6), .contentLength)
    )
    #expect(child.finish() == 1)
    let replies = splitFrames(child.stdout, framing: .contentLength)
    #expect(replies.flatMap(errorCodes) == [-32700, -32010], "\(replies)")
    #expect(replies.contains { $0.contains("header block longer than 100 bytes") })
  }
}
