/// Why a byte sequence is not acceptable JSON, and where.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Byte offset of the problem in the input.
  public var offset: Int
  /// What is wrong, e.g. "invalid UTF-8", "nesting deeper than 512", "unexpected character 'x'".
  public var reason: String

  /// Creates an error.
  public init(offset: Int, reason: String) {
    self.offset = offset
    self.reason = reason
  }

  /// "<reason> at byte <offset>".
  public var description: String { "\(reason) at byte \(offset)" }
}

/// A strict RFC 8259 reader from UTF-8 bytes to ``JSONValue``, with a nesting limit.
///
/// Accepts every `y_` and rejects every `n_` case of JSONTestSuite; rejects invalid UTF-8 and
/// lone surrogate escapes; never recurses deeper than `maxDepth`.
public enum JSONReader {
  /// The default nesting limit (arrays and objects inside each other).
  public static let defaultMaxDepth = 512

  /// Parses one JSON text (surrounding whitespace allowed, nothing else).
  public static func parse(
    _ bytes: ArraySlice<UInt8>,
    maxDepth: Int = defaultMaxDepth
  ) throws(JSONParseError) -> JSONValue {
    fatalError("unimplemented")
  }

  /// Parses one JSON text (surrounding whitespace allowed, nothing else).
  public static func parse(
    _ bytes: [UInt8],
    maxDepth: Int = defaultMaxDepth
  ) throws(JSONParseError) -> JSONValue {
    try parse(bytes[...], maxDepth: maxDepth)
  }
}
