extension String {
  /// Whether `other` has the same UTF-8 bytes, not only canonical equivalence.
  ///
  /// A draft spelt differently has changed. The lengths are compared first, which settles
  /// most comparisons.
  @inline(__always)
  public func hasSameUTF8(as other: String) -> Bool {
    utf8.count == other.utf8.count && Self.sameUTF8OfSameCount(self, other)
  }

  private static func sameUTF8OfSameCount(_ a: String, _ b: String) -> Bool {
    let (x, y) = (a.utf8, b.utf8)
    if let equal = x.withContiguousStorageIfAvailable({ p in
      y.withContiguousStorageIfAvailable { q in p.elementsEqual(q) }
    }), let equal {
      return equal
    }
    return x.elementsEqual(y)
  }
}
