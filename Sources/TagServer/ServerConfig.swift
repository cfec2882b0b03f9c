public import JSONRPC

/// The server's limits and identity; set by the executable from its flags.
public struct ServerConfig: Hashable, Sendable {
  /// The version reported in `initialize`'s `serverInfo`.
  public var version: String
  /// The deepest JSON nesting accepted (arrays and objects).
  public var maxDepth: Int
  /// The most sessions (fields plus clouds) open at once.
  public var maxSessions: Int
  /// The most tags one field or cloud holds; further candidates are dropped as `tooMany`.
  public var maxTags: Int
  /// The longest tag in characters; longer candidates are dropped as `tooLong`.
  public var maxTagLength: Int
  /// The most UTF-8 bytes one field's tags and draft hold together; a request that would make a
  /// field hold more is refused with LimitExceeded and changes nothing.
  public var maxFieldBytes: Int
  /// The largest message body and Content-Length header block in bytes, enforced by the framer
  /// (the body's limit is reported in capabilities).
  public var frameLimits: FrameLimits

  /// The current version of tagd.
  public static let currentVersion = "1.2.0"

  /// Creates a configuration; the defaults are documented in Protocol/limits.md.
  public init(
    version: String = ServerConfig.currentVersion,
    maxDepth: Int = JSONReader.defaultMaxDepth,
    maxSessions: Int = 100_000,
    maxTags: Int = 1_000_000,
    maxTagLength: Int = 1_024,
    maxMessageBytes: Int = FrameLimits.defaultMaxMessageBytes,
    maxHeaderBytes: Int = FrameLimits.defaultMaxHeaderBytes,
    maxFieldBytes: Int = 64 << 20
  ) {
    self.version = version
    self.maxDepth = maxDepth
    self.maxSessions = maxSessions
    self.maxTags = maxTags
    self.maxTagLength = maxTagLength
    frameLimits = FrameLimits(maxMessageBytes: maxMessageBytes, maxHeaderBytes: maxHeaderBytes)
    self.maxFieldBytes = maxFieldBytes
  }

  /// The limits as `(name, value)` pairs, as `initialize` reports them.
  public var limits: [(name: String, value: Int)] {
    [
      ("maxMessageBytes", frameLimits.maxMessageBytes),
      ("maxDepth", maxDepth),
      ("maxSessions", maxSessions),
      ("maxTags", maxTags),
      ("maxTagLength", maxTagLength),
      ("maxFieldBytes", maxFieldBytes),
    ]
  }
}
