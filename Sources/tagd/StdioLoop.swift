import JSONRPC
import TagServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The only code that touches file descriptors: reads stdin, feeds the framer and the server,
/// writes replies with one write per batch of input (or per ``Outbox/flushBytes`` of replies),
/// and exits when told.
struct StdioLoop {
  let input: Int32
  let output: Int32
  let log: LogSink
  var connection: Connection
  var watchedProcess: Int32?
  /// The vaults' file work, on background threads.
  let worker: VaultWorker

  /// Runs until exit; returns the exit code.
  ///
  /// While a vault is served, stdin is polled beside the vault worker's wake pipe and its
  /// watchers' descriptors: what the worker found reaches the server between messages, never
  /// inside one (ARCHITECTURE.md, "The vault: indexing beside the keystrokes").
  mutating func run() -> Int32 {
    keepFreedMemory()
    let none: [UInt8] = []
    var outbox = Outbox()
    var lastCheck = monotonicSeconds()
    var inputOpen = true
    while true {
      if let pid = watchedProcess, monotonicSeconds() - lastCheck >= 2 {
        lastCheck = monotonicSeconds()
        if kill(pid, 0) != 0 && errno == ESRCH {
          connection.handle(.clientProcessGone, into: &outbox)
          if let code = flush(&outbox) { return code }
        }
      }
      // Idle for a second after large messages: their freed memory goes back to the kernel.
      let trimming = receivedSinceTrim >= Self.trimAfter
      let timeout: Int32 = watchedProcess != nil ? 2000 : trimming ? 1000 : -1
      if !worker.isIdle || !inputOpen {
        var fds = (inputOpen ? [input] : []).map {
          pollfd(fd: $0, events: Int16(POLLIN), revents: 0)
        }
        fds += worker.descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let ready = poll(&fds, nfds_t(fds.count), timeout)
        if ready <= 0 {
          if ready == 0, trimming { trim() }
          continue
        }
        for fd in fds.dropFirst(inputOpen ? 1 : 0) where fd.revents != 0 {
          if fd.fd == worker.wake.read {
            for delivery in worker.take() {
              switch delivery {
              case .event(let event): connection.handle(event, into: &outbox)
              case .log(let record): log.write(record)
              case .watcher: break
              }
            }
          } else {
            for event in worker.drainWatcher(fd.fd) { connection.handle(event, into: &outbox) }
          }
        }
        if let code = flush(&outbox) { return code }
        guard inputOpen, fds[0].revents != 0 else { continue }
      } else if timeout >= 0 {
        var pfd = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        if poll(&pfd, 1, timeout) == 0 {
          if trimming { trim() }
          continue
        }
      }
      // Read straight into the framer's buffer: a pipelined stream's bytes are not copied again.
      var count = 0
      connection.read(64 << 10) { room in
        room.withUnsafeMutableBufferPointer { free, written in
          count = read(input, free.baseAddress, free.count)
          written = max(count, 0)
        }
      }
      if count < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        log.write(LogRecord(level: .error, message: "reading stdin failed: errno \(errno)"))
      }
      if count <= 0 {
        // The server exits now, or once the requests parked for the vault are answered.
        inputOpen = false
        connection.inputClosed(into: &outbox)
        if let code = flush(&outbox) { return code }
        continue
      }
      receivedSinceTrim += count
      while connection.receive(none.span, into: &outbox, upTo: Outbox.flushBytes) {
        if let code = flush(&outbox) { return code }
      }
      if let code = flush(&outbox) { return code }
      returnFreedMemory()
    }
  }

  /// Hands freed heap back to the kernel after a second of idle input.
  private mutating func trim() {
    #if canImport(Glibc)
    _ = mallocTrim(0)
    #endif
    receivedSinceTrim = 0
  }

  /// The most sessions open since memory was last handed back to the kernel.
  var sessionPeak = 0
  /// Bytes read since freed memory was last handed back to the kernel.
  var receivedSinceTrim = 0
  /// After this many bytes, freed memory is handed back once input has been idle for a second.
  static let trimAfter = 1 << 20

  /// Keeps freed blocks of up to 32 MiB in the heap instead of unmapping them at once.
  ///
  /// By default glibc maps every large block afresh and unmaps it when freed, so each message of
  /// a megabyte (a document sent whole) cost ~460 page faults, half its server time. The freed
  /// memory is handed back when input goes idle (`receivedSinceTrim`).
  private func keepFreedMemory() {
    #if canImport(Glibc)
    _ = mallocOption(-3, 32 << 20)  // M_MMAP_THRESHOLD
    _ = mallocOption(-1, 64 << 20)  // M_TRIM_THRESHOLD
    // One malloc arena: the only other threads are the vault's readers, whose parsed notes the
    // loop frees; an arena per reader kept ~7 MiB more at the peak of serving the 100k-note
    // vault (61-63 MiB against 54-56, `MALLOC_ARENA_MAX=1`; the goal is 64).
    _ = mallocOption(-8, 1)  // M_ARENA_MAX
    #endif
  }

  /// Hands freed heap back to the kernel once many sessions have closed.
  ///
  /// glibc keeps freed small blocks otherwise, so RSS would stay at its peak. Cheap: runs only
  /// when the open sessions fall to half of their peak (of at least 1,000).
  private mutating func returnFreedMemory() {
    let open = connection.server.sessionCount
    sessionPeak = max(sessionPeak, open)
    guard sessionPeak >= 1000, open <= sessionPeak / 2 else { return }
    #if canImport(Glibc)
    _ = mallocTrim(0)
    #endif
    sessionPeak = open
  }

  /// Performs the outbox: logs, the pid watch, the bytes; returns an exit code when it is time.
  private mutating func flush(_ outbox: inout Outbox) -> Int32? {
    for record in outbox.logs { log.write(record) }
    if let pid = outbox.watchProcess { watchedProcess = pid }
    for task in outbox.vaultTasks { worker.perform(task) }
    let exitCode = outbox.exitCode
    if !outbox.withWire({ writeAll($0) }) {
      log.write(LogRecord(level: .info, message: "stdout closed by the client; exiting"))
      return exitCode ?? 1
    }
    outbox.clear()
    return exitCode
  }

  /// Writes every byte, retrying short writes; false when the reader is gone (EPIPE).
  private func writeAll(_ span: Span<UInt8>) -> Bool {
    span.withUnsafeBufferPointer(writeAll)
  }

  private func writeAll(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let written = write(output, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
      if written < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        return false
      }
      offset += written
    }
    return true
  }
}

func monotonicSeconds() -> Double {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

#if canImport(Glibc)
/// glibc's `malloc_trim(3)`, which the Glibc module does not export.
@_silgen_name("malloc_trim")
func mallocTrim(_ pad: Int) -> Int32

/// glibc's `mallopt(3)`, likewise not exported.
@_silgen_name("mallopt")
func mallocOption(_ parameter: Int32, _ value: Int32) -> Int32
#endif
