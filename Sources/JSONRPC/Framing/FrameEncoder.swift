/// Writes message bodies in a framing: the one place a frame's shape is written.
///
/// Content-Length frames are exactly `Content-Length: N\r\n\r\n` + body (N in bytes, no
/// `Content-Type`); newline-delimited frames are body + `\n` (the body must not contain a raw
/// newline, which ``JSONWriter`` output never does).
public enum FrameEncoder {
  /// Writes one frame at the end of `w`, its body written in place by `body`.
  ///
  /// `body` writes one JSON value; writing nothing leaves `w` as it was and returns nil, unless
  /// `keepEmpty`. Returns where the body lies in `w`.
  ///
  /// Room for a Content-Length header with `guessedDigits` digits is left before the body and
  /// the header written there once its length is known; the body moves only when its length has
  /// another number of digits. `guessedDigits` becomes this body's count, the guess for the next (replies to a
  /// stream of keystrokes are alike).
  public static func write(
    as framing: Framing,
    into w: inout JSONWriter,
    guessedDigits: inout Int,
    keepEmpty: Bool = false,
    _ body: (inout JSONWriter) -> Void
  ) -> Range<Int>? {
    let frame = w.mark()  // where the frame starts (`frame.count`), to take it back
    switch framing {
    case .contentLength:
      w.skip(20 + guessedDigits)  // "Content-Length: " N "\r\n\r\n"
      let bodyStart = w.count
      w.beginValue()
      body(&w)
      let length = w.count - bodyStart
      guard length > 0 || keepEmpty else {
        w.rewind(to: frame)
        return nil
      }
      let digits = digitCount(length)
      guessedDigits = digits
      let headerLength = 20 + digits
      if headerLength != bodyStart - frame.count || !FastPath.headerDigitsGuessed.isOn {
        w.moveTail(from: bodyStart, to: frame.count + headerLength)
      } else {
        FastPath.headerDigitsGuessed.taken()
      }
      w.contentLengthHeader(at: frame.count, length: length, digits: digits)
      return (frame.count + headerLength)..<w.count
    case .newlineDelimited:
      w.beginValue()
      body(&w)
      guard w.count > frame.count || keepEmpty else { return nil }
      defer { w.appendRaw("\n") }
      return frame.count..<w.count
    }
  }

  /// Appends `body` framed as `framing` to `output`.
  public static func append(
    _ body: some Collection<UInt8>,
    as framing: Framing,
    to output: inout [UInt8]
  ) {
    var w = JSONWriter(reservingCapacity: body.count + 32)
    var digits = digitCount(body.count)
    let bytes = Array(body)
    _ = write(as: framing, into: &w, guessedDigits: &digits, keepEmpty: true) { w in
      bytes.withUnsafeBufferPointer { w.raw($0) }
    }
    w.withBytes { bytes in bytes.withUnsafeBufferPointer { output.append(contentsOf: $0) } }
  }

  private static func digitCount(_ value: Int) -> Int {
    var digits = 1
    var rest = value
    while rest >= 10 {
      rest /= 10
      digits += 1
    }
    return digits
  }
}
