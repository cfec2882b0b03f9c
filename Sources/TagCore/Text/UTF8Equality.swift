extension String {
  /// Whether `other` has the same UTF-8 bytes, not only canonical equivalence.
  ///
  /// A draft spelt differently has changed. The lengths are compared first, which settles
  /// most comparisons.
  @inline(__always)
  public func hasSameUTF8(as other: String) -> Bool {
    utf8.count == other.utf8.count && Self.sameUTF8OfSameCount(self, other)
  }

  /// Whether this string's UTF-8 starts with all of `prefix`'s.
  public func hasUTF8Prefix(_ prefix: String) -> Bool {
    utf8.count >= prefix.utf8.count && Self.sameUTF8OfSameCount(self, prefix)
  }

  /// Whether the first `b.utf8.count` bytes of `a` are `b`'s (`a` has at least that many).
  private static func sameUTF8OfSameCount(_ a: String, _ b: String) -> Bool {
    sameBytes(a.utf8.span, b.utf8.span)
  }

  /// Whether `a` starts with the bytes of `b` (`a` holds at least as many), eight at a time.
  static func sameBytes(_ a: Span<UInt8>, _ b: Span<UInt8>) -> Bool {
    let count = b.count
    guard a.count >= count else { return false }
    var offset = 0
    while offset + 8 <= count {
      guard a.word(at: offset) == b.word(at: offset) else { return false }
      offset += 8
    }
    while offset < count {
      guard a[offset] == b[offset] else { return false }
      offset += 1
    }
    return true
  }
}
