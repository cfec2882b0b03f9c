import Shortcuts

/// The hashed index from a field's tag keys to tag indices.
///
/// Each key is hashed once per candidate, and that one hash serves both the lookup and the
/// insert; the hash of every tag is kept, so growing, removing and renumbering never hash a key
/// again. Open addressing with linear probing over a power-of-two table at most half full; a
/// slot holds a tag index + 1, or 0 when empty, and deletion shifts entries back (no tombstones).
///
/// Keys are compared with `String` equality (canonical equivalence), so ``hash(_:)`` gives
/// canonically equivalent keys the same hash. ASCII keys, the common case, are hashed as bytes
/// by a seeded multiply-mix hash (the seed comes from the standard library's per-process random
/// hashing seed); any other key by its `String` hash, unless it is canonically equivalent to an
/// ASCII text, in which case it is hashed as that text.
struct KeyIndex: Sendable {
  /// The hash of each tag's key, parallel to the tags.
  private(set) var hashes: [Int] = []
  /// Tag index + 1, or 0 (32 bits: a field holds far fewer than 2³¹ tags).
  private var slots = [UInt32](repeating: 0, count: 16)
  private var mask = 15

  /// The index of the tag whose key hashes to `hash` and for which `isKey` holds, if any.
  func find(_ hash: Int, where isKey: (Int) -> Bool) -> Int? {
    probe(hash, where: isKey).found
  }

  /// The index of the tag whose key hashes to `hash` and for which `isKey` holds, if any, and
  /// otherwise the empty slot where an entry with `hash` goes (``append(_:at:)``): a new key is
  /// looked for and placed in one probe.
  func probe(_ hash: Int, where isKey: (Int) -> Bool) -> (found: Int?, slot: Int) {
    var slot = hash & mask
    while true {
      let entry = Int(slots[slot])
      if entry == 0 { return (nil, slot) }
      if hashes[entry - 1] == hash, isKey(entry - 1) { return (entry - 1, slot) }
      slot = (slot + 1) & mask
    }
  }

  /// Indexes the tag just appended at index `hashes.count`, whose key hashes to `hash`.
  mutating func append(_ hash: Int) {
    append(hash, at: probe(hash) { _ in false }.slot)
  }

  /// ``append(_:)`` with the empty slot ``probe(_:where:)`` found for `hash`, the table
  /// unchanged since.
  ///
  /// Inlined: called once per pasted tag (see `FieldText.candidate`).
  @inline(__always)
  mutating func append(_ hash: Int, at slot: Int) {
    hashes.append(hash)
    if hashes.count * 2 > slots.count {
      rebuild(capacity: hashes.count)
    } else {
      slots[slot] = UInt32(hashes.count)
    }
  }

  /// Makes room for `count` tags in all.
  mutating func reserve(_ count: Int) {
    hashes.reserveCapacity(count)
    if count * 2 > slots.count { rebuild(capacity: count) }
  }

  /// Follows a change to the tags other than an append.
  ///
  /// The entries of the tags at `old` leave the table, `change` edits the hashes as the tags
  /// were edited, and the tags at `new` (indices after the change) are indexed again. Every
  /// other tag must keep its index. O(old + new).
  mutating func update(
    removing old: Range<Int>,
    adding new: Range<Int>,
    _ change: (inout [Int]) -> Void
  ) {
    for index in old { delete(index) }
    change(&hashes)
    if hashes.count * 2 > slots.count {
      rebuild(capacity: hashes.count)
    } else {
      for index in new { place(index) }
    }
  }

  private mutating func place(_ index: Int) {
    var slot = hashes[index] & mask
    while slots[slot] != 0 { slot = (slot + 1) & mask }
    slots[slot] = UInt32(index + 1)
  }

  /// Removes the entry of the tag at `index`, moving back the entries after it that would no
  /// longer be found past the hole.
  private mutating func delete(_ index: Int) {
    var hole = hashes[index] & mask
    while slots[hole] != UInt32(index + 1) { hole = (hole + 1) & mask }
    var next = (hole + 1) & mask
    while slots[next] != 0 {
      let home = hashes[Int(slots[next]) - 1] & mask
      // The entry at `next` may fill the hole unless its home lies after the hole.
      if (next &- home) & mask >= (next &- hole) & mask {
        slots[hole] = slots[next]
        hole = next
      }
      next = (next + 1) & mask
    }
    slots[hole] = 0
  }

  /// Re-creates the table, at least twice the size of `capacity` entries.
  private mutating func rebuild(capacity: Int) {
    var size = 16
    while size < capacity * 2 { size *= 2 }
    slots = [UInt32](repeating: 0, count: size)
    mask = size - 1
    for index in hashes.indices { place(index) }
  }

  /// What is wrong with the table, empty when nothing is (for tests).
  ///
  /// Checked in loops of bounded length: the probe loops stop only at an empty slot or at the
  /// entry sought, so a broken table hangs them, and a test asks this first to fail instead.
  var problems: [String] {
    var problems: [String] = []
    if slots.count < 16 || slots.count & mask != 0 || mask != slots.count - 1 {
      problems.append("mask \(mask) for \(slots.count) slots")
      return problems
    }
    if hashes.count * 2 > slots.count {
      problems.append("\(hashes.count) tags in \(slots.count) slots")
    }
    let entries = slots.filter { $0 != 0 }.map(Int.init).sorted()
    if entries != (0..<hashes.count).map({ $0 + 1 }) {
      problems.append("entries \(entries) for \(hashes.count) tags")
      return problems
    }
    for (slot, entry) in slots.enumerated() where entry != 0 {
      // Every slot from the entry's home up to its own is occupied, so a probe reaches it.
      var at = hashes[Int(entry) - 1] & mask
      while at != slot {
        if slots[at] == 0 {
          problems.append("tag \(entry - 1) in slot \(slot) is past an empty slot")
          break
        }
        at = (at + 1) & mask
      }
    }
    return problems
  }

  // MARK: Hashing

  /// The hash of `key`: keys equal as `String`s hash alike.
  static func hash(_ key: String) -> Int {
    if FastPath.asciiKeyHash.isOn, let hash = hash(ascii: key.utf8.span) {
      FastPath.asciiKeyHash.taken()
      return hash
    }
    // Not ASCII. A text canonically equivalent to an ASCII text decomposes to it scalar by
    // scalar; the only scalars outside ASCII that do are these singletons (checked over every
    // scalar by KeyIndexTests).
    var image: [UInt8] = []
    for scalar in key.unicodeScalars {
      switch scalar.value {
      case 0..<0x80: image.append(UInt8(truncatingIfNeeded: scalar.value))
      case 0x037E: image.append(0x3B)  // GREEK QUESTION MARK ≡ ;
      case 0x1FEF: image.append(0x60)  // GREEK VARIA ≡ `
      case 0x212A: image.append(0x4B)  // KELVIN SIGN ≡ K
      default: return key.hashValue
      }
    }
    return hash(ascii: image.span) ?? key.hashValue
  }

  /// The per-process seed, from the standard library's random hashing seed.
  static let seed: UInt64 = {
    var hasher = Hasher()
    hasher.combine(0x7461_6764 as UInt64)
    return UInt64(truncatingIfNeeded: hasher.finalize())
  }()

  /// A seeded hash of ASCII bytes, nil when a byte is not ASCII.
  static func hash(ascii bytes: Span<UInt8>) -> Int? {
    let scan = scan(bytes)
    return scan.isASCII ? scan.hash : nil
  }

  /// What one pass over some bytes finds: whether all are ASCII, whether any is an ASCII
  /// capital or small letter, and their hash as a key (meaningful when all are ASCII).
  struct Scan {
    var isASCII: Bool
    var hasCapitals: Bool
    var hasSmalls: Bool
    var hash: Int
  }

  /// Scans `bytes` eight at a time: each word is folded into the hash by a full-width multiply,
  /// and tested for letters a byte per lane (exact while every byte is ASCII, when no lane
  /// carries into the next).
  ///
  /// `seed` is ``seed``: a caller scanning many keys reads it once (each read of the lazy
  /// global is a `swift_once` call).
  @inline(__always)
  static func scan(_ bytes: Span<UInt8>, seed: UInt64 = KeyIndex.seed) -> Scan {
    scan(bytes, 0..<bytes.count, seed: seed)
  }

  /// ``scan(_:seed:)`` of the bytes of `text` in `range`.
  ///
  /// A word that ends past `range` is read whole from `text` when `text` holds it, and the
  /// bytes past the range masked off: a pasted key of up to eight bytes (a separator follows
  /// it) costs one load, where ``Swift/Span/tail(at:)`` takes two and more branches.
  @inline(__always)
  static func scan(_ text: Span<UInt8>, _ range: Range<Int>, seed: UInt64) -> Scan {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let end = range.upperBound
    var hash = seed ^ UInt64(truncatingIfNeeded: range.count)
    var (seen, capitals, smalls): (UInt64, UInt64, UInt64) = (0, 0, 0)
    var position = range.lowerBound
    while position < end {
      let word: UInt64
      // Wrapping arithmetic: 0 ≤ position < end ≤ text.count.
      let taken = min(end &- position, 8)
      if text.count &- position >= 8 {
        word = text.word(at: position) & ~0 &>> UInt64(truncatingIfNeeded: 64 &- 8 &* taken)
        position &+= taken
      } else {
        word = text.extracting(position..<end).tail(at: 0)
        position = end
      }
      seen |= word
      // A lane's top bit: at least "A" and below "[", at least "a" and below "{".
      capitals |= (word &+ ones &* (0x80 - 0x41)) & ~(word &+ ones &* (0x80 - 0x5B))
      smalls |= (word &+ ones &* (0x80 - 0x61)) & ~(word &+ ones &* (0x80 - 0x7B))
      hash = mix(hash ^ word, 0x9E37_79B9_7F4A_7C15)
    }
    let tops = ones &* 0x80
    return Scan(
      isASCII: seen & tops == 0,
      hasCapitals: capitals & tops != 0,
      hasSmalls: smalls & tops != 0,
      hash: Int(truncatingIfNeeded: mix(hash, 0xD6E8_FEB8_6659_FD93))
    )
  }

  private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
    let (high, low) = a.multipliedFullWidth(by: b)
    return high ^ low
  }
}
