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
    separate()
    let out = reserve(20)
    count += Self.writeDecimal(value, to: out)
  }

  /// Writes an integer.
  public mutating func integer(_ value: Int) { integer(Int64(value)) }

  /// Writes a number (see the type's rules for doubles).
  public mutating func double(_ value: Double) {
    separate()
    let out = reserve(Self.maxNumberLength)
    count += Self.writeNumber(value, to: out)
  }

  /// Writes one value of at most `maxLength` bytes with one capacity check: `body` stores it
  /// through the ``Run`` it is lent (constant fragments and numbers), which must not escape.
  public mutating func value(maxLength: Int, _ body: (inout Run) -> Void) {
    separate()
    var run = Run(start: reserve(maxLength), capacity: maxLength)
    body(&run)
    count += run.count
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
  /// zero); multiples of 1/16 below 2^40 their exact decimals; others below 2^53 and from
  /// 0.0001 their shortest round-tripping decimals; the rest (exponent forms, 2^53 and up) the
  /// same shortest form through `description`.
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
    if FastPath.shortestDigits.isOn, let length = writeShortestDecimal(value, to: out) {
      FastPath.shortestDigits.taken()
      return length
    }
    // `1e-07`, `5e+20`, `9007199254740992.0`: valid JSON for finite values. Layout coordinates
    // never get here.
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
  /// ``writeShortestDecimal(_:to:)``: with `j` binary fraction digits (1…4) the value is
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

  /// Writes a finite, non-integral `value` with `0.0001 <= |value| < 2^53` in its shortest
  /// round-tripping decimal form at `out`, exactly as `Double.description` would; nil (nothing
  /// written) outside that range.
  ///
  /// `|value| = m · 2^e` exactly. Going up from one fraction digit, the first `k` for which
  /// some integer `d` has `d / 10^k` inside the interval that reads back to `value` (its
  /// half-way points to the neighbouring doubles, included when `m` is even) gives the fewest
  /// digits; among those `d`, the one nearest `value`, an even one on a tie. All of it is
  /// integer arithmetic on 128 bits: `(4m ± 2) · 10^k` and `d · 2^(2 - e)` stay below 2^126
  /// in this range (k ≤ 21, e ≥ -66).
  static func writeShortestDecimal(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int? {
    let magnitude = value.magnitude
    guard magnitude >= 0.0001, magnitude < 0x1p53 else { return nil }
    let bits = magnitude.bitPattern
    let fraction = bits & (1 << 52 - 1)
    let mantissa = UInt128(fraction | 1 << 52)
    let exponent = Int(bits >> 52) - 1075
    guard exponent < 0 else { return nil }  // integral: written elsewhere
    let shift = 2 - exponent  // value = 4m / 2^shift
    let inclusive = mantissa & 1 == 0
    // The gap below is half as wide at a power of two.
    let below: UInt128 = fraction == 0 ? 1 : 2
    let unit = UInt128(1) << shift
    var power: UInt128 = 1
    for digits in 1...21 {
      power *= 10
      let low = (4 * mantissa - below) * power
      let high = (4 * mantissa + 2) * power
      var first = (low + unit - 1) >> shift
      if !inclusive && first << shift == low { first += 1 }
      let scaledFirst = first << shift
      guard inclusive ? scaledFirst <= high : scaledFirst < high else { continue }
      // The nearest integer to value · 10^k, an even one on a tie; the interval's first
      // integer when the nearest lies below it (possible only at a power of two).
      let center = 4 * mantissa * power
      var nearest = (center + unit / 2) >> shift
      if center & (unit - 1) == unit / 2, nearest & 1 == 1 { nearest -= 1 }
      let chosen = nearest < first ? first : nearest
      return writeFixed(UInt64(chosen), fractionDigits: digits, negative: value < 0, to: out)
    }
    return nil
  }

  /// Writes `digits · 10^-fractionDigits` in plain decimal notation (`0.05`, `12.5`) at `out`;
  /// returns the length (at most 24 here: 17 significant digits, `-0.000`).
  private static func writeFixed(
    _ digits: UInt64,
    fractionDigits: Int,
    negative: Bool,
    to out: UnsafeMutablePointer<UInt8>
  ) -> Int {
    var length = 0
    if negative {
      out[0] = UInt8(ascii: "-")
      length = 1
    }
    var total = 0  // digits stored, at least one before the point
    var probe = digits
    repeat {
      total += 1
      probe /= 10
    } while probe != 0
    total = max(total, fractionDigits + 1)
    length += total + 1
    var position = length
    var rest = digits
    for written in 0..<total {
      if written == fractionDigits {
        position -= 1
        out[position] = UInt8(ascii: ".")
      }
      position -= 1
      out[position] = UInt8(truncatingIfNeeded: rest % 10) &+ UInt8(ascii: "0")
      rest /= 10
    }
    return length
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
