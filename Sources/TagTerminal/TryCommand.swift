#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The settings of `tagd try`.
public struct TryOptions: Sendable {
  /// Read keystrokes from stdin until EOF and print the final screen as plain text; implied when
  /// stdin is not a terminal.
  public var script = false
  /// The field width in cells; default: the terminal's width (80 when there is no terminal).
  public var columns: Int?
  /// The tagd binary to spawn as the child.
  public var tagdPath = "/proc/self/exe"
  /// The vocabulary offered as suggestions under the field (none: no suggestions).
  public var suggestions: [String] = []

  /// Creates the defaults.
  public init() {}
}

/// `tagd try`: an interactive tag field in the terminal, driving a tagd child over the protocol.
public enum TryCommand {
  /// Runs until the user quits (or stdin ends in script mode).
  ///
  /// - Returns: the exit status: 0, or 1 when the tagd child failed.
  public static func run(_ options: TryOptions) -> Int32 {
    signal(SIGPIPE, SIG_IGN)
    let scripted = options.script || isatty(STDIN_FILENO) != 1
    do throws(TryError) {
      let child = try TagdChild(path: options.tagdPath)
      let columns = options.columns ?? terminalColumns(STDOUT_FILENO) ?? 80
      let session = try TrySession(
        child: child,
        columns: columns,
        suggestions: options.suggestions
      )
      if scripted {
        try runScript(session)
      } else if let terminal = RawTerminal(input: STDIN_FILENO, output: STDOUT_FILENO) {
        defer { terminal.restore() }
        try runInteractive(session, terminal: terminal, fixedColumns: options.columns)
      }
      if let status = child.finish(), status != 0 {
        report("the tagd child exited with status \(status)")
        return 1
      }
      return 0
    } catch {
      report(error.description)
      return 1
    }
  }

  /// Feeds all of stdin through the session, then prints the screen without escape codes.
  private static func runScript(_ session: TrySession) throws(TryError) {
    var decoder = KeyDecoder()
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    var running = true
    while running {
      let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      decoder.feed(chunk[0..<count])
      while running, let key = decoder.next() { running = try session.handle(key) }
    }
    if running {
      for key in decoder.flush() where running { running = try session.handle(key) }
    }
    let (canvas, _) = TryScreen.render(session.view, columns: session.columns)
    writeAll(Array((canvas.plainText() + "\n").utf8), to: STDOUT_FILENO)
  }

  /// Reads keys from the raw terminal and repaints after each batch, or when the width changes.
  private static func runInteractive(
    _ session: TrySession,
    terminal: RawTerminal,
    fixedColumns: Int?
  ) throws(TryError) {
    var decoder = KeyDecoder()
    draw(session, on: terminal)
    while true {
      // While an escape sequence is half read, wait briefly: a lone ESC is the Escape key.
      guard let bytes = terminal.read(milliseconds: decoder.hasPending ? 30 : 250) else { return }
      decoder.feed(bytes)
      var keys: [TerminalKey] = []
      while let key = decoder.next() { keys.append(key) }
      if bytes.isEmpty && decoder.hasPending { keys += decoder.flush() }
      for key in keys {
        guard try session.handle(key) else { return }
      }
      let columns = fixedColumns ?? terminalColumns(terminal.output) ?? session.columns
      let resized = columns != session.columns
      try session.resize(columns: columns)
      if !keys.isEmpty || resized { draw(session, on: terminal) }
    }
  }

  private static func draw(_ session: TrySession, on terminal: RawTerminal) {
    let (canvas, cursor) = TryScreen.render(session.view, columns: session.columns)
    terminal.send(canvas.terminalBytes(cursorRow: cursor.0, cursorColumn: cursor.1))
  }

  private static func report(_ message: String) {
    writeAll(Array("tagd try: \(message)\n".utf8), to: STDERR_FILENO)
  }
}
