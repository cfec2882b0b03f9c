/// Numbers: written by digits straight into reserved capacity, never through `description` for
/// the values layouts produce.
///
/// Every number goes through ``writeNumber(_:to:)``, which stores at most
/// ``maxNumberLength`` bytes at a pointer: ``double(_:)`` and ``integer(_:)`` reserve that much
/// once, and a ``Run`` writes several numbers and constant fragments (a frame's
/// `{"x":…,"y":…}`) after one capacity check for all of them.
extension JSONWriter {
  /// The most bytes one number takes (`-2.2250738585072014e-308` is 24).
  @inlinable public static var maxNumberLength: Int { 32 }

  /// Writes an integer.
  public mutating func integer(_ value: Int64) {
    // The comma and the digits after one capacity check.
    let out = reserve(21)
    let comma = needsComma ? 1 : 0
    out[0] = UInt8(ascii: ",")
    written += comma + Self.writeDecimal(value, to: out + comma)
    needsComma = true
  }

  /// Writes an integer.
  @inlinable public mutating func integer(_ value: Int) { integer(Int64(value)) }

  /// Appends `value`'s decimal digits, not as a value of its own (no comma): for a number
  /// inside a string being written.
  public mutating func digits(_ value: Int) {
    written += Self.writeDecimal(Int64(value), to: reserve(20))
  }

  /// Writes a number (see the type's rules for doubles).
  public mutating func double(_ value: Double) {
    separate()
    let out = reserve(Self.maxNumberLength)
    written += Self.writeNumber(value, to: out)
  }

  /// Writes one value of at most `maxLength` bytes with one capacity check: `body` stores it
  /// through the ``Run`` it is lent (constant fragments and numbers), which must not escape.
  public mutating func value(maxLength: Int, _ body: (inout Run) -> Void) {
    separate()
    var run = Run(start: reserve(maxLength), capacity: maxLength)
    body(&run)
    written += run.count
  }

  /// Unchecked stores into capacity reserved by `value(maxLength:_:)`.
  ///
  /// Each store checks only that it fits in what was reserved (a trap, not an overrun, if the
  /// caller miscounted). Fragments are trusted JSON text.
  public struct Run {
    // Inlinable, so that a fragment's copy is a few stores of a known length at the call site.
    @usableFromInline let start: UnsafeMutablePointer<UInt8>
    @usableFromInline let capacity: Int
    /// The bytes stored so far.
    @usableFromInline var count = 0

    fileprivate init(start: UnsafeMutablePointer<UInt8>, capacity: Int) {
      self.start = start
      self.capacity = capacity
    }

    /// Stores pre-encoded JSON text, such as `{"x":` or `,"height":`.
    @inlinable @inline(__always)
    public mutating func fragment(_ text: StaticString) {
      let length = text.utf8CodeUnitCount
      precondition(count + length <= capacity, "JSONWriter.Run: more than reserved")
      (start + count).update(from: text.utf8Start, count: length)
      count += length
    }

    /// Stores a number as ``JSONWriter/double(_:)`` writes it.
    @inlinable @inline(__always)
    public mutating func number(_ value: Double) {
      precondition(
        count + JSONWriter.maxNumberLength <= capacity,
        "JSONWriter.Run: more than reserved"
      )
      count += JSONWriter.writeNumber(value, to: start + count)
    }

    /// Stores an integer.
    @inlinable @inline(__always)
    public mutating func integer(_ value: Int) {
      precondition(count + 20 <= capacity, "JSONWriter.Run: more than reserved")
      count += JSONWriter.writeDecimal(Int64(value), to: start + count)
    }
  }

  /// Writes `value` as JSON at `out` (room for ``maxNumberLength`` bytes); returns the length.
  ///
  /// Non-finite values are `null`; integral values below 2^53 are integers (`-0` for negative
  /// zero); multiples of 1/16 below 2^40 their exact decimals; the rest their shortest
  /// round-tripping form through `description` (exponent forms below 0.0001 and from 2^53).
  @inlinable @inline(__always)
  static func writeNumber(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
    // Most coordinates are integers, written here at the call site. Int64(_:) truncates without
    // libm (which this module does not link); equality proves the value integral (NaN fails).
    if value.magnitude < 0x1p53, Double(Int64(value)) == value, value != 0 || value.sign == .plus {
      FastPath.integerDigits.taken()
      return writeDecimal(Int64(value), to: out)
    }
    return writeOtherNumber(value, to: out)
  }

  /// ``writeNumber(_:to:)`` for all but the integers below 2^53 (and for `-0`).
  @usableFromInline
  static func writeOtherNumber(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
    guard value.isFinite else { return copy("null", to: out) }
    if value == 0 { return copy("-0", to: out) }
    if FastPath.sixteenths.isOn, let length = writeSixteenths(value, to: out) {
      FastPath.sixteenths.taken()
      return length
    }
    // `0.3`, `1e-07`, `5e+20`, `9007199254740992.0`: valid JSON for finite values. (A digit
    // search of our own cost more instructions than `description`: BENCHMARKS.md.)
    var text = value.description
    return text.withUTF8 { utf8 in
      let length = min(utf8.count, maxNumberLength)  // at most 24
      if let source = utf8.baseAddress { out.update(from: source, count: length) }
      return length
    }
  }

  /// Writes a non-integral multiple of 1/16 below 2^40 in magnitude (what sums of integral and
  /// half sizes and spacings give) as its exact decimal expansion; nil for any other value.
  ///
  /// That expansion is also the shortest form that reads back, so the bytes are those of
  /// `description`: with `j` binary fraction digits (1…4) the value is
  /// `n / 2^j` for an odd `n`, its expansion has `j` decimals, and the nearest decimal with
  /// fewer is `5 · 10^-j ≥ 5 · 10^-4` away, while below 2^40 the values reading back to it lie
  /// within half a unit in the last place, at most 2^-14.
  static func writeSixteenths(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int? {
    let scaled = value.magnitude * 16  // exact: a power of two, far from overflow here
    guard scaled < 0x1p44, Double(Int64(scaled)) == scaled else { return nil }
    let sixteenths = Int64(scaled)
    let fraction = sixteenths & 15
    guard fraction != 0 else { return nil }
    // fraction / 16 = odd / 2^places = odd · 5^places / 10^places.
    let places = 4 - fraction.trailingZeroBitCount
    var decimals = fraction >> (4 - places)
    for _ in 0..<places { decimals *= 5 }
    var length = 0
    if value < 0 {
      out[0] = UInt8(ascii: "-")
      length = 1
    }
    length += writeDecimal(sixteenths >> 4, to: out + length)
    out[length] = UInt8(ascii: ".")
    length += 1
    for place in stride(from: places - 1, through: 0, by: -1) {
      out[length + place] = UInt8(truncatingIfNeeded: decimals % 10) &+ UInt8(ascii: "0")
      decimals /= 10
    }
    return length + places
  }

  /// Writes `value` in decimal at `out` (room for 20 bytes); returns the length.
  @usableFromInline
  static func writeDecimal(_ value: Int64, to out: UnsafeMutablePointer<UInt8>) -> Int {
    var length = 0
    if value < 0 {
      out[0] = UInt8(ascii: "-")
      length = 1
    }
    var magnitude = value.magnitude
    // Counted by comparisons (cheaper than divisions); an Int64's magnitude is below 10^19, so
    // `bound` stops there and never overflows.
    var digits = 1
    var bound: UInt64 = 10
    while magnitude >= bound {
      digits &+= 1
      bound &*= 10
    }
    length &+= digits
    // Two digits per division, from the table of "00" … "99".
    let pairs = digitPairs.utf8Start
    var position = length
    while magnitude >= 10 {
      let pair = Int(truncatingIfNeeded: magnitude % 100)
      magnitude /= 100
      position &-= 2
      out[position] = pairs[2 &* pair]
      out[position &+ 1] = pairs[2 &* pair &+ 1]
    }
    if position > length &- digits {
      out[position &- 1] = UInt8(truncatingIfNeeded: magnitude) &+ UInt8(ascii: "0")
    }
    return length
  }

  /// "00", "01", … "99" run together.
  private static var digitPairs: StaticString {
    """
    00010203040506070809101112131415161718192021222324252627282930313233343536373839\
    40414243444546474849505152535455565758596061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899
    """
  }

  /// Stores a compile-time fragment at `out`; returns its length.
  private static func copy(_ text: StaticString, to out: UnsafeMutablePointer<UInt8>) -> Int {
    out.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
    return text.utf8CodeUnitCount
  }
}
