/// A pull scanner over borrowed JSON bytes: values are read (or skipped) one at a time, in
/// document order, without building a ``JSONValue`` tree.
///
/// It accepts and rejects exactly what ``JSONReader`` does, with the same error (offset and
/// reason): UTF-8 validity, escapes and lone surrogates, numbers, literals, the nesting limit
/// and trailing bytes. A skipped value is validated as fully as a read one. Strings become a
/// `String` only when asked; object keys come as ``Key``s, compared with a name as bytes.
///
/// ```swift
/// try bytes.withUnsafeBufferPointer { buffer in
///   var scanner = JSONScanner(buffer)
///   guard try scanner.beginObject() else { return }            // not an object
///   while let key = try scanner.nextKey() {
///     if key == "text" { text = try scanner.readString() } else { try scanner.skipValue() }
///   }
///   try scanner.finish()                                        // only whitespace may follow
/// }
/// ```
///
/// Containers opened with ``beginObject()`` and ``beginArray()`` are walked with ``nextKey()``
/// and ``nextElement()``; after each key or element exactly one value must be read, skipped
/// or begun. The `read…` methods return nil, consuming nothing, when the next value is of
/// another kind, so a typed decoder can report a type error at the right parameter.
public struct JSONScanner {
  /// The bytes being scanned.
  public let input: UnsafeBufferPointer<UInt8>
  /// The offset of the next byte to look at.
  public internal(set) var position = 0
  let maxDepth: Int
  /// Open containers, those begun by the caller and those inside a value being skipped.
  private(set) var depth = 0
  /// Whether each open container is an object, one bit per level: the first 64 levels inline.
  private var lowKinds: UInt64 = 0
  private var highKinds: [UInt64] = []
  /// True right after `{` or `[`: the next member or element needs no comma.
  var afterOpen = false
  /// Whether `input` is known to be valid JSON (bytes of a ``MessageBytes``: a body the
  /// envelope scan accepted, or a copy checked when made): its strings are then found without
  /// validating them again.
  private let trusted: Bool

  /// An object member's name as it appears in the input (between the quotes, escapes undone
  /// only when asked).
  public struct Key {
    /// The raw bytes between the quotes.
    public let raw: UnsafeBufferPointer<UInt8>
    /// Whether `raw` holds a backslash escape.
    public let hasEscapes: Bool

    /// The name as a String (escapes decoded).
    public var string: String {
      guard hasEscapes else { return Self.validatedText(raw) }
      // Already validated when the key was scanned, so decoding cannot fail.
      return JSONScanner.decodeEscapedRun(raw).withUnsafeBufferPointer(Self.validatedText)
    }

    /// Bytes the scanner has validated (a `Key` is made only from them, and decoding their
    /// escapes yields valid UTF-8) as a `String`, copied without validating them again: for a
    /// large text the second validation cost more than the scan.
    private static func validatedText(_ utf8: UnsafeBufferPointer<UInt8>) -> String {
      String(copying: UTF8Span(unchecked: utf8.span))
    }

    /// Whether the name has no escapes and is `text` (its UTF-8 compared).
    @inline(__always)
    public func isPlain(_ text: String) -> Bool {
      !hasEscapes
        && text.utf8.withContiguousStorageIfAvailable { holds($0.baseAddress, count: $0.count) }
          == true
    }

    /// Whether the name is `name` (compared as bytes when the key has no escapes).
    @inline(__always)
    public static func == (key: Key, name: StaticString) -> Bool {
      guard !key.hasEscapes else {
        return name.withUTF8Buffer { key.string.utf8.elementsEqual($0) }
      }
      guard name.hasPointerRepresentation else {
        return name.withUTF8Buffer { key.raw.elementsEqual($0) }
      }
      return key.holds(name.utf8Start, count: name.utf8CodeUnitCount)
    }

    /// Whether the raw bytes are the `count` at `expected`.
    @inline(__always)
    private func holds(_ expected: UnsafePointer<UInt8>?, count: Int) -> Bool {
      guard raw.count == count else { return false }
      guard let base = raw.baseAddress, let expected else { return count == 0 }
      guard count >= 8 else {
        for index in 0..<count where base[index] != expected[index] { return false }
        return true
      }
      // A word at a time, the last one overlapping (a byte at a time cost ~6 a byte).
      func word(_ bytes: UnsafePointer<UInt8>, _ at: Int) -> UInt64 {
        UnsafeRawPointer(bytes).loadUnaligned(fromByteOffset: at, as: UInt64.self)
      }
      for at in stride(from: 0, to: count - 8, by: 8) where word(base, at) != word(expected, at) {
        return false
      }
      return word(base, count - 8) == word(expected, count - 8)
    }
  }

  /// What the next value is, from its first byte.
  public enum Kind: Equatable, Sendable {
    case object
    case array
    case string
    case number
    case bool
    case null
  }

  /// Scans `input`; containers may nest `maxDepth` deep (capped as ``JSONReader`` caps it).
  public init(_ input: UnsafeBufferPointer<UInt8>, maxDepth: Int = JSONReader.defaultMaxDepth) {
    self.init(input, maxDepth: maxDepth, trusted: false)
  }

  /// A scanner over `input`; `trusted` only for bytes already validated as JSON (see
  /// ``MessageBytes``), whose strings are then delimited without being validated again.
  init(_ input: UnsafeBufferPointer<UInt8>, maxDepth: Int, trusted: Bool) {
    self.input = input
    self.maxDepth = min(maxDepth, JSONReader.maxSupportedDepth)
    self.trusted = trusted
  }

  // MARK: Structure

  /// The kind of the next value (whitespace skipped); throws at the end of input or on a byte
  /// no value starts with.
  @inline(__always)
  public mutating func kind() throws(JSONParseError) -> Kind {
    skipWhitespace()
    guard position < input.count else { throw failure("unexpected end of input") }
    switch input[position] {
    case UInt8(ascii: "{"): return .object
    case UInt8(ascii: "["): return .array
    case UInt8(ascii: "\""): return .string
    case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
    case UInt8(ascii: "n"): return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
    default: throw failure("unexpected \(describe(input[position]))")
    }
  }

  /// Opens the object that comes next; false (nothing consumed) when the next value is not one.
  @inline(__always)
  public mutating func beginObject() throws(JSONParseError) -> Bool {
    guard try kind() == .object else { return false }
    try open(isObject: true)
    return true
  }

  /// Opens the object the input starts with when its first 16 bytes are `prefix` (two words,
  /// first byte lowest: a `{` and whole members without whitespace) and stands after them, so
  /// those members count as read; false (nothing consumed) for any other start.
  mutating func beginObject(startingWith prefix: (UInt64, UInt64)) -> Bool {
    guard position == 0, maxDepth > 0, input.count >= 16,
      let base = UnsafeRawPointer(input.baseAddress),
      base.loadUnaligned(as: UInt64.self) == prefix.0,
      base.loadUnaligned(fromByteOffset: 8, as: UInt64.self) == prefix.1
    else { return false }
    lowKinds = 1
    depth = 1
    position = 16
    return true
  }

  /// The next member's key (its `:` consumed; its value comes next), or nil when the object
  /// ends (its `}` consumed).
  public mutating func nextKey() throws(JSONParseError) -> Key? {
    skipWhitespace()
    if afterOpen {
      if position < input.count, input[position] == UInt8(ascii: "}") {
        position += 1
        closeContainer()
        return nil
      }
      afterOpen = false
      return try keyAndColon()
    }
    guard position < input.count else { throw failure("unexpected end of input") }
    let byte = input[position]
    if byte == UInt8(ascii: ",") {
      position += 1
      skipWhitespace()
      return try keyAndColon()
    }
    if byte == UInt8(ascii: "}") {
      position += 1
      closeContainer()
      return nil
    }
    throw failure("expected ',' or '}' but found \(describe(byte))")
  }

  /// Opens the array that comes next; false (nothing consumed) when the next value is not one.
  public mutating func beginArray() throws(JSONParseError) -> Bool {
    guard try kind() == .array else { return false }
    try open(isObject: false)
    return true
  }

  /// True when another element follows (it comes next); false when the array ends (its `]`
  /// consumed).
  public mutating func nextElement() throws(JSONParseError) -> Bool {
    skipWhitespace()
    if afterOpen {
      if position < input.count, input[position] == UInt8(ascii: "]") {
        position += 1
        closeContainer()
        return false
      }
      afterOpen = false
      return true
    }
    guard position < input.count else { throw failure("unexpected end of input") }
    let byte = input[position]
    if byte == UInt8(ascii: ",") {
      position += 1
      return true
    }
    if byte == UInt8(ascii: "]") {
      position += 1
      closeContainer()
      return false
    }
    throw failure("expected ',' or ']' but found \(describe(byte))")
  }

  /// Checks that nothing but whitespace follows the value read last.
  public mutating func finish() throws(JSONParseError) {
    skipWhitespace()
    if position < input.count {
      throw failure("unexpected \(describe(input[position])) after the JSON text")
    }
  }

  /// Reads and validates the whole input as one JSON text, building nothing.
  public mutating func scanDocument() throws(JSONParseError) {
    try skipValue()
    try finish()
  }

  // MARK: Values

  /// The next string, escapes decoded; nil (nothing consumed) when the next value is not one.
  public mutating func readString() throws(JSONParseError) -> String? {
    guard try kind() == .string else { return nil }
    let (raw, hasEscapes) = try scanString()
    afterOpen = false
    return Key(raw: raw, hasEscapes: hasEscapes).string
  }

  /// The next string's raw bytes (between the quotes, validated, escapes not decoded); nil
  /// (nothing consumed) when the next value is not a string.
  @inline(__always)
  public mutating func readStringBytes() throws(JSONParseError) -> Key? {
    guard try kind() == .string else { return nil }
    let (raw, hasEscapes) = try scanString()
    afterOpen = false
    return Key(raw: raw, hasEscapes: hasEscapes)
  }

  /// The next number with ``JSONReader``'s meaning (`.integer` for an integer lexeme that fits
  /// Int64, else a correctly rounded `.double`; `-0` is `-0.0`, `1e400` is infinity); nil
  /// (nothing consumed) when the next value is not a number.
  public mutating func readNumber() throws(JSONParseError) -> JSONValue? {
    guard try kind() == .number else { return nil }
    afterOpen = false
    if let value = shortInteger() { return .integer(value) }
    return try scanNumber(build: true)
  }

  /// The next value when it is an integer ``shortInteger()`` reads; nil (nothing consumed)
  /// for any other.
  public mutating func readShortInteger() -> Int? {
    skipWhitespace()
    guard let value = shortInteger() else { return nil }
    afterOpen = false
    return Int(value)
  }

  /// A plain integer of at most 18 digits (no sign, fraction, exponent or leading zero: ids,
  /// versions, positions), read by its digits alone; nil (nothing consumed) for any other
  /// number, which ``scanNumber(build:)`` reads or refuses.
  @inline(__always)
  private mutating func shortInteger() -> Int64? {
    var at = position
    var value: Int64 = 0
    while at < input.count, at - position < 18 {
      let digit = input[at] &- UInt8(ascii: "0")
      guard digit < 10 else { break }
      value = value &* 10 &+ Int64(digit)
      at += 1
    }
    guard at > position, input[position] != UInt8(ascii: "0") || at == position + 1 else {
      return nil
    }
    if at < input.count {
      let next = input[at]
      guard next &- UInt8(ascii: "0") >= 10, next != UInt8(ascii: "."),
        next | 0x20 != UInt8(ascii: "e")
      else { return nil }
    }
    FastPath.shortInteger.taken()
    position = at
    return value
  }

  /// The next boolean; nil (nothing consumed) when the next value is not one.
  public mutating func readBool() throws(JSONParseError) -> Bool? {
    guard try kind() == .bool else { return nil }
    afterOpen = false
    if input[position] == UInt8(ascii: "t") {
      try expectLiteral("true")
      return true
    }
    try expectLiteral("false")
    return false
  }

  /// Consumes a `null` and returns true; false (nothing consumed) for any other value.
  public mutating func readNull() throws(JSONParseError) -> Bool {
    guard try kind() == .null else { return false }
    afterOpen = false
    try expectLiteral("null")
    return true
  }

  /// Skips the next value, validating it exactly as reading it would.
  public mutating func skipValue() throws(JSONParseError) {
    let base = depth
    expectingValue: while true {
      skipWhitespace()
      guard position < input.count else { throw failure("unexpected end of input") }
      switch input[position] {
      case UInt8(ascii: "{"):
        try open(isObject: true)
        skipWhitespace()
        if position < input.count, input[position] == UInt8(ascii: "}") {
          position += 1
          closeContainer()
        } else {
          _ = try keyAndColon()
          continue expectingValue
        }
      case UInt8(ascii: "["):
        try open(isObject: false)
        skipWhitespace()
        if position < input.count, input[position] == UInt8(ascii: "]") {
          position += 1
          closeContainer()
        } else {
          continue expectingValue
        }
      // Scalars in line (a call per scalar cost ~20): most are short strings and integers.
      case UInt8(ascii: "\""): _ = try scanString()
      case UInt8(ascii: "0")...UInt8(ascii: "9") where shortInteger() != nil: break
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        _ = try scanNumber(build: false)
      case UInt8(ascii: "t"): try expectLiteral("true")
      case UInt8(ascii: "f"): try expectLiteral("false")
      case UInt8(ascii: "n"): try expectLiteral("null")
      default: throw failure("unexpected \(describe(input[position]))")
      }

      // A value is complete: continue or close the containers this skip opened.
      while depth > base {
        skipWhitespace()
        guard position < input.count else { throw failure("unexpected end of input") }
        let byte = input[position]
        let isObject = topIsObject
        if byte == UInt8(ascii: ",") {
          position += 1
          if isObject {
            skipWhitespace()
            _ = try keyAndColon()
          }
          continue expectingValue
        }
        if isObject ? byte == UInt8(ascii: "}") : byte == UInt8(ascii: "]") {
          position += 1
          closeContainer()
          continue
        }
        throw failure("expected ',' or '\(isObject ? "}" : "]")' but found \(describe(byte))")
      }
      afterOpen = false
      return
    }
  }

  // MARK: Containers

  @inline(__always)
  private mutating func open(isObject: Bool) throws(JSONParseError) {
    guard depth < 64, depth < maxDepth else { return try openDeep(isObject: isObject) }
    let bit: UInt64 = 1 << UInt64(depth)
    lowKinds = isObject ? lowKinds | bit : lowKinds & ~bit
    depth += 1
    position += 1
    afterOpen = true
  }

  /// ``open(isObject:)`` past the inline levels, or past the limit.
  private mutating func openDeep(isObject: Bool) throws(JSONParseError) {
    guard depth < maxDepth else { throw failure("nesting deeper than \(maxDepth)") }
    if depth >= 64 {
      let level = depth - 64
      if highKinds.count <= level / 64 { highKinds.append(0) }
      let bit: UInt64 = 1 << UInt64(level % 64)
      highKinds[level / 64] = isObject ? highKinds[level / 64] | bit : highKinds[level / 64] & ~bit
    }
    depth += 1
    position += 1
    afterOpen = true
  }

  @inline(__always)
  private mutating func closeContainer() {
    depth -= 1
    afterOpen = false
  }

  private var topIsObject: Bool {
    let level = depth - 1
    if level < 64 { return lowKinds >> UInt64(level) & 1 == 1 }
    return highKinds[(level - 64) / 64] >> UInt64((level - 64) % 64) & 1 == 1
  }

  @inline(__always)
  private mutating func keyAndColon() throws(JSONParseError) -> Key {
    guard position < input.count else { throw failure("unexpected end of input") }
    guard input[position] == UInt8(ascii: "\"") else {
      throw failure("expected a string key but found \(describe(input[position]))")
    }
    let (raw, hasEscapes) = try scanString()
    skipWhitespace()
    guard position < input.count else { throw failure("unexpected end of input") }
    guard input[position] == UInt8(ascii: ":") else {
      throw failure("expected ':' but found \(describe(input[position]))")
    }
    position += 1
    return Key(raw: raw, hasEscapes: hasEscapes)
  }

  // MARK: Strings

  /// Validates the string at `position` (its opening quote) and moves past it; returns the
  /// bytes between the quotes and whether they hold an escape.
  ///
  /// A string of at most fifteen plain ASCII bytes (every envelope key and method name, most
  /// params keys, ids and short drafts) is found with one or two word loads; any other goes on
  /// to the full scan.
  @inline(__always)
  mutating func scanString() throws(JSONParseError) -> (UnsafeBufferPointer<UInt8>, Bool) {
    if let base = input.baseAddress {
      var offset = 1
      while offset <= 9, position + offset + 8 <= input.count {
        let word = UnsafeRawPointer(base + position + offset).loadUnaligned(as: UInt64.self)
        // The lowest flag is exact: the first byte that is a quote, a backslash, a control
        // character or not ASCII.
        let flags = JSONWriter.escapeFlags(word) | (word & 0x8080_8080_8080_8080)
        if flags != 0 {
          let length = offset - 1 + flags.trailingZeroBitCount / 8
          guard base[position + 1 + length] == UInt8(ascii: "\"") else { break }
          FastPath.shortScannedString.taken()
          let raw = UnsafeBufferPointer(start: base + position + 1, count: length)
          position += length + 2
          return (raw, false)
        }
        offset += 8
      }
    }
    return try scanLongString()
  }

  /// ``scanString()`` for a string it does not find in one word.
  private mutating func scanLongString() throws(JSONParseError) -> (
    UnsafeBufferPointer<UInt8>, Bool
  ) {
    let opening = position
    position += 1
    let start = position
    var hasEscapes = false
    if trusted {
      // Valid JSON: the string ends at the first quote that is not an escape's second byte
      // (a `\u` escape's hex digits hold neither a quote nor a backslash).
      FastPath.trustedString.taken()
      while true {
        position = JSONWriter.firstByteNeedingEscape(input, from: position)
        guard position < input.count else { break }
        if input[position] == UInt8(ascii: "\"") {
          let raw = UnsafeBufferPointer(rebasing: input[start..<position])
          position += 1
          return (raw, hasEscapes)
        }
        hasEscapes = hasEscapes || input[position] == UInt8(ascii: "\\")
        position += input[position] == UInt8(ascii: "\\") ? 2 : 1
      }
      position = input.count
      throw JSONParseError(offset: opening, reason: "unterminated string")
    }
    while position < input.count {
      position = JSONScanner.plainRunEnd(input, from: position)
      guard position < input.count else { break }
      let byte = input[position]
      if byte == UInt8(ascii: "\"") {
        let raw = UnsafeBufferPointer(rebasing: input[start..<position])
        position += 1
        return (raw, hasEscapes)
      }
      if byte == UInt8(ascii: "\\") {
        hasEscapes = true
        try validateEscape()
      } else if byte < 0x20 {
        throw failure("raw control character \(hex(byte)) in a string")
      } else if byte < 0x80 {
        position += 1
      } else if let length = wellFormedSequence(at: position) {
        position += length
      } else {
        try skipUTF8Sequence()  // its exact error
      }
    }
    throw JSONParseError(offset: opening, reason: "unterminated string")
  }

  /// The first index from `start` holding a byte that is not plain string content: a quote,
  /// a backslash, a control character or a non-ASCII byte; checks eight bytes at a time.
  static func plainRunEnd(_ input: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    guard let base = input.baseAddress else { return start }
    var index = start
    while index + 8 <= input.count {
      let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
      // The writer's escape test, plus any byte with its high bit set.
      let flags = JSONWriter.escapeFlags(word) | (word & 0x8080_8080_8080_8080)
      if flags != 0 { return index + flags.trailingZeroBitCount / 8 }
      index += 8
    }
    while index < input.count {
      let byte = base[index]
      if byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
        return index
      }
      index += 1
    }
    return index
  }

  /// Checks the escape at `position` as ``JSONReader`` would decode it, and skips it.
  private mutating func validateEscape() throws(JSONParseError) {
    guard position + 1 < input.count else { throw failure("unterminated escape") }
    let escaped = input[position + 1]
    switch escaped {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
      UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      position += 2
    case UInt8(ascii: "u"):
      _ = try decodeUnicodeEscape()
    default:
      throw failure("invalid escape '\\\(describeRaw(escaped))'")
    }
  }

  /// The bytes of `raw` (string content with escapes, already validated) with the escapes
  /// decoded.
  static func decodeEscapedRun(_ raw: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    var unused: [Int] = []
    return decodeEscapedRun(raw, lineStarts: &unused, collecting: false)
  }

  /// ``decodeEscapedRun(_:)``, also appending to `lineStarts` the offset after each line break
  /// (LF, CRLF or CR) of the decoded text when `collecting`.
  ///
  /// Valid JSON holds no raw CR or LF in a string, so every line break is an escape, which the
  /// decoder visits anyway: the lines cost nothing more to find.
  ///
  /// Runs between escapes are copied whole (a long text is mostly runs), into
  /// an array of `raw`'s size: decoding never lengthens (an escape of 2, 6 or 12 bytes stands
  /// for at most 4).
  @inline(__always)
  static func decodeEscapedRun(
    _ raw: UnsafeBufferPointer<UInt8>,
    lineStarts: inout [Int],
    collecting: Bool
  ) -> [UInt8] {
    guard let from = raw.baseAddress else { return [] }
    return [UInt8](unsafeUninitializedCapacity: raw.count) { out, written in
      guard let to = out.baseAddress else { return }
      /// Notes the CR or LF just written at `at`: an LF right after a CR ends the same line.
      func noteBreak(_ at: Int) {
        if to[at] == 0x0A, at > 0, to[at - 1] == 0x0D, lineStarts.last == at {
          lineStarts[lineStarts.count - 1] = at + 1
        } else {
          lineStarts.append(at + 1)
        }
      }
      var scanner = JSONScanner(raw, maxDepth: 1)
      var at = 0
      while scanner.position < raw.count {
        var run = scanner.position
        // Runs are copied a word at a time as they are searched: each word is stored whole
        // (there is room, as the output never gets ahead of the input), and the bytes from a
        // backslash on are overwritten by what follows. A call to memcpy per run cost more
        // than the run, which is a line or less of text.
        while run + 8 <= raw.count {
          let word = UnsafeRawPointer(from + run).loadUnaligned(as: UInt64.self)
          UnsafeMutableRawPointer(to + at).storeBytes(of: word, as: UInt64.self)
          let flags = JSONWriter.bytesEqual(word, UInt8(ascii: "\\"))
          if flags != 0 {
            let length = flags.trailingZeroBitCount / 8
            run += length
            at += length
            break
          }
          run += 8
          at += 8
        }
        if run + 8 > raw.count {
          while run < raw.count, raw[run] != UInt8(ascii: "\\") {
            to[at] = raw[run]
            run += 1
            at += 1
          }
        }
        scanner.position = run
        guard run + 1 < raw.count else { break }
        let escaped = raw[run + 1]
        switch escaped {
        case UInt8(ascii: "b"): to[at] = 0x08
        case UInt8(ascii: "f"): to[at] = 0x0C
        case UInt8(ascii: "n"): to[at] = 0x0A
        case UInt8(ascii: "r"): to[at] = 0x0D
        case UInt8(ascii: "t"): to[at] = 0x09
        case UInt8(ascii: "u"):
          // Validated, so `try?` never yields nil; if it did, the escape is stepped over.
          guard let scalar = try? scanner.decodeUnicodeEscape() else {
            scanner.position = run + 2
            continue
          }
          at += JSONScanner.encodeScalar(scalar, into: to + at, room: raw.count - at)
          if collecting, scalar == 0x0A || scalar == 0x0D { noteBreak(at - 1) }
          continue
        default: to[at] = escaped
        }
        if collecting, escaped == UInt8(ascii: "n") || escaped == UInt8(ascii: "r") {
          noteBreak(at)
        }
        at += 1
        scanner.position = run + 2
      }
      written = at

    }
  }
}
