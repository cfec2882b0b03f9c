#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal settings to put back, for the signal handlers (which cannot capture context).
nonisolated(unsafe) private var savedSettings: termios?

/// Leaves bracketed paste and the alternate screen, resets colours, shows the cursor.
private let leaveSequence: StaticString = "\u{1B}[?2004l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

/// The user's terminal in raw mode: no echo, no line editing, no signals from Ctrl-C (it arrives
/// as a byte), bracketed paste on, on the alternate screen.
///
/// - Important: ``restore()`` puts everything back; it runs on normal exit, on errors (the
///   caller's `defer`), and on SIGINT, SIGTERM, SIGHUP and SIGQUIT through a signal handler, so
///   the user's terminal is never left broken.
final class RawTerminal {
  let input: Int32
  let output: Int32
  private var restored = false

  /// Switches `input` to raw mode and `output` to the alternate screen; nil if `input` is not a
  /// terminal.
  init?(input: Int32, output: Int32) {
    var settings = termios()
    guard isatty(input) == 1, tcgetattr(input, &settings) == 0 else { return nil }
    self.input = input
    self.output = output
    savedSettings = settings
    for number in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
      signal(number) { number in
        if var settings = savedSettings { tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings) }
        _ = Glibc.write(STDOUT_FILENO, leaveSequence.utf8Start, leaveSequence.utf8CodeUnitCount)
        _exit(128 + number)
      }
    }
    // SIGWINCH's default is to be ignored; a no-op handler makes poll() return EINTR instead,
    // so a resize is redrawn at once.
    signal(SIGWINCH) { _ in }
    settings.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
    settings.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
    settings.c_cflag |= tcflag_t(CS8)
    withUnsafeMutableBytes(of: &settings.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    tcsetattr(input, TCSAFLUSH, &settings)
    send(Array("\u{1B}[?1049h\u{1B}[?2004h\u{1B}[2J".utf8))
  }

  deinit { restore() }

  /// Puts the terminal back as it was; safe to call more than once.
  func restore() {
    guard !restored else { return }
    restored = true
    _ = Glibc.write(output, leaveSequence.utf8Start, leaveSequence.utf8CodeUnitCount)
    if var settings = savedSettings { tcsetattr(input, TCSAFLUSH, &settings) }
    savedSettings = nil
    for number in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH] { signal(number, SIG_DFL) }
  }

  /// Writes `bytes` to the terminal, all of them.
  func send(_ bytes: [UInt8]) { writeAll(bytes, to: output) }

  /// Waits up to `milliseconds` for input and reads it; empty when none came (or a signal, such
  /// as SIGWINCH, interrupted the wait); nil at end of input.
  func read(milliseconds: Int32) -> [UInt8]? {
    var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
    guard poll(&descriptor, 1, milliseconds) > 0 else { return [] }
    var chunk = [UInt8](repeating: 0, count: 4096)
    let count = chunk.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
    if count < 0 { return errno == EINTR || errno == EAGAIN ? [] : nil }
    return count == 0 ? nil : Array(chunk[0..<count])
  }
}

/// The width of the terminal on `descriptor` in columns, if it is one.
func terminalColumns(_ descriptor: Int32) -> Int? {
  var size = winsize()
  guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
  return Int(size.ws_col)
}

/// Writes every byte to `descriptor`, retrying short writes and EINTR.
func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
  bytes.withUnsafeBytes { raw in
    var offset = 0
    while offset < raw.count {
      let written = write(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return
      }
      offset += written
    }
  }
}
