/// UTF-8 validation of a note's bytes (RFC 3629: no overlong forms, no surrogates, nothing
/// above U+10FFFF), eight ASCII bytes at a time.
public enum UTF8Check {
  /// The offset of the first byte that is not part of valid UTF-8, or nil when all of it is.
  public static func firstInvalid(_ bytes: UnsafeRawBufferPointer) -> Int? {
    let count = bytes.count
    guard let base = bytes.baseAddress else { return nil }
    var i = 0
    while i < count {
      // Eight bytes with no high bit: all ASCII.
      if i + 8 <= count {
        let word = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        if word & 0x8080_8080_8080_8080 == 0 {
          i += 8
          continue
        }
      }
      let lead = bytes[i]
      if lead < 0x80 {
        i += 1
        continue
      }
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        high = 0x9F
      case 0xF0:
        length = 4
        low = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        high = 0x8F
      default: return i
      }
      guard i + length <= count else { return i }
      let second = bytes[i + 1]
      guard second >= low && second <= high else { return i }
      for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 { return i }
      i += length
    }
    return nil
  }

  /// The same for an array.
  public static func firstInvalid(_ bytes: [UInt8]) -> Int? {
    bytes.withUnsafeBytes { firstInvalid($0) }
  }
}
