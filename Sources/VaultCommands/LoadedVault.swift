public import TagCore
public import VaultFiles

#if canImport(Glibc)
import Glibc
#endif

/// One note as read and parsed.
public struct LoadedNote: Sendable {
  public var file: NoteFile
  public var tags: [NoteTag]
  /// Each tag's 1-based column, in characters (Unicode scalars; a byte order mark is not
  /// counted), when asked for.
  public var columns: [Int]
  /// Why its front matter could not be read (its other tags are still read).
  public var problem: DocumentError?
}

/// A vault read from disk: its notes' tags, the index and the vocabulary.
public struct LoadedVault: Sendable {
  public var listing: VaultListing
  public var notes: [LoadedNote]
  public var skipped: [SkippedFile]
  public var index: VaultIndex
  public var vocabulary: Vocabulary?
  public var vocabularyError: VocabularyError?

  /// The vault `request` names, for `tagd NAME`, with its problems logged on stderr; nil when
  /// DIR cannot be listed (said on stderr; the command exits 2).
  static func load(
    _ request: Request,
    for name: String,
    columns: Bool = false,
    keepNotes: Bool = true
  ) -> LoadedVault? {
    do {
      let vault = try LoadedVault(
        root: request.directory,
        maxNoteBytes: request.maxNoteBytes,
        threads: request.threads,
        columns: columns,
        keepNotes: keepNotes
      )
      vault.logProblems()
      return vault
    } catch {
      Output.error.write("tagd \(name): \(error)\n")
      return nil
    }
  }

  /// Walks `root`, reads and parses every note on `threads` threads, and indexes them by
  /// relative path; `columns` computes each tag's column (for `tagd check`).
  ///
  /// With `keepNotes` false, `notes` stays empty: each note's tags go into the index on the
  /// thread that parsed them (under a lock) and are not kept, which spares the memory of every
  /// note's tag list (the index's order does not depend on the order of updates).
  public init(
    root: String,
    maxNoteBytes: Int = NoteFiles.defaultMaxBytes,
    threads: Int = NoteFiles.defaultThreads,
    columns: Bool = false,
    keepNotes: Bool = true
  ) throws(VaultFileError) {
    listing = try VaultListing(root: root)
    if !keepNotes {
      let shared = SharedIndex()
      let read = NoteFiles.map(listing.notes, threads: threads, maxBytes: maxNoteBytes) {
        file,
        result -> SkipReason? in
        switch result {
        case .failure(let reason): return reason
        case .success(let note):
          let text = DocumentText(utf8: note.bytes, lineStarts: nil)
          let reading = TagCore.NoteReader.read(text, kind: file.kind.noteKind)
          shared.update(note: file.relativePath, tags: reading.tags)
          return nil
        }
      }
      notes = []
      var skipped = listing.skipped
      for (file, reason) in zip(listing.notes, read) {
        if let reason {
          skipped.append(SkippedFile(relativePath: file.relativePath, reason: reason))
        }
      }
      self.skipped = skipped.sorted { pathOrder($0.relativePath, $1.relativePath) }
      index = shared.index
      (vocabulary, vocabularyError) = Self.vocabulary(root: root, maxBytes: maxNoteBytes)
      return
    }
    let read = NoteFiles.map(listing.notes, threads: threads, maxBytes: maxNoteBytes) {
      file,
      result -> Result<LoadedNote, SkipReason> in
      result.map { note in
        let text = DocumentText(utf8: note.bytes, lineStarts: nil)
        let reading = TagCore.NoteReader.read(text, kind: file.kind.noteKind)
        return LoadedNote(
          file: file,
          tags: reading.tags,
          columns: columns
            ? reading.tags.map { column(of: $0.range.lowerBound, in: note.bytes) } : [],
          problem: reading.problem
        )
      }
    }
    var notes: [LoadedNote] = []
    notes.reserveCapacity(read.count)
    var skipped = listing.skipped
    var index = VaultIndex()
    for (file, result) in zip(listing.notes, read) {
      switch result {
      case .success(let note):
        index.update(note: file.relativePath, tags: note.tags)
        notes.append(note)
      case .failure(let reason):
        skipped.append(SkippedFile(relativePath: file.relativePath, reason: reason))
      }
    }
    self.notes = notes
    self.skipped = skipped.sorted { pathOrder($0.relativePath, $1.relativePath) }
    self.index = index
    (vocabulary, vocabularyError) = Self.vocabulary(root: root, maxBytes: maxNoteBytes)
  }

  /// The vault's `.tagd.toml`, or why it cannot be read (neither when there is none).
  static func vocabulary(root: String, maxBytes: Int) -> (Vocabulary?, VocabularyError?) {
    let path = VaultListing.join(root, VaultListing.vocabularyName)
    guard case .success(let file) = NoteFiles.read(path, maxBytes: maxBytes) else {
      return (nil, nil)
    }
    do {
      return (try Vocabulary.parse(String(decoding: file.bytes, as: UTF8.self)), nil)
    } catch {
      return (nil, error)
    }
  }

  /// Writes a line to stderr for each skipped file and for a vocabulary that cannot be read.
  func logProblems() {
    for skip in skipped {
      Output.error.write("tagd: skipped \(visible(skip.relativePath)): \(skip.reason)\n")
    }
    if let vocabularyError {
      Output.error.write(
        "tagd: .tagd.toml:\(vocabularyError.line + 1): \(vocabularyError.message)\n"
      )
    }
    for note in notes {
      if let problem = note.problem {
        Output.error.write(
          "tagd: \(visible(note.file.relativePath)): front matter not read: \(problem)\n"
        )
      }
    }
  }
}

extension NoteFileKind {
  /// TagCore's kind for this file kind.
  var noteKind: NoteKind {
    switch self {
    case .markdown: .markdown
    case .org: .org
    }
  }
}

/// The 1-based column of byte `offset` in `bytes`, in Unicode scalars from the start of its
/// line (a line ends at LF, CR or CRLF); a byte order mark starting the text is not counted.
func column(of offset: Int, in bytes: [UInt8]) -> Int {
  var start = offset
  while start > 0, bytes[start - 1] != 0x0A, bytes[start - 1] != 0x0D { start -= 1 }
  if start == 0 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
  var count = 1
  var at = start
  while at < offset {
    if bytes[at] & 0xC0 != 0x80 { count += 1 }
    at += 1
  }
  return count
}

/// A `VaultIndex` the reading threads update under a mutex.
private final class SharedIndex: @unchecked Sendable {
  private(set) var index = VaultIndex()
  private let mutex: UnsafeMutablePointer<pthread_mutex_t> = .allocate(capacity: 1)

  init() { pthread_mutex_init(mutex, nil) }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  func update(note: String, tags: [NoteTag]) {
    pthread_mutex_lock(mutex)
    index.update(note: note, tags: tags)
    pthread_mutex_unlock(mutex)
  }
}
