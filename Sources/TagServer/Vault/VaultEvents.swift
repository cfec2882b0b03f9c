public import TagCore

/// A note as the executable read it on a background thread: its path and the tags TagCore's
/// ``NoteReader`` found in it.
public struct ReadNote: Hashable, Sendable {
  /// The absolute path, as the vault's root was given followed by the relative path.
  public var path: String
  /// The tags, with their places.
  public var tags: [NoteTag]
  /// Its title, when it has one.
  public var title: String?

  /// Reads the note at `path` from its UTF-8 `bytes` (on any thread: pure).
  public init(path: String, bytes: [UInt8]) {
    let kind = NoteKind(fileName: path) ?? .markdown
    let reading = NoteReader.read(
      DocumentText(utf8: bytes, lineStarts: nil),
      kind: kind,
      title: true
    )
    self.path = path
    tags = reading.tags
    title = reading.title
  }
}

/// File work the server asks of the executable (the server itself touches no file).
///
/// Each task's
/// outcome comes back as ``ServerEvent``s between messages.
public enum VaultTask: Hashable, Sendable {
  /// Walk the folder `root` of vault `vault`, read its `.tagd.toml`
  /// (``ServerEvent/vocabularyRead(vault:text:)``), read and parse its notes on background
  /// threads (``ServerEvent/notesRead(_:)``, then ``ServerEvent/vaultIndexed(vault:paths:)``),
  /// and watch it for changes (``ServerEvent/notesRead(_:)``, ``ServerEvent/notesGone(_:)``).
  case index(vault: Int, root: String)
  /// Stop watching vault `vault`; anything it still delivers is ignored.
  case forget(vault: Int)
  /// Read and parse these notes again (a change the client reported, a note the editor closed):
  /// ``ServerEvent/notesRead(_:)`` for those read, ``ServerEvent/notesGone(_:)`` for the
  /// others, then ``ServerEvent/rereadDone(ticket:)``.
  case reread(ticket: Int, paths: [String])
  /// Read vault `vault`'s `.tagd.toml` at `root` again
  /// (``ServerEvent/vocabularyRead(vault:text:)``): it changed on disk.
  case readVocabulary(vault: Int, root: String)
  /// Read these notes' bytes for the request parked on `ticket`
  /// (``ServerEvent/textsRead(ticket:texts:)``).
  case readTexts(ticket: Int, paths: [String])
}

/// One note's bytes read for a parked request; nil when it could not be read (the log says
/// why).
public struct NoteText: Hashable, Sendable {
  /// The note's path.
  public var path: String
  /// Its bytes (valid UTF-8), or nil.
  public var bytes: [UInt8]?

  public init(path: String, bytes: [UInt8]?) {
    self.path = path
    self.bytes = bytes
  }
}
