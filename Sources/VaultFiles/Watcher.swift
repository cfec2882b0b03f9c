#if canImport(Glibc)
import Glibc
#endif

/// What changed under a vault since the last `drain()`, coalesced: each path once, as its
/// last state (written then removed is removed; removed then written again is changed).
public struct VaultChanges: Sendable, Equatable {
  /// Notes written, created or moved in (full paths: the root as given, `/`, the relative path).
  public var changed: [String] = []
  /// Notes removed or moved away.
  public var removed: [String] = []
  /// Folders removed or moved away: every note under each is gone.
  public var removedFolders: [String] = []
  /// The kernel's queue overflowed: events were lost, so the vault must be walked again.
  public var overflowed = false
  /// The vault's `.tagd.toml` was written, created, moved or removed: read it again.
  public var vocabularyChanged = false

  public init() {}

  public var isEmpty: Bool {
    changed.isEmpty && removed.isEmpty && removedFolders.isEmpty && !overflowed
      && !vocabularyChanged
  }
}

/// Watches every folder of a vault with inotify, new folders included.
///
/// The descriptor is non-blocking: poll it for `POLLIN` beside the protocol's stdin, then call
/// `drain()`. Events of dot entries and of files that are not notes are dropped here, but for
/// the root's `.tagd.toml` (``VaultChanges/vocabularyChanged``). A folder
/// created (or moved in) is watched at once and listed, and the notes already in it are
/// reported as changed, so none written before its watch existed is missed.
public final class VaultWatcher {
  /// The inotify descriptor to poll.
  public let descriptor: Int32
  public let root: String
  private let realRoot: String
  /// Each watch's folder, relative to the root.
  private var folders: [Int32: String] = [:]
  private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

  private static let folderMask = UInt32(
    IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO
      | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR
  )

  /// Starts watching `folders` (relative to `root`, as `VaultListing.folders` gives them).
  public init(root: String, folders: [String]) throws(VaultFileError) {
    self.root = root
    guard let real = realPath(root) else {
      throw VaultFileError(path: root, operation: "watch", errno: errno)
    }
    realRoot = real
    descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard descriptor >= 0 else {
      throw VaultFileError(path: root, operation: "start inotify for", errno: errno)
    }
    for folder in folders { watch(folder) }
  }

  /// Walks `root` and watches every folder found.
  public convenience init(root: String) throws(VaultFileError) {
    try self.init(root: root, folders: VaultListing(root: root).folders)
  }

  deinit { close(descriptor) }

  /// How many folders are watched.
  public var watchedFolders: Int { Set(folders.values).count }

  @discardableResult
  private func watch(_ relative: String) -> Bool {
    let id = inotify_add_watch(descriptor, VaultListing.join(root, relative), Self.folderMask)
    guard id >= 0 else { return false }
    if folders[id] == nil { folders[id] = relative }
    return true
  }

  /// Reads every pending event and returns what changed; empty when nothing did.
  public func drain() -> VaultChanges {
    var order: [String] = []
    var state: [String: Change] = [:]
    var overflowed = false
    var vocabularyChanged = false
    func note(_ path: String, _ change: Change) {
      if state.updateValue(change, forKey: path) == nil { order.append(path) }
    }
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      var offset = 0
      while offset + MemoryLayout<inotify_event>.size <= count {
        let (event, name) = buffer.withUnsafeBytes { raw -> (inotify_event, String) in
          let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
          let start = offset + MemoryLayout<inotify_event>.size
          let bytes = raw[start..<start + Int(event.len)].prefix { $0 != 0 }
          return (event, String(decoding: bytes, as: UTF8.self))
        }
        offset += MemoryLayout<inotify_event>.size + Int(event.len)
        let mask = Int32(bitPattern: event.mask)
        if mask & Int32(IN_Q_OVERFLOW) != 0 {
          overflowed = true
          continue
        }
        guard let folder = folders[event.wd] else { continue }
        if mask & Int32(IN_IGNORED) != 0 {
          folders[event.wd] = nil
          continue
        }
        if mask & Int32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
          if !folder.isEmpty { note(VaultListing.join(root, folder), .folderRemoved) }
          continue
        }
        if folder.isEmpty && name == VaultListing.vocabularyName {
          vocabularyChanged = true
          continue
        }
        guard !name.isEmpty, !name.hasPrefix(".") else { continue }
        let relative = folder.isEmpty ? name : folder + "/" + name
        let path = VaultListing.join(root, relative)
        if mask & Int32(IN_ISDIR) != 0 {
          if mask & Int32(IN_CREATE | IN_MOVED_TO) != 0 {
            for found in adopt(relative) { note(found, .changed) }
          } else if mask & Int32(IN_DELETE | IN_MOVED_FROM) != 0 {
            note(path, .folderRemoved)
          }
          continue
        }
        guard NoteFileKind(name: name) != nil else { continue }
        if mask & Int32(IN_DELETE | IN_MOVED_FROM) != 0 {
          note(path, .removed)
        } else if mask & Int32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MODIFY | IN_CREATE) != 0 {
          note(path, .changed)
        }
      }
    }
    var changes = VaultChanges()
    changes.overflowed = overflowed
    changes.vocabularyChanged = vocabularyChanged
    for path in order {
      switch state[path] {
      case .changed?: changes.changed.append(path)
      case .removed?: changes.removed.append(path)
      case .folderRemoved?: changes.removedFolders.append(path)
      case nil: break
      }
    }
    return changes
  }

  private enum Change {
    case changed
    case removed
    case folderRemoved
  }

  /// A folder that appeared: watch it and everything below it (by the walk's rules) and
  /// return the notes already there.
  private func adopt(_ relative: String) -> [String] {
    let path = VaultListing.join(root, relative)
    // A link made inside the vault to a folder outside it is not followed.
    guard let real = realPath(path), real == realRoot || real.hasPrefix(realRoot + "/") else {
      return []
    }
    guard let listing = try? VaultListing(root: path) else { return [] }
    for folder in listing.folders {
      watch(folder.isEmpty ? relative : relative + "/" + folder)
    }
    // Listed again now that every folder is watched: a note written between the first listing
    // and its folder's watch (`mkdir -p a/b && echo > a/b/x.md`) is not missed.
    // (A folder made meanwhile is watched too: watching a folder twice is one watch.)
    let again = (try? VaultListing(root: path)) ?? listing
    for folder in again.folders {
      watch(folder.isEmpty ? relative : relative + "/" + folder)
    }
    return again.notes.map { VaultListing.join(root, relative + "/" + $0.relativePath) }
  }
}
