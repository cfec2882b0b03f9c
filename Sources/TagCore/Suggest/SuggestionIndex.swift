/// A field's vocabulary, indexed once so that each keystroke's suggestions cost a few binary
/// searches instead of a scan (SPEC §6 `field/suggest`).
///
/// Matching is on ``SearchFold``ed text (case- and accent-insensitive: `cafe` finds `Café`).
/// Results come in three tiers, best first:
///
/// 1. **prefix**: the entry starts with the query (`new y` → `New York`);
/// 2. **word prefix**: a later word of the entry starts with the query (`york` → `New York`), or
///    the query spells the initials of consecutive words (`ny` → `New York`, `nyc` →
///    `New York City`; queries of two or more characters without spaces);
/// 3. **fuzzy**: the query's characters appear in order in the entry (`nwyk` → `New York`).
///
/// Within a tier, entries come in alphabetical order of their folded text (so an exact match
/// comes first among the prefix matches), ties in vocabulary order. Each entry appears once, in
/// its best tier. The query is trimmed of surrounding whitespace; an empty query returns the
/// vocabulary in its own order. Entries are trimmed of surrounding whitespace when the index is
/// built; blank ones and ones equal under caseless equality to an earlier entry are dropped.
///
/// Cost: building sorts the vocabulary and its word starts, O(n log n). A query is O(log n) per
/// tier plus the entries returned or skipped, except the fuzzy tier, which walks the entries
/// containing the query's rarest character in alphabetical order and gives up after
/// ``fuzzyBudget`` of them: on a large vocabulary a fuzzy query may miss matches, never a prefix
/// or word-prefix one.
public struct SuggestionIndex: Sendable {
  /// The vocabulary, without caseless duplicates, in the order given.
  public let entries: [String]
  /// The most entries the fuzzy tier looks at per query.
  public static let fuzzyBudget = 4096

  /// All folded entries, concatenated.
  private let bytes: [UInt8]
  /// Per folded byte, the character offset in its entry it came from.
  private let origins: [Int32]
  /// Entry `i`'s folded bytes are `bytes[starts[i]..<starts[i + 1]]`.
  private let starts: [Int32]
  /// Entry ids in alphabetical order of folded text.
  private let sorted: [Int32]
  /// The position of each entry in `sorted`.
  private let rank: [Int32]
  /// Word starts after the first word of each entry: (absolute byte position, entry), sorted by
  /// the folded text from that position to the end of the entry.
  private let wordPositions: [Int32]
  private let wordEntries: [Int32]
  /// Every word start of entry `i` (absolute byte positions) is
  /// `words[wordIndex[i]..<wordIndex[i + 1]]`.
  private let words: [Int32]
  private let wordIndex: [Int32]
  /// Initials runs: (entry, first word number) for each entry with two or more words and each
  /// word but its last, sorted by the initials from that word on.
  private let initialEntries: [Int32]
  private let initialWords: [Int32]
  /// Which character classes each entry holds (see `bucket(of:)`).
  private let masks: [UInt64]
  /// For each character class, the ranks (positions in `sorted`) of the entries holding it.
  private let postings: [[Int32]]

  /// Builds the index of `vocabulary`.
  public init(_ vocabulary: [String]) {
    var seen = Set<String>()
    var entries: [String] = []
    for raw in vocabulary {
      let entry = String(FieldText.trimmed(raw))
      if !entry.isEmpty, seen.insert(CaselessKey.fold(entry)).inserted { entries.append(entry) }
    }
    self.entries = entries
    var bytes: [UInt8] = []
    var origins: [Int32] = []
    var starts: [Int32] = [0]
    var words: [Int32] = []
    var wordIndex: [Int32] = [0]
    var masks: [UInt64] = []
    starts.reserveCapacity(entries.count + 1)
    masks.reserveCapacity(entries.count)
    for entry in entries {
      let folded = SearchFold.fold(entry)
      let base = Int32(bytes.count)
      bytes += folded.bytes
      origins += folded.origins
      starts.append(Int32(bytes.count))
      words += folded.wordStarts.map { $0 + base }
      wordIndex.append(Int32(words.count))
      var mask: UInt64 = 0
      Self.forEachScalar(folded.bytes[...]) { mask |= 1 << Self.bucket(of: $0) }
      masks.append(mask)
    }
    self.bytes = bytes
    self.origins = origins
    self.starts = starts
    self.words = words
    self.wordIndex = wordIndex
    self.masks = masks

    let count = entries.count
    let sorted: [Int32] = (0..<Int32(count)).sorted { a, b in
      let order = Self.compare(
        bytes[Int(starts[Int(a)])..<Int(starts[Int(a) + 1])],
        bytes[Int(starts[Int(b)])..<Int(starts[Int(b) + 1])]
      )
      return order != 0 ? order < 0 : a < b
    }
    self.sorted = sorted
    var rank = [Int32](repeating: 0, count: count)
    for (position, entry) in sorted.enumerated() { rank[Int(entry)] = Int32(position) }
    self.rank = rank

    var postings = [[Int32]](repeating: [], count: 64)
    for (position, entry) in sorted.enumerated() {
      var mask = masks[Int(entry)]
      while mask != 0 {
        let bit = mask.trailingZeroBitCount
        postings[bit].append(Int32(position))
        mask &= mask - 1
      }
    }
    self.postings = postings

    // Later word starts, sorted by the rest of their entry.
    var pairs: [(position: Int32, entry: Int32)] = []
    for entry in 0..<count {
      let first = Int(wordIndex[entry])
      let end = Int(wordIndex[entry + 1])
      for word in words[first..<end] where word > starts[entry] {
        pairs.append((word, Int32(entry)))
      }
    }
    pairs.sort { a, b in
      let order = Self.compare(
        bytes[Int(a.position)..<Int(starts[Int(a.entry) + 1])],
        bytes[Int(b.position)..<Int(starts[Int(b.entry) + 1])]
      )
      return order != 0 ? order < 0 : rank[Int(a.entry)] < rank[Int(b.entry)]
    }
    wordPositions = pairs.map(\.position)
    wordEntries = pairs.map(\.entry)

    // Initials from each word but the last.
    var runs: [(entry: Int32, word: Int32)] = []
    for entry in 0..<count where wordIndex[entry + 1] - wordIndex[entry] >= 2 {
      for word in 0..<(wordIndex[entry + 1] - wordIndex[entry] - 1) {
        runs.append((Int32(entry), word))
      }
    }
    let initialsOf = { (entry: Int32, word: Int32) -> [UInt8] in
      Self.initials(
        bytes,
        words[Int(wordIndex[Int(entry)] + word)..<Int(wordIndex[Int(entry) + 1])]
      )
    }
    let keyed = runs.map { (run: $0, key: initialsOf($0.entry, $0.word)) }
      .sorted { a, b in
        let order = Self.compare(a.key[...], b.key[...])
        return order != 0 ? order < 0 : rank[Int(a.run.entry)] < rank[Int(b.run.entry)]
      }
    initialEntries = keyed.map(\.run.entry)
    initialWords = keyed.map(\.run.word)
  }

  /// Up to `limit` suggestions for `query`, best first, leaving out entries for which `excluded`
  /// is true (the field's present tags).
  public func suggestions(
    for query: String,
    limit: Int,
    excluding excluded: (String) -> Bool = { _ in false }
  ) -> [Suggestion] {
    search(query, limit: limit, excluding: excluded).items
  }

  /// Whether `a` comes before `b` in the alphabetical order of a tier (by their folded text).
  public static func alphabeticallyPrecedes(_ a: String, _ b: String) -> Bool {
    compare(SearchFold.fold(a).bytes[...], SearchFold.fold(b).bytes[...]) < 0
  }

  /// Up to `limit` suggestions for `query`, in the same tiers as
  /// ``suggestions(for:limit:excluding:)``, but ordered within each tier by `order` (a key per
  /// entry of ``entries``, smaller first; equal keys alphabetically), as a vault ranks its tags
  /// by the notes carrying them.
  ///
  /// Each tier is searched whole before it is ordered, and the tiers after the one that fills
  /// the list are not searched; `excluded` is asked only of the entries taken or passed over on
  /// the way. An empty query gives the entries in their own order.
  public func suggestions(
    for query: String,
    limit: Int,
    orderedBy order: [Int],
    excluding excluded: (String) -> Bool = { _ in false }
  ) -> [Suggestion] {
    precondition(order.count == entries.count, "one order key per entry")
    return search(query, limit: limit, order: order, excluding: excluded).items
  }

  /// The suggestions and how many entries the search looked at (for tests of its cost).
  ///
  /// With `order`, each tier's matches are gathered, then taken in that order (see
  /// ``suggestions(for:limit:orderedBy:excluding:)``).
  func search(
    _ query: String,
    limit: Int,
    order: [Int]? = nil,
    excluding excluded: (String) -> Bool
  ) -> (items: [Suggestion], examined: Int) {
    guard limit > 0 else { return ([], 0) }
    let q = SearchFold.fold(String(FieldText.trimmed(query))).bytes
    var items: [Suggestion] = []
    var examined = 0
    guard !q.isEmpty else {
      for entry in entries {
        examined += 1
        if items.count == limit { break }
        if !excluded(entry) { items.append(Suggestion(text: entry, kind: .prefix, matches: [])) }
      }
      return (items, examined)
    }
    let all = bytes
    let query = q[...]
    // Which entries were offered already: a bit each (no hashing, one allocation).
    var taken = [UInt64](repeating: 0, count: (entries.count + 63) / 64)
    /// With `order`, the current tier's matches (each in its best tier only), as plain values:
    /// their ranges are found again for the ones taken.
    var pending: [(entry: Int32, place: MatchPlace)] = []
    /// Offers one entry; returns false once the list is full.
    func offer(_ entry: Int32, _ place: MatchPlace) -> Bool {
      examined += 1
      let (word, bit) = (Int(entry) >> 6, UInt64(1) << (UInt64(entry) & 63))
      guard taken[word] & bit == 0 else { return true }
      if order != nil {
        taken[word] |= bit
        pending.append((entry, place))
        return true
      }
      let text = entries[Int(entry)]
      guard !excluded(text) else { return true }
      taken[word] |= bit
      items.append(suggestion(entry, place, query))
      return items.count < limit
    }

    /// Ends a tier: with `order`, takes its matches in that order; returns false once the list
    /// is full.
    func endTier() -> Bool {
      guard let order, !pending.isEmpty else { return items.count < limit }
      // Sorted as (key, position) pairs: plain integers compared, nothing looked up.
      var ranked = pending.indices.map { (key: order[Int(pending[$0].entry)], at: $0) }
      ranked.sort { $0.key != $1.key ? $0.key < $1.key : $0.at < $1.at }
      let matches = pending
      pending = []
      for (_, at) in ranked {
        let match = matches[at]
        guard !excluded(entries[Int(match.entry)]) else { continue }
        items.append(suggestion(match.entry, match.place, query))
        if items.count == limit { return false }
      }
      return true
    }

    // 1. Prefix.
    var low = lowerBound(count: sorted.count) { position in
      let entry = Int(sorted[position])
      return Self.compare(all[Int(starts[entry])..<Int(starts[entry + 1])], query) < 0
    }
    while low < sorted.count {
      let entry = sorted[low]
      let start = Int(starts[Int(entry)])
      guard Self.hasPrefix(all[start..<Int(starts[Int(entry) + 1])], query) else { break }
      guard offer(entry, .prefix) else { return (items, examined) }
      low += 1
    }
    guard endTier() else { return (items, examined) }
    // 2a. A later word starts with the query.
    low = lowerBound(count: wordPositions.count) { position in
      let end = Int(starts[Int(wordEntries[position]) + 1])
      return Self.compare(all[Int(wordPositions[position])..<end], query) < 0
    }
    while low < wordPositions.count {
      let entry = wordEntries[low]
      let start = Int(wordPositions[low])
      guard Self.hasPrefix(all[start..<Int(starts[Int(entry) + 1])], query) else { break }
      guard offer(entry, .word(Int32(start))) else { return (items, examined) }
      low += 1
    }
    // 2b. The query spells the initials of consecutive words.
    if !q.contains(0x20), Self.scalarCount(query) >= 2 {
      low = lowerBound(count: initialEntries.count) { position in
        Self.compare(initialsKey(position)[...], query) < 0
      }
      while low < initialEntries.count {
        let key = initialsKey(low)
        guard Self.hasPrefix(key[...], query) else { break }
        let entry = initialEntries[low]
        guard offer(entry, .initials(wordIndex[Int(entry)] + initialWords[low])) else {
          return (items, examined)
        }
        low += 1
      }
    }
    guard endTier() else { return (items, examined) }
    // 3. Fuzzy: the query's characters in order.
    var queryMask: UInt64 = 0
    Self.forEachScalar(query) { queryMask |= 1 << Self.bucket(of: $0) }
    var rarest = postings[0]
    var best = Int.max
    var bits = queryMask
    while bits != 0 {
      let bit = bits.trailingZeroBitCount
      if postings[bit].count < best {
        best = postings[bit].count
        rarest = postings[bit]
      }
      bits &= bits - 1
    }
    var budget = Self.fuzzyBudget
    for position in rarest {
      let entry = sorted[Int(position)]
      guard masks[Int(entry)] & queryMask == queryMask,
        taken[Int(entry) >> 6] & (1 << (UInt64(entry) & 63)) == 0
      else { continue }
      budget -= 1
      if budget < 0 { break }
      let range = Int(starts[Int(entry)])..<Int(starts[Int(entry) + 1])
      guard Self.subsequence(query, in: all, range) != nil else {
        examined += 1
        continue
      }
      guard offer(entry, .fuzzy) else { return (items, examined) }
    }
    _ = endTier()
    return (items, examined)

    func initialsKey(_ position: Int) -> [UInt8] {
      let entry = Int(initialEntries[position])
      return Self.initials(
        bytes,
        words[Int(wordIndex[entry] + initialWords[position])..<Int(wordIndex[entry + 1])]
      )
    }
  }

  /// Where an entry matched a query: enough to find the matched bytes again.
  private enum MatchPlace {
    /// The entry starts with the query.
    case prefix
    /// The word starting at this byte position starts with the query.
    case word(Int32)
    /// The query spells the initials of the words from this one (an index into `words`).
    case initials(Int32)
    /// The query's characters appear in order.
    case fuzzy

    var kind: SuggestionKind {
      switch self {
      case .prefix: .prefix
      case .word, .initials: .wordPrefix
      case .fuzzy: .fuzzy
      }
    }
  }

  /// The suggestion of `entry`, which matched the folded `query` at `place`.
  private func suggestion(
    _ entry: Int32,
    _ place: MatchPlace,
    _ query: ArraySlice<UInt8>
  ) -> Suggestion {
    let start = starts[Int(entry)]
    let ranges: [Range<Int32>]
    switch place {
    case .prefix: ranges = [start..<(start + Int32(query.count))]
    case .word(let word): ranges = [word..<(word + Int32(query.count))]
    case .initials(let first):
      let first = Int(first)
      ranges = words[first..<(first + Self.scalarCount(query))].map { start in
        start..<(start + Int32(Self.scalarLength(bytes[Int(start)])))
      }
    case .fuzzy:
      ranges = Self.subsequence(query, in: bytes, Int(start)..<Int(starts[Int(entry) + 1])) ?? []
    }
    let text = entries[Int(entry)]
    return Suggestion(text: text, kind: place.kind, matches: characterRanges(ranges, in: text))
  }

  /// Maps folded byte ranges of an entry to ranges of characters of `text`, merging touching ones.
  private func characterRanges(_ ranges: [Range<Int32>], in text: String) -> [Range<String.Index>] {
    var merged: [Range<Int32>] = []
    for range in ranges where !range.isEmpty {
      let characters = origins[Int(range.lowerBound)]..<(origins[Int(range.upperBound) - 1] + 1)
      if let last = merged.last, last.upperBound >= characters.lowerBound {
        merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, characters.upperBound)
      } else {
        merged.append(characters)
      }
    }
    guard !merged.isEmpty else { return [] }
    var result: [Range<String.Index>] = []
    var index = text.startIndex
    var offset: Int32 = 0
    for range in merged {
      while offset < range.lowerBound {
        text.formIndex(after: &index)
        offset += 1
      }
      let start = index
      while offset < range.upperBound {
        text.formIndex(after: &index)
        offset += 1
      }
      result.append(start..<index)
    }
    return result
  }

  // MARK: Byte helpers

  /// The first position in `0..<count` where `isBefore` is false (`isBefore` is monotone).
  private func lowerBound(count: Int, _ isBefore: (Int) -> Bool) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if isBefore(middle) { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// Lexicographic byte order: negative, zero or positive.
  private static func compare<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Int {
    var i = a.startIndex
    var j = b.startIndex
    while i != a.endIndex, j != b.endIndex {
      if a[i] != b[j] { return Int(a[i]) - Int(b[j]) }
      a.formIndex(after: &i)
      b.formIndex(after: &j)
    }
    return (i == a.endIndex ? 0 : 1) - (j == b.endIndex ? 0 : 1)
  }

  private static func hasPrefix<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Bool
  {
    a.count >= b.count && a.prefix(b.count).elementsEqual(b)
  }

  /// The UTF-8 length of the scalar whose first byte is `lead`.
  private static func scalarLength(_ lead: UInt8) -> Int {
    lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
  }

  private static func scalarCount<C: Collection<UInt8>>(_ bytes: C) -> Int {
    bytes.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
  }

  /// Calls `body` with the first byte and the value of each scalar (a hash of it, for non-ASCII).
  private static func forEachScalar<C: Collection<UInt8>>(_ bytes: C, _ body: (UInt32) -> Void) {
    var value: UInt32 = 0
    var started = false
    for byte in bytes {
      if byte & 0xC0 == 0x80 {
        value = value &* 31 &+ UInt32(byte)
        continue
      }
      if started { body(value) }
      value = UInt32(byte)
      started = true
    }
    if started { body(value) }
  }

  /// The character class of a scalar: `a`–`z` and `0`–`9` each their own, space and other ASCII
  /// together, the rest hashed into the remaining classes.
  private static func bucket(of value: UInt32) -> UInt64 {
    switch value {
    case 0x61...0x7A: UInt64(value - 0x61)
    case 0x30...0x39: UInt64(value - 0x30 + 26)
    case 0..<0x80: 36
    default: 37 + UInt64(value % 27)
    }
  }

  /// The first scalar of each word, concatenated.
  private static func initials(_ bytes: [UInt8], _ wordStarts: ArraySlice<Int32>) -> [UInt8] {
    var key: [UInt8] = []
    for start in wordStarts {
      let start = Int(start)
      key += bytes[start..<(start + scalarLength(bytes[start]))]
    }
    return key
  }

  /// The byte ranges where `query`'s scalars appear in order in `all[range]` (leftmost), or nil.
  private static func subsequence(
    _ query: ArraySlice<UInt8>,
    in all: [UInt8],
    _ range: Range<Int>
  ) -> [Range<Int32>]? {
    var ranges: [Range<Int32>] = []
    var q = query.startIndex
    var position = range.lowerBound
    while q < query.endIndex {
      let length = scalarLength(query[q])
      var found = false
      while position + length <= range.upperBound {
        let here = position
        position += scalarLength(all[here])
        if all[here..<(here + length)].elementsEqual(query[q..<(q + length)]) {
          let matched = Int32(here)..<Int32(here + length)
          if let last = ranges.last, last.upperBound == matched.lowerBound {
            ranges[ranges.count - 1] = last.lowerBound..<matched.upperBound
          } else {
            ranges.append(matched)
          }
          found = true
          break
        }
      }
      guard found else { return nil }
      q += length
    }
    return ranges
  }
}

/// One suggestion: an entry of the vocabulary and the parts of it the query matched.
public struct Suggestion: Hashable, Sendable {
  /// The entry, spelled as in the vocabulary.
  public var text: String
  /// Which tier it matched in.
  public var kind: SuggestionKind
  /// The matched characters of ``text``, as ranges of its indices.
  ///
  /// Whole characters, in order and not touching; the protocol converts them to the negotiated
  /// position encoding.
  public var matches: [Range<String.Index>]

  /// Creates a suggestion.
  public init(text: String, kind: SuggestionKind, matches: [Range<String.Index>]) {
    self.text = text
    self.kind = kind
    self.matches = matches
  }
}

/// The tier a suggestion matched in, best first.
public enum SuggestionKind: String, Hashable, Sendable, CaseIterable {
  /// The entry starts with the query.
  case prefix
  /// A later word starts with the query, or the query spells words' initials.
  case wordPrefix
  /// The query's characters appear in order.
  case fuzzy
}
