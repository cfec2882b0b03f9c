import TagTestSupport
import Testing

@testable import TagCore

/// The candidate rule written the plain way, on `String`s and scalars, as it was before the
/// rule ran on bytes: split by scalar, trim by `Character`, transform, fold with the standard
/// library's mappings, and find duplicates by linear search with `String` equality.
private struct PlainRule {
  var rules: FieldRules
  var tags: [String] = []

  func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
    if rules.separators.contains("\n") && (scalar == "\n" || scalar == "\r") { return true }
    return rules.separators.contains(scalar)
  }

  /// The pieces before the last separator and the draft, or nil without a separator.
  func split(_ text: String) -> (pieces: [String], draft: String)? {
    let scalars = Array(text.unicodeScalars)
    var pieces: [String] = []
    var current = String.UnicodeScalarView()
    var found = false
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      if isSeparator(scalar) {
        pieces.append(String(current))
        current = String.UnicodeScalarView()
        found = true
        let crlf = scalar == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n"
        index += crlf && rules.separators.contains("\n") ? 2 : 1
      } else {
        current.append(scalar)
        index += 1
      }
    }
    guard found else { return nil }
    while current.first == " " { current.removeFirst() }
    return (pieces, String(current))
  }

  func normalized(_ raw: String) -> String {
    var characters = Array(raw)
    while let first = characters.first, first.isWhitespace { characters.removeFirst() }
    while let last = characters.last, last.isWhitespace { characters.removeLast() }
    let text = String(characters)
    switch rules.transform {
    case .none: return text
    case .lowercase: return text.lowercased()
    case .uppercase: return text.uppercased()
    }
  }

  func key(_ text: String) -> String {
    guard !rules.caseSensitive else { return text }
    // Dotless ı has no folding: fold the pieces (of scalars) between them.
    return text.unicodeScalars.split(separator: "\u{131}", omittingEmptySubsequences: false)
      .map { String(String.UnicodeScalarView($0)).lowercased().uppercased().lowercased() }
      .joined(separator: "\u{131}")
  }

  func refusal(_ text: String, replacing: Int? = nil) -> DropReason? {
    if text.isEmpty { return .empty }
    if let limit = rules.maxTagLength, text.count > limit { return .tooLong(limit: limit) }
    if let pattern = rules.pattern, !pattern.matches(text) { return .pattern }
    let key = key(text)
    if let allow = rules.allow, !allow.contains(where: { self.key(normalized($0)) == key }) {
      return .notAllowed
    }
    if rules.deny.contains(where: { self.key(normalized($0)) == key }) { return .denied }
    if let index = tags.indices.first(where: { $0 != replacing && self.key(tags[$0]) == key }) {
      return .duplicate(of: index)
    }
    if replacing == nil, let limit = rules.maxTags, tags.count >= limit {
      return .tooMany(limit: limit)
    }
    return nil
  }

  mutating func admit(_ raw: String, into outcome: inout FieldOutcome) {
    let text = normalized(raw)
    if let reason = refusal(text) {
      outcome.dropped.append(DroppedCandidate(text: text, reason: reason))
    } else {
      tags.append(text)
      outcome.added.append(text)
    }
  }

  func index(of raw: String) -> Int? {
    let text = normalized(raw)
    guard !text.isEmpty else { return nil }
    return tags.firstIndex { key($0) == key(text) }
  }
}

private let alphabet = [
  ",", ",", "\n", "\r", "\r\n", " ", " ", "\t", "\u{A0}", "\u{3000}", "\u{2028}", "\u{85}",
  "\u{301}", "\u{600}", "A", "a", "Z", "q", "x", "7", "é", "e\u{301}", "ß", "SS", "ſ", "K",
  "\u{212A}", "k", ";", "\u{37E}", "\u{1FEF}", "`", "ı", "I", "İ", "i", "、", "Σ", "ς", "σ",
  "ﬁ", "FI", "🇫🇷", "tag", "Tag", "TAG",
]

private let ruleSets: [FieldRules] = [
  FieldRules(),
  FieldRules(maxTags: 5),
  FieldRules(maxTagLength: 3),
  FieldRules(caseSensitive: true),
  FieldRules(transform: .lowercase),
  FieldRules(transform: .uppercase, historyLimit: 3),
  FieldRules(separators: [";", "、", "\t"], maxTags: 8, maxTagLength: 4, transform: .lowercase),
  FieldRules(separators: ["\r", ","], caseSensitive: true, transform: .uppercase),
  FieldRules(pattern: try? TagPattern("[a-zß]+"), deny: ["K", " ss "]),
  FieldRules(allow: ["a", "TAG", "ß", "é", "x;"], deny: ["tag"]),
]

private func scalars(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }

/// The rule on bytes against the plain rule, and the byte fast paths against the `String` path.
@Suite struct FieldRuleReferenceTests {
  @Test(arguments: 0..<40)
  func matchesThePlainRule(seed: Int) {
    var random = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9 &+ 17)
    let rules = ruleSets[seed % ruleSets.count]
    var field = TagField(rules: rules)
    var plain = PlainRule(rules: rules)
    for _ in 0..<250 {
      let event: FieldEvent
      switch Int.random(in: 0..<16, using: &random) {
      case 0..<6: event = .draftChanged(field.draft + random.string(from: alphabet, maxLength: 5))
      case 6, 7: event = .draftChanged(random.string(from: alphabet, maxLength: 30))
      case 8: event = .submitted
      case 9: event = .tagsAdded((0..<3).map { _ in random.string(from: alphabet, maxLength: 4) })
      case 10:
        event = .tagReplaced(
          at: Int.random(in: -1...field.tags.count, using: &random),
          with: random.string(from: alphabet, maxLength: 4)
        )
      case 11: event = .tagRemoved(at: Int.random(in: -1...field.tags.count, using: &random))
      case 12:
        event = .tagMoved(
          from: Int.random(in: 0...field.tags.count, using: &random),
          to: Int.random(in: 0...field.tags.count, using: &random)
        )
      case 13: event = .undo
      case 14: event = .redo
      default: event = .tagRemovedMatching(random.string(from: alphabet, maxLength: 3))
      }
      let draftBefore = field.draft
      let outcome = field.apply(event)
      switch event {
      case .draftChanged(let text):
        var expected = FieldOutcome()
        if let (pieces, draft) = plain.split(text) {
          for piece in pieces { plain.admit(piece, into: &expected) }
          #expect(scalars(field.draft) == scalars(draft), "\(event)")
        } else {
          #expect(scalars(field.draft) == scalars(text), "\(event)")
        }
        #expect(outcome == expected, "\(event)")
      case .submitted:
        var expected = FieldOutcome()
        plain.admit(draftBefore, into: &expected)
        #expect(outcome == expected, "\(event)")
        #expect(field.draft.isEmpty)
      case .tagsAdded(let entries):
        var expected = FieldOutcome()
        for entry in entries { plain.admit(entry, into: &expected) }
        #expect(outcome == expected, "\(event)")
      case .tagReplaced(let index, let text) where plain.tags.indices.contains(index):
        let candidate = plain.normalized(text)
        let old = plain.tags[index]
        if let reason = plain.refusal(candidate, replacing: index) {
          #expect(outcome.dropped == [DroppedCandidate(text: candidate, reason: reason)])
        } else if scalars(candidate) != scalars(old) {
          plain.tags[index] = candidate
          #expect(outcome.replaced == [ReplacedTag(index: index, old: old, new: candidate)])
        } else {
          #expect(outcome.isEmpty)
        }
      default:
        // Moves, removals, undo and redo: the tags are the field's; the index must follow them.
        plain.tags = field.tags
      }
      #expect(field.tags.map(scalars) == plain.tags.map(scalars), "\(event)")
      for (index, tag) in field.tags.enumerated() {
        #expect(field.index(of: tag) == index, "\(tag) in \(field.tags)")
      }
      let probe = random.string(from: alphabet, maxLength: 3)
      #expect(field.index(of: probe) == plain.index(of: probe), "\(probe) in \(field.tags)")
    }
  }

  /// A large paste (past the size where the tables are reserved up front) agrees too.
  @Test(arguments: 0..<4)
  func largePasteMatchesThePlainRule(seed: Int) {
    var random = SplitMix64(seed: UInt64(seed) &+ 1000)
    let rules = ruleSets[seed]
    var text = ""
    while text.utf8.count < 6000 { text += random.string(from: alphabet, maxLength: 6) + "," }
    var field = TagField(rules: rules)
    var plain = PlainRule(rules: rules)
    let outcome = field.apply(.draftChanged(text))
    var expected = FieldOutcome()
    for piece in plain.split(text)?.pieces ?? [] { plain.admit(piece, into: &expected) }
    // Compared piece by piece, so that a failure names the first candidate that differs.
    let firstAdded = Array(zip(outcome.added, expected.added)).firstIndex { $0.0 != $0.1 }
    #expect(outcome.added.count == expected.added.count && firstAdded == nil)
    if let firstAdded { #expect(outcome.added[firstAdded] == expected.added[firstAdded]) }
    let firstDropped = Array(zip(outcome.dropped, expected.dropped)).firstIndex { $0.0 != $0.1 }
    #expect(outcome.dropped.count == expected.dropped.count && firstDropped == nil)
    if let firstDropped { #expect(outcome.dropped[firstDropped] == expected.dropped[firstDropped]) }
    #expect(field.tags.map(scalars) == plain.tags.map(scalars), "\(field.tags.count) tags")
  }

  /// `FieldText.candidate` (bytes) gives what the `String` path gives: text, key and hash.
  @Test(arguments: 0..<8)
  func byteCandidateMatchesTheStringPath(seed: Int) {
    var random = SplitMix64(seed: UInt64(seed) &+ 77)
    for _ in 0..<3000 {
      let piece = random.string(from: alphabet.filter { $0 != "," }, maxLength: 12)
      for transform in TagTransform.allCases {
        for caseless in [false, true] {
          var rules = FieldRules(caseSensitive: !caseless, transform: transform)
          rules.separators = [","]
          let plain = PlainRule(rules: rules)
          let fast = FieldText.candidate(
            0..<piece.utf8.count,
            of: piece.utf8.span,
            transform: transform,
            caseless: caseless,
            seed: KeyIndex.seed
          )
          guard let fast else { continue }
          let text = plain.normalized(piece)
          #expect(scalars(fast.text) == scalars(text), "\(piece)")
          #expect(fast.key == plain.key(text), "\(piece)")
          guard !text.isEmpty else { continue }
          let general = Candidate(text, caseless: caseless)
          #expect(scalars(fast.key) == scalars(general.key), "\(piece)")
          #expect(fast.hash == general.hash, "\(piece)")
        }
      }
    }
  }

  /// Keys equal as `String`s hash alike, including text canonically equivalent to ASCII.
  @Test func equalKeysHashAlike() {
    let pairs = [
      ("a;", "a\u{37E}"), ("`x", "\u{1FEF}x"), ("K", "\u{212A}"), ("é", "e\u{301}"),
      ("tag", "tag"), ("ǅ", "ǅ"), ("", ""), ("abcdefghijklmnopq", "abcdefghijklmnopq"),
    ]
    for (a, b) in pairs {
      #expect(a == b)
      #expect(KeyIndex.hash(a) == KeyIndex.hash(b), "\(a) \(b)")
    }
    #expect(KeyIndex.hash("a") != KeyIndex.hash("b"))
  }

  /// The only scalars outside ASCII equal to an ASCII text (one or two characters) are the
  /// three singletons ``KeyIndex/hash(_:)`` maps.
  @Test func onlyThreeScalarsAreEquivalentToASCII() {
    var ascii: [String: String] = [:]
    for first in 0..<128 {
      let one = String(UnicodeScalar(UInt8(first)))
      ascii[one] = one
      for second in 0..<128 { ascii[one + String(UnicodeScalar(UInt8(second)))] = one }
    }
    var found: [UInt32: String] = [:]
    for value in UInt32(0x80)...0x10FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      if let match = ascii[String(scalar)] { found[value] = match }
    }
    #expect(found == [0x037E: ";", 0x1FEF: "`", 0x212A: "K"])
  }

  /// The key index against a dictionary, through appends, removals, inserts, moves, replaces.
  @Test(arguments: 0..<6)
  func keyIndexFollowsTheTags(seed: Int) {
    var random = SplitMix64(seed: UInt64(seed) &+ 5)
    var index = KeyIndex()
    var keys: [String] = []
    // A broken table would hang `find` (it stops only at an empty slot or the key): its
    // problems are asked first, and the test stops at the first.
    func check() -> Bool {
      let problems = index.problems
      #expect(problems == [])
      guard problems.isEmpty, index.hashes.count == keys.count else { return false }
      for (position, key) in keys.enumerated() {
        #expect(index.find(KeyIndex.hash(key)) { keys[$0] == key } == position)
      }
      #expect(index.find(KeyIndex.hash("absent")) { keys[$0] == "absent" } == nil)
      return true
    }
    var next = 0
    func fresh() -> String {
      next += 1
      return "k\(next)"
    }
    for _ in 0..<400 {
      switch Int.random(in: 0..<6, using: &random) {
      case 0, 1:
        let key = fresh()
        keys.append(key)
        index.append(KeyIndex.hash(key))
      case 2 where !keys.isEmpty:
        let start = Int.random(in: 0..<keys.count, using: &random)
        let end = Int.random(in: start...keys.count, using: &random)
        keys.removeSubrange(start..<end)
        index.update(removing: start..<(keys.count + end - start), adding: start..<keys.count) {
          $0.removeSubrange(start..<end)
        }
      case 3:
        let at = Int.random(in: 0...keys.count, using: &random)
        let new = (0..<Int.random(in: 1...40, using: &random)).map { _ in fresh() }
        let old = keys.count
        keys.insert(contentsOf: new, at: at)
        index.update(removing: at..<old, adding: at..<keys.count) {
          $0.insert(contentsOf: new.map(KeyIndex.hash), at: at)
        }
      case 4 where !keys.isEmpty:
        let from = Int.random(in: 0..<keys.count, using: &random)
        let to = Int.random(in: 0..<keys.count, using: &random)
        keys.insert(keys.remove(at: from), at: to)
        let range = min(from, to)..<(max(from, to) + 1)
        index.update(removing: range, adding: range) { $0.insert($0.remove(at: from), at: to) }
      case 5 where !keys.isEmpty:
        let at = Int.random(in: 0..<keys.count, using: &random)
        keys[at] = fresh()
        let hash = KeyIndex.hash(keys[at])
        index.update(removing: at..<(at + 1), adding: at..<(at + 1)) { $0[at] = hash }
      default:
        break
      }
      guard check() else { return }
    }
  }
}
