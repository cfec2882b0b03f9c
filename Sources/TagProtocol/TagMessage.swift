public import JSONRPC

/// A message a client sends to tagd: its method name, its params' members and its typed params,
/// all declared once, on the one type.
///
/// The server's list of served types (TagServer's `Server.requestTypes`) is the only map from
/// method strings to types.
public protocol TagMessage: Sendable {
  /// The JSON-RPC method name.
  static var method: String { get }
  /// The members the params object may have; any other is refused with -32602.
  static var members: Members { get }
  /// Decodes the params (already normalised and checked against ``members``: missing, `null`,
  /// `[]` and `{}` read as empty).
  init(params: Params) throws(ParamsError)
}

extension TagMessage {
  /// Checks raw params against ``members`` and decodes them.
  public static func decode(_ params: JSONValue?) throws(ParamsError) -> Self {
    try Self(params: Params(params, members: members))
  }
}

/// A request: a message that is answered with a typed ``Result``.
public protocol TagRequest: TagMessage {
  /// What a successful response carries.
  associatedtype Result: JSONWritable
}

/// A notification: a message that is never answered.
public protocol TagNotification: TagMessage {}

/// A value that writes itself as one JSON value; every result type is one.
public protocol JSONWritable {
  /// Writes this value.
  func write(to writer: inout JSONWriter)
}

extension JSONWriter {
  /// Writes a ``JSONWritable`` value.
  public mutating func write(_ value: some JSONWritable) {
    value.write(to: &self)
  }

  /// Writes an array of strings.
  public mutating func strings(_ values: [String]) {
    beginArray()
    for value in values { string(value) }
    endArray()
  }
}

/// The `null` result of `shutdown`, `field/close` and `cloud/close`.
public struct NullResult: JSONWritable, Hashable, Sendable {
  /// The result.
  public init() {}
  public func write(to w: inout JSONWriter) { w.null() }
}
