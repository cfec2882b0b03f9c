import TagCore
import TagServer
import VaultFiles

#if canImport(Glibc)
import Glibc
#endif

/// The server's file work (``VaultTask``s), done on background threads through `VaultFiles`;
/// what it finds comes back as ``ServerEvent``s that the stdio loop hands the server between
/// messages (ARCHITECTURE.md, "The vault: indexing beside the keystrokes").
///
/// Threads never touch the server: each task's thread reads and parses notes, appends events to
/// ``pending`` under a lock and writes a byte to a pipe; the loop polls the pipe's read end
/// beside stdin and each vault's inotify descriptor, and takes the events when it is readable.
final class VaultWorker: @unchecked Sendable {
  /// What the threads hand the loop.
  enum Delivery {
    case event(ServerEvent)
    case log(LogRecord)
    /// A vault's watcher, started by its index thread.
    case watcher(vault: Int, VaultWatcher)
  }

  /// The pipe the threads wake the loop through (both ends non-blocking, close-on-exec).
  let wake: (read: Int32, write: Int32)
  private var lock = pthread_mutex_t()
  private var pending: [Delivery] = []
  /// Each vault's root and watcher (loop thread only).
  private var vaults: [Int: (root: String, watcher: VaultWatcher?)] = [:]
  /// The largest note read; larger ones are skipped with a logged reason.
  let maxNoteBytes: Int
  /// Test seam (`TAGD_HOLD_INDEXING`): a FIFO each index thread opens, and so waits for a
  /// writer, before it delivers anything; lets a test hold indexing without timing.
  let holdPath: String?

  /// Test seam (`TAGD_NO_WATCH`): no inotify watch, so that only the client's
  /// `workspace/didChangeWatchedFiles` tells of changes.
  let watches: Bool

  init(
    maxNoteBytes: Int = NoteFiles.defaultMaxBytes,
    holdPath: String? = nil,
    watches: Bool = true
  ) {
    self.watches = watches
    var fds: [Int32] = [-1, -1]
    if pipe(&fds) == 0 {
      for fd in fds {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      }
    }
    wake = (fds[0], fds[1])
    pthread_mutex_init(&lock, nil)
    self.maxNoteBytes = maxNoteBytes
    self.holdPath = holdPath
  }

  /// Whether there is nothing to poll but stdin: no task was ever started.
  private(set) var isIdle = true

  /// The descriptors the loop polls besides stdin: the wake pipe, then each watcher's.
  var descriptors: [Int32] {
    [wake.read] + vaults.values.compactMap { $0.watcher?.descriptor }
  }

  // MARK: Tasks (loop thread)

  /// Starts `task` on a thread of its own (`forget` is done at once).
  func perform(_ task: VaultTask) {
    switch task {
    case .index(let vault, let root):
      vaults[vault] = (root, vaults[vault]?.watcher)
    case .forget(let vault):
      vaults[vault] = nil
      return
    case .reread, .readTexts, .readVocabulary:
      break
    }
    let (maxNoteBytes, holdPath, watch) = (self.maxNoteBytes, self.holdPath, self.watches)
    start {
      self.deliver(
        Self.run(task, maxNoteBytes: maxNoteBytes, watch: watch, holdPath: holdPath) {
          self.deliver($0)
        }
      )
    }
  }

  /// Does `task` on the calling thread and returns what it found (the in-process transcript
  /// replay calls this directly; `watch` false starts no watcher).
  ///
  /// An index hands each batch of notes read to `partial` as soon as it is read, when given,
  /// and returns the rest.
  static func run(
    _ task: VaultTask,
    maxNoteBytes: Int = NoteFiles.defaultMaxBytes,
    watch: Bool = true,
    holdPath: String? = nil,
    partial: (([Delivery]) -> Void)? = nil
  ) -> [Delivery] {
    switch task {
    case .index(let vault, let root):
      if let holdPath {
        let fd = open(holdPath, O_RDONLY)
        if fd >= 0 { close(fd) }
      }
      return vocabulary(vault: vault, root: root)
        + index(
          vault: vault,
          root: root,
          maxNoteBytes: maxNoteBytes,
          watch: watch,
          partial: partial
        )
    case .forget: return []
    case .reread(let ticket, let paths):
      return reread(paths, maxNoteBytes: maxNoteBytes) + [.event(.rereadDone(ticket: ticket))]
    case .readTexts(let ticket, let paths):
      return readTexts(ticket: ticket, paths: paths, maxNoteBytes: maxNoteBytes)
    case .readVocabulary(let vault, let root):
      return vocabulary(vault: vault, root: root)
    }
  }

  /// Takes what the threads delivered; call when the wake pipe is readable.
  func take() -> [Delivery] {
    var sink = [UInt8](repeating: 0, count: 256)
    while sink.withUnsafeMutableBytes({ read(wake.read, $0.baseAddress, $0.count) }) > 0 {}
    pthread_mutex_lock(&lock)
    let taken = pending
    pending = []
    pthread_mutex_unlock(&lock)
    var kept: [Delivery] = []
    for delivery in taken {
      if case .watcher(let vault, let watcher) = delivery {
        // A vault forgotten meanwhile drops its watcher (and with it the descriptor).
        if let root = vaults[vault]?.root { vaults[vault] = (root, watcher) }
      } else {
        kept.append(delivery)
      }
    }
    return kept
  }

  /// The changes a watcher saw, as events and tasks; call when `descriptor` is readable.
  func drainWatcher(_ descriptor: Int32) -> [ServerEvent] {
    guard let (vault, entry) = vaults.first(where: { $0.value.watcher?.descriptor == descriptor }),
      let watcher = entry.watcher
    else { return [] }
    let changes = watcher.drain()
    if changes.overflowed || changes.vocabularyChanged {
      perform(.readVocabulary(vault: vault, root: entry.root))
    }
    if changes.overflowed {
      let (root, maxNoteBytes) = (entry.root, self.maxNoteBytes)
      start {
        self.deliver(
          Self.index(vault: vault, root: root, maxNoteBytes: maxNoteBytes, watch: false) {
            self.deliver($0)
          }
        )
      }
      return []
    }
    // The watcher's own rereads: no request waits for them (ticket -1 is no ticket).
    if !changes.changed.isEmpty { perform(.reread(ticket: -1, paths: changes.changed)) }
    let gone = changes.removed + changes.removedFolders
    return gone.isEmpty ? [] : [.notesGone(gone)]
  }

  // MARK: Threads

  private func deliver(_ items: [Delivery]) {
    pthread_mutex_lock(&lock)
    pending += items
    pthread_mutex_unlock(&lock)
    var byte: UInt8 = 1
    _ = write(wake.write, &byte, 1)
  }

  /// Runs `body` on a new detached thread.
  private func start(_ body: @escaping @Sendable () -> Void) {
    isIdle = false
    let box = Unmanaged.passRetained(ThreadBody(body))
    var thread = pthread_t()
    guard pthread_create(&thread, nil, runThreadBody, box.toOpaque()) == 0 else {
      box.release()
      body()
      return
    }
    pthread_detach(thread)
  }

  /// Notes read and parsed per batch: each batch goes to the loop while the next is read, so
  /// the parsed tags of the whole vault are never held at once beside the index (serving the
  /// 100k-note vault of `tagd-bench --vault` peaked at 124 MiB when they were, in one event).
  static let batch = 1_000

  private static func index(
    vault: Int,
    root: String,
    maxNoteBytes: Int,
    watch: Bool,
    partial: (([Delivery]) -> Void)? = nil
  ) -> [Delivery] {
    let listing: VaultListing
    do throws(VaultFileError) {
      listing = try VaultListing(root: root)
    } catch {
      return [
        .log(
          LogRecord(level: .error, message: "vault \(root): \(error.description); serving it empty")
        ),
        .event(.vaultIndexed(vault: vault, paths: [])),
      ]
    }
    var items: [Delivery] = listing.skipped.map {
      .log(
        LogRecord(
          level: .warning,
          message: "vault \(root): skipped \($0.relativePath): \($0.reason)"
        )
      )
    }
    if watch {
      do throws(VaultFileError) {
        items.append(.watcher(vault: vault, try VaultWatcher(root: root, folders: listing.folders)))
      } catch {
        items.append(
          .log(
            LogRecord(
              level: .warning,
              message: "vault \(root): changes on disk not watched: \(error.description)"
            )
          )
        )
      }
    }
    var paths: [String] = []
    paths.reserveCapacity(listing.notes.count)
    var first = 0
    repeat {
      let batch = Array(listing.notes[first..<min(first + Self.batch, listing.notes.count)])
      first += batch.count
      let read = NoteFiles.map(batch, maxBytes: maxNoteBytes) { note, result in
        Self.parse(note.path, result)
      }
      var notes: [ReadNote] = []
      var found: [Delivery] = []
      for (note, outcome) in zip(batch, read) {
        switch outcome {
        case .success(let parsed): notes.append(parsed)
        case .failure(let reason):
          found.append(
            .log(
              LogRecord(
                level: .warning,
                message: "vault \(root): skipped \(note.relativePath): \(reason)"
              )
            )
          )
        }
      }
      paths += notes.map(\.path)
      found.append(.event(.notesRead(notes)))
      if let partial { partial(found) } else { items += found }
    } while first < listing.notes.count
    items.append(.event(.vaultIndexed(vault: vault, paths: paths)))
    return items
  }

  /// The vault's `.tagd.toml`, when it has one.
  private static func vocabulary(vault: Int, root: String) -> [Delivery] {
    let path = VaultListing.join(root, VaultListing.vocabularyName)
    switch readNote(path, maxBytes: NoteFiles.defaultMaxBytes) {
    case .success(let file):
      return [
        .event(.vocabularyRead(vault: vault, text: String(decoding: file.bytes, as: UTF8.self)))
      ]
    case .failure(.unreadable(let code)) where code == ENOENT:
      return [.event(.vocabularyRead(vault: vault, text: nil))]
    case .failure(let reason):
      return [
        .log(LogRecord(level: .warning, message: "vault \(root): .tagd.toml skipped: \(reason)")),
        .event(.vocabularyRead(vault: vault, text: nil)),
      ]
    }
  }

  private static func reread(_ paths: [String], maxNoteBytes: Int) -> [Delivery] {
    var notes: [ReadNote] = []
    var gone: [String] = []
    var items: [Delivery] = []
    for path in paths {
      switch Self.parse(path, readNote(path, maxBytes: maxNoteBytes)) {
      case .success(let note): notes.append(note)
      case .failure(let reason):
        gone.append(path)
        if case .unreadable(let code) = reason, code == ENOENT { continue }
        items.append(.log(LogRecord(level: .warning, message: "skipped \(path): \(reason)")))
      }
    }
    items.append(.event(.notesRead(notes)))
    if !gone.isEmpty { items.append(.event(.notesGone(gone))) }
    return items
  }

  private static func readTexts(ticket: Int, paths: [String], maxNoteBytes: Int) -> [Delivery] {
    var texts: [NoteText] = []
    var items: [Delivery] = []
    for path in paths {
      switch readNote(path, maxBytes: maxNoteBytes) {
      case .success(let note): texts.append(NoteText(path: path, bytes: note.bytes))
      case .failure(let reason):
        texts.append(NoteText(path: path, bytes: nil))
        items.append(.log(LogRecord(level: .warning, message: "cannot read \(path): \(reason)")))
      }
    }
    items.append(.event(.textsRead(ticket: ticket, texts: texts)))
    return items
  }

  /// Reads one note named by a change (the watcher's, the client's): only a regular file is
  /// opened, so that a FIFO named `.md` cannot block the thread (and the requests waiting for
  /// the reread) forever.
  private static func readNote(_ path: String, maxBytes: Int) -> Result<NoteBytes, SkipReason> {
    var status = stat()
    guard stat(path, &status) == 0 else { return .failure(.unreadable(errno: errno)) }
    guard status.st_mode & S_IFMT == S_IFREG else { return .failure(.notRegularFile) }
    return NoteFiles.read(path, maxBytes: maxBytes)
  }

  private static func parse(
    _ path: String,
    _ result: Result<NoteBytes, SkipReason>
  ) -> Result<ReadNote, SkipReason> {
    result.map { ReadNote(path: path, bytes: $0.bytes) }
  }
}

/// A thread's work, passed through `pthread_create`'s context pointer.
private final class ThreadBody: @unchecked Sendable {
  let body: @Sendable () -> Void
  init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

private func runThreadBody(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
  guard let context else { return nil }
  let box = Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue()
  box.body()
  return nil
}
