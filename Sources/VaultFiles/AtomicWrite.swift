#if canImport(Glibc)
import Glibc
#endif

/// Why a note was not replaced.
public enum WriteError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file on disk is no longer what was read (size, time, inode or bytes differ, or it is
  /// gone): it is left as it is.
  case changedOnDisk(path: String)
  /// A system call failed; the note is left as it was.
  case failed(VaultFileError)

  public var description: String {
    switch self {
    case .changedOnDisk(let path): "\(path) changed on disk since it was read; not written"
    case .failed(let error): error.description
    }
  }
}

/// Replaces a note's file whole or not at all.
public enum AtomicWrite {
  /// Replaces the file at `path` with `bytes`, unless it changed since `original` was read.
  ///
  /// Writes `bytes` to a new file in the same folder (named `.NAME.tagd-XXXXXX`: a dot name,
  /// so walks and watchers skip it), with the old file's permission bits, `fsync`s it, checks
  /// that the file at `path` is still the one read (`original`: size, modification time,
  /// inode and device, then the bytes themselves), `rename`s the new file over it and
  /// `fsync`s the folder. At every instant `path` holds either the old bytes or the new ones.
  public static func replace(
    _ path: String,
    original: NoteBytes,
    with bytes: [UInt8]
  ) throws(WriteError) {
    let (folder, name) = split(path)
    TestSeam.pauseBeforeWrite(path)
    var temporary = ""
    var descriptor: Int32 = -1
    for _ in 0..<100 {
      temporary = folder + "/." + name + ".tagd-" + randomSuffix()
      descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      if descriptor >= 0 || errno != EEXIST { break }
    }
    guard descriptor >= 0 else { throw failure(temporary, "create", errno) }
    var committed = false
    defer {
      if descriptor >= 0 { close(descriptor) }
      if !committed { unlink(temporary) }
    }
    if fchmod(descriptor, mode_t(original.stamp.mode)) != 0 {
      throw failure(temporary, "set the mode of", errno)
    }
    var written = 0
    while written < bytes.count {
      let n = bytes.withUnsafeBytes { raw in
        write(descriptor, raw.baseAddress.map { $0 + written }, raw.count - written)
      }
      if n > 0 {
        written += n
      } else if n < 0 && errno != EINTR {
        throw failure(temporary, "write", errno)
      }
    }
    guard fsync(descriptor) == 0 else { throw failure(temporary, "sync", errno) }
    guard close(descriptor) == 0 else {
      descriptor = -1
      throw failure(temporary, "close", errno)
    }
    descriptor = -1
    guard unchanged(path, since: original) else { throw .changedOnDisk(path: path) }
    guard rename(temporary, path) == 0 else { throw failure(path, "replace", errno) }
    committed = true
    syncFolder(folder)
  }

  /// Whether the file at `path` is still what was read.
  static func unchanged(_ path: String, since original: NoteBytes) -> Bool {
    guard case .success(let now) = NoteReader.read(path, maxBytes: Int.max) else { return false }
    return now.stamp.sameContentStamp(as: original.stamp) && now.bytes == original.bytes
  }

  private static func failure(_ path: String, _ operation: String, _ code: Int32) -> WriteError {
    .failed(VaultFileError(path: path, operation: operation, errno: code))
  }

  /// The folder and the name of `path`.
  static func split(_ path: String) -> (String, String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let folder = path[..<slash]
    return (folder.isEmpty ? "/" : String(folder), String(path[path.index(after: slash)...]))
  }

  private static func randomSuffix() -> String {
    var generator = SystemRandomNumberGenerator()
    let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
    return String((0..<6).map { _ in letters[Int(generator.next() % UInt64(letters.count))] })
  }

  /// Makes the rename durable: the folder's entry is flushed too.
  private static func syncFolder(_ folder: String) {
    let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
  }
}

/// Test-only hooks, compiled into debug builds only.
enum TestSeam {
  /// With `TAGD_TEST_PAUSE_BEFORE_WRITE=FIFO` (debug builds), before writing a note tagd
  /// writes the note's path and a newline into the FIFO, then waits until the test opens the
  /// FIFO for writing and closes it: the test changes the note meanwhile, deterministically
  /// between tagd's read and its write.
  static func pauseBeforeWrite(_ path: String) {
    #if DEBUG
    guard let fifo = getenv("TAGD_TEST_PAUSE_BEFORE_WRITE") else { return }
    let out = open(fifo, O_WRONLY | O_CLOEXEC)
    guard out >= 0 else { return }
    let line = Array((path + "\n").utf8)
    _ = line.withUnsafeBytes { write(out, $0.baseAddress, $0.count) }
    close(out)
    let input = open(fifo, O_RDONLY | O_CLOEXEC)
    guard input >= 0 else { return }
    var byte: UInt8 = 0
    while read(input, &byte, 1) > 0 {}
    close(input)
    #endif
  }
}
