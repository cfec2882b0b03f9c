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
public struct JSONWriter: ~Copyable {
  /// The buffer: raw memory owned by this writer alone (it cannot be copied), written with
  /// unchecked stores after one capacity check per call.
  ///
  /// The members below are visible to the inlinable writers (constant fragments, keys,
  /// brackets): a call across modules cost more than the few stores it makes.
  @usableFromInline var base: UnsafeMutablePointer<UInt8>
  @usableFromInline var capacity: Int

  /// The number of bytes written.
  public var count: Int { written }
  /// ``count``'s storage.
  @usableFromInline var written = 0

  /// Whether the next value or key needs a comma before it.
  ///
  /// One flag suffices: it is false
  /// right after `[`, `{` or a key, and true after any complete value.
  @usableFromInline var needsComma = false

  /// Creates an empty writer.
  public init() {
    self.init(reservingCapacity: 256)
  }

  /// Creates an empty writer with room for `capacity` bytes, so a typical message is written
  /// without regrowing the buffer.
  public init(reservingCapacity capacity: Int) {
    self.capacity = max(capacity, 16)
    base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
  }

  deinit { base.deallocate() }

  /// The text written so far (a copy; ``withBytes(_:)`` lends it without copying).
  public var bytes: [UInt8] {
    Array(UnsafeBufferPointer(start: base, count: count))
  }

  /// Lends the text written so far.
  public func withBytes<R>(_ body: (Span<UInt8>) throws -> R) rethrows -> R {
    try body(UnsafeBufferPointer(start: base, count: count).span)
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
    // Native strings lend their UTF-8 in place, small (inline) ones from a stack copy of
    // their 16 bytes.
    let done =
      value.utf8.withContiguousStorageIfAvailable { utf8 in
        guard FastPath.shortString.isOn, let source = utf8.baseAddress else { return false }
        return storeQuoted(source, utf8.count)
      } ?? false
    guard !done else { return FastPath.shortString.taken() }
    separate()
    var value = value
    value.withUTF8 { appendQuoted(utf8: $0) }
  }

  /// Appends `value` escaped as the inside of a JSON string (no quotes, no comma): for text
  /// written into a string being written, such as a tag in an announcement.
  public mutating func stringContents(_ value: String) {
    // Lent in place as `string(_:)` does (a copy and `withUTF8` cost ~100 instructions more).
    guard value.utf8.withContiguousStorageIfAvailable({ appendEscaped($0) }) == nil else { return }
    var value = value
    value.withUTF8 { appendEscaped($0) }
  }

  /// Writes a comma if needed and `"text"` when none of its `length` bytes needs an escape,
  /// checked eight bytes at a time as they are stored; false, with nothing written, otherwise.
  @inline(__always)
  private mutating func storeQuoted(_ text: UnsafePointer<UInt8>, _ length: Int) -> Bool {
    let out = reserve(length + 3)
    var index = 0
    if needsComma {
      out[0] = UInt8(ascii: ",")
      index = 1
    }
    out[index] = UInt8(ascii: "\"")
    index += 1
    if length >= 8 {
      // Words, the last one overlapping.
      let from = UnsafeRawPointer(text)
      let to = UnsafeMutableRawPointer(out + index)
      var offset = 0
      while true {
        let start = min(offset, length - 8)
        let word = from.loadUnaligned(fromByteOffset: start, as: UInt64.self)
        guard Self.escapeFlags(word) == 0 else { return false }
        to.storeBytes(of: word, toByteOffset: start, as: UInt64.self)
        if start == length - 8 { break }
        offset += 8
      }
    } else if length >= 4 {
      // Two overlapping half-words, checked as the words above.
      let from = UnsafeRawPointer(text)
      let to = UnsafeMutableRawPointer(out + index)
      let first = from.loadUnaligned(as: UInt32.self)
      let last = from.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
      guard Self.escapeFlags(UInt64(first) | UInt64(last) << 32) == 0 else { return false }
      to.storeBytes(of: first, as: UInt32.self)
      to.storeBytes(of: last, toByteOffset: length - 4, as: UInt32.self)
    } else {
      for offset in 0..<length {
        let byte = text[offset]
        guard byte >= 0x20, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") else {
          return false
        }
        out[index + offset] = byte
      }
    }
    out[index + length] = UInt8(ascii: "\"")
    written += index + length + 1
    needsComma = true
    return true
  }

  /// Opens an object.
  @inlinable public mutating func beginObject() {
    open(UInt8(ascii: "{"))
  }

  /// Closes the innermost object.
  @inlinable public mutating func endObject() {
    reserve(1)[0] = UInt8(ascii: "}")
    written += 1
    needsComma = true
  }

  /// Opens an array.
  @inlinable public mutating func beginArray() {
    open(UInt8(ascii: "["))
  }

  /// Closes the innermost array.
  @inlinable public mutating func endArray() {
    reserve(1)[0] = UInt8(ascii: "]")
    written += 1
    needsComma = true
  }

  /// Writes a member name known at compile time; the next value is its value.
  ///
  /// The name is copied as is: it must not need escaping (plain ASCII names always qualify).
  /// `,"name":` is stored in one run after one capacity check.
  @inlinable public mutating func key(_ name: StaticString) {
    let length = name.utf8CodeUnitCount
    let out = reserve(length + 4)
    var index = 0
    if needsComma {
      out[0] = UInt8(ascii: ",")
      index = 1
    }
    out[index] = UInt8(ascii: "\"")
    Self.copy(name.utf8Start, to: out + index + 1, count: length)
    out[index + 1 + length] = UInt8(ascii: "\"")
    out[index + 2 + length] = UInt8(ascii: ":")
    written += index + 3 + length
    needsComma = false
  }

  /// Writes a member name computed at run time (escaped); the next value is its value.
  public mutating func key(named name: String) {
    string(name)
    reserve(1)[0] = UInt8(ascii: ":")
    written += 1
    needsComma = false
  }

  /// Writes already-encoded JSON text as one value (trusted, not validated).
  public mutating func raw(_ json: [UInt8]) {
    json.withUnsafeBufferPointer { raw($0) }
  }

  /// Writes already-encoded JSON text as one value (trusted, not validated).
  public mutating func raw(_ json: ArraySlice<UInt8>) {
    json.withUnsafeBufferPointer { raw($0) }
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

  /// Starts a new top-level value after text already in the buffer (no comma before it).
  public mutating func beginValue() {
    needsComma = false
  }

  /// Writes the start of an object member whose text is known at compile time, such as
  /// `{"field":` or `,"version":`, exactly as given; the next value is its value.
  ///
  /// For writers of a fixed shape: the fragment carries its own `{` or comma, so it must fit
  /// where it is written (the tests compare every result with the general writer's output).
  @inlinable public mutating func fragment(_ text: StaticString) {
    appendRaw(text)
    needsComma = false
  }

  /// Writes whole members known at compile time after a member of the open object, such as
  /// `,"canUndo":true`, exactly as given; another member or the object's end follows.
  ///
  /// The constant counterpart of ``fragment(_:)``: one copy where a key and a value were two
  /// calls.
  @inlinable public mutating func members(_ text: StaticString) {
    appendRaw(text)
    needsComma = true
  }

  /// ``fragment(_:)-(StaticString)`` for text made at run time and kept, such as a field's
  /// `{"field":"f","version":` (trusted JSON text, as it is), from byte `start` on.
  public mutating func fragment(_ text: [UInt8], from start: Int = 0) {
    text.withUnsafeBufferPointer { appendRun(UnsafeBufferPointer(rebasing: $0[start...])) }
    needsComma = false
  }

  /// Appends bytes that are not a JSON value (framing), as they are.
  @inlinable public mutating func appendRaw(_ text: StaticString) {
    appendRun(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// A place to come back to with ``rewind(to:)``: the count and the comma state there.
  public struct Mark {
    let count: Int
    let needsComma: Bool
  }

  /// Where the text stands now, for taking back what is written next.
  public func mark() -> Mark { Mark(count: written, needsComma: needsComma) }

  /// Forgets what was written since `mark`, comma state included, as if never written.
  public mutating func rewind(to mark: Mark) {
    precondition(mark.count <= written)
    written = mark.count
    needsComma = mark.needsComma
  }

  /// Moves the bytes from `start` to the end so they begin at `destination` (either way),
  /// growing or shrinking the text.
  public mutating func moveTail(from start: Int, to destination: Int) {
    let tail = count - start
    if destination > start { _ = reserve(destination - start) }
    (base + destination).update(from: base + start, count: tail)
    written = destination + tail
  }

  /// Leaves `count` bytes to be written later by ``contentLengthHeader(at:length:digits:)``.
  mutating func skip(_ count: Int) {
    _ = reserve(count)
    written += count
  }

  /// Writes `Content-Length: N\r\n\r\n` at `offset`, over bytes already counted, `length` in
  /// `digits` digits: two word stores, the digits and one half-word store.
  mutating func contentLengthHeader(at offset: Int, length: Int, digits: Int) {
    precondition(offset >= 0 && offset + 20 + digits <= count)
    let name: StaticString = "Content-Length: \r\n\r\n"
    let from = UnsafeRawPointer(name.utf8Start)
    let to = UnsafeMutableRawPointer(base + offset)
    to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
    to.storeBytes(
      of: from.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
      toByteOffset: 8,
      as: UInt64.self
    )
    _ = Self.writeDecimal(Int64(length), to: base + offset + 16)
    to.storeBytes(
      of: from.loadUnaligned(fromByteOffset: 16, as: UInt32.self),
      toByteOffset: 16 + digits,
      as: UInt32.self
    )
  }

  /// Writes already-encoded JSON text as one value (trusted, not validated).
  public mutating func raw(_ json: Span<UInt8>) {
    json.withUnsafeBufferPointer { raw($0) }
  }

  /// ``raw(_:)-(Span<UInt8>)`` for bytes lent by a pointer.
  mutating func raw(_ json: UnsafeBufferPointer<UInt8>) {
    separate()
    appendRun(json)
  }

  /// Empties the buffer, keeping its capacity, so one writer can be reused per message.
  public mutating func reset() {
    written = 0
    needsComma = false
  }

  // MARK: Private

  /// The pointer to write `extra` more bytes at, with room for them.
  ///
  /// The caller stores them and adds to `count`.
  @inlinable @inline(__always)
  mutating func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
    if count + extra > capacity { grow(extra) }
    return base + count
  }

  /// A buffer with room for `extra` more bytes (capacity doubles).
  @usableFromInline mutating func grow(_ extra: Int) {
    capacity = max(count + extra, 2 * capacity)
    let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    fresh.update(from: base, count: count)
    base.deallocate()
    base = fresh
  }

  /// Writes a comma if a value came before; every value then leaves `needsComma` true.
  mutating func separate() {
    if needsComma {
      reserve(1)[0] = UInt8(ascii: ",")
      written += 1
    }
    needsComma = true
  }

  /// A comma if needed, then `{` or `[`.
  @inlinable mutating func open(_ bracket: UInt8) {
    let out = reserve(2)
    if needsComma {
      out[0] = UInt8(ascii: ",")
      out[1] = bracket
      written += 2
    } else {
      out[0] = bracket
      written += 1
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
    written += index + length
    needsComma = true
  }

  /// Appends raw bytes.
  @inlinable mutating func appendRun(_ run: UnsafeBufferPointer<UInt8>) {
    guard let source = run.baseAddress, !run.isEmpty else { return }
    Self.copy(source, to: reserve(run.count), count: run.count)
    written += run.count
  }

  /// Copies `count` bytes; short runs (keys, fragments, tags) with two overlapping word
  /// stores instead of a call to `memcpy`.
  @inlinable @inline(__always)
  static func copy(
    _ source: UnsafePointer<UInt8>,
    to destination: UnsafeMutablePointer<UInt8>,
    count: Int
  ) {
    let from = UnsafeRawPointer(source)
    let to = UnsafeMutableRawPointer(destination)
    switch count {
    case 8...16:
      to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
      to.storeBytes(
        of: from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self),
        toByteOffset: count - 8,
        as: UInt64.self
      )
    case 17...32:
      for offset in stride(from: 0, to: count - 8, by: 8) {
        to.storeBytes(
          of: from.loadUnaligned(fromByteOffset: offset, as: UInt64.self),
          toByteOffset: offset,
          as: UInt64.self
        )
      }
      to.storeBytes(
        of: from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self),
        toByteOffset: count - 8,
        as: UInt64.self
      )
    case 4..<8:
      to.storeBytes(of: from.loadUnaligned(as: UInt32.self), as: UInt32.self)
      to.storeBytes(
        of: from.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self),
        toByteOffset: count - 4,
        as: UInt32.self
      )
    case 0..<4:
      for offset in 0..<count { destination[offset] = source[offset] }
    default:
      destination.update(from: source, count: count)
    }
  }

  /// Appends one byte.
  private mutating func appendByte(_ byte: UInt8) {
    reserve(1)[0] = byte
    written += 1
  }

  private mutating func appendQuoted(utf8: UnsafeBufferPointer<UInt8>) {
    appendByte(UInt8(ascii: "\""))
    appendEscaped(utf8)
    appendByte(UInt8(ascii: "\""))
  }

  /// Appends `utf8` escaped, with no quotes: runs without escapes are copied whole.
  private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
    var runStart = 0
    var index = JSONWriter.firstByteNeedingEscape(utf8, from: 0)
    while index < utf8.count {
      appendRun(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
      appendEscape(utf8[index])
      runStart = index + 1
      index = JSONWriter.firstByteNeedingEscape(utf8, from: runStart)
    }
    appendRun(UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
  }

  /// The high bit of each of the eight bytes of `word` (first byte lowest) that JSON requires
  /// escaped: a control character, `"` or `\\`.
  ///
  /// Exact for ASCII; bytes >= 0x80 never flag, because `& ~word` clears their high bit. Only
  /// the lowest flagged lane is exact (a borrow leaves a lane only after a lane that matched),
  /// so the result says whether any byte needs escaping, and which is the first.
  @inline(__always)
  static func escapeFlags(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let control = (word &- ones &* 0x20) & ~word & highs
    return control | bytesEqual(word, 0x22) | bytesEqual(word, 0x5C)
  }

  /// The high bit of each byte of `word` that is `byte`; only the lowest flag is exact (a
  /// borrow may flag the bytes above it).
  @inline(__always)
  static func bytesEqual(_ word: UInt64, _ byte: UInt8) -> UInt64 {
    let x = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
    return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
  }

  /// The index of the first byte from `start` that JSON requires escaped (a control
  /// character, `"` or `\\`), or `utf8.count`; checks eight bytes at a time.
  static func firstByteNeedingEscape(_ utf8: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    guard let base = utf8.baseAddress else { return utf8.count }
    var index = start
    while index + 8 <= utf8.count {
      let flags = escapeFlags(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
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
      written += 6
      return
    }
    let out = reserve(2)
    out[0] = UInt8(ascii: "\\")
    out[1] = short
    written += 2
  }
}
