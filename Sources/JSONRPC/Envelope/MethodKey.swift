/// A method name as three integers, for a dispatch table (TagServer's `MethodTable`).
///
/// They are its length and its first and last eight bytes (overlapping; both 0 under 8 bytes):
/// for names of 8 to 16 bytes, equal keys mean equal names.
public struct MethodKey: Hashable, Sendable {
  /// The name's length in bytes.
  public let count: Int
  /// Its first and its last eight bytes, the first lowest.
  public let head, tail: UInt64

  /// The key of the method name spelt by `name`: two word loads.
  public init(_ name: Span<UInt8>) {
    count = name.count
    (head, tail) = name.withUnsafeBytes { bytes in
      guard let base = bytes.baseAddress, bytes.count >= 8 else { return (0, 0) }
      return (
        base.loadUnaligned(as: UInt64.self),
        base.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)
      )
    }
  }
}
