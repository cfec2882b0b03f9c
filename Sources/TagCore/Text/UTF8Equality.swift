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
    let (x, y) = (a.utf8, b.utf8)
    if let equal = x.withContiguousStorageIfAvailable({ p in
      y.withContiguousStorageIfAvailable { q in sameBytes(p, q) }
    }), let equal {
      return equal
    }
    return x.prefix(y.count).elementsEqual(y)
  }

  /// Whether `a` starts with the bytes of `b` (`a` holds at least as many), eight at a time.
  static func sameBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let p = a.baseAddress.map(UnsafeRawPointer.init),
      let q = b.baseAddress.map(UnsafeRawPointer.init)
    else { return b.isEmpty }
    let count = b.count
    var offset = 0
    while offset + 8 <= count {
      guard
        p.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          == q.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      else { return false }
      offset += 8
    }
    while offset < count {
      guard a[offset] == b[offset] else { return false }
      offset += 1
    }
    return true
  }
}
