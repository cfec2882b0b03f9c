/// The id of a request: echoed in its response with the same JSON type.
public enum RequestID: Hashable, Sendable {
  /// An integer id.
  case integer(Int64)
  /// A number id with a fraction or exponent (discouraged by JSON-RPC, still echoed exactly).
  case double(Double)
  /// A string id.
  case string(String)
}

/// One classified JSON-RPC message.
public enum Message: Hashable, Sendable {
  /// A call that expects exactly one response. `params` is nil when absent.
  case request(id: RequestID, method: String, params: JSONValue?)
  /// A call that gets no response.
  case notification(method: String, params: JSONValue?)
  /// An answer to a request this side sent.
  case response(id: RequestID?, outcome: ResponseOutcome)
}

/// The success or failure carried by a response.
public enum ResponseOutcome: Hashable, Sendable {
  /// The `result` member.
  case result(JSONValue)
  /// The `error` member.
  case error(ResponseError)
}

/// A message that could not be classified, with the id to answer if one was recovered.
public struct EnvelopeError: Error, Hashable, Sendable {
  /// The request id, when the message had a valid one; the reply then uses it, else `null`.
  public var id: RequestID?
  /// The error to send back (-32700 or -32600).
  public var error: ResponseError

  /// Creates an envelope error.
  public init(id: RequestID?, error: ResponseError) {
    self.id = id
    self.error = error
  }
}

/// One message body, classified: a single message or a batch (JSON-RPC §6).
public enum Incoming: Hashable, Sendable {
  /// A single message, or why it is not one (includes parse errors and the empty batch `[]`).
  case single(Result<Message, EnvelopeError>)
  /// A non-empty batch, element by element.
  case batch([Result<Message, EnvelopeError>])
}
