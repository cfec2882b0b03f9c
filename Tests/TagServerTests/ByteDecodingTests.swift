import JSONRPC
import TagProtocol
import TagTestSupport
import Testing

@testable import TagServer

/// Single calls decoded from bytes answer exactly as the JSONValue path does.
///
/// Everything must come out exactly as the JSONValue path gives it: the same replies (results and errors, byte for byte), the same
/// logs, the same exit. Every transcript is replayed both ways, and at every step variants of
/// the message (params members renamed, dropped, repeated, escaped, given every kind of value)
/// are sent to copies of both servers.
@Suite struct ByteDecodingTests {
  static let transcripts: [Transcript] = (try? Files.transcripts()) ?? []

  /// What handling `body` writes and logs, in server `server` (which moves on).
  static func outcome(_ server: inout Server, _ body: String) -> [String] {
    outcome(&server, Array(body.utf8))
  }

  /// What handling `body` writes and logs.
  static func outcome(_ server: inout Server, _ body: [UInt8]) -> [String] {
    var outbox = Outbox()
    server.handle(.message(body), into: &outbox)
    return outbox.messages.map { String(decoding: $0, as: UTF8.self) }
      + outbox.logs.map { "log \($0.level): \($0.message)" }
      + ["exit \(outbox.exitCode.map(String.init) ?? "-")"]
  }

  /// Variants of one sent body: its params members changed one at a time.
  static func variants(of body: String) -> [String] {
    guard case .object(let message)? = try? JSONReader.parse(Array(body.utf8)),
      case .object(let params)? = message["params"]
    else { return [] }
    func with(_ members: [JSONMember]) -> String {
      var copy = message
      copy.members = copy.members.map {
        $0.key == "params" ? JSONMember("params", .object(JSONObject(members))) : $0
      }
      var writer = JSONWriter()
      writer.value(.object(copy))
      return String(decoding: writer.bytes, as: UTF8.self)
    }
    let values: [JSONValue] = [
      .null, .integer(1), .integer(-1), .double(1.5), .double(-0.0), .string("s"), .string(""),
      .bool(true), .array([]), .object(JSONObject()), .array([.integer(1)]),
      .array([.object(JSONObject([JSONMember("width", .integer(3))]))]),
      .object(JSONObject([JSONMember("a", .integer(1))])),
    ]
    var result: [String] = []
    for (index, member) in params.members.enumerated() {
      var members = params.members
      members[index].key += "x"
      result.append(with(members))
      members = params.members
      members.remove(at: index)
      result.append(with(members))
      members = params.members
      members.append(member)
      result.append(with(members))
      for value in values {
        members = params.members
        members[index].value = value
        result.append(with(members))
      }
    }
    // A key with an escape, and the params as an array and as null.
    if let first = params.members.first {
      let text = with(params.members)
      let escaped = text.replacingFirst(
        "\"\(first.key)\":",
        with: "\"\\u00\(hex(first.key.utf8.first ?? 0x61))\(first.key.dropFirst())\":"
      )
      result.append(escaped)
    }
    return result
  }

  static func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16)
    return digits.count == 1 ? "0" + digits : digits
  }

  @Test(arguments: transcripts.map(\.name))
  func bytesAndTreeAnswerAlike(name: String) throws {
    let transcript = try #require(Self.transcripts.first { $0.name == name })
    var fast = Server()
    var slow = Server()
    slow.decodesFromBytes = false
    var compared = 0
    for send in transcript.sends {
      for variant in Self.variants(of: send) {
        var fastCopy = fast
        var slowCopy = slow
        let got = Self.outcome(&fastCopy, variant)
        let want = Self.outcome(&slowCopy, variant)
        #expect(got == want, "\(name): \(variant)")
        compared += 1
      }
      #expect(Self.outcome(&fast, send) == Self.outcome(&slow, send), "\(name): \(send)")
    }
    #expect(compared > 0 || transcript.sends.allSatisfy { !$0.contains("\"params\":{\"") })
  }
}

extension ByteDecodingTests {
  /// The public JSON suite's documents (empty where it is not beside the checkout).
  static let suite: [[UInt8]] = JSONTestSuite.names.map { JSONTestSuite.bytes($0) }

  /// Every suite document as a whole message, and inside a request as a params member's value
  /// (where the byte path scans it), answers alike both ways.
  @Test(.enabled(if: JSONTestSuite.isPresent, Comment(rawValue: JSONTestSuite.absentReason)))
  func theJSONSuiteAnswersAlike() {
    #expect(Self.suite.count >= 318)
    var fast = Server()
    var slow = Server()
    slow.decodesFromBytes = false
    let open = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#
    #expect(Self.outcome(&fast, open) == Self.outcome(&slow, open))
    for document in Self.suite {
      let text = String(decoding: document, as: UTF8.self)
      let bodies = [
        document,
        Array(#"{"jsonrpc":"2.0","id":7,"method":"field/open","params":{"field":"#.utf8) + document
          + Array("}}".utf8),
        Array(#"{"jsonrpc":"2.0","id":8,"method":"field/open","params":"#.utf8) + document
          + Array("}".utf8),
        Array(#"{"jsonrpc":"2.0","method":"field/didChange","params":{"x":"#.utf8) + document
          + Array("}}".utf8),
      ]
      for body in bodies {
        var fastCopy = fast
        var slowCopy = slow
        #expect(
          Self.outcome(&fastCopy, body) == Self.outcome(&slowCopy, body),
          "\(text.prefix(80))"
        )
      }
    }
  }
}

extension String {
  /// The text with the first occurrence of `target` replaced (byte-wise; no Foundation).
  fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
    let bytes = Array(utf8)
    let needle = Array(target.utf8)
    guard needle.count <= bytes.count else { return self }
    for start in 0...(bytes.count - needle.count)
    where Array(bytes[start..<(start + needle.count)]) == needle {
      let result =
        Array(bytes[..<start]) + Array(replacement.utf8) + Array(bytes[(start + needle.count)...])
      return String(decoding: result, as: UTF8.self)
    }
    return self
  }
}

extension ByteDecodingTests {
  /// Content changes in every shape the byte reader takes or refuses (nested members missing,
  /// repeated, misspelt, escaped, of the wrong kind) answer as the element-by-element reading
  /// does, on the sync path and in `field/change`.
  @Test func contentChangesAnswerAlike() {
    let position = #"{"line":0,"character":1}"#
    let range = #"{"start":\#(position),"end":\#(position)}"#
    let changes = [
      #"[]"#, #"[{"text":"a"}]"#, #"[{"range":\#(range),"text":"b"}]"#,
      #"[{"range":\#(range),"rangeLength":0,"text":"c"}]"#,
      #"[{"text":"d","range":\#(range)},{"text":"e"}]"#,
      #"[{"range":\#(range),"rangeLength":null,"text":"f"}]"#,
      #"[{"range":\#(range),"rangeLength":-1,"text":"g"}]"#,
      #"[{"range":\#(range),"rangeLength":1.5,"text":"h"}]"#,
      #"[{"range":{"start":{"line":0,"character":1.0},"end":\#(position)},"text":"i"}]"#,
      #"[{"range":{"start":{"line":-1,"character":0},"end":\#(position)},"text":"j"}]"#,
      #"[{"range":{"start":{"line":0},"end":\#(position)},"text":"k"}]"#,
      #"[{"range":{"start":\#(position)},"text":"l"}]"#,
      #"[{"range":{"start":\#(position),"end":\#(position),"x":1},"text":"m"}]"#,
      #"[{"range":\#(range),"text":"n","text":"o"}]"#,
      #"[{"range":\#(range),"range":\#(range),"text":"p"}]"#,
      #"[{"range":\#(range)}]"#, #"[{"text":1}]"#, #"[{"text":null}]"#, #"[{"txt":"q"}]"#,
      #"[{"\u0074ext":"r"}]"#, #"[{"text":"s\u00e9\n"}]"#, #"[1]"#, #"[null]"#, #"{}"#,
      #"[{"range":null,"text":"t"}]"#,
      #"[{"range":{"start":{"line":0,"character":99},"end":\#(position)},"text":"u"}]"#,
      #"[{"range":{"start":{"line":0,"character":1,"line":0},"end":\#(position)},"text":"v"}]"#,
      // Range-less with the caret (the Emacs front end's shape), and its wrong spellings.
      #"[{"text":"abw","caret":{"line":0,"character":2}}]"#,
      #"[{"text":"abx","caret":\#(position),"range":\#(range)}]"#,
      #"[{"text":"y","range":\#(range),"caret":\#(position)}]"#,
      #"[{"text":"abz","caret":{"line":0}}]"#,
      #"[{"text":"ab","caret":{"line":0,"character":-1}}]"#,
      #"[{"text":"ab","caret":{"line":0,"character":9}}]"#, #"[{"text":"ab","caret":null}]"#,
    ]
    let initialize = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#
    let openSynced =
      #"{"jsonrpc":"2.0","id":2,"method":"field/open","params":{"field":"s","text":"ab","sync":{"version":1}}}"#
    let openPlain =
      #"{"jsonrpc":"2.0","id":3,"method":"field/open","params":{"field":"p","text":"ab"}}"#
    var fast = Server()
    var slow = Server()
    slow.decodesFromBytes = false
    for setup in [initialize, openSynced, openPlain] {
      #expect(Self.outcome(&fast, setup) == Self.outcome(&slow, setup))
    }
    for edits in changes {
      let bodies = [
        #"{"jsonrpc":"2.0","method":"field/didChange","params":{"field":"s","version":2,"contentChanges":\#(edits)}}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"field/change","params":{"field":"p","version":1,"changes":\#(edits)}}"#,
        #"{"jsonrpc":"2.0","id":5,"method":"field/change","params":{"field":"p","version":"x","changes":\#(edits)}}"#,
      ]
      for (body, field) in zip(bodies, ["s", "p", "p"]) {
        // The answer, and then what the field holds.
        let state =
          #"{"jsonrpc":"2.0","id":9,"method":"field/state","params":{"field":"\#(field)"}}"#
        var fastCopy = fast
        var slowCopy = slow
        let got = Self.outcome(&fastCopy, body) + Self.outcome(&fastCopy, state)
        #expect(got == Self.outcome(&slowCopy, body) + Self.outcome(&slowCopy, state), "\(body)")
      }
    }
  }
}

extension ByteDecodingTests {
  /// Chip and cloud sizes in random spellings (integers, decimals of every length, exponents,
  /// negatives, either member order, whitespace) give the same layouts and errors on both paths.
  @Test func sizesAnswerAlike() {
    var random = SplitMix64(seed: 15)
    func number() -> String {
      switch random.next() % 9 {
      case 0: return "\(random.next() % 200)"
      case 1: return "\(random.next() % 200).\(random.next() % 1000)"
      case 2:
        return "0.\(String(repeating: "0", count: Int(random.next() % 6)))\(random.next() % 99 + 1)"
      case 3: return "\(random.next() % 1_000_000_000_000_000)"
      case 4: return "\(random.next() % 100)e\(random.next() % 3)"
      case 5: return "-\(random.next() % 50)"
      case 6: return "\(random.next() % 1000).\(random.next() % 1_000_000_000_000)"
      case 7: return "1.\(String(repeating: "0", count: 21))\(random.next() % 9 + 1)"
      default: return "\(random.next() % 90 + 10).5"
      }
    }
    func size() -> String {
      let (w, h) = (number(), number())
      switch random.next() % 6 {
      case 0: return #"{"height":\#(h),"width":\#(w)}"#
      case 1: return #"{ "width": \#(w), "height": \#(h) }"#
      case 2: return #"{"width":\#(w)}"#
      default: return #"{"width":\#(w),"height":\#(h)}"#
      }
    }
    var fast = Server()
    var slow = Server()
    slow.decodesFromBytes = false
    let setup = [
      #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
      #"{"jsonrpc":"2.0","id":2,"method":"field/open","params":{"field":"f","tags":["a","b","c"]}}"#,
      #"{"jsonrpc":"2.0","id":3,"method":"cloud/open","params":{"cloud":"c","tags":[{"title":"a"},{"title":"b"},{"title":"c"}]}}"#,
    ]
    for body in setup { #expect(Self.outcome(&fast, body) == Self.outcome(&slow, body)) }
    for _ in 0..<400 {
      let count = random.next() % 8 == 0 ? Int(random.next() % 5) : 3
      let sizes = "[" + (0..<count).map { _ in size() }.joined(separator: ",") + "]"
      for body in [
        #"{"jsonrpc":"2.0","id":4,"method":"field/layout","params":{"field":"f","width":300,"fieldHeight":20,"chipSizes":\#(sizes)}}"#,
        #"{"jsonrpc":"2.0","id":5,"method":"cloud/layout","params":{"cloud":"c","width":300,"sizes":\#(sizes)}}"#,
      ] {
        var fastCopy = fast
        var slowCopy = slow
        #expect(Self.outcome(&fastCopy, body) == Self.outcome(&slowCopy, body), "\(body)")
      }
    }
  }
}

extension ByteDecodingTests {
  /// Params that arrive as a tree (a batch's) are read in that tree, through the accessors the
  /// bytes take: not written back to JSON text and scanned again (which took the byte readers'
  /// shortcuts).
  @Test func treeParamsAreReadInPlace() throws {
    let params = try JSONReader.parse(
      Array(#"{"field":"f","version":2,"changes":[{"text":"a b"}],"x":{"y":true}}"#.utf8)
    )
    var error: ParamsError?
    let taken = FastPath.counting {
      do throws(ParamsError) {
        _ = try FieldChangeRequest.decode(params)
      } catch let refused {
        error = refused
      }
    }
    #expect(error?.description.contains("x") == true)
    #expect(taken.isEmpty, "byte readers ran on tree params: \(taken)")
  }
}

extension ByteDecodingTests {
  /// A range-less change's caret reaches the rule whichever reader takes it: deleting one of
  /// two commas with the caret between them tidies the text and keeps the tag, where without a
  /// caret it would be the Backspace at the end that removes it (Protocol/sync.md).
  @Test func theCaretReachesTheRuleOnBothReaders() {
    let bodies = [
      #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
      #"{"jsonrpc":"2.0","id":2,"method":"field/open","params":{"field":"s","sync":{"version":0}}}"#,
      #"{"jsonrpc":"2.0","method":"field/didChange","params":{"field":"s","version":1,"contentChanges":[{"text":"x,,"}]}}"#,
      #"{"jsonrpc":"2.0","method":"field/didChange","params":{"field":"s","version":2,"contentChanges":[{"text":"x,","caret":{"line":0,"character":1}}]}}"#,
      #"{"jsonrpc":"2.0","id":3,"method":"field/state","params":{"field":"s"}}"#,
    ]
    var fast = Server()
    var slow = Server()
    slow.decodesFromBytes = false
    var state = ""
    for body in bodies {
      let answer = Self.outcome(&fast, body)
      #expect(answer == Self.outcome(&slow, body), "\(body)")
      state = answer.first ?? ""
    }
    #expect(state.contains(#""tags":["x"]"#), "\(state)")
  }
}

extension ByteDecodingTests {
  /// `field/didChange`'s `contentChanges`, which the one pass decodes as it validates them
  /// (`FastPath.pulledDidChange`), answer alike both ways when they are not valid JSON deep
  /// inside, or not one value: acted on, dropped before `initialize`, sent with an id, as
  /// another member, to an unknown method, after the other members.
  @Test func unreadContentChangesAnswerAlike() {
    let position = #"{"line":0,"character":0}"#
    let range = #"{"start":\#(position),"end":\#(position)}"#
    let invalid = [
      #"[{"range":{"start":{"line":01,"character":0},"end":\#(position)},"text":"a"}]"#,
      #"[{"range":\#(range),"rangeLength":00,"text":"a"}]"#,
      "[{\"range\":\(range),\"text\":\"a\u{1}\"}]", "[{\"text\":\"a\t\"}]",
      #"[{"text":"a"}]]"#, #"[{"text":"a"},]"#, #"[{"text":"a"} {"text":"b"}]"#,
      #"[{"text":"a"}],"x":[1"#, #"[{"text":"a"}]},"id":5,"z":{"q":[1]"#,
      #"[{"text":"a"}],"x":[1]"#, #"[{"text":"a"}],"contentChanges":[{"text":"b"}]"#,
      #"[{"text":"a\u12"}]"#, #"[{"range":\#(range),"text":"a","text":tru}]"#,
      String(repeating: "[", count: 511) + String(repeating: "]", count: 511),
    ]
    func bodies(_ edits: [UInt8]) -> [[UInt8]] {
      [
        #"{"jsonrpc":"2.0","method":"field/didChange","params":{"field":"s","version":2,"contentChanges":"#,
        #"{"jsonrpc":"2.0","id":4,"method":"field/didChange","params":{"field":"s","contentChanges":"#,
        #"{"jsonrpc":"2.0","method":"field/didChange","params":{"field":"s","version":2,"x":"#,
        #"{"jsonrpc":"2.0","method":"field/didChang","params":{"field":"s","contentChanges":"#,
        #"{"jsonrpc":"2.0","method":"field/didChange","params":{"version":2,"field":"s","contentChanges":"#,
      ].flatMap { start in
        // The changes last, or followed by a plain member (valid, repeated, or not a number).
        [#"}}"#, #","applied":3}}"#, #","contentChanges":3}}"#, #","applied":03}}"#].map {
          Array(start.utf8) + edits + Array($0.utf8)
        }
      }
    }
    let setup = [
      #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
      #"{"jsonrpc":"2.0","id":2,"method":"field/open","params":{"field":"s","text":"ab","sync":{"version":1}}}"#,
    ]
    let state = #"{"jsonrpc":"2.0","id":9,"method":"field/state","params":{"field":"s"}}"#
    let documents =
      invalid.map { Array($0.utf8) } + [
        [0x5B, 0x7B, 0x22, 0x74, 0x65, 0x78, 0x74, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D, 0x5D]
      ]
      + [Array((String(repeating: "[", count: 510) + String(repeating: "]", count: 510)).utf8)]
      + Self.suite.filter { $0.first == UInt8(ascii: "[") }
    // A ranged change nests 4 deep in the params, 2 deep in the message: 5 refuses it.
    for (initialized, maxDepth) in [(false, 512), (true, 512), (true, 6), (true, 5)] {
      var fast = Server(config: ServerConfig(maxDepth: maxDepth))
      var slow = Server(config: ServerConfig(maxDepth: maxDepth))
      slow.decodesFromBytes = false
      for message in setup.prefix(initialized ? 2 : 0) {
        #expect(Self.outcome(&fast, message) == Self.outcome(&slow, message))
      }
      for (index, edits) in documents.enumerated() {
        for body in bodies(edits) {
          var fastCopy = fast
          var slowCopy = slow
          let got = Self.outcome(&fastCopy, body) + Self.outcome(&fastCopy, state)
          let text = String(decoding: body, as: UTF8.self)
          #expect(got == Self.outcome(&slowCopy, body) + Self.outcome(&slowCopy, state), "\(text)")
          // All but the three that are valid JSON (the array is not the last member).
          if index <= invalid.count, ![8, 9, 10].contains(index), maxDepth > 5 {
            #expect(got.first?.contains("-32700") == true, "\(text) \(got)")
          }
        }
      }
    }
  }
}

extension ByteDecodingTests {
  /// A `field/didChange` decoded in one pass (`FastPath.pulledDidChange`) in any member order,
  /// and every shape it leaves to the general path, answer as the tree path does; the ones it
  /// should take, it takes.
  @Test func didChangeInOnePassAnswersAlike() {
    let edits =
      #""contentChanges":[{"range":{"start":{"line":0,"character":2},"end":{"line":0,"character":2}},"text":"c,"}]"#
    let start = #"{"jsonrpc":"2.0","method":"field/didChange","params":"#
    let taken = [
      #"{"field":"s","version":2,\#(edits)}"#, #"{\#(edits),"version":2,"field":"s"}"#,
      #"{"version":2,\#(edits),"field":"s","applied":1}"#,
      #"{"applied":1,"field":"s","version":2,\#(edits)}"#,
      #"{"field":"t","version":2,\#(edits)}"#, #"{ "field" : "s" , "version":2,\#(edits) }"#,

    ].map { start + $0 + "}" }
    let left =
      [
        #"{"field":"s","version":2,\#(edits),"composing":null}"#, #"{"field":"s","version":2}"#,
        #"{"field":"s","version":2,\#(edits),"x":1}"#,
        #"{"field":"s","field":"s","version":2,\#(edits)}"#,
        #"{"field":"\u0073","version":2,\#(edits)}"#, #"{"f\u0069eld":"s","version":2,\#(edits)}"#,
        #"{"field":"s","version":2.0,\#(edits)}"#,
        #"{"field":"s","version":"2",\#(edits)}"#, #"{"field":"s","version":-2,\#(edits)}"#,
        #"{"field":"s","version":2,\#(edits),"applied":1.5}"#,
        #"{"field":"s","version":99999999999999999999,\#(edits)}"#,
        #"{"field":1,"version":2,\#(edits)}"#,
        #"{"field":"s","version":2,"contentChanges":[{"text":"a\tb"}]}"#, #"[]"#, #"null"#,
      ].map { start + $0 + "}" } + [
        #"{"jsonrpc":"2.0","params":{"field":"s","version":2,\#(edits)},"method":"field/didChange"}"#,
        #"{"jsonrpc":"2.0","method":"field/didChange","params":{"field":"s","version":2,\#(edits)},"id":7}"#,
        #"{"jsonrpc":"2.0","id":7,"method":"field/didChange","params":{"field":"s","version":2,\#(edits)}}"#,
        #"{"method":"field/didChange","jsonrpc":"2.0","params":{"field":"s","version":2,\#(edits)}}"#,
        #"{"jsonrpc":"2.0","method":"field/didChange","params":{"field":"s","version":2,\#(edits)}} x"#,
        #"{"jsonrpc":"2.0","method":"field\/didChange","params":{"field":"s","version":2,\#(edits)}}"#,
      ]
    var fast = Server()
    var slow = Server()
    slow.decodesFromBytes = false
    for setup in [
      #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
      #"{"jsonrpc":"2.0","id":2,"method":"field/open","params":{"field":"s","text":"ab","sync":{"version":1}}}"#,
    ] {
      #expect(Self.outcome(&fast, setup) == Self.outcome(&slow, setup))
    }
    let state = #"{"jsonrpc":"2.0","id":9,"method":"field/state","params":{"field":"s"}}"#
    for (index, body) in (taken + left).enumerated() {
      var (fastCopy, slowCopy) = (fast, slow)
      var got: [String] = []
      let counts = FastPath.counting { got = Self.outcome(&fastCopy, body) }
      got += Self.outcome(&fastCopy, state)
      #expect(got == Self.outcome(&slowCopy, body) + Self.outcome(&slowCopy, state), "\(body)")
      #expect((counts[.pulledDidChange] != nil) == (index < taken.count), "\(body)")
    }
  }
}

extension ByteDecodingTests {
  /// The server keeps its scanned `field/didChange` and fills the next in place: nothing of one
  /// message (a second change, `applied`) is left in the next, which answers as the tree path does.
  @Test func keptDidChangeCarriesNothingOver() {
    func range(_ at: Int) -> String {
      #"{"range":{"start":{"line":0,"character":\#(at)},"end":{"line":0,"character":\#(at)}},"#
    }
    let start = #"{"jsonrpc":"2.0","method":"field/didChange","params":{"field":"s","version":"#
    let bodies = [
      #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
      #"{"jsonrpc":"2.0","id":2,"method":"field/open","params":{"field":"s","text":"ab","sync":{"version":1}}}"#,
      start
        + #"2,"contentChanges":[\#(range(2))"text":"c"},\#(range(3))"text":"d"}],"applied":1}}"#,
      start + #"3,"contentChanges":[\#(range(4))"text":"e"}]}}"#,
      start + #"4,"contentChanges":[\#(range(5))"text":",f"}]}}"#,
      #"{"jsonrpc":"2.0","id":9,"method":"field/state","params":{"field":"s"}}"#,
    ]
    var (fast, slow) = (Server(), Server())
    slow.decodesFromBytes = false
    for body in bodies {
      #expect(Self.outcome(&fast, body) == Self.outcome(&slow, body), "\(body)")
    }
  }
}
