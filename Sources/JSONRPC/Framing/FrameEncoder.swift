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
      // The header is built on the stack and appended in one run: no String per message.
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { header in
        var length = 0
        for byte in contentLengthPrefix {
          header[length] = byte
          length += 1
        }
        var divisor = 1
        while divisor <= body.count / 10 { divisor *= 10 }
        while divisor > 0 {
          header[length] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: body.count / divisor % 10)
          length += 1
          divisor /= 10
        }
        for byte in headerEnd {
          header[length] = byte
          length += 1
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: header[0..<length]))
      }
      if body.withContiguousStorageIfAvailable({ output.append(contentsOf: $0) }) == nil {
        output.append(contentsOf: body)
      }
    case .newlineDelimited:
      output.append(contentsOf: body)
      output.append(UInt8(ascii: "\n"))
    }
  }
}
