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
  /// The buffer: raw memory, written with unchecked stores after one capacity check per call.
  ///
  /// Shared between copies of a writer until one of them writes (then it is copied).
  private final class Storage: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
    let capacity: Int

    init(capacity: Int) {
      self.capacity = capacity
      base = UnsafeMutablePointer<UInt8>.allocate(capacity: max(capacity, 1))
    }

    deinit { base.deallocate() }
  }

  /// The shared empty buffer of a new writer: never unique, so the first write allocates.
  private static let empty = Storage(capacity: 0)

  private var storage: Storage
  /// The number of bytes written.
  var count = 0

  /// Whether the next value or key needs a comma before it.
  ///
  /// One flag suffices: it is false
  /// right after `[`, `{` or a key, and true after any complete value.
  private var needsComma = false

  /// Creates an empty writer.
  public init() {
    storage = Self.empty
  }

  /// Creates an empty writer with room for `capacity` bytes, so a typical message is written
  /// without regrowing the buffer.
  public init(reservingCapacity capacity: Int) {
    storage = Storage(capacity: capacity)
  }

  /// The text written so far (a copy; ``withBytes(_:)`` lends it without copying).
  public var bytes: [UInt8] {
    Array(UnsafeBufferPointer(start: storage.base, count: count))
  }

  /// Whether nothing has been written.
  public var isEmpty: Bool { count == 0 }

  /// Lends the text written so far.
  public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    try body(UnsafeBufferPointer(start: storage.base, count: count))
  }

  /// Writes `null`.
  public mutating func null() {
    separateAndAppend("null")
  }

  /// Writes `true` or `false`.
  public mutating func bool(_ value: Bool) {
    separateAndAppend(value ? "true" : "false")
  }

  /// Writes an escaped string.
  public mutating func string(_ value: String) {
    separate()
    appendQuoted(value)
  }

  /// Opens an object.
  public mutating func beginObject() {
    open(UInt8(ascii: "{"))
  }

  /// Closes the innermost object.
  public mutating func endObject() {
    reserve(1)[0] = UInt8(ascii: "}")
    count += 1
    needsComma = true
  }

  /// Opens an array.
  public mutating func beginArray() {
    open(UInt8(ascii: "["))
  }

  /// Closes the innermost array.
  public mutating func endArray() {
    reserve(1)[0] = UInt8(ascii: "]")
    count += 1
    needsComma = true
  }

  /// Writes a member name known at compile time; the next value is its value.
  ///
  /// The name is copied as is: it must not need escaping (plain ASCII names always qualify).
  /// `,"name":` is stored in one run after one capacity check.
  public mutating func key(_ name: StaticString) {
    let length = name.utf8CodeUnitCount
    let out = reserve(length + 4)
    var index = 0
    if needsComma {
      out[0] = UInt8(ascii: ",")
      index = 1
    }
    out[index] = UInt8(ascii: "\"")
    (out + index + 1).update(from: name.utf8Start, count: length)
    out[index + 1 + length] = UInt8(ascii: "\"")
    out[index + 2 + length] = UInt8(ascii: ":")
    count += index + 3 + length
    needsComma = false
  }

  /// Writes a member name computed at run time (escaped); the next value is its value.
  public mutating func key(named name: String) {
    separate()
    appendQuoted(name)
    reserve(1)[0] = UInt8(ascii: ":")
    count += 1
    needsComma = false
  }

  /// Writes already-encoded JSON text as one value (trusted, not validated).
  public mutating func raw(_ json: [UInt8]) {
    separate()
    json.withUnsafeBufferPointer { appendRun($0) }
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
        key(named: member.key)
        self.value(member.value)
      }
      endObject()
    }
  }

  /// Empties the buffer, keeping its capacity, so one writer can be reused per message.
  public mutating func reset() {
    count = 0
    needsComma = false
  }

  // MARK: Private

  /// The pointer to write `extra` more bytes at, with room for them.
  ///
  /// The caller stores them and adds to `count`.
  @inline(__always)
  mutating func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
    if count + extra > storage.capacity || !isKnownUniquelyReferenced(&storage) {
      grow(extra)
    }
    return storage.base + count
  }

  /// A unique buffer with room for `extra` more bytes (capacity doubles).
  private mutating func grow(_ extra: Int) {
    let fresh = Storage(capacity: max(count + extra, 2 * storage.capacity, 256))
    fresh.base.update(from: storage.base, count: count)
    storage = fresh
  }

  /// Writes a comma if a value came before; every value then leaves `needsComma` true.
  mutating func separate() {
    if needsComma {
      reserve(1)[0] = UInt8(ascii: ",")
      count += 1
    }
    needsComma = true
  }

  /// A comma if needed, then `{` or `[`.
  private mutating func open(_ bracket: UInt8) {
    let out = reserve(2)
    if needsComma {
      out[0] = UInt8(ascii: ",")
      out[1] = bracket
      count += 2
    } else {
      out[0] = bracket
      count += 1
    }
    needsComma = false
  }

  /// A comma if needed, then a compile-time fragment (`null`, `true`, `-0`).
  private mutating func separateAndAppend(_ text: StaticString) {
    let length = text.utf8CodeUnitCount
    let out = reserve(length + 1)
    var index = 0
    if needsComma {
      out[0] = UInt8(ascii: ",")
      index = 1
    }
    (out + index).update(from: text.utf8Start, count: length)
    count += index + length
    needsComma = true
  }

  /// Appends raw bytes.
  private mutating func appendRun(_ run: UnsafeBufferPointer<UInt8>) {
    guard let source = run.baseAddress, !run.isEmpty else { return }
    reserve(run.count).update(from: source, count: run.count)
    count += run.count
  }

  /// Appends one byte.
  private mutating func appendByte(_ byte: UInt8) {
    reserve(1)[0] = byte
    count += 1
  }

  private mutating func appendQuoted(_ text: String) {
    // Native strings lend their UTF-8 in place, small (inline) ones from a stack copy of
    // their 16 bytes: no per-byte iteration either way.
    var text = text
    text.withUTF8 { appendQuoted(utf8: $0) }
  }

  private mutating func appendQuoted(utf8: UnsafeBufferPointer<UInt8>) {
    var index = JSONWriter.firstByteNeedingEscape(utf8, from: 0)
    if index == utf8.count {
      // No escape (the common case): quote, text and quote in one run.
      let out = reserve(utf8.count + 2)
      out[0] = UInt8(ascii: "\"")
      if let source = utf8.baseAddress { (out + 1).update(from: source, count: utf8.count) }
      out[utf8.count + 1] = UInt8(ascii: "\"")
      count += utf8.count + 2
      return
    }
    appendByte(UInt8(ascii: "\""))
    var runStart = 0
    while index < utf8.count {
      appendRun(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
      appendEscape(utf8[index])
      runStart = index + 1
      index = JSONWriter.firstByteNeedingEscape(utf8, from: runStart)
    }
    appendRun(UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
    appendByte(UInt8(ascii: "\""))
  }

  /// The index of the first byte from `start` that JSON requires escaped (a control
  /// character, `"` or `\\`), or `utf8.count`; checks eight bytes at a time.
  static func firstByteNeedingEscape(_ utf8: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    guard let base = utf8.baseAddress else { return utf8.count }
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    var index = start
    while index + 8 <= utf8.count {
      let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
      // A lane is flagged when its byte is < 0x20, or equals 0x22 or 0x5C (exact for ASCII;
      // bytes >= 0x80 never flag, because `& ~word` clears their high bit).
      let control = (word &- ones &* 0x20) & ~word & highs
      let quote = ((word ^ (ones &* 0x22)) &- ones) & ~(word ^ (ones &* 0x22)) & highs
      let slash = ((word ^ (ones &* 0x5C)) &- ones) & ~(word ^ (ones &* 0x5C)) & highs
      let flags = control | quote | slash
      // The lowest flagged lane is exact (a borrow only leaves a lane that matched).
      if flags != 0 { return index + flags.trailingZeroBitCount / 8 }
      index += 8
    }
    while index < utf8.count {
      let byte = base[index]
      if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return index }
      index += 1
    }
    return index
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
      let out = reserve(6)
      out[0] = UInt8(ascii: "\\")
      out[1] = UInt8(ascii: "u")
      out[2] = UInt8(ascii: "0")
      out[3] = UInt8(ascii: "0")
      out[4] = UInt8(ascii: "0") &+ byte >> 4
      out[5] = low < 10 ? UInt8(ascii: "0") &+ low : UInt8(ascii: "a") &+ low &- 10
      count += 6
      return
    }
    let out = reserve(2)
    out[0] = UInt8(ascii: "\\")
    out[1] = short
    count += 2
  }
}
