/// Writes message bodies in a framing.
public enum FrameEncoder {
  private static let contentLengthPrefix = Array("Content-Length: ".utf8)
  private static let headerEnd: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]

  /// Appends `body` framed as `framing` to `output`.
  ///
  /// Content-Length frames are exactly `Content-Length: N\r\n\r\n` + body (N in bytes, no
  /// `Content-Type`); newline-delimited frames are body + `\n` (the body must not contain a raw
  /// newline, which ``JSONWriter`` output never does).
  public static func append(
    _ body: some Collection<UInt8>,
    as framing: Framing,
    to output: inout [UInt8]
  ) {
    switch framing {
    case .contentLength:
      // The header is written byte by byte: no String is built per message.
      output.append(contentsOf: contentLengthPrefix)
      var divisor = 1
      while divisor <= body.count / 10 { divisor *= 10 }
      while divisor > 0 {
        output.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: body.count / divisor % 10))
        divisor /= 10
      }
      output.append(contentsOf: headerEnd)
      output.append(contentsOf: body)
    case .newlineDelimited:
      output.append(contentsOf: body)
      output.append(UInt8(ascii: "\n"))
    }
  }
}
