import JSONRPC
import TagProtocol
import TagServer
import TagTestSupport
import Testing

/// Protocol/schemas/tagd.schema.json covers every method, and every request, result, error and
/// server notification in the transcripts conforms to it.
@Suite struct SchemaTests {
  static let schema: JSONSchema? = Files.read(packageRoot() + "/Protocol/schemas/tagd.schema.json")
    .flatMap { try? JSONReader.parse($0, maxDepth: 100) }
    .map(JSONSchema.init(document:))

  @Test func everyMethodHasASchema() throws {
    let schema = try #require(Self.schema)
    for method in Server.requestMethods {
      #expect(
        schema.schema(at: ["requests", method, "params"]) != nil,
        "params schema for \(method)"
      )
      #expect(
        schema.schema(at: ["requests", method, "result"]) != nil,
        "result schema for \(method)"
      )
    }
    for method in Server.notificationMethods {
      #expect(schema.schema(at: ["notifications", method]) != nil, "schema for \(method)")
    }
    guard case .object(let requests)? = schema.schema(at: ["requests"]) else {
      Issue.record("no requests in the schema")
      return
    }
    #expect(
      requests.members.map(\.key).sorted() == Server.requestMethods,
      "no schema for a method tagd lacks"
    )
  }

  @Test(arguments: ((try? Files.transcripts()) ?? []).map(\.name))
  func transcriptConforms(_ name: String) throws {
    let schema = try #require(Self.schema)
    let transcript = try #require(try Files.transcripts().first { $0.name == name })
    var server = Server()
    var outbox = Outbox()
    for send in transcript.sends {
      server.handleNow(.message(Array(send.utf8)), into: &outbox)
      let replies = outbox.texts.compactMap(
        JSONCompare.parse
      )
      outbox.clear()
      guard case .object(let message)? = JSONCompare.parse(send),
        case .string(let method)? = message["method"]
      else {
        continue
      }
      for case .object(let reply) in replies {
        if case .string(let pushed)? = reply["method"], let params = reply["params"] {
          let rule = try #require(
            schema.schema(at: ["serverNotifications", pushed]),
            "schema for \(pushed)"
          )
          #expect(
            schema.problems(params, against: rule).isEmpty,
            "\(transcript.name) \(pushed): \(schema.problems(params, against: rule))"
          )
          continue
        }
        guard reply["id"] == message["id"], reply["id"] != nil else { continue }
        if let error = reply["error"] {
          let rule = try #require(schema.schema(at: ["$defs", "ResponseError"]))
          #expect(schema.problems(error, against: rule).isEmpty, "\(transcript.name): \(error)")
        } else if let result = reply["result"] {
          let params = message["params"] ?? .object(JSONObject())
          let paramRule = try #require(schema.schema(at: ["requests", method, "params"]))
          let resultRule = try #require(schema.schema(at: ["requests", method, "result"]))
          #expect(
            schema.problems(params, against: paramRule).isEmpty,
            "\(transcript.name) \(method) params: \(schema.problems(params, against: paramRule))"
          )
          #expect(
            schema.problems(result, against: resultRule).isEmpty,
            "\(transcript.name) \(method) result: \(schema.problems(result, against: resultRule))"
          )
        }
      }
      if message["id"] == nil, let rule = schema.schema(at: ["notifications", method]),
        let params = message["params"],
        method == "field/didChange"
      {
        #expect(
          schema.problems(params, against: rule).isEmpty,
          "\(transcript.name) \(method): \(schema.problems(params, against: rule))"
        )
      }
    }
  }

  /// The validator itself rejects what it should.
  @Test func validatorRejectsBadValues() throws {
    let schema = try #require(Self.schema)
    let rule = try #require(schema.schema(at: ["requests", "field/layout", "params"]))
    let bad = try #require(
      JSONCompare.parse(#"{"field":"f","width":-1,"chipSizes":[{"width":1}],"fieldHeight":2}"#)
    )
    #expect(!schema.problems(bad, against: rule).isEmpty)
    let good = try #require(
      JSONCompare.parse(
        #"{"field":"f","width":null,"chipSizes":[{"width":1,"height":2}],"fieldHeight":2}"#
      )
    )
    #expect(schema.problems(good, against: rule).isEmpty)
  }
}
