public import JSONRPC

/// A message a client sends to tagd: its method name, declared once, and its typed params.
///
/// Each conforming type is the single place its method string appears; ``ClientMessage``
/// maps strings to types.
public protocol TagMessage: Sendable {
  /// The JSON-RPC method name.
  static var method: String { get }
  /// Decodes the params (already normalised: missing, `null`, `[]` and `{}` read as empty).
  init(params: Params) throws(ParamsError)
}

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
