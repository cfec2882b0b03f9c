import JSONRPC
import TagServer
import TagTestSupport
import Testing

/// The decoder and the JSON Schema agree on which params are acceptable: every transcript
/// request that succeeds is also sent with near-miss params (an unknown member, a misspelt
/// member, an unknown member inside each nested object), and tagd refuses exactly those the
/// schema refuses, naming the member.
@Suite struct StrictParamsTests {
  /// A successful transcript request and the messages sent before it.
  struct Case: CustomStringConvertible {
    var transcript: String
    var before: [String]
    var method: String
    var params: JSONObject
    var description: String { "\(transcript) \(method)" }
  }

  static let cases: [Case] = {
    var cases: [Case] = []
    for transcript in (try? Files.transcripts()) ?? [] {
      var server = Server()
      var outbox = Outbox()
      for (i, send) in transcript.sends.enumerated() {
        server.handleNow(.message(Array(send.utf8)), into: &outbox)
        let succeeded = outbox.texts.contains { JSONCompare.parse($0)?.member("result") != nil }
        outbox.clear()
        guard succeeded, case .object(let message)? = JSONCompare.parse(send),
          case .string(let method)? = message["method"], message["id"] != nil,
          case .object(let params)? = message["params"], !params.members.isEmpty
        else { continue }
        cases.append(
          Case(
            transcript: transcript.name,
            before: Array(transcript.sends[..<i]),
            method: method,
            params: params
          )
        )
      }
    }
    return cases
  }()

  /// The first reply tagd gives to `params` for the case's method, after the case's history.
  func answer(_ c: Case, params: JSONObject) -> JSONValue? {
    var server = Server()
    var outbox = Outbox()
    for send in c.before { server.handleNow(.message(Array(send.utf8)), into: &outbox) }
    outbox.clear()
    var w = JSONWriter()
    w.value(
      .object(
        JSONObject([
          JSONMember("jsonrpc", .string("2.0")), JSONMember("id", .integer(424_242)),
          JSONMember("method", .string(c.method)), JSONMember("params", .object(params)),
        ])
      )
    )
    server.handleNow(.message(w.bytes), into: &outbox)
    return outbox.texts.lazy.compactMap(JSONCompare.parse).first { $0.member("id") != nil }
  }

  /// Near misses of `params`: each with a description and the member path it introduces.
  static func nearMisses(_ params: JSONObject) -> [(params: JSONObject, path: String)] {
    var result: [(JSONObject, String)] = []
    var extra = params
    extra.members.append(JSONMember("zzUnknown", .integer(1)))
    result.append((extra, "zzUnknown"))
    for (i, member) in params.members.enumerated() {
      var misspelt = params
      let key = member.key
      let typo = key.count > 3 ? String(key.dropLast()) : key + "s"
      misspelt.members[i] = JSONMember(typo, member.value)
      if params[typo] == nil { result.append((misspelt, typo)) }
      if case .object(var inner) = member.value {
        inner.members.append(JSONMember("zzUnknown", .integer(1)))
        var nested = params
        nested.members[i] = JSONMember(key, .object(inner))
        result.append((nested, "\(key).zzUnknown"))
      }
    }
    return result
  }

  @Test(arguments: cases)
  func nearMissParamsAreRefusedWhereTheSchemaRefusesThem(_ c: Case) throws {
    let schema = try #require(SchemaTests.schema)
    let rule = try #require(schema.schema(at: ["requests", c.method, "params"]))
    for (params, path) in Self.nearMisses(c.params) {
      let schemaRefuses = !schema.problems(.object(params), against: rule).isEmpty
      let reply = try #require(answer(c, params: params), "\(c) \(path): no reply")
      let error = reply.member("error")
      let message = error?.member("message").flatMap {
        if case .string(let s) = $0 { s } else { nil }
      }
      let namesIt =
        error?.member("code") == .integer(-32602)
        && message?.contains("`\(path)` is not a known member") == true
      #expect(
        schemaRefuses == namesIt,
        "\(c) with \(path): schema \(schemaRefuses ? "refuses" : "accepts"), tagd answered \(JSONCompare.text(reply))"
      )
    }
  }

  @Test func aMisspeltMemberSuggestsTheKnownOne() throws {
    let c = try #require(Self.cases.first { $0.method == "field/open" })
    var params = JSONObject([JSONMember("field", .string("z")), JSONMember("tag", .array([]))])
    var reply = try #require(answer(c, params: params))
    #expect(JSONCompare.text(reply).contains(#"did you mean \"tags\"?"#))
    params = JSONObject([JSONMember("Field", .string("z"))])
    reply = try #require(answer(c, params: params))
    #expect(JSONCompare.text(reply).contains(#"did you mean \"field\"?"#))
  }
}

/// Members are known by use (the names `init(params:)` asks for), yet the first error is the one
/// checking each object's members as it is opened would give: an unknown member wins over a bad
/// value read before it, and nothing read after the first bad value is blamed.
@Suite struct StrictParamsByUseTests {
  static let cases: [(params: String, error: String)] = [
    // A bad value does not hide an unknown member of the same object...
    (
      #"{"field":1,"colour":"red"}"#,
      "`colour` is not a known member (known: `field`, `tags`, `text`, `options`, `sync`)"
    ),
    // ...nor of an object opened before it.
    (
      #"{"field":"f","options":{"maxTags":-1,"zz":1}}"#,
      "`options.zz` is not a known member (known: `separators`, `maxTags`, `maxTagLength`, "
        + "`caseSensitive`, `transform`, `prompt`, `pattern`, `allow`, `deny`, `suggestions`, "
        + "`backspace`, `suggestFromVault`, `commitOnBlur`, `history`)"
    ),
    // Members read after a bad value are still known...
    (
      #"{"field":"f","options":{"maxTags":-1},"sync":{}}"#,
      "`options.maxTags` must be in 0…, got -1"
    ),
    (
      #"{"field":"f","options":{"transform":"up"},"sync":{}}"#,
      "`options.transform` must be one of"
    ),
    // ...and an object opened after the first bad value is not looked into.
    (#"{"field":2,"options":{"zz":1}}"#, "`field` must be a string, got 2"),
  ]

  /// A server after `initialize`.
  static func initialized() -> Server {
    var server = Server()
    var outbox = Outbox()
    let initialize = #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#
    server.handle(.message(Array(initialize.utf8)), into: &outbox)
    return server
  }

  @Test(arguments: 0..<cases.count)
  func theFirstErrorIsTheOneAnOpeningCheckGives(_ index: Int) throws {
    let (params, expected) = Self.cases[index]
    var server = Self.initialized()
    var outbox = Outbox()
    let message = #"{"jsonrpc":"2.0","id":1,"method":"field/open","params":\#(params)}"#
    server.handle(.message(Array(message.utf8)), into: &outbox)
    let reply = try #require(outbox.texts.first)
    #expect(reply.contains(#""code":-32602"#), "\(params): \(reply)")
    #expect(reply.contains("Invalid params: \(expected)"), "\(params): \(reply)")
  }

  @Test func aMemberTheOtherBranchReadsIsKnown() throws {
    var server = Self.initialized()
    var outbox = Outbox()
    for (params, expected) in [
      (#"{"field":"f","version":1}"#, "needs `text` (the whole draft) or `version` and `changes`"),
      (#"{"field":"f","index":0,"tag":"a"}"#, "`index` and `tag` are alternatives"),
    ] {
      let method = params.contains("version") ? "field/change" : "field/removeTag"
      let message = #"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":\#(params)}"#
      server.handle(.message(Array(message.utf8)), into: &outbox)
      let reply = try #require(outbox.texts.last)
      #expect(reply.contains("Invalid params: \(expected)"), "\(params): \(reply)")
    }
  }
}

extension JSONValue {
  /// The member `key` of an object (nil for anything else).
  fileprivate func member(_ key: String) -> JSONValue? {
    if case .object(let object) = self { object[key] } else { nil }
  }
}
