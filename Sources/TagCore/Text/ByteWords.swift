/// Word-at-a-time reads of UTF-8 bytes, in safe code: each read extracts a span of known length
/// (one bounds check) and assembles its bytes little-endian, which the optimizer turns into one
/// unaligned load.
extension Span where Element == UInt8 {
  /// The eight bytes at `offset`, the first in the low byte.
  @inline(__always)
  func word(at offset: Int) -> UInt64 {
    // One bounds check, on extracting a span of known length: the eight reads of it then need
    // none and become one load (reads of `self` at `offset + 1`… each kept its own check).
    let bytes = extracting(offset..<(offset + 8))
    return UInt64(bytes[0]) | UInt64(bytes[1]) << 8 | UInt64(bytes[2]) << 16
      | UInt64(bytes[3]) << 24 | UInt64(bytes[4]) << 32 | UInt64(bytes[5]) << 40
      | UInt64(bytes[6]) << 48 | UInt64(bytes[7]) << 56
  }

  /// The last one to seven bytes from `offset` to the end, the first in the low byte, in at most
  /// two loads: two overlapping half-words (or quarter-words), the second shifted past the bytes
  /// the first holds.
  @inline(__always)
  func tail(at offset: Int) -> UInt64 {
    let left = count - offset
    if left >= 4 {
      let low = extracting(offset..<(offset + 4))
      let high = extracting((offset + left - 4)..<(offset + left))
      let first = UInt64(low[0]) | UInt64(low[1]) << 8 | UInt64(low[2]) << 16 | UInt64(low[3]) << 24
      let last =
        UInt64(high[0]) | UInt64(high[1]) << 8 | UInt64(high[2]) << 16 | UInt64(high[3]) << 24
      return first | (last >> UInt64(8 * (8 - left))) << 32
    }
    if left >= 2 {
      let low = extracting(offset..<(offset + 2))
      let high = extracting((offset + left - 2)..<(offset + left))
      let first = UInt64(low[0]) | UInt64(low[1]) << 8
      return first | ((UInt64(high[0]) | UInt64(high[1]) << 8) >> UInt64(8 * (4 - left))) << 16
    }
    return left == 1 ? UInt64(self[offset]) : 0
  }
}

extension Span where Element == UInt8 {
  /// The text of these bytes, which are whole scalars of valid UTF-8 (a `String`'s, cut at
  /// scalar boundaries); bytes that are not valid are repaired.
  ///
  /// Validating them and copying is the cheapest safe way the standard library has (cheaper
  /// than slicing the `String` by index). Up to 15 bytes (a small string, a pasted tag), the
  /// string validated as it is made costs ~100 instructions less: TagCore's one `unsafe`, a copy
  /// of exactly the buffer's count into a buffer of that capacity.
  public func text() -> String {
    if count > 15, let utf8 = try? UTF8Span(validating: self) { return String(copying: utf8) }
    return unsafe withUnsafeBufferPointer { bytes in
      unsafe String(unsafeUninitializedCapacity: bytes.count) {
        unsafe $0.initialize(fromContentsOf: bytes)
      }
    }
  }
}

extension Span where Element == UInt8 {
  /// The first offset from `start` holding a CR or an LF, or `count`: eight bytes at a time.
  ///
  /// A word is tested for any byte below 0x0E (LF is 0x0A, CR 0x0D) in three operations; the
  /// byte found is then checked, and a tab or another control byte only resumes the search.
  func firstLineBreak(from start: Int) -> Int {
    var at = start
    while at + 8 <= count {
      let flags = Self.belowCR(word(at: at))
      if flags == 0 {
        at += 8
        continue
      }
      at += flags.trailingZeroBitCount / 8
      if self[at] == 0x0A || self[at] == 0x0D { return at }
      at += 1
    }
    while at < count, self[at] != 0x0A, self[at] != 0x0D { at += 1 }
    return at
  }

  /// The high bit of each byte of `word` below 0x0E; only the lowest flag is exact (a borrow
  /// may flag the bytes above it), and bytes of 0x80 and more are never flagged.
  @inline(__always)
  static func belowCR(_ word: UInt64) -> UInt64 {
    (word &- 0x0E0E_0E0E_0E0E_0E0E) & ~word & 0x8080_8080_8080_8080
  }

  /// Where the line begins that follows `lines` line breaks (LF, CRLF or CR) after `start`, or
  /// nil when fewer follow: an Org heading's line, found in one span.
  func start(afterLineBreaks lines: Int, from start: Int) -> Int? {
    var at = start
    for _ in 0..<lines {
      at = firstLineBreak(from: at)
      guard at < count else { return nil }
      at += self[at] == 0x0D && at + 1 < count && self[at + 1] == 0x0A ? 2 : 1
    }
    return at
  }
}
