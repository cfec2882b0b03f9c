#if canImport(Glibc)
public import Glibc
#endif

/// The two kinds of note a vault holds, told by the file name's ending (SPEC §6d).
public enum NoteFileKind: Sendable, Equatable {
  /// `.md` or `.markdown`.
  case markdown
  /// `.org`.
  case org

  /// The kind a file named `name` has, or nil when it is not a note.
  public init?(name: some StringProtocol) {
    if name.hasSuffix(".md") || name.hasSuffix(".markdown") {
      self = .markdown
    } else if name.hasSuffix(".org") {
      self = .org
    } else {
      return nil
    }
  }
}

/// One note found by the walk.
public struct NoteFile: Sendable, Equatable {
  /// The path relative to the vault's root, `/`-separated, as the CLI prints it.
  public var relativePath: String
  /// The path to open: the root as given, `/`, then `relativePath`.
  public var path: String
  public var kind: NoteFileKind
  /// Whether it was reached through a symbolic link (to a file or a folder): writes go to
  /// `realPath` so that the link stays a link.
  public var realPath: String?

  public init(relativePath: String, path: String, kind: NoteFileKind, realPath: String? = nil) {
    self.relativePath = relativePath
    self.path = path
    self.kind = kind
    self.realPath = realPath
  }

  /// The path a write replaces: the link's target for a linked note, else `path`.
  public var writePath: String { realPath ?? path }
}

/// What a file looked like when it was read: compared again before it is overwritten.
public struct FileStamp: Sendable, Equatable {
  public var size: Int
  public var modifiedSeconds: Int
  public var modifiedNanoseconds: Int
  public var inode: UInt64
  public var device: UInt64
  /// The permission bits (`st_mode & 0o7777`), given to the file that replaces it.
  public var mode: UInt32

  public init(_ status: stat) {
    size = Int(status.st_size)
    modifiedSeconds = Int(status.st_mtim.tv_sec)
    modifiedNanoseconds = Int(status.st_mtim.tv_nsec)
    inode = UInt64(status.st_ino)
    device = UInt64(status.st_dev)
    mode = UInt32(status.st_mode) & 0o7777
  }

  /// Whether `other` is the same file with the same size and modification time (mode aside).
  public func sameContentStamp(as other: FileStamp) -> Bool {
    size == other.size && modifiedSeconds == other.modifiedSeconds
      && modifiedNanoseconds == other.modifiedNanoseconds && inode == other.inode
      && device == other.device
  }
}

/// Why a file under the root is not a note of the vault (logged, never rewritten).
public enum SkipReason: Error, Sendable, Equatable, CustomStringConvertible {
  /// Larger than the limit (`--max-note-bytes`).
  case tooLarge(size: Int, limit: Int)
  /// Not valid UTF-8: the first bad byte's offset.
  case invalidUTF8(offset: Int)
  /// The file's own name is not valid UTF-8 (paths are printed and compared as text).
  case nameNotUTF8
  /// A symbolic link whose target lies outside the root (or is dangling).
  case linkLeavesRoot(target: String)
  /// A symbolic link to a file already in the vault under another path.
  case sameFile(as: String)
  /// It could not be opened, read or listed.
  case unreadable(errno: Int32)
  /// A note's name on something that is not a regular file (a FIFO, a device).
  case notRegularFile

  public var description: String {
    switch self {
    case .tooLarge(let size, let limit):
      "larger than the note size limit (\(size) bytes, limit \(limit))"
    case .invalidUTF8(let offset): "not valid UTF-8 (byte \(offset))"
    case .nameNotUTF8: "its name is not valid UTF-8"
    case .linkLeavesRoot(let target): "a symbolic link out of the folder (to \(target))"
    case .sameFile(let other): "a symbolic link to \(other), already read"
    case .unreadable(let code): "cannot be read (\(String(cString: strerror(code))))"
    case .notRegularFile: "not a regular file"
    }
  }
}

/// A path under the root that was skipped, and why.
public struct SkippedFile: Sendable, Equatable {
  public var relativePath: String
  public var reason: SkipReason

  public init(relativePath: String, reason: SkipReason) {
    self.relativePath = relativePath
    self.reason = reason
  }
}
