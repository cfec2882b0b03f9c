import JSONRPC
import TagCore
import TagProtocol

/// The vaults the client named, their index, the notes the editor has open and the requests
/// waiting for the index: the part of ``Server`` that serves SPEC §6d and §6e.
struct VaultState: Sendable {
  /// One vault: a folder of notes.
  struct Root: Hashable, Sendable {
    /// The folder's absolute path.
    var path: String
    /// Whether its first full index is done.
    var indexed = false

    /// The path of the vocabulary of the vault at `root`.
    static func vocabularyPath(of root: String) -> String {
      (root.hasSuffix("/") ? root : root + "/") + Vocabulary.fileName
    }

    /// Whether `note` lies under this folder.
    func holds(_ note: String) -> Bool {
      note.hasPrefix(path == "/" ? "/" : path + "/")
    }
  }

  /// A note the editor has open: its text comes from the editor until it is closed.
  struct OpenNote: Sendable {
    /// The text as the editor has it.
    var text: String
    /// The editor's version.
    var version: Int
    /// Its kind, by its name.
    var kind: NoteKind
    /// Its URI as the editor sent it (diagnostics are published to it).
    var uri: String
  }

  /// A request waiting for the index (or for notes' texts) before it is answered.
  struct Parked: Sendable {
    /// The request's id.
    var id: RequestID
    /// The decoded request.
    var request: any ServedRequest
    /// The ticket of the texts it waits for; nil while it waits for the index.
    var ticket: Int?
  }

  /// The vaults by number.
  var roots: [Int: Root] = [:]
  /// Each vault's vocabulary (`.tagd.toml`), when it has a valid one.
  var vocabularies: [Int: Vocabulary] = [:]
  var nextVault = 0
  /// Every note's tags, notes named by their absolute paths.
  private(set) var index = VaultIndex()
  /// The vault's tags as a suggestion vocabulary, with their notes; built when first asked
  /// for after a change of the index.
  private var suggestionCache: VaultSuggestions?
  /// The tags whose notes or spelling changed since ``suggestionCache`` was built: a spelling
  /// of each, by caseless key.
  private var changedTags: [CaselessKey: String] = [:]
  /// Notes open in the editor, by path.
  var open: [String: OpenNote] = [:]
  /// Requests waiting, in arrival order.
  var parked: [Parked] = []
  var nextTicket = 0
  /// The rereads the client's notifications asked for, not yet delivered: requests that need
  /// the index wait for them too, so they see what the client told of.
  var rereading: Set<Int> = []
  /// The texts delivered for the request being answered from its ticket.
  var delivered: [String: [UInt8]] = [:]
  /// The diagnostics last published for each open note.
  var published: [String: [PublishDiagnosticsNotification.Diagnostic]] = [:]
  /// stdin ended while requests were parked: exit once they are answered.
  var closing = false

  /// Sets the tags and title of the note at `path`.
  mutating func update(_ path: String, tags: [NoteTag], title: String?) {
    let before = index.tags(ofNote: path)?.map(\.text) ?? []
    index.update(note: path, tags: tags, title: title)
    spellingsChanged(from: before, to: tags.map(\.text))
  }

  /// Forgets the note at `path`.
  mutating func remove(_ path: String) {
    guard let before = index.tags(ofNote: path)?.map(\.text) else { return }
    index.remove(note: path)
    spellingsChanged(from: before, to: [])
  }

  /// Forgets the indexed notes for which `gone` is true, unless the editor has them open.
  mutating func removeNotes(where gone: (String) -> Bool) {
    for path in index.noteNames where gone(path) && open[path] == nil { remove(path) }
  }

  /// The most tags changed since the suggestions were built before they are built again.
  static let changedLimit = 64

  /// A note's spellings went from `before` to `after`.
  ///
  /// The tags of the spellings it gained or lost changed their notes (and maybe their vault spelling); the others did not. A keystroke
  /// in a note's text mostly changes none; typing a tag changes one or two.
  private mutating func spellingsChanged(from before: [String], to after: [String]) {
    guard suggestionCache != nil else { return }
    let old = Set(before.map(ExactSpelling.init))
    let new = Set(after.map(ExactSpelling.init))
    guard old != new else { return }
    for spelling in old.symmetricDifference(new) {
      changedTags[CaselessKey(spelling.text)] = spelling.text
    }
    if changedTags.count > Self.changedLimit {
      suggestionCache = nil
      changedTags = [:]
    }
  }

  /// Up to `limit` of the vault's tags as suggestions for `query` with their notes: prefix,
  /// then word-prefix, then fuzzy matches, each tier ranked by the notes carrying the tag
  /// (equal counts alphabetically), leaving out what `excluded` is true for.
  ///
  /// The suggestion index of the vault's tags is built when first asked for and kept; the tags
  /// changed since (at most ``changedLimit``, or it is built again) are left out of it and
  /// matched afresh in a small index of their own, and the two lists merged. So a keystroke
  /// that types a tag costs time proportional to the changed tags, not to the vault's.
  mutating func suggest(
    _ query: String,
    limit: Int,
    excluding excluded: (String) -> Bool
  ) -> [(suggestion: Suggestion, notes: Int)] {
    let built = suggestions()
    let changed = changedTags
    let kept = built.index.suggestions(
      for: query,
      limit: limit,
      orderedBy: built.order,
      excluding: { excluded($0) || (!changed.isEmpty && changed[CaselessKey($0)] != nil) }
    ).map { ($0, built.notes[$0.text] ?? 0) }
    guard !changed.isEmpty else { return kept }
    // In the order `index.tags()` lists them (most notes first, then by caseless key), which is
    // the order of the whole vocabulary for a blank query.
    let fresh = changed.values.compactMap { index.tag($0) }.sorted {
      $0.notes != $1.notes
        ? $0.notes > $1.notes : $0.key.folded.utf8.lexicographicallyPrecedes($1.key.folded.utf8)
    }
    let small = SuggestionIndex(fresh.map(\.spelling))
    let notes = Dictionary(fresh.map { ($0.spelling, $0.notes) }, uniquingKeysWith: { a, _ in a })
    let found = small.suggestions(
      for: query,
      limit: limit,
      orderedBy: small.entries.map { -(notes[$0] ?? 0) },
      excluding: excluded
    ).map { ($0, notes[$0.text] ?? 0) }
    // Merge the two ranked lists: tier, then notes, then the folded text (a blank query: the
    // caseless key, as `index.tags()` orders).
    let tiers = SuggestionKind.allCases
    let blank = query.allSatisfy(\.isWhitespace)
    func precedes(_ a: (Suggestion, Int), _ b: (Suggestion, Int)) -> Bool {
      let (x, y) = (tiers.firstIndex(of: a.0.kind) ?? 0, tiers.firstIndex(of: b.0.kind) ?? 0)
      if x != y { return x < y }
      if a.1 != b.1 { return a.1 > b.1 }
      guard blank else { return SuggestionIndex.alphabeticallyPrecedes(a.0.text, b.0.text) }
      return CaselessKey(a.0.text).folded.utf8.lexicographicallyPrecedes(
        CaselessKey(b.0.text).folded.utf8
      )
    }
    var merged: [(suggestion: Suggestion, notes: Int)] = []
    var (i, j) = (0, 0)
    while merged.count < limit, i < kept.count || j < found.count {
      if j == found.count || (i < kept.count && !precedes(found[j], kept[i])) {
        merged.append(kept[i])
        i += 1
      } else {
        merged.append(found[j])
        j += 1
      }
    }
    return merged
  }

  /// The vault's tags as suggestions, built when first asked for after the index changed
  /// too much (see ``suggest(_:limit:excluding:)``).
  private mutating func suggestions() -> VaultSuggestions {
    if let suggestionCache { return suggestionCache }
    let tags = index.tags()
    let suggestions = SuggestionIndex(tags.map(\.spelling))
    let notes = Dictionary(tags.map { ($0.spelling, $0.notes) }, uniquingKeysWith: { a, _ in a })
    let built = VaultSuggestions(
      index: suggestions,
      notes: notes,
      order: suggestions.entries.map { -(notes[$0] ?? 0) }
    )
    suggestionCache = built
    changedTags = [:]
    return built
  }

  /// `rules` with the vaults' `allow` and `deny` applied, for a field opened in the vaults: a tag
  /// must pass the field's own lists and every vault's.
  func applyVocabularies(to rules: inout FieldRules) {
    for vocabulary in vocabularies.values.sorted(by: {
      ($0.allow?.count ?? 0) < ($1.allow?.count ?? 0)
    }) {
      rules.deny += vocabulary.deny
      guard let allow = vocabulary.allow else { continue }
      if let own = rules.allow {
        let keys = Set(allow.map(CaselessKey.init))
        rules.allow = own.filter { keys.contains(CaselessKey($0)) }
      } else {
        rules.allow = allow
      }
    }
  }

  /// Whether every vault has had its first full index.
  var isReady: Bool { rereading.isEmpty && roots.values.allSatisfy(\.indexed) }

  /// A ticket for a task whose outcome a request will wait for.
  mutating func ticket() -> Int {
    defer { nextTicket += 1 }
    return nextTicket
  }

  /// The vault holding `path`, if any: the innermost when one vault's folder is inside
  /// another's.
  func vault(holding path: String) -> Int? {
    roots.filter { $0.value.holds(path) }.max {
      $0.value.path.utf8.count < $1.value.path.utf8.count
    }?
    .key
  }

  /// The vocabulary that applies to the note at `path`: its own vault's (the innermost).
  func vocabulary(of path: String) -> Vocabulary? {
    vault(holding: path).flatMap { vocabularies[$0] }
  }

  /// The tag diagnostics of `note`, open at `path`, and its text.
  func diagnostics(of note: OpenNote, at path: String) -> (DocumentText, [TagDiagnostic]) {
    let text = DocumentText(note.text)
    let tags = NoteReader.read(text, kind: note.kind).tags
    return (text, TagDiagnostics.check(tags, index: index, vocabulary: vocabulary(of: path)))
  }
}

/// The vault's tags as a suggestion vocabulary.
struct VaultSuggestions: Sendable {
  /// Their vault spellings, indexed.
  var index: SuggestionIndex
  /// The notes carrying each, by vault spelling.
  var notes: [String: Int]
  /// Each entry's order key in ``index``: most notes first.
  var order: [Int]
}

/// A spelling compared by its bytes (`café` precomposed and decomposed are two spellings).
private struct ExactSpelling: Hashable {
  var text: String
  init(_ text: String) { self.text = text }
  static func == (a: ExactSpelling, b: ExactSpelling) -> Bool { a.text.hasSameUTF8(as: b.text) }
  // Byte-equal strings are canonically equivalent, so String's hash agrees with ==.
  func hash(into hasher: inout Hasher) { hasher.combine(text) }
}
