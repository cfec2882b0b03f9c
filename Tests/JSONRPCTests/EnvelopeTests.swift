import Testing

@testable import JSONRPC

private func invalid(_ id: RequestID?, _ problem: String) -> Result<Message, EnvelopeError> {
  .failure(
    EnvelopeError(
      id: id,
      error: ResponseError(code: .invalidRequest, message: "Invalid Request: \(problem)")
    )
  )
}

private let badID = invalid(nil, #""id" must be a number or a string"#)

@Test(
  arguments: [
    (
      #"{"jsonrpc":"2.0","id":1,"method":"sum","params":[1,2]}"#,
      Incoming.single(.success(.request(id: .integer(1), method: "sum", params: [1, 2])))
    ),
    (
      #"{"jsonrpc":"2.0","id":"a","method":"m"}"#,
      .single(.success(.request(id: .string("a"), method: "m", params: nil)))
    ),
    (
      #"{"jsonrpc":"2.0","id":1.5,"method":"m","params":null}"#,
      .single(.success(.request(id: .double(1.5), method: "m", params: .null)))
    ),
    (
      #"{"jsonrpc":"2.0","method":"n","params":{"a":1}}"#,
      .single(.success(.notification(method: "n", params: ["a": 1])))
    ),
    (#"{"jsonrpc":"2.0","id":null,"method":"m"}"#, .single(badID)),
    (#"{"jsonrpc":"2.0","id":true,"method":"m"}"#, .single(badID)),
    (#"{"jsonrpc":"2.0","id":{},"method":"m"}"#, .single(badID)),
    (#"{"id":3,"method":"m"}"#, .single(invalid(.integer(3), #"missing "jsonrpc": "2.0""#))),
    (
      #"{"jsonrpc":"1.0","id":3,"method":"m"}"#,
      .single(invalid(.integer(3), #""jsonrpc" must be "2.0""#))
    ),
    (#"{"jsonrpc":2.0,"method":"m"}"#, .single(invalid(nil, #""jsonrpc" must be "2.0""#))),
    (
      #"{"jsonrpc":"2.0","id":"x","method":1}"#,
      .single(invalid(.string("x"), #""method" must be a string"#))
    ),
    (
      #"{"jsonrpc":"2.0","id":4,"method":"m","params":"p"}"#,
      .single(invalid(.integer(4), #""params" must be an object or an array"#))
    ),
    (#"{"jsonrpc":"2.0","id":5}"#, .single(invalid(.integer(5), #"missing "method""#))),
    (
      #"{"jsonrpc":"2.0","id":6,"result":{"ok":true}}"#,
      .single(.success(.response(id: .integer(6), outcome: .result(["ok": true]))))
    ),
    (
      #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad","data":1}}"#,
      .single(
        .success(
          .response(
            id: nil,
            outcome: .error(ResponseError(code: .parseError, message: "bad", data: 1))
          )
        )
      )
    ),
    (
      #"{"jsonrpc":"2.0","id":7,"error":{"code":"x","message":"bad"}}"#,
      .single(
        invalid(
          .integer(7),
          #""error" must be an object with an integer "code" and a string "message""#
        )
      )
    ),
    (
      #"{"jsonrpc":"2.0","id":8,"result":1,"error":{"code":1,"message":"m"}}"#,
      .single(invalid(.integer(8), #"a response must not have both "result" and "error""#))
    ),
    (#"{"jsonrpc":"2.0","result":1}"#, .single(invalid(nil, #"a response must have an "id""#))),
    ("1", .single(invalid(nil, "a message must be an object"))),
    // JSON-RPC 2.0 §7 examples.
    ("[]", .single(invalid(nil, "empty batch"))),
    ("[1]", .batch([invalid(nil, "a message must be an object")])),
    ("[1,2,3]", .batch(Array(repeating: invalid(nil, "a message must be an object"), count: 3))),
    (
      #"[{"jsonrpc":"2.0","method":"notify_sum","params":[1,2,4]},{"jsonrpc":"2.0","method":"notify_hello","params":[7]}]"#,
      .batch([
        .success(.notification(method: "notify_sum", params: [1, 2, 4])),
        .success(.notification(method: "notify_hello", params: [7])),
      ])
    ),
    (
      #"[{"jsonrpc":"2.0","method":"sum","params":[1,2,4],"id":"1"},{"jsonrpc":"2.0","method":"notify_hello","params":[7]},{"foo":"boo"},{"jsonrpc":"2.0","method":"get_data","id":"9"}]"#,
      .batch([
        .success(.request(id: .string("1"), method: "sum", params: [1, 2, 4])),
        .success(.notification(method: "notify_hello", params: [7])),
        invalid(nil, #"missing "jsonrpc": "2.0""#),
        .success(.request(id: .string("9"), method: "get_data", params: nil)),
      ])
    ),
  ] as [(String, Incoming)]
)
func classifies(_ text: String, _ expected: Incoming) {
  #expect(Envelope.decode(Array(text.utf8)) == expected)
}

@Test(arguments: [
  #"[{"jsonrpc":"2.0","method":"sum","params":[1,2,4],"id":"1"},{"jsonrpc":"2.0","method"]"#,
  #"{"jsonrpc":"2.0","method":"foobar,"params":"bar","baz]"#,
  "",
  "[[[[1]]]]",
])
func parseErrors(_ text: String) {
  guard case .single(.failure(let error)) = Envelope.decode(Array(text.utf8), maxDepth: 3) else {
    Issue.record("not a single failure")
    return
  }
  #expect(error.id == nil)
  #expect(error.error.code == .parseError)
  #expect(error.error.message.hasPrefix("Parse error: "))
  #expect(error.error.message.contains(" at byte "))
}

@Test(arguments: [
  (#"{"jsonrpc":"2.0","id":12,"method":"m"}"#, #"{"jsonrpc":"2.0","id":12,"result":null}"#),
  (#"{"jsonrpc":"2.0","id":"ab","method":"m"}"#, #"{"jsonrpc":"2.0","id":"ab","result":null}"#),
  (#"{"jsonrpc":"2.0","id":2.5,"method":"m"}"#, #"{"jsonrpc":"2.0","id":2.5,"result":null}"#),
  (#"{"jsonrpc":"2.0","id":-0,"method":"m"}"#, #"{"jsonrpc":"2.0","id":-0,"result":null}"#),
])
func idsAreEchoedWithTheirType(_ request: String, _ response: String) {
  guard case .single(.success(.request(let id, _, _))) = Envelope.decode(Array(request.utf8)) else {
    Issue.record("not a request")
    return
  }
  var writer = JSONWriter()
  writer.response(id: id) { $0.null() }
  #expect(String(decoding: writer.bytes, as: UTF8.self) == response)
}

@Test func envelopeKeyWordsSpellTheirNames() {
  func word(_ name: String) -> UInt64 {
    Array(name.utf8).withUnsafeBufferPointer { DeclaredMembers.words($0, readable: 0).0 }
  }
  #expect(Envelope.jsonrpcKey == word("jsonrpc"))
  #expect(Envelope.idKey == word("id"))
  #expect(Envelope.methodKey == word("method"))
  #expect(Envelope.paramsKey == word("params"))
  let prefix = Array(#"{"jsonrpc":"2.0""#.utf8).withUnsafeBytes {
    ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
  }
  #expect(Envelope.versionPrefix == prefix)
}

/// A body that starts `{"jsonrpc":"2.0"` is classified as the general path classifies it:
/// a repeated version, a missing method, whitespace after the prefix, trailing bytes and the
/// depth limit (0 refuses even the envelope) included.
@Test(arguments: [
  #"{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[1]}}"#,
  #"{"jsonrpc":"2.0"}"#,
  #"{"jsonrpc":"2.0","jsonrpc":"2.0","method":"m"}"#,
  #"{"jsonrpc":"2.0" , "method":"m"}"#,
  #"{"jsonrpc":"2.0","method":"m"} x"#,
])
func versionPrefixClassifiesAsTheGeneralPath(_ body: String) {
  let bytes = Array(body.utf8)
  func scan(maxDepth: Int) -> String {
    var storage: [JSONObjectRanges.Member] = []
    let call = Envelope.scanCall(bytes.span, maxDepth: maxDepth, reusing: &storage)
    return call.map { "\(String(describing: $0.id)) \($0.method) \($0.params)" } ?? "nil"
  }
  for maxDepth in [0, 1, 2, 64] {
    var on = ""
    let counts = FastPath.counting { on = scan(maxDepth: maxDepth) }
    #expect((counts[.versionPrefix] ?? 0) == (maxDepth > 0 ? 1 : 0))
    #expect(FastPath.switchedOff(.versionPrefix) { scan(maxDepth: maxDepth) } == on)
  }
}
