#if canImport(Glibc)
import Glibc
#endif

/// The notes under a folder, found as SPEC §6d says: names starting with `.` skipped (files and
/// folders), `.md`/`.markdown`/`.org` files kept, symbolic links followed only when their real
/// path stays inside the root, each real folder listed once (no loops).
///
/// The walk only lists: sizes and contents are checked when a note is read
/// (`NoteFiles`), where the file is open anyway.
public struct VaultListing: Sendable {
  /// The root as given.
  public var root: String
  /// The notes, in byte order of their relative paths (the vault's "path order").
  public var notes: [NoteFile]
  /// Entries skipped by the walk itself (links out of the root, unreadable folders, …).
  public var skipped: [SkippedFile]
  /// Every folder listed (the root is `""`), relative to the root: what a watcher watches.
  public var folders: [String]

  /// Walks `root`; fails only when the root itself cannot be listed.
  public init(root: String) throws(VaultFileError) {
    self.root = root
    guard let real = realPath(root) else {
      throw VaultFileError(path: root, operation: "open the folder", errno: errno)
    }
    var walker = Walker(root: root, realRoot: real)
    try walker.run()
    notes = walker.notes
    skipped = walker.skipped
    folders = walker.folders
  }

  /// The vocabulary's file at a vault's root (SPEC §6d).
  public static let vocabularyName = ".tagd.toml"

  /// `relative` joined to the root as given (`""` is the root itself).
  public static func join(_ root: String, _ relative: String) -> String {
    if relative.isEmpty { return root }
    return root.hasSuffix("/") ? root + relative : root + "/" + relative
  }
}

/// A failure on the vault's own folder or a write, with the operation and `errno`.
public struct VaultFileError: Error, Sendable, Equatable, CustomStringConvertible {
  public var path: String
  public var operation: String
  public var errno: Int32

  public init(path: String, operation: String, errno: Int32) {
    self.path = path
    self.operation = operation
    self.errno = errno
  }

  public var description: String {
    "cannot \(operation) \(path): \(String(cString: strerror(errno)))"
  }
}

/// The real path of `path` (symbolic links resolved), or nil.
func realPath(_ path: String) -> String? {
  guard let resolved = realpath(path, nil) else { return nil }
  defer { free(resolved) }
  return String(cString: resolved)
}

/// A device and inode: one real file or folder.
struct FileKey: Hashable {
  var device: UInt64
  var inode: UInt64
}

private struct Walker {
  let root: String
  let realRoot: String
  var notes: [NoteFile] = []
  var skipped: [SkippedFile] = []
  var folders: [String] = []
  var visited: Set<FileKey> = []
  /// Each note's device and inode (a file link's: its target's), beside `notes`.
  var keys: [FileKey] = []
  /// The notes reached through a link to a file: checked against the others at the end (a
  /// link to a note that is also read directly is the same note).
  var linkedNotes: [Int] = []

  /// A folder to list: its path relative to the root, and its real path when a link led there.
  struct Pending {
    var relative: String
    var realPath: String?
  }

  init(root: String, realRoot: String) {
    self.root = root
    self.realRoot = realRoot
  }

  mutating func run() throws(VaultFileError) {
    // Real folders first, linked ones after: a folder reached both ways is listed under its
    // own path.
    var stack = [Pending(relative: "", realPath: nil)]
    var linked: [Pending] = []
    var first = true
    while true {
      guard let next = stack.popLast() ?? (linked.isEmpty ? nil : linked.removeFirst()) else {
        break
      }
      let ok = list(next, stack: &stack, linked: &linked)
      if first && !ok {
        throw VaultFileError(path: root, operation: "list the folder", errno: errno)
      }
      first = false
    }
    sortAndDeduplicate()
  }

  /// Lists one folder: its notes into `notes`, its subfolders onto `stack` (or `linked`).
  mutating func list(_ folder: Pending, stack: inout [Pending], linked: inout [Pending]) -> Bool {
    let path = VaultListing.join(root, folder.relative)
    let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else {
      if !folder.relative.isEmpty {
        skipped.append(
          SkippedFile(relativePath: folder.relative, reason: .unreadable(errno: errno))
        )
      }
      return false
    }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      close(descriptor)
      return false
    }
    let device = UInt64(status.st_dev)
    guard visited.insert(FileKey(device: device, inode: UInt64(status.st_ino))).inserted else {
      close(descriptor)
      return true
    }
    guard let directory = fdopendir(descriptor) else {
      close(descriptor)
      return false
    }
    defer { closedir(directory) }
    folders.append(folder.relative)
    let prefix = folder.relative.isEmpty ? "" : folder.relative + "/"
    while let entry = readdir(directory) {
      var type = entry.pointee.d_type
      let inode = UInt64(entry.pointee.d_ino)
      let nameResult: String?? = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        let bytes = UnsafeRawBufferPointer(rebasing: raw.prefix { $0 != 0 })
        if bytes.first == UInt8(ascii: ".") { return String??.none }
        return String??.some(String(validating: bytes, as: UTF8.self))
      }
      guard let decoded = nameResult else { continue }
      guard let name = decoded else {
        skipped.append(SkippedFile(relativePath: prefix + "?", reason: .nameNotUTF8))
        continue
      }
      let relative = prefix + name
      if type == UInt8(DT_UNKNOWN) {
        var entryStatus = stat()
        guard fstatat(descriptor, name, &entryStatus, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
        type = Self.directoryType(entryStatus.st_mode)
      }
      let realBelow = folder.realPath.map { $0 + "/" + name }
      switch type {
      case UInt8(DT_DIR):
        stack.append(Pending(relative: relative, realPath: realBelow))
      case UInt8(DT_REG):
        if let kind = NoteFileKind(name: name) {
          notes.append(
            NoteFile(
              relativePath: relative,
              path: joined(relative),
              kind: kind,
              realPath: realBelow
            )
          )
          keys.append(FileKey(device: device, inode: inode))
        }
      case UInt8(DT_LNK):
        followLink(relative: relative, name: name, linked: &linked)
      default:
        if NoteFileKind(name: name) != nil {
          skipped.append(SkippedFile(relativePath: relative, reason: .notRegularFile))
        }
      }
    }
    return true
  }

  func joined(_ relative: String) -> String { VaultListing.join(root, relative) }

  /// A symbolic link: followed when its real path is inside the root.
  mutating func followLink(relative: String, name: String, linked: inout [Pending]) {
    let path = joined(relative)
    guard let target = realPath(path),
      target == realRoot || target.hasPrefix(realRoot == "/" ? "/" : realRoot + "/")
    else {
      skipped.append(
        SkippedFile(relativePath: relative, reason: .linkLeavesRoot(target: Self.linkText(path)))
      )
      return
    }
    var status = stat()
    guard stat(target, &status) == 0 else { return }
    switch Self.directoryType(status.st_mode) {
    case UInt8(DT_DIR):
      linked.append(Pending(relative: relative, realPath: target))
    case UInt8(DT_REG):
      guard let kind = NoteFileKind(name: name) else { return }
      notes.append(NoteFile(relativePath: relative, path: path, kind: kind, realPath: target))
      keys.append(FileKey(device: UInt64(status.st_dev), inode: UInt64(status.st_ino)))
      linkedNotes.append(notes.count - 1)
    default:
      if NoteFileKind(name: name) != nil {
        skipped.append(SkippedFile(relativePath: relative, reason: .notRegularFile))
      }
    }
  }

  static func directoryType(_ mode: mode_t) -> UInt8 {
    switch mode & S_IFMT {
    case S_IFDIR: UInt8(DT_DIR)
    case S_IFREG: UInt8(DT_REG)
    case S_IFLNK: UInt8(DT_LNK)
    default: UInt8(DT_UNKNOWN)
    }
  }

  /// What a link says (for the log), or `?`.
  static func linkText(_ path: String) -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count >= 0 else { return "?" }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Sorts the notes by relative path and drops links to a note already in the vault.
  mutating func sortAndDeduplicate() {
    var drop: Set<Int> = []
    if !linkedNotes.isEmpty {
      // A file link's target, when it is also a note read directly or through an earlier
      // link, is that note: the link is skipped.
      let linked = Set(linkedNotes)
      var owner: [FileKey: Int] = [:]
      for index in keys.indices where !linked.contains(index) { owner[keys[index]] = index }
      for index in linkedNotes.sorted(by: {
        Self.precedes(notes[$0].relativePath, notes[$1].relativePath)
      }) {
        let key = keys[index]
        if let first = owner[key], first != index {
          drop.insert(index)
          skipped.append(
            SkippedFile(
              relativePath: notes[index].relativePath,
              reason: .sameFile(as: notes[first].relativePath)
            )
          )
        } else {
          owner[key] = index
        }
      }
    }
    if !drop.isEmpty {
      notes = notes.enumerated().filter { !drop.contains($0.offset) }.map(\.element)
    }
    notes.sort { Self.precedes($0.relativePath, $1.relativePath) }
    skipped.sort { Self.precedes($0.relativePath, $1.relativePath) }
    folders.sort { Self.precedes($0, $1) }
  }

  /// Byte order of UTF-8 paths.
  static func precedes(_ a: String, _ b: String) -> Bool {
    a.utf8.lexicographicallyPrecedes(b.utf8)
  }
}
