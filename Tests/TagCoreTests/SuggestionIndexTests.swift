import TagTestSupport
import Testing

@testable import TagCore

/// The matched ranges of a suggestion as substrings, for readable expectations.
private func highlighted(_ suggestion: Suggestion) -> [String] {
  suggestion.matches.map { String(suggestion.text[$0]) }
}

@Suite struct SuggestionIndexTests {
  private let cities = SuggestionIndex([
    "New York", "Newark", "New York City", "Café Noir", "Cafeteria", "cafe", "Yorkshire",
    "Nairobi", "Kyoto", "Straße", "Łódź", "São Paulo",
  ])

  @Test func initialsAreWordPrefixMatches() {
    let items = cities.suggestions(for: "ny", limit: 10)
    #expect(items.map(\.text) == ["New York", "New York City"])
    #expect(items.map(\.kind) == [.wordPrefix, .wordPrefix])
    #expect(items.map(highlighted) == [["N", "Y"], ["N", "Y"]])
  }

  @Test func tiersComeInOrderPrefixWordPrefixFuzzy() {
    let index = SuggestionIndex(["Big Orange", "orange", "Oregano", "a orange b", "boring"])
    let items = index.suggestions(for: "or", limit: 10)
    #expect(items.map(\.text) == ["orange", "Oregano", "Big Orange", "a orange b", "boring"])
    #expect(items.map(\.kind) == [.prefix, .prefix, .wordPrefix, .wordPrefix, .fuzzy])
    #expect(items.map(highlighted) == [["or"], ["Or"], ["Or"], ["or"], ["or"]])
  }

  @Test func initialsHighlightTheFirstLetterOfEachWord() {
    let items = cities.suggestions(for: "nyc", limit: 10)
    #expect(items.first?.text == "New York City")
    #expect(items.first.map(highlighted) == ["N", "Y", "C"])
    #expect(items.first?.kind == .wordPrefix)
  }

  @Test func caseAndAccentInsensitive() {
    let items = cities.suggestions(for: "CAFE", limit: 10)
    #expect(items.map(\.text) == ["cafe", "Café Noir", "Cafeteria"])
    #expect(items.map(highlighted) == [["cafe"], ["Café"], ["Cafe"]])
    #expect(cities.suggestions(for: "lodz", limit: 1).map(\.text) == ["Łódź"])
    #expect(cities.suggestions(for: "strasse", limit: 1).map(\.text) == ["Straße"])
    #expect(cities.suggestions(for: "sao p", limit: 1).map(highlighted) == [["São P"]])
    // A decomposed query finds a precomposed entry.
    #expect(cities.suggestions(for: "Cafe\u{301} n", limit: 1).map(\.text) == ["Café Noir"])
  }

  @Test func prefixBeforeWordPrefix() {
    let items = cities.suggestions(for: "york", limit: 10)
    #expect(items.map(\.text) == ["Yorkshire", "New York", "New York City"])
    #expect(items.map(\.kind) == [.prefix, .wordPrefix, .wordPrefix])
    #expect(items.map(highlighted) == [["York"], ["York"], ["York"]])
  }

  @Test func exactMatchFirstAmongPrefixes() {
    let items = cities.suggestions(for: "new", limit: 10)
    #expect(items.map(\.text).prefix(3) == ["New York", "New York City", "Newark"])
  }

  @Test func fuzzySubsequenceWithRanges() {
    let items = cities.suggestions(for: "nwyk", limit: 10)
    #expect(items.map(\.text) == ["New York", "New York City"])
    #expect(items.map(\.kind) == [.fuzzy, .fuzzy])
    #expect(items.first.map(highlighted) == ["N", "w", "Y", "k"])
  }

  @Test func presentTagsLeftOutCaseless() {
    var field = TagField()
    _ = field.apply(.tagsAdded(["NEW YORK"]))
    let items = cities.suggestions(for: "ny", limit: 10) { field.index(of: $0) != nil }
    #expect(items.map(\.text) == ["New York City"])
  }

  @Test func limitAndEmptyQuery() {
    #expect(
      cities.suggestions(for: "", limit: 3).map(\.text) == ["New York", "Newark", "New York City"]
    )
    #expect(cities.suggestions(for: "  ", limit: 2).map(\.matches) == [[], []])
    #expect(cities.suggestions(for: "n", limit: 2).count == 2)
    #expect(cities.suggestions(for: "n", limit: 0).isEmpty)
    #expect(cities.suggestions(for: "zzz", limit: 5).isEmpty)
  }

  @Test func caselessDuplicatesInTheVocabularyAreDropped() {
    let index = SuggestionIndex(["Red", "red", "RED ", "Rouge"])
    #expect(index.entries == ["Red", "Rouge"])
  }

  @Test func emptyVocabulary() {
    #expect(SuggestionIndex([]).suggestions(for: "a", limit: 5).isEmpty)
  }

  @Test func foldMapsEveryByteToItsCharacter() {
    let folded = SearchFold.fold("Aß É\u{301}x")
    #expect(Array(folded.bytes) == Array("ass ex".utf8))
    #expect(folded.origins == [0, 1, 1, 2, 3, 4])
    #expect(folded.wordStarts == [0, 4])
  }

  /// Every suggestion really matches, in its tier, and the tiers come in order; checked against
  /// a brute-force scan of a random vocabulary.
  @Test(arguments: 1...20)
  func agreesWithABruteForceScan(seed: Int) {
    var random = SplitMix64(seed: UInt64(seed) &* 7_919)
    let alphabet = ["a", "b", "c", "é", "E", " ", "-", "ß", "o"]
    let vocabulary = (0..<200).map { _ in random.string(from: alphabet, maxLength: 8) }
    let index = SuggestionIndex(vocabulary)
    for _ in 0..<30 {
      let query = random.string(from: ["a", "b", "c", "E", "-", "o", "s"], maxLength: 4)
      let items = index.suggestions(for: query, limit: 1_000)
      let q = SearchFold.fold(String(query)).bytes
      if q.isEmpty { continue }
      func tier(_ entry: String) -> SuggestionKind? {
        let folded = SearchFold.fold(entry)
        let bytes = folded.bytes
        if bytes.starts(with: q) { return .prefix }
        for start in folded.wordStarts where start > 0 && bytes[Int(start)...].starts(with: q) {
          return .wordPrefix
        }
        let initials = folded.wordStarts.map { bytes[Int($0)] }
        if q.count >= 2, !q.contains(0x20) {
          for j in initials.indices where initials[j...].starts(with: q) { return .wordPrefix }
        }
        var i = 0
        for byte in bytes where i < q.count && byte == q[i] { i += 1 }
        return i == q.count ? .fuzzy : nil
      }
      let expected = index.entries.filter { tier($0) != nil }
      #expect(Set(items.map(\.text)) == Set(expected), "query \(query)")
      for item in items {
        #expect(tier(item.text) == item.kind, "query \(query) \(item.text)")
      }
      let ranks = items.map {
        [SuggestionKind.prefix, .wordPrefix, .fuzzy].firstIndex(of: $0.kind) ?? 0
      }
      #expect(ranks == ranks.sorted(), "query \(query)")
      #expect(Set(items.map(\.text)).count == items.count)
    }
  }

  /// Ordered within tiers (a vault's tags by their notes): the same list as taking every match
  /// and sorting each tier by the order key (equal keys keep the tier's alphabetical order),
  /// for any limit and exclusion; and a later tier is not searched once the list is full.
  @Test(arguments: 1...10)
  func orderedWithinTiersAgreesWithSortingEverything(seed: Int) {
    var random = SplitMix64(seed: UInt64(seed) &* 104_729)
    let alphabet = ["a", "b", "c", "é", "E", " ", "-", "o"]
    let index = SuggestionIndex((0..<200).map { _ in random.string(from: alphabet, maxLength: 8) })
    let order = index.entries.map { _ in Int(random.next() % 5) }
    let position = Dictionary(
      index.entries.enumerated().map { ($1, $0) },
      uniquingKeysWith: { a, _ in a }
    )
    let tiers: [SuggestionKind] = [.prefix, .wordPrefix, .fuzzy]
    for _ in 0..<30 {
      let query = random.string(from: ["a", "b", "c", "E", "-", "o"], maxLength: 3)
      let limit = 1 + Int(random.next() % 30)
      let excludedLetter = ["a", "b", "c"][Int(random.next() % 3)]
      let excluded = { (entry: String) in entry.hasSuffix(excludedLetter) }
      let all = index.suggestions(for: query, limit: 1_000, excluding: excluded)
      // An empty query lists the vocabulary in its own order.
      let blank = SearchFold.fold(query).bytes.isEmpty
      let expected = all.enumerated().sorted { a, b in
        if blank { return a.offset < b.offset }
        let (x, y) = (a.element, b.element)
        if x.kind != y.kind {
          return (tiers.firstIndex(of: x.kind) ?? 0) < (tiers.firstIndex(of: y.kind) ?? 0)
        }
        let (m, n) = (order[position[x.text] ?? 0], order[position[y.text] ?? 0])
        return m != n ? m < n : a.offset < b.offset
      }
      .prefix(limit).map(\.element)
      let ordered = index.suggestions(
        for: query,
        limit: limit,
        orderedBy: order,
        excluding: excluded
      )
      #expect(ordered == Array(expected), "query \(query), limit \(limit)")
    }
    // "a" has more than three prefix matches here: the fuzzy tier is never reached.
    let full = index.search("a", limit: 3, order: order, excluding: { _ in false })
    let prefixes = index.entries.filter { SearchFold.fold($0).bytes.first == UInt8(ascii: "a") }
    #expect(prefixes.count > 3 && full.items.count == 3)
    #expect(full.examined == prefixes.count, "only the prefix tier was searched")
  }

  /// A large vocabulary: a query looks at a few entries, not all of them.
  ///
  /// 50,000 entries (100,000 with `TAGD_SLOW_TESTS=1`): at 50,000 a fuzzy tier without its
  /// budget examines 5,654 entries for one of these queries (13,773 at 100,000; at 20,000 it
  /// would stay under the bound), so the size is what the bound needs.
  @Test func largeVocabularyIsNotScanned() {
    let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]
    let count = slowTestsRequested ? 100_000 : 50_000
    var vocabulary: [String] = []
    vocabulary.reserveCapacity(count)
    for n in 0..<count {
      vocabulary.append("\(words[n % 8]) \(words[(n / 8) % 8]) \(n)")
    }
    let index = SuggestionIndex(vocabulary)
    for query in ["a", "alpha b", "br", "ab", "echo 9999", "hg", "xq", "cd1"] {
      let result = index.search(query, limit: 10, excluding: { _ in false })
      #expect(result.items.count <= 10)
      #expect(result.examined <= SuggestionIndex.fuzzyBudget + 64, "\(query): \(result.examined)")
    }
    let deltas = index.suggestions(for: "delta", limit: 10)
    #expect(deltas.count == 10 && deltas.allSatisfy { $0.text.hasPrefix("delta") })
    let initials = index.suggestions(for: "hg", limit: 10)
    #expect(initials.count == 10 && initials.allSatisfy { $0.text.hasPrefix("hotel golf ") })
    #expect(initials.allSatisfy { $0.kind == .wordPrefix })
  }
}
