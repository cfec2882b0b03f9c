/// Writes message bodies in a framing.
public enum FrameEncoder {
  /// Appends `body` framed as `framing` to `output`.
  ///
  /// Content-Length frames are exactly `Content-Length: N\r\n\r\n` + body (N in bytes, no
  /// `Content-Type`); newline-delimited frames are body + `\n` (the body must not contain a raw
  /// newline, which ``JSONWriter`` output never does).
  public static func append(_ body: [UInt8], as framing: Framing, to output: inout [UInt8]) {
    switch framing {
    case .contentLength:
      output.append(contentsOf: "Content-Length: \(body.count)\r\n\r\n".utf8)
      output.append(contentsOf: body)
    case .newlineDelimited:
      output.append(contentsOf: body)
      output.append(UInt8(ascii: "\n"))
    }
  }
}
