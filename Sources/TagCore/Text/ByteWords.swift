/// Word-at-a-time reads of UTF-8 bytes, in safe code: each read extracts a span of known length
/// (one bounds check) and assembles its bytes little-endian, which the optimizer turns into one
/// unaligned load.
extension Span where Element == UInt8 {
  /// The eight bytes at `offset`, the first in the low byte.
  @inline(__always)
  func word(at offset: Int) -> UInt64 {
    let w = extracting(offset..<(offset + 8))
    return UInt64(w[0]) | UInt64(w[1]) << 8 | UInt64(w[2]) << 16 | UInt64(w[3]) << 24
      | UInt64(w[4]) << 32 | UInt64(w[5]) << 40 | UInt64(w[6]) << 48 | UInt64(w[7]) << 56
  }

  /// The last one to seven bytes from `offset` to the end, the first in the low byte, in at most
  /// three loads (four, two and one bytes).
  @inline(__always)
  func tail(at offset: Int) -> UInt64 {
    let left = count - offset
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    var at = offset
    if left & 4 != 0 {
      let w = extracting(at..<(at + 4))
      tail = UInt64(w[0]) | UInt64(w[1]) << 8 | UInt64(w[2]) << 16 | UInt64(w[3]) << 24
      shift = 32
      at += 4
    }
    if left & 2 != 0 {
      let w = extracting(at..<(at + 2))
      tail |= (UInt64(w[0]) | UInt64(w[1]) << 8) << shift
      shift += 16
      at += 2
    }
    if left & 1 != 0 { tail |= UInt64(self[at]) << shift }
    return tail
  }
}

extension Span where Element == UInt8 {
  /// The text of these bytes, which are whole scalars of valid UTF-8 (a `String`'s, cut at
  /// scalar boundaries); bytes that are not valid are repaired.
  ///
  /// Validating them and copying is the cheapest safe way the standard library has (cheaper
  /// than slicing the `String` by index).
  public func text() -> String {
    if let utf8 = try? UTF8Span(validating: self) { return String(copying: utf8) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count)
    for offset in indices { bytes.append(self[offset]) }
    return String(decoding: bytes, as: UTF8.self)
  }
}
