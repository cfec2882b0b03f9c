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

/// One note to replace: where, what was read there, and the new bytes.
public struct Replacement: Sendable {
  public var path: String
  public var original: NoteBytes
  public var bytes: [UInt8]

  public init(path: String, original: NoteBytes, bytes: [UInt8]) {
    self.path = path
    self.original = original
    self.bytes = bytes
  }
}

/// Replaces notes' files whole or not at all.
///
/// Each new text goes to a new file in the note's folder (named `.NAME.tagd-XXXXXX`: a dot
/// name, so walks and watchers skip it) with the old file's permission bits; once it is on
/// disk, the file at the note's path is checked to still be the one read (size, modification
/// time, inode and device, then the bytes themselves) and the new file is `rename`d over it;
/// then the folder is synced. At every instant the path holds either the old bytes or the new
/// ones; a note that changed since it was read is left as it is. A write killed before its
/// `rename` leaves its new file behind: the next write into that folder removes such files
/// once they are over a minute old (``removeLeftovers(in:)``).
public enum AtomicWrite {
  /// Replaces one note (`fsync` on its new file).
  public static func replace(
    _ path: String,
    original: NoteBytes,
    with bytes: [UInt8]
  ) throws(WriteError) {
    let result = replaceAll([Replacement(path: path, original: original, bytes: bytes)])[0]
    if case .failure(let error) = result { throw error }
  }

  /// Replaces every note of `replacements`; each result says whether that note was written.
  ///
  /// The new files are all written first and flushed with one `syncfs` (the filesystem's
  /// sync: one wait instead of one per note; each file is `fsync`ed when that fails), then
  /// checked and renamed one by one, then their folders are synced.
  public static func replaceAll(_ replacements: [Replacement]) -> [Result<Void, WriteError>] {
    var results: [Result<Void, WriteError>] = []
    var temporaries: [String?] = []
    var swept = Set<String>()
    for replacement in replacements {
      let folder = split(replacement.path).0
      if swept.insert(folder).inserted { removeLeftovers(in: folder) }
      do {
        temporaries.append(try prepare(replacement, sync: replacements.count == 1))
        results.append(.success(()))
      } catch {
        temporaries.append(nil)
        results.append(.failure(error))
      }
    }
    if replacements.count > 1 {
      // One syncfs per filesystem the notes live on.
      var synced: [UInt64: Bool] = [:]
      for (index, temporary) in temporaries.enumerated() {
        guard let temporary else { continue }
        let device = replacements[index].original.stamp.device
        if synced[device] == nil { synced[device] = syncFilesystem(of: temporary) }
      }
      for (index, temporary) in temporaries.enumerated() {
        guard let temporary, synced[replacements[index].original.stamp.device] == false else {
          continue
        }
        if !syncFile(temporary) {
          let code = errno
          unlink(temporary)
          temporaries[index] = nil
          results[index] = .failure(
            .failed(VaultFileError(path: temporary, operation: "sync", errno: code))
          )
        }
      }
    }
    var folders: [String] = []
    for (index, replacement) in replacements.enumerated() {
      guard let temporary = temporaries[index] else { continue }
      TestSeam.pauseBeforeWrite(replacement.path)
      guard unchanged(replacement.path, since: replacement.original) else {
        unlink(temporary)
        results[index] = .failure(.changedOnDisk(path: replacement.path))
        continue
      }
      guard rename(temporary, replacement.path) == 0 else {
        let code = errno
        unlink(temporary)
        results[index] = .failure(
          .failed(VaultFileError(path: replacement.path, operation: "replace", errno: code))
        )
        continue
      }
      let folder = split(replacement.path).0
      if folders.last != folder { folders.append(folder) }
    }
    for folder in Set(folders) { syncFile(folder, directory: true) }
    return results
  }

  /// Writes the new file beside the note; returns its path.
  private static func prepare(_ replacement: Replacement, sync: Bool) throws(WriteError) -> String {
    let (folder, name) = split(replacement.path)
    var temporary = ""
    var descriptor: Int32 = -1
    for _ in 0..<100 {
      temporary = folder + "/." + name + ".tagd-" + randomSuffix()
      descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      if descriptor >= 0 || errno != EEXIST { break }
    }
    guard descriptor >= 0 else { throw failure(temporary, "create", errno) }
    var done = false
    defer {
      if descriptor >= 0 { close(descriptor) }
      if !done { unlink(temporary) }
    }
    if fchmod(descriptor, mode_t(replacement.original.stamp.mode)) != 0 {
      throw failure(temporary, "set the mode of", errno)
    }
    let bytes = replacement.bytes
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
    if sync && fsync(descriptor) != 0 { throw failure(temporary, "sync", errno) }
    let closed = close(descriptor)
    descriptor = -1
    guard closed == 0 else { throw failure(temporary, "close", errno) }
    done = true
    return temporary
  }

  /// How old a leftover new file must be before a later write removes it: older than any write
  /// still running could leave it.
  static let leftoverAge = 60

  /// Removes the new files that writes killed before their `rename` left in `folder`.
  ///
  /// Those are regular files named as ``prepare`` names them (`.NAME.tagd-` and six of
  /// `a-z0-9`) and last modified more than ``leftoverAge`` seconds ago. Nothing else is
  /// touched; a failure is ignored (the file stays, a dot file that walks skip).
  static func removeLeftovers(in folder: String) {
    guard let directory = opendir(folder) else { return }
    defer { closedir(directory) }
    let now = time(nil)
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        Array(raw.prefix { $0 != 0 })
      }
      guard isLeftoverName(name) else { continue }
      let path = folder + "/" + String(decoding: name, as: UTF8.self)
      var status = stat()
      guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
        Int(now - status.st_mtim.tv_sec) > leftoverAge
      else { continue }
      unlink(path)
    }
  }

  /// Whether `name` is one ``prepare`` gives: `.`, a name, `.tagd-`, six of `a-z0-9`.
  static func isLeftoverName(_ name: [UInt8]) -> Bool {
    let marker = Array(".tagd-".utf8)
    let suffix = 6
    guard name.count >= 2 + marker.count + suffix, name[0] == UInt8(ascii: "."),
      name[(name.count - suffix - marker.count)..<(name.count - suffix)].elementsEqual(marker)
    else { return false }
    return name[(name.count - suffix)...].allSatisfy {
      ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
        || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
    }
  }

  /// Whether the file at `path` is still what was read.
  static func unchanged(_ path: String, since original: NoteBytes) -> Bool {
    guard case .success(let now) = NoteFiles.read(path, maxBytes: Int.max) else { return false }
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

  /// Six random letters and digits (one `getrandom` for all six).
  private static func randomSuffix() -> String {
    var generator = SystemRandomNumberGenerator()
    var bits = generator.next()
    let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
    var result = ""
    for _ in 0..<6 {
      result.append(letters[Int(bits % 36)])
      bits /= 36
    }
    return result
  }

  /// `fsync`s a file or folder; false when it fails.
  @discardableResult
  private static func syncFile(_ path: String, directory: Bool = false) -> Bool {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | (directory ? O_DIRECTORY : 0))
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    return fsync(descriptor) == 0
  }

  /// `syncfs` on the filesystem holding `path` (`sync` of every filesystem where libc does
  /// not export it); false when it fails.
  private static func syncFilesystem(of path: String) -> Bool {
    guard let syncfs = syncfsFunction else {
      sync()
      return true
    }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    return syncfs(descriptor) == 0
  }

  /// glibc's `syncfs`, which its Swift module does not declare (it needs `_GNU_SOURCE`).
  private static let syncfsFunction: (@convention(c) (Int32) -> Int32)? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syncfs") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
  }()
}

/// Test-only hooks, compiled into debug builds only.
enum TestSeam {
  /// With `TAGD_TEST_PAUSE_BEFORE_WRITE=FIFO` (debug builds), before writing a note tagd
  /// writes the note's path and a newline into the FIFO, then waits until a file named
  /// `FIFO.go` exists and removes it: the test changes the note meanwhile, deterministically
  /// between tagd's read and its write. (The FIFO carries one direction only, so the two sides
  /// can never both wait to open it.)
  static func pauseBeforeWrite(_ path: String) {
    #if DEBUG
    guard let fifo = getenv("TAGD_TEST_PAUSE_BEFORE_WRITE").map({ String(cString: $0) }) else {
      return
    }
    let out = open(fifo, O_WRONLY | O_CLOEXEC)
    guard out >= 0 else { return }
    let line = Array((path + "\n").utf8)
    _ = line.withUnsafeBytes { write(out, $0.baseAddress, $0.count) }
    close(out)
    let go = fifo + ".go"
    while unlink(go) != 0 { usleep(1000) }
    #endif
  }
}
