public import JSONRPC
public import Spawn

#if canImport(Glibc)
public import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process with pipes on stdin, stdout and stderr, for end-to-end tests.
///
/// Writes and reads go through `poll`, so a test can never deadlock on a full pipe.
public final class ChildProcess {
  /// The child's pid.
  public let pid: pid_t
  /// Our end of the child's stdin (-1 once closed).
  public private(set) var stdinFD: Int32
  /// Our end of the child's stdout (-1 once closed).
  public private(set) var stdoutFD: Int32
  /// Our end of the child's stderr.
  public let stderrFD: Int32
  /// Everything read from stdout so far.
  public private(set) var stdout: [UInt8] = []
  /// Everything read from stderr so far.
  public private(set) var stderr: [UInt8] = []

  /// Spawns `path` with `arguments`.
  public init(path: String, arguments: [String] = []) throws(SpawnError) {
    let child = try SpawnedProcess.spawn(path, arguments, stderr: .pipe, nonblocking: true)
    pid = child.pid
    stdinFD = child.stdin
    stdoutFD = child.stdout
    stderrFD = child.stderr ?? -1
  }

  deinit {
    if stdinFD >= 0 { close(stdinFD) }
    if stdoutFD >= 0 { close(stdoutFD) }
    close(stderrFD)
    kill(pid, SIGKILL)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
  }

  /// Writes all of `bytes` to the child's stdin, reading its output meanwhile.
  ///
  /// Returns false if the child closed its stdin.
  @discardableResult
  public func write(_ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      guard stdinFD >= 0 else { return false }
      pump(timeoutMilliseconds: 0)
      let n = bytes.withUnsafeBytes { raw in
        Glibc.write(stdinFD, raw.baseAddress.map { $0 + offset }, raw.count - offset)
      }
      if n > 0 {
        offset += n
      } else if n < 0 && errno != EAGAIN && errno != EINTR {
        return false
      } else {
        waitForRoom(milliseconds: 10)
      }
    }
    return true
  }

  /// Waits up to `milliseconds` until stdin takes more bytes or output arrives, then reads the
  /// output; waking on POLLOUT spares a full wait per pipe buffer when the child reads fast.
  private func waitForRoom(milliseconds: Int32) {
    var fds = [
      pollfd(fd: stdinFD, events: Int16(POLLOUT), revents: 0),
      pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0),
      pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0),
    ]
    _ = poll(&fds, 3, milliseconds)
    pump(timeoutMilliseconds: 0)
  }

  /// Writes as much of `bytes` as the child takes without reading its output, until a write
  /// would block for `stallMilliseconds`; returns how many bytes were written.
  public func writeWithoutReading(_ bytes: [UInt8], stallMilliseconds: Int32) -> Int {
    var offset = 0
    while offset < bytes.count, stdinFD >= 0 {
      var pfd = pollfd(fd: stdinFD, events: Int16(POLLOUT), revents: 0)
      guard poll(&pfd, 1, stallMilliseconds) > 0 else { break }
      let n = bytes.withUnsafeBytes { raw in
        Glibc.write(stdinFD, raw.baseAddress.map { $0 + offset }, min(raw.count - offset, 4096))
      }
      if n > 0 {
        offset += n
      } else if n < 0 && errno != EAGAIN && errno != EINTR {
        break
      }
    }
    return offset
  }

  /// Forgets the stdout read so far (long sessions that only need the latest replies).
  public func discardOutput() {
    stdout.removeAll()
  }

  /// Closes the child's stdin (end of input).
  public func closeInput() {
    if stdinFD >= 0 { close(stdinFD) }
    stdinFD = -1
  }

  /// Closes our end of the child's stdout, as a client that vanishes does: its writes then fail
  /// with EPIPE.
  public func closeOutput() {
    if stdoutFD >= 0 { close(stdoutFD) }
    stdoutFD = -1
  }

  /// Reads whatever output is available, waiting up to `timeoutMilliseconds` for some.
  ///
  /// Returns false at end of stdout.
  @discardableResult
  public func pump(timeoutMilliseconds: Int32) -> Bool {
    var fds = [
      pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0),
      pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0),
    ]
    _ = poll(&fds, 2, timeoutMilliseconds)
    // Once our read end of stdout is closed there is no end of file to wait for.
    var open = stdoutFD >= 0
    var chunk = [UInt8](repeating: 0, count: 65536)
    for (i, fd) in [stdoutFD, stderrFD].enumerated() where fds[i].revents != 0 {
      while true {
        let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if n > 0 {
          if i == 0 { stdout += chunk[0..<n] } else { stderr += chunk[0..<n] }
        } else {
          if n == 0 && i == 0 { open = false }
          break
        }
      }
    }
    return open
  }

  /// Reads until `condition` holds for stdout or `seconds` pass; returns whether it held.
  public func waitFor(seconds: Double = 10, _ condition: ([UInt8]) -> Bool) -> Bool {
    let deadline = now() + seconds
    while now() < deadline {
      if condition(stdout) { return true }
      if !pump(timeoutMilliseconds: 20) { return condition(stdout) }
    }
    return condition(stdout)
  }

  /// Closes stdin, reads everything until stdout ends, and waits for the exit status.
  ///
  /// Returns nil if the child did not exit within `seconds`.
  public func finish(seconds: Double = 20) -> Int32? {
    closeInput()
    let deadline = now() + seconds
    while now() < deadline && pump(timeoutMilliseconds: 20) {}
    return waitExit(seconds: max(0.1, deadline - now()))
  }

  /// Waits for the exit status without closing stdin; nil on timeout.
  public func waitExit(seconds: Double) -> Int32? {
    let deadline = now() + seconds
    while now() < deadline {
      var status: Int32 = 0
      let r = waitpid(pid, &status, WNOHANG)
      if r == pid {
        while pump(timeoutMilliseconds: 0) {}
        if status & 0x7f == 0 { return (status >> 8) & 0xff }
        return 128 + (status & 0x7f)
      }
      pump(timeoutMilliseconds: 10)
    }
    return nil
  }
}

/// Seconds on the monotonic clock.
public func now() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Frames one body in the given framing.
public func frame(_ body: String, _ framing: Framing) -> [UInt8] {
  var out: [UInt8] = []
  FrameEncoder.append(Array(body.utf8), as: framing, to: &out)
  return out
}
