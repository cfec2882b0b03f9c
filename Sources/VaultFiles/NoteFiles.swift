#if canImport(Glibc)
import Glibc
#endif

/// A note's bytes as read, with the stamp a later write compares against.
public struct NoteBytes: Sendable, Equatable {
  public var bytes: [UInt8]
  public var stamp: FileStamp

  public init(bytes: [UInt8], stamp: FileStamp) {
    self.bytes = bytes
    self.stamp = stamp
  }
}

/// Reading notes: one at a time, or a whole listing on a few threads.
public enum NoteFiles {
  /// The default size limit: notes larger than this are skipped (`--max-note-bytes`).
  public static let defaultMaxBytes = 8 << 20

  /// Reads the file at `path`: its bytes when it is a regular file of at most `maxBytes`
  /// bytes of valid UTF-8 (a byte order mark is valid and kept), else why not.
  public static func read(
    _ path: String,
    maxBytes: Int = defaultMaxBytes
  ) -> Result<
    NoteBytes, SkipReason
  > {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return .failure(.unreadable(errno: errno)) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return .failure(.unreadable(errno: errno)) }
    guard status.st_mode & S_IFMT == S_IFREG else { return .failure(.notRegularFile) }
    let size = Int(status.st_size)
    guard size <= maxBytes else { return .failure(.tooLarge(size: size, limit: maxBytes)) }
    // One byte more than the size, so that a file that grew since fstat is seen to have.
    let capacity = size + 1
    var failure: Int32 = 0
    let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
      var filled = 0
      while filled < capacity {
        let n = Glibc.read(descriptor, buffer.baseAddress.map { $0 + filled }, capacity - filled)
        if n > 0 {
          filled += n
        } else if n == 0 {
          break
        } else if errno != EINTR {
          failure = errno
          break
        }
      }
      count = filled
    }
    if failure != 0 { return .failure(.unreadable(errno: failure)) }
    var all = bytes
    if all.count == capacity {
      // It grew while being read: read the rest, within the limit.
      var chunk = [UInt8](repeating: 0, count: 65536)
      while true {
        let n = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        if n > 0 { all += chunk[0..<n] } else if n == 0 || errno != EINTR { break }
        if all.count > maxBytes {
          return .failure(.tooLarge(size: all.count, limit: maxBytes))
        }
      }
    }
    do {
      // RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF.
      _ = try UTF8Span(validating: all.span)
    } catch {
      return .failure(.invalidUTF8(offset: error.byteOffsets.lowerBound))
    }
    return .success(NoteBytes(bytes: all, stamp: FileStamp(status)))
  }

  /// How many threads read by default: the online processors, at most 8.
  public static var defaultThreads: Int {
    max(1, min(8, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
  }

  /// Reads every note of `notes` on `threads` threads and hands each to `transform` on the
  /// thread that read it (parse there, keep only what is needed); the results come back in
  /// the order of `notes`.
  public static func map<T: Sendable>(
    _ notes: [NoteFile],
    threads: Int = defaultThreads,
    maxBytes: Int = defaultMaxBytes,
    _ transform: @escaping @Sendable (NoteFile, Result<NoteBytes, SkipReason>) -> T
  ) -> [T] {
    let job = MapJob(notes: notes, maxBytes: maxBytes, transform: transform)
    let count = min(max(1, threads), max(1, notes.count / MapJob<T>.chunk))
    if count == 1 {
      job.work(thread: 0, of: 1)
    } else {
      var ids: [pthread_t] = []
      for index in 1..<count {
        let context = Unmanaged.passRetained(MapThread(job: job, index: index, count: count))
        var thread = pthread_t()
        if pthread_create(&thread, nil, mapThreadMain, context.toOpaque()) == 0 {
          ids.append(thread)
        } else {
          context.release()
          // Fewer threads than asked: this one does the chunks of the thread that did not start.
          job.work(thread: index, of: count)
        }
      }
      job.work(thread: 0, of: count)
      for thread in ids { pthread_join(thread, nil) }
    }
    return job.results()
  }
}

/// One `NoteFiles.map` call shared by its threads: each thread writes only its own slots.
private final class MapJob<T: Sendable>: @unchecked Sendable {
  /// Notes per chunk: thread k of n takes chunks k, k + n, k + 2n and so on.
  static var chunk: Int { 64 }

  let notes: [NoteFile]
  let maxBytes: Int
  let transform: @Sendable (NoteFile, Result<NoteBytes, SkipReason>) -> T
  let slots: UnsafeMutablePointer<T>

  init(
    notes: [NoteFile],
    maxBytes: Int,
    transform: @escaping @Sendable (NoteFile, Result<NoteBytes, SkipReason>) -> T
  ) {
    self.notes = notes
    self.maxBytes = maxBytes
    self.transform = transform
    slots = .allocate(capacity: notes.count)
  }

  func work(thread: Int, of count: Int) {
    var start = thread * Self.chunk
    while start < notes.count {
      for index in start..<min(start + Self.chunk, notes.count) {
        let note = notes[index]
        (slots + index).initialize(
          to: transform(note, NoteFiles.read(note.path, maxBytes: maxBytes))
        )
      }
      start += count * Self.chunk
    }
  }

  /// The results, once every thread is joined (moves them out; call once).
  func results() -> [T] {
    let result = Array(UnsafeBufferPointer(start: slots, count: notes.count))
    slots.deinitialize(count: notes.count)
    return result
  }

  deinit { slots.deallocate() }
}

/// What one extra thread of a `map` runs.
private protocol MapWork: AnyObject {
  func run()
}

private final class MapThread<T: Sendable>: MapWork {
  let job: MapJob<T>
  let index: Int
  let count: Int

  init(job: MapJob<T>, index: Int, count: Int) {
    self.job = job
    self.index = index
    self.count = count
  }

  func run() { job.work(thread: index, of: count) }
}

private func mapThreadMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
  guard let context else { return nil }
  let work = Unmanaged<AnyObject>.fromOpaque(context).takeRetainedValue() as? any MapWork
  work?.run()
  return nil
}
