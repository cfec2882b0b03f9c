public import JSONRPC

extension ErrorCode {
  /// -32010: the `field` or `cloud` id names no open session (never opened, or closed).
  public static let unknownSession = ErrorCode(rawValue: -32010)
  /// -32011: `field/open` or `cloud/open` with an id that is already open.
  public static let sessionAlreadyOpen = ErrorCode(rawValue: -32011)
  /// -32012: a configured limit was reached (open sessions, tags per session).
  public static let limitExceeded = ErrorCode(rawValue: -32012)
  /// -32013: a cloud tag title that the cloud does not have.
  public static let unknownTag = ErrorCode(rawValue: -32013)
}
