/// Why a byte sequence is not acceptable JSON, and where.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Byte offset of the problem in the input.
  public var offset: Int
  /// What is wrong, such as "invalid UTF-8", "nesting deeper than 512", "unexpected character 'x'".
  public var reason: String

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
///
/// The rules, precisely:
/// - Strings must be valid UTF-8 (no overlong forms, no UTF-8-encoded surrogates, nothing above
///   U+10FFFF, no truncated sequences) and must not contain raw control characters (< 0x20).
/// - A `\uD800`–`\uDBFF` escape must be followed immediately by a `\uDC00`–`\uDFFF` escape
///   (the pair is decoded to one scalar); a lone high or low surrogate escape is an error, because
///   Swift strings cannot hold one and silently substituting U+FFFD would change the text.
/// - Integer lexemes (no `.` and no exponent) that fit `Int64` read as `.integer`; all other
///   numbers read as correctly rounded `.double` (`1e400` is `+infinity`, `-0` is `-0.0`).
/// - Containers nested more than `maxDepth` deep are an error ("nesting deeper than N"). The
///   parser is iterative, but releasing (and comparing) a ``JSONValue`` recurses once per level,
///   so `maxDepth` is capped at ``maxSupportedDepth`` whatever the caller passes.
/// - Duplicate object keys are kept in order; ``JSONObject``'s subscript returns the last.
/// - A byte order mark is not accepted (RFC 8259 §8.1 forbids sending one).
public enum JSONReader {
  /// The default nesting limit (arrays and objects inside each other).
  public static let defaultMaxDepth = 512

  /// The effective ceiling on `maxDepth`: deeper values could overflow the stack when released.
  public static let maxSupportedDepth = 1024

  /// Parses one JSON text (surrounding whitespace allowed, nothing else).
  public static func parse(
    _ bytes: ArraySlice<UInt8>,
    maxDepth: Int = defaultMaxDepth
  ) throws(JSONParseError) -> JSONValue {
    try bytes.withUnsafeBufferPointer { buffer in
      Result { () throws(JSONParseError) in try parse(buffer, maxDepth: maxDepth) }
    }.get()
  }

  /// Parses one JSON text (surrounding whitespace allowed, nothing else).
  public static func parse(
    _ bytes: UnsafeBufferPointer<UInt8>,
    maxDepth: Int = defaultMaxDepth
  ) throws(JSONParseError) -> JSONValue {
    var scanner = JSONScanner(bytes, maxDepth: maxDepth)
    let value = try scanner.readTree()
    try scanner.finish()
    return value
  }

  /// Parses one JSON text (surrounding whitespace allowed, nothing else).
  public static func parse(
    _ bytes: [UInt8],
    maxDepth: Int = defaultMaxDepth
  ) throws(JSONParseError) -> JSONValue {
    try parse(bytes[...], maxDepth: maxDepth)
  }
}
