/// How messages are delimited on the byte stream.
public enum Framing: String, Hashable, Sendable, CaseIterable {
  /// LSP base protocol: `Content-Length: N\r\n\r\n` then N bytes of UTF-8 JSON.
  case contentLength = "content-length"
  /// One JSON text per line, `\n`-terminated (a trailing `\r` is ignored, blank lines skipped).
  case newlineDelimited = "ndjson"
}

/// Size limits the framer enforces before any JSON is parsed.
public struct FrameLimits: Hashable, Sendable {
  /// The largest message body accepted, in bytes (default ``defaultMaxMessageBytes``).
  public var maxMessageBytes: Int
  /// The largest header block (all header lines of one message) in bytes (default
  /// ``defaultMaxHeaderBytes``).
  public var maxHeaderBytes: Int

  /// The default ``maxMessageBytes``: 64 MiB (the one place it is written; the server's
  /// configuration and the flags read it here).
  public static let defaultMaxMessageBytes = 64 << 20
  /// The default ``maxHeaderBytes``: 64 KiB.
  public static let defaultMaxHeaderBytes = 64 << 10

  public init(
    maxMessageBytes: Int = defaultMaxMessageBytes,
    maxHeaderBytes: Int = defaultMaxHeaderBytes
  ) {
    self.maxMessageBytes = maxMessageBytes
    self.maxHeaderBytes = maxHeaderBytes
  }
}

/// A problem in the byte stream below the JSON level.
public enum FrameError: Error, Hashable, Sendable {
  /// A body longer than the limit; it is skipped without being stored. `size` is nil when the
  /// framing does not know it in advance (NDJSON).
  case messageTooLarge(size: Int?, limit: Int)
  /// A header block longer than the limit; the framer skips to the next header block.
  case headerTooLong(limit: Int)
  /// A header block without `Content-Length`.
  case missingContentLength
  /// A `Content-Length` value that is not a non-negative decimal integer.
  case invalidContentLength(String)
  /// A header line without a colon, or bytes that are not a header where one was expected.
  case malformedHeader(String)
  /// The stream ended inside a message.
  case truncated(expected: Int, received: Int)
  /// A body that does not end where its `Content-Length` says (usually a length counted in
  /// characters instead of bytes): the JSON value ended at byte `valueEnd` of the body (too
  /// long a length: what follows it is read as the next header), or, nil, it runs on past the
  /// body (too short a length: the decoder skips to the next `Content-Length`).
  case lengthMismatch(declared: Int, valueEnd: Int?)
}

/// What the frame decoder produced next.
public enum FrameEvent: Hashable, Sendable {
  /// One complete message body.
  case message([UInt8])
  /// A stream problem; the decoder has already resynchronised where the framing allows.
  case error(FrameError)
}
