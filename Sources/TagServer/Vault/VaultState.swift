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
  private var suggestionCache: (index: SuggestionIndex, notes: [String: Int])?
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
    index.update(note: path, tags: tags, title: title)
    suggestionCache = nil
  }

  /// Forgets the note at `path`.
  mutating func remove(_ path: String) {
    guard index.contains(note: path) else { return }
    index.remove(note: path)
    suggestionCache = nil
  }

  /// Forgets the indexed notes for which `gone` is true, unless the editor has them open.
  mutating func removeNotes(where gone: (String) -> Bool) {
    for path in index.noteNames where gone(path) && open[path] == nil { remove(path) }
  }

  /// The vault's tags as suggestions (built once per change of the index).
  mutating func suggestions() -> (index: SuggestionIndex, notes: [String: Int]) {
    if let suggestionCache { return suggestionCache }
    let tags = index.tags()
    let built = (
      SuggestionIndex(tags.map(\.spelling)),
      Dictionary(tags.map { ($0.spelling, $0.notes) }, uniquingKeysWith: { a, _ in a })
    )
    suggestionCache = built
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
}
