/// A JSON-RPC error code: an open set of named constants (applications add their own).
public struct ErrorCode: RawRepresentable, Hashable, Sendable {
  /// The integer sent on the wire.
  public var rawValue: Int

  /// Creates a code.
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// -32700: the body is not valid JSON (or not UTF-8, or nested too deeply).
  public static let parseError = ErrorCode(rawValue: -32700)
  /// -32600: valid JSON that is not a valid request; also a request after `shutdown`.
  public static let invalidRequest = ErrorCode(rawValue: -32600)
  /// -32601: no such method.
  public static let methodNotFound = ErrorCode(rawValue: -32601)
  /// -32602: params missing, of the wrong type, or out of range.
  public static let invalidParams = ErrorCode(rawValue: -32602)
  /// -32603: an internal error of the server (JSON-RPC); reserved, tagd never sends it.
  public static let internalError = ErrorCode(rawValue: -32603)
  /// -32002 (LSP): a request arrived before `initialize`.
  public static let serverNotInitialized = ErrorCode(rawValue: -32002)
  /// -32800 (LSP): the request was cancelled by `$/cancelRequest`.
  public static let requestCancelled = ErrorCode(rawValue: -32800)
  /// -32801 (LSP): the request was about a state that has since changed.
  public static let contentModified = ErrorCode(rawValue: -32801)
}

/// The error object of a JSON-RPC response.
public struct ResponseError: Error, Hashable, Sendable {
  /// The code.
  public var code: ErrorCode
  /// One sentence saying what was wrong.
  public var message: String
  /// Optional structured detail.
  public var data: JSONValue?

  /// Creates an error.
  public init(code: ErrorCode, message: String, data: JSONValue? = nil) {
    self.code = code
    self.message = message
    self.data = data
  }
}
