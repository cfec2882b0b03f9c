/// The tags of a whole vault (SPEC §6d): which notes carry each tag, how it is spelled, and
/// where it is written.
///
/// A value: ``update(note:tags:)`` and ``remove(note:)`` cost time proportional to that note's
/// tags, never to the vault. Notes are named by the caller (a path relative to the vault's root
/// or a `file://` URI); their **path order** is the byte order of those names. Identity is the
/// field's caseless key (``CaselessKey``, SPEC §1): `Work`, `work` and `WORK` are one tag
/// spelled three ways. Spellings are byte-exact: a decomposed `café` is another spelling of the
/// same tag as the precomposed one.
///
/// Counts are notes, not occurrences. A tag's **vault spelling** is the spelling the most notes
/// use; between equals, the one used by the first note in path order (and when that note
/// writes both, the one it writes first).
///
/// Memory: no note text is kept. Each spelling is stored once; a note keeps its name and 16
/// bytes per tag it writes (the place: byte range, line, kind, spelling), all notes' in one
/// array.
public struct VaultIndex: Sendable {
  /// One tag written in a note, packed.
  struct Occurrence: Hashable, Sendable {
    var start: UInt32
    var end: UInt32
    var spelling: UInt32
    /// The line shifted left by 3, the place's raw value in the low 3 bits.
    var lineAndPlace: UInt32

    var line: Int { Int(lineAndPlace >> 3) }
    var place: TagPlace { TagPlace(rawValue: UInt8(lineAndPlace & 7)) ?? .inline }
  }

  /// A note: its name and where its occurrences are in ``pool``.
  struct Note: Sendable {
    var name: String
    var first: UInt32
    var count: UInt32
    var title: String?
  }

  struct SpellingEntry: Sendable {
    var text: String
    var key: UInt32
    var notes: UInt32
  }

  struct KeyEntry: Sendable {
    var key: CaselessKey
    /// The slots of the notes carrying the tag.
    var notes: Set<UInt32>
    /// Every spelling seen (some may now have no notes).
    var spellings: [UInt32]
  }

  private var spellingIDs: [ExactString: UInt32] = [:]
  private var spellings: [SpellingEntry] = []
  private var keyIDs: [CaselessKey: UInt32] = [:]
  private var keys: [KeyEntry] = []
  private var slots: [ExactString: UInt32] = [:]
  private var notes: [Note?] = []
  private var freeSlots: [UInt32] = []
  /// Every note's occurrences, one run per note.
  ///
  /// One array rather than one per note spares each note an array's header and allocation. Runs left behind by updates and removals are
  /// ``garbage``, compacted away when they make up half the pool (amortized, each occurrence
  /// is copied a bounded number of times).
  private var pool = ContiguousArray<Occurrence>()
  private var garbage = 0

  /// An empty index.
  public init() {}

  /// The number of notes indexed (with or without tags).
  public var noteCount: Int { slots.count }

  /// Whether the note named `name` is indexed.
  public func contains(note name: String) -> Bool { slots[ExactString(name)] != nil }

  /// The names of the indexed notes, in path order.
  public var noteNames: [String] {
    slots.keys.map(\.text).sorted(by: pathOrder)
  }

  /// Records that the note named `name` now carries `tags` (as ``NoteReader`` read them) and
  /// has `title`, replacing what it carried before.
  ///
  /// Tags whose byte offsets pass 2³² or whose line passes 2²⁹ are not recorded (notes are
  /// far smaller).
  public mutating func update(note name: String, tags: [NoteTag], title: String? = nil) {
    let exact = ExactString(name)
    let slot: UInt32
    if let old = slots[exact] {
      unlink(slot: old)
      slot = old
    } else if let free = freeSlots.popLast() {
      slot = free
      slots[exact] = slot
    } else {
      slot = UInt32(notes.count)
      notes.append(nil)
      slots[exact] = slot
    }
    var occurrences = ContiguousArray<Occurrence>()
    occurrences.reserveCapacity(tags.count)
    for tag in tags {
      guard tag.range.lowerBound >= 0, tag.range.upperBound <= Int(UInt32.max),
        tag.line >= 0, tag.line < 1 << 29
      else { continue }
      occurrences.append(
        Occurrence(
          start: UInt32(tag.range.lowerBound),
          end: UInt32(tag.range.upperBound),
          spelling: intern(tag.text),
          lineAndPlace: UInt32(tag.line) << 3 | UInt32(tag.place.rawValue)
        )
      )
    }
    var first = UInt32(pool.count)
    if let old = notes[Int(slot)], occurrences.count <= Int(old.count) {
      first = old.first
      for (offset, occurrence) in occurrences.enumerated() {
        pool[Int(first) + offset] = occurrence
      }
      garbage += Int(old.count) - occurrences.count
    } else {
      garbage += notes[Int(slot)].map { Int($0.count) } ?? 0
      pool.append(contentsOf: occurrences)
    }
    notes[Int(slot)] = Note(
      name: name,
      first: first,
      count: UInt32(occurrences.count),
      title: title
    )
    link(slot: slot)
    compactIfWasteful()
  }

  /// The occurrences of `note`, in the note's order.
  private func occurrences(_ note: Note) -> ArraySlice<Occurrence> {
    pool[Int(note.first)..<(Int(note.first) + Int(note.count))]
  }

  /// Copies the notes' runs into a new pool when half the pool is garbage.
  private mutating func compactIfWasteful() {
    guard garbage > 0, garbage * 2 >= pool.count else { return }
    var compacted = ContiguousArray<Occurrence>()
    compacted.reserveCapacity(pool.count - garbage)
    for slot in notes.indices {
      guard let note = notes[slot] else { continue }
      notes[slot]?.first = UInt32(compacted.count)
      compacted.append(contentsOf: occurrences(note))
    }
    pool = compacted
    garbage = 0
  }

  /// The title of the note named `name`, when it is indexed and has one.
  public func title(of name: String) -> String? {
    slots[ExactString(name)].flatMap { notes[Int($0)]?.title }
  }

  /// Forgets the note named `name` (nothing when it is not indexed).
  public mutating func remove(note name: String) {
    guard let slot = slots.removeValue(forKey: ExactString(name)) else { return }
    unlink(slot: slot)
    garbage += notes[Int(slot)].map { Int($0.count) } ?? 0
    notes[Int(slot)] = nil
    freeSlots.append(slot)
    compactIfWasteful()
  }

  private mutating func intern(_ text: String) -> UInt32 {
    let exact = ExactString(text)
    if let id = spellingIDs[exact] { return id }
    let caseless = CaselessKey(text)
    let key: UInt32
    if let known = keyIDs[caseless] {
      key = known
    } else {
      key = UInt32(keys.count)
      keyIDs[caseless] = key
      keys.append(KeyEntry(key: caseless, notes: [], spellings: []))
    }
    let id = UInt32(spellings.count)
    spellings.append(SpellingEntry(text: text, key: key, notes: 0))
    spellingIDs[exact] = id
    keys[Int(key)].spellings.append(id)
    return id
  }

  /// The distinct spellings of a note's occurrences.
  private func distinctSpellings(_ occurrences: ArraySlice<Occurrence>) -> [UInt32] {
    var ids = occurrences.map(\.spelling)
    ids.sort()
    var unique: [UInt32] = []
    unique.reserveCapacity(ids.count)
    for id in ids where unique.last != id { unique.append(id) }
    return unique
  }

  /// Adds the counts of the note in `slot`.
  private mutating func link(slot: UInt32) {
    guard let note = notes[Int(slot)] else { return }
    for id in distinctSpellings(occurrences(note)) {
      spellings[Int(id)].notes += 1
      keys[Int(spellings[Int(id)].key)].notes.insert(slot)
    }
  }

  /// Takes away the counts of the note in `slot`.
  private mutating func unlink(slot: UInt32) {
    guard let note = notes[Int(slot)] else { return }
    for id in distinctSpellings(occurrences(note)) {
      spellings[Int(id)].notes -= 1
      keys[Int(spellings[Int(id)].key)].notes.remove(slot)
    }
  }

  // MARK: - Queries

  /// Every tag of the vault, most notes first (equal counts: by caseless key, in byte order),
  /// keeping those whose caseless key starts with `prefix`'s (when given; compared by
  /// characters, so `caf` finds `Café`), at most `limit` of them.
  public func tags(prefix: String? = nil, limit: Int? = nil) -> [VaultTag] {
    let folded = prefix.map { CaselessKey($0).folded }
    var found: [(key: Int, notes: Int)] = []
    for (index, entry) in keys.enumerated() where !entry.notes.isEmpty {
      if let folded, !entry.key.folded.hasPrefix(folded) { continue }
      found.append((index, entry.notes.count))
    }
    found.sort { a, b in
      a.notes != b.notes
        ? a.notes > b.notes
        : keys[a.key].key.folded.utf8.lexicographicallyPrecedes(keys[b.key].key.folded.utf8)
    }
    let count = min(found.count, max(0, limit ?? found.count))
    return found.prefix(count).map { vaultTag(key: $0.key) }
  }

  /// The tag `text` is a spelling of (caseless); nil when no note carries it.
  public func tag(_ text: String) -> VaultTag? {
    guard let key = keyIDs[CaselessKey(text)], !keys[Int(key)].notes.isEmpty else { return nil }
    return vaultTag(key: Int(key))
  }

  /// The vault spelling of the tag `text` is a spelling of; nil when no note carries it.
  public func vaultSpelling(of text: String) -> String? {
    guard let key = keyIDs[CaselessKey(text)], !keys[Int(key)].notes.isEmpty else { return nil }
    return rankedSpellings(key: Int(key)).first.map { spellings[Int($0)].text }
  }

  private func vaultTag(key: Int) -> VaultTag {
    let ranked = rankedSpellings(key: key)
    let list = ranked.map {
      VaultSpelling(text: spellings[Int($0)].text, notes: Int(spellings[Int($0)].notes))
    }
    return VaultTag(
      key: keys[key].key,
      spelling: list.first?.text ?? "",
      notes: keys[key].notes.count,
      spellings: list
    )
  }

  /// The key's spellings in use: most notes first; equals by their first note in path order.
  private func rankedSpellings(key: Int) -> [UInt32] {
    let used = keys[key].spellings.filter { spellings[Int($0)].notes > 0 }
    guard used.count > 1 else { return used }
    var firstNote: [UInt32: (name: String, start: UInt32)] = [:]
    let counts = used.map { spellings[Int($0)].notes }
    var tied: Set<UInt32> = []
    for (id, count) in zip(used, counts) where counts.filter({ $0 == count }).count > 1 {
      tied.insert(id)
    }
    if !tied.isEmpty {
      for slot in keys[key].notes {
        guard let note = notes[Int(slot)] else { continue }
        for occurrence in occurrences(note) where tied.contains(occurrence.spelling) {
          let place = (note.name, occurrence.start)
          if let known = firstNote[occurrence.spelling], !Self.precedes(place, known) { continue }
          firstNote[occurrence.spelling] = place
        }
      }
    }
    return used.sorted { a, b in
      let na = spellings[Int(a)].notes
      let nb = spellings[Int(b)].notes
      if na != nb { return na > nb }
      return Self.precedes(firstNote[a] ?? ("", 0), firstNote[b] ?? ("", 0))
    }
  }

  /// Path order, then the order in the note.
  private static func precedes(_ a: (String, UInt32), _ b: (String, UInt32)) -> Bool {
    a.0.hasSameUTF8(as: b.0) ? a.1 < b.1 : pathOrder(a.0, b.0)
  }

  /// How ``notes(carrying:match:)`` combines its tags.
  public enum Match: String, Hashable, Sendable {
    /// Notes carrying every one of the tags.
    case all
    /// Notes carrying at least one of them.
    case any
  }

  /// The names of the notes carrying `tags` (caseless), in path order.
  ///
  /// `all` of no tags is no note.
  public func notes(carrying tags: [String], match: Match = .all) -> [String] {
    var sets: [Set<UInt32>] = []
    for tag in tags {
      if let key = keyIDs[CaselessKey(tag)] {
        sets.append(keys[Int(key)].notes)
      } else if match == .all {
        return []
      }
    }
    guard var result = sets.min(by: { $0.count < $1.count }) else { return [] }
    for set in sets {
      if match == .all { result.formIntersection(set) } else { result.formUnion(set) }
    }
    return result.compactMap { notes[Int($0)]?.name }.sorted(by: pathOrder)
  }

  /// The tags the note named `name` carries, as recorded; nil when it is not indexed.
  public func tags(ofNote name: String) -> [NoteTag]? {
    guard let slot = slots[ExactString(name)], let note = notes[Int(slot)] else { return nil }
    return noteTags(note) { _ in true }
  }

  /// Every place the tag `text` is written (all spellings), and with `children` also the places
  /// of the tags below it (`a/…` for `a`, what renaming `a` renames), by note in path order.
  public func places(of text: String, children: Bool = false) -> [NotePlaces] {
    let folded = CaselessKey(text).folded
    var wanted: Set<UInt32> = []
    if let key = keyIDs[CaselessKey(text)] { wanted.insert(key) }
    if children {
      let below = folded + "/"
      for (index, entry) in keys.enumerated()
      where !entry.notes.isEmpty && entry.key.folded.hasPrefix(below) {
        wanted.insert(UInt32(index))
      }
    }
    var slotsFound: Set<UInt32> = []
    for key in wanted { slotsFound.formUnion(keys[Int(key)].notes) }
    var result: [NotePlaces] = []
    for slot in slotsFound {
      guard let note = notes[Int(slot)] else { continue }
      let tags = noteTags(note) { wanted.contains(spellings[Int($0.spelling)].key) }
      result.append(NotePlaces(note: note.name, tags: tags))
    }
    return result.sorted { pathOrder($0.note, $1.note) }
  }

  /// The note's occurrences that pass `keep`, as tags, with their lists numbered as
  /// ``NoteReader`` numbers them.
  private func noteTags(_ note: Note, keep: (Occurrence) -> Bool) -> [NoteTag] {
    var tags: [NoteTag] = []
    var list = -1
    var previous: (TagPlace, Int)?
    for occurrence in occurrences(note) {
      let place = occurrence.place
      var number: Int?
      if place != .inline {
        let id = (place, place == .orgHeading ? occurrence.line : 0)
        if previous.map({ $0 != id }) ?? true { list += 1 }
        previous = id
        number = list
      }
      guard keep(occurrence) else { continue }
      tags.append(
        NoteTag(
          text: spellings[Int(occurrence.spelling)].text,
          range: Int(occurrence.start)..<Int(occurrence.end),
          line: occurrence.line,
          place: place,
          list: number
        )
      )
    }
    return tags
  }
}

/// Whether `a` comes before `b` in path order: the byte order of their UTF-8.
public func pathOrder(_ a: String, _ b: String) -> Bool {
  a.utf8.lexicographicallyPrecedes(b.utf8)
}

/// A tag of the vault, with its spellings.
public struct VaultTag: Hashable, Sendable {
  /// Its identity.
  public var key: CaselessKey
  /// The vault's spelling: the most used (equals: the first in path order).
  public var spelling: String
  /// How many notes carry it, in any spelling.
  public var notes: Int
  /// Its spellings in use, most notes first; the first is ``spelling``.
  public var spellings: [VaultSpelling]

  /// Creates a tag.
  public init(key: CaselessKey, spelling: String, notes: Int, spellings: [VaultSpelling]) {
    self.key = key
    self.spelling = spelling
    self.notes = notes
    self.spellings = spellings
  }
}

/// One spelling of a vault tag and how many notes use it.
public struct VaultSpelling: Hashable, Sendable {
  /// The spelling.
  public var text: String
  /// The notes that write it at least once.
  public var notes: Int

  /// Creates a spelling.
  public init(text: String, notes: Int) {
    self.text = text
    self.notes = notes
  }
}

/// The places of a tag in one note.
public struct NotePlaces: Hashable, Sendable {
  /// The note's name.
  public var note: String
  /// The tags found there, in the note's order.
  public var tags: [NoteTag]

  /// Creates a note's places.
  public init(note: String, tags: [NoteTag]) {
    self.note = note
    self.tags = tags
  }
}

/// A string compared by its UTF-8 bytes (a spelling, a file name), not by canonical
/// equivalence.
struct ExactString: Hashable, Sendable {
  var text: String
  init(_ text: String) { self.text = text }
  static func == (a: ExactString, b: ExactString) -> Bool { a.text.hasSameUTF8(as: b.text) }
  // Byte-equal strings are canonically equivalent, so String's hash is consistent with ==.
  func hash(into hasher: inout Hasher) { hasher.combine(text) }
}
