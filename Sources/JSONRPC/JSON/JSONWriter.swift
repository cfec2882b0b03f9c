/// Writes compact JSON text into a byte buffer, inserting commas itself.
///
/// Strings are escaped so the output never contains a raw newline (safe for NDJSON framing);
/// `/` is not escaped. Doubles are written in the shortest form that reads back to the same
/// value; integral doubles below 2^53 are written without a fraction. Non-finite doubles are
/// written as `null`.
///
/// ```swift
/// var w = JSONWriter()
/// w.beginObject(); w.key("a"); w.integer(1); w.key("b"); w.string("x"); w.endObject()
/// // w.bytes == Array(#"{"a":1,"b":"x"}"#.utf8)
/// ```
public struct JSONWriter: Sendable {
  /// The text written so far.
  public private(set) var bytes: [UInt8]

  /// Whether the next value or key needs a comma before it.
  ///
  /// One flag suffices: it is false
  /// right after `[`, `{` or a key, and true after any complete value.
  private var needsComma = false

  /// Creates an empty writer.
  public init() {
    bytes = []
  }

  /// Creates an empty writer with room for `capacity` bytes, so a typical message is written
  /// without regrowing the buffer.
  public init(reservingCapacity capacity: Int) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  /// Writes `null`.
  public mutating func null() {
    separate()
    bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
  }

  /// Writes `true` or `false`.
  public mutating func bool(_ value: Bool) {
    separate()
    if value {
      bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65])
    } else {
      bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])
    }
  }

  /// Writes an integer.
  public mutating func integer(_ value: Int64) {
    separate()
    appendDecimal(value)
  }

  /// Writes an integer.
  public mutating func integer(_ value: Int) { integer(Int64(value)) }

  /// Writes a number (see the type's rules for doubles).
  public mutating func double(_ value: Double) {
    guard value.isFinite else { return null() }
    // Int64(_:) truncates without libm (which this module does not link); equality proves the
    // value integral.
    if value.magnitude < 9_007_199_254_740_992, Double(Int64(value)) == value {
      let integral = Int64(value)
      if integral == 0 && value.sign == .minus {
        separate()
        bytes.append(contentsOf: [UInt8(ascii: "-"), UInt8(ascii: "0")])
      } else {
        integer(integral)
      }
      return
    }
    separate()
    // Swift's description is the shortest round-tripping form, and always valid JSON for
    // finite values: `0.1`, `1e-07`, `5e+20`, `9007199254740992.0`.
    bytes.append(contentsOf: value.description.utf8)
  }

  /// Writes an escaped string.
  public mutating func string(_ value: String) {
    separate()
    appendQuoted(value)
  }

  /// Opens an object.
  public mutating func beginObject() {
    separate()
    bytes.append(UInt8(ascii: "{"))
    needsComma = false
  }

  /// Closes the innermost object.
  public mutating func endObject() {
    bytes.append(UInt8(ascii: "}"))
    needsComma = true
  }

  /// Opens an array.
  public mutating func beginArray() {
    separate()
    bytes.append(UInt8(ascii: "["))
    needsComma = false
  }

  /// Closes the innermost array.
  public mutating func endArray() {
    bytes.append(UInt8(ascii: "]"))
    needsComma = true
  }

  /// Writes a member name inside an object; the next value is its value.
  public mutating func key(_ name: String) {
    separate()
    appendQuoted(name)
    bytes.append(UInt8(ascii: ":"))
    needsComma = false
  }

  /// Writes already-encoded JSON text as one value (trusted, not validated).
  public mutating func raw(_ json: [UInt8]) {
    separate()
    bytes.append(contentsOf: json)
  }

  /// Writes any value.
  public mutating func value(_ value: JSONValue) {
    switch value {
    case .null: null()
    case .bool(let flag): bool(flag)
    case .integer(let number): integer(number)
    case .double(let number): double(number)
    case .string(let text): string(text)
    case .array(let elements):
      beginArray()
      for element in elements { self.value(element) }
      endArray()
    case .object(let object):
      beginObject()
      for member in object.members {
        key(member.key)
        self.value(member.value)
      }
      endObject()
    }
  }

  /// Empties the buffer, keeping its capacity, so one writer can be reused per message.
  public mutating func reset() {
    bytes.removeAll(keepingCapacity: true)
    needsComma = false
  }

  // MARK: Private

  /// Writes a comma if a value came before; every value then leaves `needsComma` true.
  private mutating func separate() {
    if needsComma { bytes.append(UInt8(ascii: ",")) }
    needsComma = true
  }

  private mutating func appendDecimal(_ value: Int64) {
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    // At most 20 digits; write them backwards into a small stack buffer.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
      var index = 20
      repeat {
        index -= 1
        buffer[index] = UInt8(truncatingIfNeeded: magnitude % 10) &+ UInt8(ascii: "0")
        magnitude /= 10
      } while magnitude != 0
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[index..<20]))
    }
  }

  private mutating func appendQuoted(_ text: String) {
    // Native strings lend their UTF-8 in place; only bridged or small ones take the copy below.
    if let done = text.utf8.withContiguousStorageIfAvailable({ appendQuoted(utf8: $0) }) {
      return done
    }
    var text = text
    text.withUTF8 { appendQuoted(utf8: $0) }
  }

  private mutating func appendQuoted(utf8: UnsafeBufferPointer<UInt8>) {
    bytes.append(UInt8(ascii: "\""))
    var runStart = 0
    for index in 0..<utf8.count {
      let byte = utf8[index]
      guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
        continue
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
      runStart = index + 1
      appendEscape(byte)
    }
    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
    bytes.append(UInt8(ascii: "\""))
  }

  private mutating func appendEscape(_ byte: UInt8) {
    let short: UInt8
    switch byte {
    case UInt8(ascii: "\""): short = UInt8(ascii: "\"")
    case UInt8(ascii: "\\"): short = UInt8(ascii: "\\")
    case 0x0A: short = UInt8(ascii: "n")
    case 0x0D: short = UInt8(ascii: "r")
    case 0x09: short = UInt8(ascii: "t")
    case 0x08: short = UInt8(ascii: "b")
    case 0x0C: short = UInt8(ascii: "f")
    default:
      let low = byte & 0x0F
      bytes.append(contentsOf: [
        UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
        UInt8(ascii: "0") &+ byte >> 4,
        low < 10 ? UInt8(ascii: "0") &+ low : UInt8(ascii: "a") &+ low &- 10,
      ])
      return
    }
    bytes.append(contentsOf: [UInt8(ascii: "\\"), short])
  }
}
