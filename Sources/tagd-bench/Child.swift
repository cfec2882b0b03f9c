import Spawn

#if canImport(Glibc)
import Glibc
#endif

/// Why the benchmark stopped: a spawn that failed, a response that was wrong, a child that hung.
struct BenchError: Error, CustomStringConvertible {
  /// What went wrong, in one sentence.
  var description: String

  init(_ description: String) {
    self.description = description
  }
}

/// A spawned child on real pipes: we write its stdin and read its stdout; its stderr is discarded.
///
/// Both ends are non-blocking and driven by `poll`, so a full pipe never deadlocks the bench.
final class Child {
  /// The child's process id.
  let pid: pid_t
  /// Our end of the child's stdin (-1 once closed).
  private(set) var input: Int32
  /// Our end of the child's stdout.
  let output: Int32
  /// Everything read from stdout so far.
  private(set) var received: [UInt8] = []
  /// The Content-Length frames found in `received`.
  private(set) var frames = FrameScanner()
  private var reaped = false
  private var chunk = [UInt8](repeating: 0, count: 1 << 20)

  /// Spawns `path` with `arguments` (posix_spawn; no shell).
  init(path: String, arguments: [String] = []) throws(BenchError) {
    let child: SpawnedProcess
    do throws(SpawnError) {
      child = try SpawnedProcess.spawn(path, arguments, nonblocking: true)
    } catch {
      throw BenchError("cannot spawn \(path): errno \(error.errno)")
    }
    pid = child.pid
    input = child.stdin
    output = child.stdout
    received.reserveCapacity(1 << 20)
  }

  deinit {
    if input >= 0 { close(input) }
    close(output)
    if !reaped {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }
  }

  /// Writes all of `bytes` while reading replies, until `count` frames have arrived in total.
  func exchange(_ bytes: [UInt8], untilFrames count: Int, timeout: Double = 120) throws(BenchError)
  {
    try exchange(bytes[...], untilFrames: count, timeout: timeout)
  }

  /// Writes all of `bytes` while reading replies, until `count` frames have arrived in total.
  func exchange(
    _ bytes: ArraySlice<UInt8>,
    untilFrames count: Int,
    timeout: Double = 120
  ) throws(BenchError) {
    var offset = 0
    let deadline = Clock.seconds() + timeout
    while frames.count < count || offset < bytes.count {
      var fds = (
        pollfd(fd: output, events: Int16(POLLIN), revents: 0),
        pollfd(fd: offset < bytes.count ? input : -1, events: Int16(POLLOUT), revents: 0)
      )
      let ready = withUnsafeMutableBytes(of: &fds) { raw in
        poll(raw.baseAddress?.assumingMemoryBound(to: pollfd.self), 2, 1000)
      }
      if ready < 0 && errno != EINTR { throw BenchError("poll failed: errno \(errno)") }
      if Clock.seconds() > deadline {
        throw BenchError("timed out: \(frames.count) of \(count) replies after \(timeout) s")
      }
      if fds.1.revents != 0 && offset < bytes.count {
        let written = bytes.withUnsafeBytes { raw in
          write(input, raw.baseAddress.map { $0 + offset }, min(raw.count - offset, 1 << 20))
        }
        if written > 0 {
          offset += written
        } else if errno != EAGAIN && errno != EINTR {
          throw BenchError("the child closed its stdin (errno \(errno))")
        }
      }
      if fds.0.revents != 0 { try drain() }
    }
  }

  /// Reads what is available now; throws when the child closed stdout.
  private func drain() throws(BenchError) {
    while true {
      let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
      if count > 0 {
        received.append(contentsOf: chunk[0..<count])
        continue
      }
      if count == 0 { throw BenchError("the child closed its stdout (exited?)") }
      if errno == EAGAIN || errno == EINTR { break }
      throw BenchError("reading the child failed: errno \(errno)")
    }
    if let problem = frames.scan(received) { throw BenchError(problem) }
  }

  /// Closes the child's stdin, waits for it to exit, and returns its exit status and CPU time.
  @discardableResult
  func finish() -> (status: Int32, cpuSeconds: Double) {
    if input >= 0 {
      close(input)
      input = -1
    }
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    reaped = true
    let cpu =
      Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
      + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    return ((status >> 8) & 0xFF, cpu)
  }

  /// The bodies of the frames received so far with indices in `range`.
  func bodies(_ range: Range<Int>) -> ArraySlice<Range<Int>> { frames.bodies[range] }
}

/// The monotonic clock.
enum Clock {
  /// Nanoseconds since an arbitrary start.
  static func nanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
  }

  /// Seconds since an arbitrary start.
  static func seconds() -> Double { Double(nanoseconds()) / 1e9 }
}
