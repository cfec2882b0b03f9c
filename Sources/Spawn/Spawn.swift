import Synchronization

#if canImport(Glibc)
public import Glibc
#elseif canImport(Darwin)
public import Darwin
#endif

/// A process started over pipes: the one spawner behind `tagd try`'s child, the end-to-end
/// tests' children and the benchmark's.
///
/// `posix_spawn` (no shell) with the child's stdin and stdout (and stderr when asked) on pipes.
/// Our ends are close-on-exec, set under a lock every spawn takes, so a child spawned at the
/// same time on another thread never inherits them (it would hold a pipe open, and the first
/// child would never see end of file).
public struct SpawnedProcess: Sendable {
  /// The child's process id.
  public let pid: pid_t
  /// Our end of the child's stdin.
  public let stdin: Int32
  /// Our end of the child's stdout.
  public let stdout: Int32
  /// Our end of the child's stderr; nil when it goes to /dev/null.
  public let stderr: Int32?

  /// Where the child's stderr goes.
  public enum Stderr: Sendable {
    /// To a pipe of ours.
    case pipe
    /// To /dev/null.
    case discard
  }

  /// Spawns `path` with `arguments`; nonblocking makes our ends non-blocking.
  public static func spawn(
    _ path: String,
    _ arguments: [String] = [],
    stderr: Stderr = .discard,
    nonblocking: Bool = false
  ) throws(SpawnError) -> SpawnedProcess {
    try spawnLock.withLock { _ throws(SpawnError) in
      try spawnLocked(path, arguments, stderr: stderr, nonblocking: nonblocking)
    }
  }

  /// ``spawn(_:_:stderr:nonblocking:)`` with `spawnLock` held.
  private static func spawnLocked(
    _ path: String,
    _ arguments: [String],
    stderr: Stderr,
    nonblocking: Bool
  ) throws(SpawnError) -> SpawnedProcess {
    var pipes: [[Int32]] = []
    for _ in 0..<(stderr == .pipe ? 3 : 2) {
      var ends: [Int32] = [0, 0]
      guard pipe(&ends) == 0 else {
        let code = errno
        for fd in pipes.joined() { close(fd) }
        throw SpawnError(errno: code)
      }
      for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
      pipes.append(ends)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipes[0][0], 0)
    posix_spawn_file_actions_adddup2(&actions, pipes[1][1], 1)
    if stderr == .pipe {
      posix_spawn_file_actions_adddup2(&actions, pipes[2][1], 2)
    } else {
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    }
    let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var child: pid_t = 0
    let status = posix_spawn(&child, path, &actions, nil, argv, environ)
    // The child's ends, ours no more.
    close(pipes[0][0])
    for ends in pipes.dropFirst() { close(ends[1]) }
    let ours = [pipes[0][1]] + pipes.dropFirst().map { $0[0] }
    guard status == 0 else {
      for fd in ours { close(fd) }
      throw SpawnError(errno: status)
    }
    if nonblocking {
      for fd in ours { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }
    return SpawnedProcess(
      pid: child,
      stdin: ours[0],
      stdout: ours[1],
      stderr: stderr == .pipe ? ours[2] : nil
    )
  }
}

/// `pipe` or `posix_spawn` failed.
public struct SpawnError: Error, Sendable, CustomStringConvertible {
  /// The error number.
  public var errno: Int32

  /// Creates an error.
  public init(errno: Int32) {
    self.errno = errno
  }

  /// "cannot start the process: errno N".
  public var description: String { "cannot start the process: errno \(errno)" }
}

/// The process-wide lock around pipe creation and spawning (the standard library's `Mutex`: a
/// `pthread_mutex_t` kept in a class and passed as `&mutex` has no guaranteed stable address).
private let spawnLock = Mutex(())
