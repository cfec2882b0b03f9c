/// Classifies message bodies into ``Incoming`` values.
public enum Envelope {
  /// Parses and classifies one body.
  ///
  /// Invalid JSON gives -32700 with id nil; `[]` gives a single -32600; a batch element that is
  /// not a valid message gives -32600 with its id if it had a valid one. `jsonrpc` must be
  /// `"2.0"`, `method` a string, `id` a number or a string.
  ///
  /// Further rules: `params`, when present, must be an object, an array or `null` (it is kept
  /// as given; the layer above treats `null`, `[]` and `{}` as "no params"). An object without
  /// `method` is a response when it has exactly one of `result` and `error` and an `id` member
  /// (`null` allowed); `error` must be `{code: integer, message: string, data?}`. Error messages
  /// name the problem, e.g. `Invalid Request: "jsonrpc" must be "2.0"`.
  public static func decode(_ body: [UInt8], maxDepth: Int = JSONReader.defaultMaxDepth) -> Incoming
  {
    body.withUnsafeBufferPointer { decode($0, maxDepth: maxDepth) }
  }

  /// Parses and classifies one body lent by its owner (see ``decode(_:maxDepth:)-([UInt8],_)``).
  public static func decode(
    _ body: Span<UInt8>,
    maxDepth: Int = JSONReader.defaultMaxDepth
  ) -> Incoming {
    body.withUnsafeBufferPointer { decode($0, maxDepth: maxDepth) }
  }

  static func decode(
    _ body: UnsafeBufferPointer<UInt8>,
    maxDepth: Int = JSONReader.defaultMaxDepth
  ) -> Incoming {
    let value: JSONValue
    do {
      value = try JSONReader.parse(body, maxDepth: maxDepth)
    } catch {
      return .single(
        .failure(
          EnvelopeError(
            id: nil,
            error: ResponseError(code: .parseError, message: "Parse error: \(error)")
          )
        )
      )
    }
    guard case .array(let elements) = value else {
      return .single(classify(value))
    }
    guard !elements.isEmpty else {
      return .single(.failure(invalid(id: nil, "empty batch")))
    }
    return .batch(elements.map(classify))
  }

  /// Classifies one JSON value as a message.
  public static func classify(_ value: JSONValue) -> Result<Message, EnvelopeError> {
    guard case .object(let object) = value else {
      return .failure(invalid(id: nil, "a message must be an object"))
    }
    let idMember = object["id"]
    let id = idMember.flatMap(requestID)
    guard let version = object["jsonrpc"] else {
      return .failure(invalid(id: id, #"missing "jsonrpc": "2.0""#))
    }
    guard version == .string("2.0") else {
      return .failure(invalid(id: id, #""jsonrpc" must be "2.0""#))
    }
    if let methodValue = object["method"] {
      return classifyCall(object, method: methodValue, idMember: idMember, id: id)
    }
    return classifyResponse(object, idMember: idMember, id: id)
  }

  private static func classifyCall(
    _ object: JSONObject,
    method methodValue: JSONValue,
    idMember: JSONValue?,
    id: RequestID?
  ) -> Result<Message, EnvelopeError> {
    guard case .string(let method) = methodValue else {
      return .failure(invalid(id: id, #""method" must be a string"#))
    }
    if idMember != nil, id == nil {
      return .failure(invalid(id: nil, #""id" must be a number or a string"#))
    }
    let params = object["params"]
    switch params {
    case nil, .object?, .array?, .null?: break
    default:
      return .failure(invalid(id: id, #""params" must be an object or an array"#))
    }
    if let id {
      return .success(.request(id: id, method: method, params: params))
    }
    return .success(.notification(method: method, params: params))
  }

  private static func classifyResponse(
    _ object: JSONObject,
    idMember: JSONValue?,
    id: RequestID?
  ) -> Result<Message, EnvelopeError> {
    let result = object["result"]
    let errorValue = object["error"]
    if result == nil && errorValue == nil {
      return .failure(invalid(id: id, #"missing "method""#))
    }
    if result != nil && errorValue != nil {
      return .failure(invalid(id: id, #"a response must not have both "result" and "error""#))
    }
    guard let idMember else {
      return .failure(invalid(id: nil, #"a response must have an "id""#))
    }
    if id == nil && idMember != .null {
      return .failure(invalid(id: nil, #""id" must be a number, a string or null"#))
    }
    if let result {
      return .success(.response(id: id, outcome: .result(result)))
    }
    guard case .object(let error)? = errorValue,
      case .integer(let code)? = error["code"],
      let codeValue = Int(exactly: code),
      case .string(let message)? = error["message"]
    else {
      return .failure(
        invalid(id: id, #""error" must be an object with an integer "code" and a string "message""#)
      )
    }
    let responseError = ResponseError(
      code: ErrorCode(rawValue: codeValue),
      message: message,
      data: error["data"]
    )
    return .success(.response(id: id, outcome: .error(responseError)))
  }

  /// The request id a JSON value denotes, if it is a number or a string.
  public static func requestID(_ value: JSONValue) -> RequestID? {
    switch value {
    case .integer(let number): return .integer(number)
    case .double(let number) where number.isFinite: return .double(number)
    case .string(let text): return .string(text)
    default: return nil
    }
  }

  private static func invalid(id: RequestID?, _ problem: String) -> EnvelopeError {
    EnvelopeError(
      id: id,
      error: ResponseError(code: .invalidRequest, message: "Invalid Request: \(problem)")
    )
  }
}
