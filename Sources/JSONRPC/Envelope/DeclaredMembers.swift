/// The members an object of params may have, declared once on the type that reads it: matched
/// by their bytes into fixed slots (``MemberSlots``) when the object is walked, so no member is
/// looked up by name afterwards and an undeclared one is known at once.
///
/// A class: every decoding reads its type's declaration, which is then one reference, not four
/// arrays to retain and release.
public final class DeclaredMembers: Sendable {
  /// The names in declaration order (an unknown member's error lists them).
  public let names: [String]
  /// Whether members not declared are accepted (LSP's open objects).
  public let acceptsAnyMember: Bool
  /// Each name's first sixteen bytes as two little-endian words (``words(_:readable:)``) and
  /// its length; the UTF-8 of names longer than that.
  private let keys: [(head: UInt64, tail: UInt64, length: Int)]
  private let utf8: [[UInt8]]

  /// Declares `names` (at most ``MemberSlots/capacity``).
  public init(_ names: [String], acceptsAnyMember: Bool = false) {
    precondition(names.count <= MemberSlots.capacity, "too many members for the slots")
    self.names = names
    self.acceptsAnyMember = acceptsAnyMember
    utf8 = names.map { Array($0.utf8) }
    keys = utf8.map { bytes in
      let (head, tail) = bytes.withUnsafeBufferPointer { Self.words($0, readable: 0) }
      return (head, tail, bytes.count)
    }
  }

  /// Declares the names of `cases` (enum cases without payloads, in order): the names the
  /// cases are spelt with, so each member is spelt once, as a case.
  public convenience init<Case>(cases: some Collection<Case>, acceptsAnyMember: Bool = false) {
    // The runtime's own reading of a case's name (what printing a case shows), without the
    // dynamic casts printing makes.
    let names = cases.map { value in caseName(value).map { String(cString: $0) } ?? "" }
    self.init(names, acceptsAnyMember: acceptsAnyMember)
  }

  /// The slot of the key whose bytes (without escapes) are `key`, `readable` bytes readable from
  /// its start: two word compares a name (read through a buffer), slot `expected` first.
  @inline(__always)
  func slot(of key: UnsafeBufferPointer<UInt8>, readable: Int, expected: Int = 0) -> Int? {
    let (head, tail) = Self.words(key, readable: readable)
    let count = key.count
    return keys.withUnsafeBufferPointer { keys in
      func matches(_ slot: Int) -> Bool {
        keys[slot].head == head && keys[slot].tail == tail && keys[slot].length == count
          && (count <= 16 || utf8[slot][16...].elementsEqual(key[16...]))
      }
      if expected < keys.count, matches(expected) { return expected }
      return keys.indices.first { $0 != expected && matches($0) }
    }
  }

  /// The first sixteen bytes of `key` as two little-endian words (first byte lowest), zero past
  /// its end: loaded whole when `readable` (from its start) allows, else byte by byte.
  @inline(__always)
  static func words(_ key: UnsafeBufferPointer<UInt8>, readable: Int) -> (UInt64, UInt64) {
    let count = key.count
    guard readable >= 16, let base = key.baseAddress else {
      var words: (UInt64, UInt64) = (0, 0)
      withUnsafeMutableBytes(of: &words) {
        $0.copyMemory(
          from: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(key).prefix(16))
        )
      }
      return words
    }
    let head = UnsafeRawPointer(base).loadUnaligned(as: UInt64.self)
    let tail = UnsafeRawPointer(base).loadUnaligned(fromByteOffset: 8, as: UInt64.self)
    if count >= 16 { return (head, tail) }
    if count >= 8 { return (head, tail & (1 << (8 * UInt64(count - 8)) &- 1)) }
    return (head & (1 << (8 * UInt64(count)) &- 1), 0)
  }

  /// The slot of the member named `name` (a decoded key, or a tree's).
  public func slot(of name: String) -> Int? {
    var name = name
    return name.withUTF8 { slot(of: $0, readable: 0) }
  }
}

/// Where each declared member of one object is: the value's bytes in the body (or, for a
/// parsed tree, the member's index), and the first member that is not declared.
///
/// A fixed set of slots filled in document order, so a repeated member's last value stands
/// (what a ``JSONObject`` lookup gives). Small and read in place (inlinable), as it is made
/// for every object of every message.
public struct MemberSlots: Sendable {
  /// The most members a type may declare.
  public static let capacity = 16
  /// Slot `i`'s value as `start << 32 | end`; 0 when absent (no JSON value is empty).
  @usableFromInline var values = InlineArray<16, UInt64>(repeating: 0)
  /// Bit `i`: slot `i`'s value is a string without escapes.
  @usableFromInline var plain: UInt16 = 0
  /// The key of the first member not declared (packed as a value), 0 when none.
  private var unknownKey: UInt64 = 0
  private var unknownHasEscapes = false

  /// No member.
  public init() {}

  /// Slot `slot`'s value, nil when absent.
  @inlinable public func value(_ slot: Int) -> Range<Int>? {
    let packed = values[slot]
    return packed == 0 ? nil : Int(packed >> 32)..<Int(packed & 0xFFFF_FFFF)
  }

  /// Whether slot `slot`'s value is a string without escapes.
  @inlinable public func isPlainString(_ slot: Int) -> Bool { plain & (1 << UInt16(slot)) != 0 }

  /// The key (bytes between its quotes, or a tree member's index) of the first member not
  /// declared, and whether it holds escapes.
  public var unknown: (key: Range<Int>, hasEscapes: Bool)? {
    guard unknownKey != 0 else { return nil }
    return (Int(unknownKey >> 32)..<Int(unknownKey & 0xFFFF_FFFF), unknownHasEscapes)
  }

  /// Notes a member (offsets below 2³²): `slot` nil when it is not declared.
  public mutating func found(
    _ slot: Int?,
    key: Range<Int>,
    keyHasEscapes: Bool = false,
    value: Range<Int>,
    isPlainString: Bool = false
  ) {
    guard let slot else {
      if unknownKey == 0 {
        unknownKey = UInt64(key.lowerBound) << 32 | UInt64(key.upperBound)
        unknownHasEscapes = keyHasEscapes
      }
      return
    }
    values[slot] = UInt64(value.lowerBound) << 32 | UInt64(value.upperBound)
    let bit: UInt16 = 1 << UInt16(slot)
    plain = isPlainString ? plain | bit : plain & ~bit
  }
}

extension MessageBytes {
  /// Matches the members whose ranges are `object` into `declared`'s `slots` (empty), in place:
  /// a returned ``MemberSlots`` was copied twice more on its way into the params.
  public func match(
    _ object: JSONObjectRanges,
    _ declared: DeclaredMembers,
    into slots: inout MemberSlots
  ) {
    precondition(count <= UInt32.max, "a body over 4 GiB")
    for (index, member) in object.members.enumerated() {
      slots.found(
        member.keyHasEscapes
          ? declared.slot(of: key(member.key, hasEscapes: true))
          : declared.slot(
            of: slice(member.key),
            readable: count - member.key.lowerBound,
            expected: index
          ),
        key: member.key,
        keyHasEscapes: member.keyHasEscapes,
        value: member.value,
        isPlainString: member.isPlainString
      )
    }
  }

  /// The members of the object at `range`, walked and then matched into `declared`'s slots;
  /// nil when the value there is not an object.
  public func slots(ofObjectAt range: Range<Int>, _ declared: DeclaredMembers) -> MemberSlots? {
    // Over the whole body, so that the ranges are the body's.
    var scanner = JSONScanner(buffer, maxDepth: JSONReader.maxSupportedDepth, trusted: true)
    scanner.position = range.lowerBound
    var members: [JSONObjectRanges.Member] = []
    // The body was validated: nil only for a value that is no object.
    guard let object = try? scanner.readObjectRanges(reusing: &members) else { return nil }
    var slots = MemberSlots()
    match(object, declared, into: &slots)
    return slots
  }

  /// The text of the key whose bytes (between its quotes) are `range`.
  public func key(_ range: Range<Int>, hasEscapes: Bool) -> String {
    guard hasEscapes else { return string(range) }
    // The key with its quotes is a JSON string: read it as one.
    let quoted = (range.lowerBound - 1)..<(range.upperBound + 1)
    return parse(quoted, maxDepth: 1)?.stringValue ?? ""
  }
}

/// The name of enum case `value`, as the Swift runtime records it (nil for no enum case).
@_silgen_name("swift_EnumCaseName")
private func caseName<T>(_ value: T) -> UnsafePointer<CChar>?
