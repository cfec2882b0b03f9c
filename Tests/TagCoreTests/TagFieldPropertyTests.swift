import TagCore
import TagTestSupport
import Testing

/// An obviously-correct, quadratic model of SPEC §1, written independently of `TagField`.
private struct ReferenceField {
  var rules: FieldRules
  var tags: [String] = []
  var draft = ""

  func key(_ text: String) -> String {
    rules.caseSensitive ? text : text.lowercased().uppercased().lowercased()
  }

  func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
    if rules.separators.contains("\n") && (scalar == "\n" || scalar == "\r") { return true }
    return rules.separators.contains(scalar)
  }

  mutating func candidate(_ raw: String, _ outcome: inout FieldOutcome) {
    var characters = Array(raw)
    while let first = characters.first, first.isWhitespace { characters.removeFirst() }
    while let last = characters.last, last.isWhitespace { characters.removeLast() }
    var text = String(characters)
    switch rules.transform {
    case .none: break
    case .lowercase: text = text.lowercased()
    case .uppercase: text = text.uppercased()
    }
    if text.isEmpty {
      outcome.dropped.append(DroppedCandidate(text: "", reason: .empty))
    } else if let limit = rules.maxTagLength, Array(text).count > limit {
      outcome.dropped.append(DroppedCandidate(text: text, reason: .tooLong(limit: limit)))
    } else if let index = tags.firstIndex(where: { key($0) == key(text) }) {
      outcome.dropped.append(DroppedCandidate(text: text, reason: .duplicate(of: index)))
    } else if let limit = rules.maxTags, tags.count >= limit {
      outcome.dropped.append(DroppedCandidate(text: text, reason: .tooMany(limit: limit)))
    } else {
      tags.append(text)
      outcome.added.append(text)
    }
  }

  mutating func apply(_ event: FieldEvent) -> FieldOutcome {
    var outcome = FieldOutcome()
    switch event {
    case .draftChanged(let text):
      let scalars = Array(text.unicodeScalars)
      var pieces: [[Unicode.Scalar]] = [[]]
      var index = 0
      while index < scalars.count {
        let scalar = scalars[index]
        if isSeparator(scalar) {
          pieces.append([])
          let crlf = scalar == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n"
          index += crlf && rules.separators.contains("\n") ? 2 : 1
        } else {
          pieces[pieces.count - 1].append(scalar)
          index += 1
        }
      }
      var rest = pieces.removeLast()
      if pieces.isEmpty {
        draft = text
      } else {
        for piece in pieces {
          var string = ""
          string.unicodeScalars.append(contentsOf: piece)
          candidate(string, &outcome)
        }
        while rest.first == " " { rest.removeFirst() }
        draft = ""
        draft.unicodeScalars.append(contentsOf: rest)
      }
    case .submitted:
      let text = draft
      draft = ""
      candidate(text, &outcome)
    case .deletedBackward:
      if draft.isEmpty && !tags.isEmpty {
        outcome.removed.append(RemovedTag(index: tags.count - 1, tag: tags.removeLast()))
      }
    case .tagsAdded(let entries):
      for entry in entries { candidate(entry, &outcome) }
    case .tagRemoved(let index):
      if index >= 0 && index < tags.count {
        outcome.removed.append(RemovedTag(index: index, tag: tags.remove(at: index)))
      }
    case .tagRemovedMatching(let text):
      var probe = ReferenceField(rules: rules)
      var ignored = FieldOutcome()
      probe.candidate(text, &ignored)
      if let wanted = probe.tags.first,
        let index = tags.firstIndex(where: { key($0) == key(wanted) })
      {
        outcome.removed.append(RemovedTag(index: index, tag: tags.remove(at: index)))
      }
    default:
      // The §6 events are checked by FieldFeatureTests and HistoryPropertyTests.
      break
    }
    return outcome
  }
}

private let alphabet = [
  ",", "\n", "\r", "\r\n", " ", " ", "\t", "A", "a", "é", "e\u{301}", "b", "ß", "SS", ";",
]

private let ruleSets: [FieldRules] = [
  FieldRules(),
  FieldRules(maxTags: 4),
  FieldRules(maxTagLength: 2),
  FieldRules(caseSensitive: true),
  FieldRules(transform: .uppercase),
  FieldRules(separators: [";", "\t"], maxTags: 6, maxTagLength: 3, transform: .lowercase),
]

private func scalars(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }

@Suite struct TagFieldPropertyTests {
  @Test(arguments: 1...24)
  func matchesTheReference(seed: Int) {
    var random = SplitMix64(seed: UInt64(seed))
    let rules = ruleSets[seed % ruleSets.count]
    var field = TagField(rules: rules)
    var reference = ReferenceField(rules: rules)
    for _ in 0..<150 {
      let event: FieldEvent
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<5:  // typing: append to the draft
        event = .draftChanged(field.draft + random.string(from: alphabet, maxLength: 4))
      case 5:  // paste over everything
        event = .draftChanged(random.string(from: alphabet, maxLength: 20))
      case 6: event = .submitted
      case 7: event = .deletedBackward
      case 8:
        event = .tagsAdded((0..<3).map { _ in random.string(from: alphabet, maxLength: 4) })
      default:
        if Bool.random(using: &random) {
          event = .tagRemoved(at: Int.random(in: -1...field.tags.count, using: &random))
        } else {
          event = .tagRemovedMatching(random.string(from: alphabet, maxLength: 3))
        }
      }
      let draftBefore = field.draft
      let outcome = field.apply(event)
      let expected = reference.apply(event)

      #expect(outcome == expected, "\(event)")
      #expect(field.tags.map(scalars) == reference.tags.map(scalars), "\(event)")
      #expect(scalars(field.draft) == scalars(reference.draft), "\(event)")

      // The draft never holds a separator.
      #expect(
        !field.draft.unicodeScalars.contains { scalar in
          rules.separators.contains(scalar)
            || (rules.separators.contains("\n") && (scalar == "\n" || scalar == "\r"))
        }
      )
      switch event {
      case .draftChanged(let text):
        // The new draft is a suffix of the text given.
        #expect(
          scalars(text).suffix(scalars(field.draft).count).elementsEqual(scalars(field.draft))
        )
      case .tagsAdded, .tagRemoved, .tagRemovedMatching:
        #expect(scalars(field.draft) == scalars(draftBefore))
      case .submitted:
        #expect(field.draft.isEmpty)
      default:
        break
      }
      // Tags are pairwise distinct by key, and each is found at its own index.
      let keys = field.tags.map { rules.caseSensitive ? $0 : CaselessKey($0).folded }
      #expect(Set(keys).count == keys.count)
      for (index, tag) in field.tags.enumerated() {
        #expect(field.index(of: tag) == index)
      }
      if let limit = rules.maxTags { #expect(field.tags.count <= max(limit, 0)) }
    }
  }

  /// Typing one scalar at a time ends where pasting the whole text at once ends.
  @Test(arguments: 1...12)
  func typingMatchesPasting(seed: Int) {
    var random = SplitMix64(seed: UInt64(seed) &* 7919)
    let text = random.string(from: alphabet.filter { $0 != "\r" && $0 != "\r\n" }, maxLength: 40)
    var pasted = TagField()
    _ = pasted.apply(.draftChanged(text))
    var typed = TagField()
    for scalar in text.unicodeScalars {
      var next = typed.draft
      next.unicodeScalars.append(scalar)
      _ = typed.apply(.draftChanged(next))
    }
    #expect(typed.tags.map(scalars) == pasted.tags.map(scalars))
    // A space typed after a separator is kept (that draft has no separator), while a paste loses
    // the spaces after its last separator: the drafts agree once those are set aside.
    #expect(scalars(typed.draft).drop { $0 == " " }.elementsEqual(scalars(pasted.draft)))
    #expect(
      scalars(typed.draft).suffix(scalars(pasted.draft).count).elementsEqual(scalars(pasted.draft))
    )
  }
}
