import TagCore
import TagTestSupport
import Testing

/// Tags for the index, read from little Markdown notes.
private func tags(_ text: String) -> [NoteTag] {
  NoteReader.read(text, kind: .markdown).tags
}

@Suite struct VaultIndexTests {
  static func sample() -> VaultIndex {
    var index = VaultIndex()
    index.update(note: "b.md", tags: tags("#Work #home #Work"))
    index.update(note: "a.md", tags: tags("---\ntags: [work, project/x]\n---\n#work"))
    index.update(note: "c.md", tags: tags("#WORK #project #project/y/z"))
    index.update(note: "d.md", tags: tags("no tags"))
    return index
  }

  @Test func countsNotesNotOccurrences() {
    let index = Self.sample()
    let work = index.tag("work")
    #expect(work?.notes == 3)
    #expect(
      work?.spellings == [
        VaultSpelling(text: "work", notes: 1), VaultSpelling(text: "Work", notes: 1),
        VaultSpelling(text: "WORK", notes: 1),
      ]
    )
    // Equal counts: the spelling of the first note in path order (a.md writes `work`).
    #expect(work?.spelling == "work")
    #expect(index.noteCount == 4)
  }

  @Test func mostUsedSpellingWins() {
    var index = Self.sample()
    index.update(note: "e.md", tags: tags("#WORK"))
    #expect(index.vaultSpelling(of: "work") == "WORK")
    index.remove(note: "e.md")
    #expect(index.vaultSpelling(of: "Work") == "work")
  }

  @Test func tagsMostNotesFirstWithPrefixAndLimit() {
    let index = Self.sample()
    #expect(
      index.tags().map(\.spelling) == ["work", "home", "project", "project/x", "project/y/z"]
    )
    #expect(index.tags().map(\.notes) == [3, 1, 1, 1, 1])
    #expect(index.tags(prefix: "PRO").map(\.spelling) == ["project", "project/x", "project/y/z"])
    #expect(index.tags(prefix: "project/").map(\.spelling) == ["project/x", "project/y/z"])
    #expect(index.tags(limit: 2).map(\.spelling) == ["work", "home"])
    #expect(index.tags(prefix: "zzz").isEmpty)
  }

  @Test func notesCarryingTags() {
    let index = Self.sample()
    #expect(index.notes(carrying: ["WORK"]) == ["a.md", "b.md", "c.md"])
    #expect(index.notes(carrying: ["work", "home"], match: .all) == ["b.md"])
    #expect(index.notes(carrying: ["home", "project"], match: .any) == ["b.md", "c.md"])
    #expect(index.notes(carrying: ["work", "nothing"], match: .all) == [])
    #expect(index.notes(carrying: ["work", "nothing"], match: .any) == ["a.md", "b.md", "c.md"])
    #expect(index.notes(carrying: []) == [])
  }

  @Test func placesWithAndWithoutChildren() {
    let index = Self.sample()
    let own = index.places(of: "Project")
    #expect(own.map(\.note) == ["c.md"])
    #expect(own.first?.tags.map(\.text) == ["project"])
    let all = index.places(of: "project", children: true)
    #expect(all.map(\.note) == ["a.md", "c.md"])
    #expect(all.map { $0.tags.map(\.text) } == [["project/x"], ["project", "project/y/z"]])
    let front = all[0].tags[0]
    #expect(front.place == .yamlFrontMatter)
    #expect(front.line == 1)
    #expect(front.list == 0)
    #expect(index.tags(ofNote: "a.md") == tags("---\ntags: [work, project/x]\n---\n#work"))
  }

  @Test func pathOrderIsByteOrder() {
    // `Z` (0x5A) sorts before `a` (0x61); `é` precomposed (0xC3…) after `e`+U+0301 (0x65…).
    var index = VaultIndex()
    index.update(note: "a.md", tags: tags("#x"))
    index.update(note: "Z.md", tags: tags("#X"))
    #expect(index.notes(carrying: ["x"]) == ["Z.md", "a.md"])
    #expect(index.vaultSpelling(of: "x") == "X")
  }

  @Test func spellingsAreByteExact() {
    var index = VaultIndex()
    index.update(note: "a.md", tags: tags("#caf\u{E9}"))
    index.update(note: "b.md", tags: tags("#cafe\u{301}"))
    let tag = index.tag("CAFÉ")
    #expect(tag?.notes == 2)
    #expect(tag?.spellings.count == 2)
    #expect(tag?.spelling.unicodeScalars.count == 4)
    // A prefix compares by characters: `caf` finds both, `cafe` neither.
    #expect(index.tags(prefix: "CAF").map(\.notes) == [2])
    #expect(index.tags(prefix: "cafe").isEmpty)
  }

  @Test func namesAreByteExact() {
    var index = VaultIndex()
    index.update(note: "caf\u{E9}.md", tags: tags("#a"))
    index.update(note: "cafe\u{301}.md", tags: tags("#a"))
    #expect(index.noteCount == 2)
    #expect(index.tag("a")?.notes == 2)
  }

  // MARK: - Incremental = rebuilt

  static let pool = [
    "work", "Work", "WORK", "home", "caf\u{E9}", "cafe\u{301}", "CAFÉ", "a", "a/b", "A/b", "a/b/c",
    "Straße", "STRASSE", "x-y", "ml", "z",
  ]
  static let names = (0..<12).map { "n\($0 % 3)/\($0).md" } + ["Z.md", "é.md", "e\u{301}.md"]

  static func randomTags(_ random: inout SplitMix64) -> [NoteTag] {
    (0..<Int.random(in: 0...6, using: &random)).map { i in
      let place = TagPlace.allCases.randomElement(using: &random) ?? .inline
      return NoteTag(
        text: pool.randomElement(using: &random) ?? "a",
        range: (i * 10)..<(i * 10 + 3),
        line: i,
        place: place,
        list: place == .inline ? nil : 0
      )
    }
  }

  /// Every answer the index gives about the tags in `pool` and the notes in `names`.
  static func answers(_ index: VaultIndex) -> [String] {
    var out: [String] = []
    out.append("\(index.noteCount) \(index.noteNames)")
    out.append("\(index.tags())")
    out.append("\(index.tags(prefix: "a", limit: 2))")
    out.append("\(index.tags(prefix: "W"))")
    for tag in pool {
      out.append("\(tag): \(String(describing: index.tag(tag)))")
      out.append("\(String(describing: index.vaultSpelling(of: tag)))")
      out.append("\(index.places(of: tag, children: true))")
      out.append("\(index.notes(carrying: [tag, "home"], match: .all))")
      out.append("\(index.notes(carrying: [tag, "z"], match: .any))")
    }
    for name in names { out.append("\(String(describing: index.tags(ofNote: name)))") }
    return out
  }

  /// A note name keyed by its bytes: `é.md` precomposed and decomposed are two files.
  struct Name: Hashable {
    var text: String
    static func == (a: Name, b: Name) -> Bool { Array(a.text.utf8) == Array(b.text.utf8) }
    func hash(into hasher: inout Hasher) { hasher.combine(Array(text.utf8)) }
  }

  /// What the index must answer, computed from the notes directly: every key's notes, its
  /// spellings' notes, and the vault spelling (most notes, then the first note in path order).
  static func expectedTags(_ notes: [Name: [NoteTag]]) -> [VaultTag] {
    var byKey: [CaselessKey: [[UInt8]: Set<Name>]] = [:]  // key → spelling bytes → notes
    var first: [[UInt8]: (name: String, start: Int)] = [:]  // spelling → its first place
    for (name, tags) in notes {
      for tag in tags {
        let bytes = Array(tag.text.utf8)
        byKey[CaselessKey(tag.text), default: [:]][bytes, default: []].insert(name)
        let place = (name.text, tag.range.lowerBound)
        if let known = first[bytes],
          Array(known.name.utf8) == Array(name.text.utf8)
            ? known.start < place.1 : pathOrder(known.name, name.text)
        {
          continue
        }
        first[bytes] = place
      }
    }
    var result: [VaultTag] = []
    for (key, spellings) in byKey {
      let ranked = spellings.sorted { a, b in
        if a.value.count != b.value.count { return a.value.count > b.value.count }
        let firstA = first[a.key] ?? ("", 0)
        let firstB = first[b.key] ?? ("", 0)
        return Array(firstA.name.utf8) == Array(firstB.name.utf8)
          ? firstA.start < firstB.start : pathOrder(firstA.name, firstB.name)
      }
      let list = ranked.map {
        VaultSpelling(text: String(decoding: $0.key, as: UTF8.self), notes: $0.value.count)
      }
      let allNotes = spellings.values.reduce(into: Set<Name>()) { $0.formUnion($1) }
      result.append(
        VaultTag(key: key, spelling: list[0].text, notes: allNotes.count, spellings: list)
      )
    }
    return result.sorted {
      $0.notes != $1.notes
        ? $0.notes > $1.notes
        : $0.key.folded.utf8.lexicographicallyPrecedes($1.key.folded.utf8)
    }
  }

  /// The first answer that differs, or nil.
  static func firstDifference(_ a: [String], _ b: [String]) -> String? {
    for (x, y) in zip(a, b) where x != y { return "\(x)\n  ≠ \(y)" }
    return a.count == b.count ? nil : "\(a.count) answers ≠ \(b.count)"
  }

  @Test(arguments: 0..<12) func incrementalEqualsRebuilt(seed: Int) {
    var random = SplitMix64(seed: UInt64(seed) &* 7_777 &+ 3)
    var index = VaultIndex()
    var model: [Name: [NoteTag]] = [:]
    for step in 0..<150 {
      let name = Self.names.randomElement(using: &random) ?? "x"
      if Int.random(in: 0..<4, using: &random) == 0 {
        index.remove(note: name)
        model[Name(text: name)] = nil
      } else {
        let tags = Self.randomTags(&random)
        index.update(note: name, tags: tags)
        model[Name(text: name)] = tags
      }
      guard step % 30 == 29 else { continue }
      var rebuilt = VaultIndex()
      for name in model.keys.shuffled(using: &random) {
        rebuilt.update(note: name.text, tags: model[name] ?? [])
      }
      let difference = Self.firstDifference(Self.answers(index), Self.answers(rebuilt))
      #expect(difference == nil, "seed \(seed) step \(step)")
      let expected = Self.expectedTags(model)
      #expect(index.tags() == expected, "seed \(seed) step \(step)")
    }
  }
}
