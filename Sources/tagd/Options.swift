import JSONRPC
import TagServer
import TagTerminal

/// The command line, parsed: what the user asked the executable to do.
struct Options {
  /// What to run.
  enum Command {
    case serve
    /// `tagd try`: the interactive terminal field.
    case tryField
    case help
    case version
  }

  var command = Command.serve
  var framing: Framing?
  var config = ServerConfig()
  var logLevel = LogLevel.error
  var logFile: String?
  var clientProcessID: Int32?
  var tryOptions = TryOptions()

  /// The usage text for `--help`.
  static let usage = """
    tagd — tag-field and tag-cloud sessions over JSON-RPC 2.0 on stdin/stdout

    Usage: tagd [options]
           tagd try [--columns=N] [--script]

    tagd try                       An interactive tag field in this terminal, driving a tagd
                                   child over the protocol: type or paste tags, ',' or Return
                                   adds, Backspace, ←/→ select a chip, Delete or x removes it,
                                   Ctrl-D or Esc Esc quits.
      --columns=N                  Lay the field out N cells wide (default: the terminal width).
      --script                     Read keystrokes from stdin (implied when it is not a
                                   terminal); at EOF print the final screen as plain text.

    Options:
      --stdio                      Accepted and ignored (stdio is the only transport).
      --framing=auto|content-length|ndjson
                                   How messages are delimited (default: auto, from the first byte).
      --max-message-bytes=N        Largest message body accepted (default 67108864).
      --max-header-bytes=N         Largest Content-Length header block (default 65536).
      --max-depth=N                Deepest JSON nesting accepted (default 512).
      --max-sessions=N             Most open fields and clouds at once (default 100000).
      --max-tags=N                 Most tags in one field or cloud (default 1000000).
      --max-tag-length=N           Longest tag in characters (default 1024).
      --max-field-bytes=N          Most UTF-8 bytes of tags plus draft in one field (default 67108864).
      --log=error|warning|info|debug
                                   Lowest level of diagnostics written (default: error).
      --log-file=PATH              Append diagnostics to PATH instead of stderr.
      --clientProcessId=N          Exit when process N is gone (as initialize's processId).
      --version                    Print the version and exit.
      --help                       Print this help and exit.

    Protocol reference: Protocol/README.md in the source tree.
    """

  /// Parses arguments (without the program name).
  init(arguments: [String]) throws(UsageError) {
    if arguments.first == "try" {
      try parseTry(arguments.dropFirst())
      return
    }
    for argument in arguments {
      let (name, value) = Options.split(argument)
      switch name {
      case "--stdio": break
      case "--help", "-h": command = .help
      case "--version": command = .version
      case "--framing":
        switch try Options.require(value, name) {
        case "auto": framing = nil
        case "content-length", "lsp": framing = .contentLength
        case "ndjson", "newline", "jsonl": framing = .newlineDelimited
        case let other:
          throw UsageError("--framing must be auto, content-length or ndjson, got \"\(other)\"")
        }
      case "--max-message-bytes":
        config.maxMessageBytes = try Options.number(value, name)
      case "--max-header-bytes": config.maxHeaderBytes = try Options.number(value, name)
      case "--max-depth": config.maxDepth = try Options.number(value, name)
      case "--max-sessions": config.maxSessions = try Options.number(value, name)
      case "--max-tags": config.maxTags = try Options.number(value, name)
      case "--max-tag-length": config.maxTagLength = try Options.number(value, name)
      case "--max-field-bytes": config.maxFieldBytes = try Options.number(value, name)
      case "--log":
        let text = try Options.require(value, name)
        guard let level = LogLevel.allCases.first(where: { $0.name == text }) else {
          throw UsageError("--log must be error, warning, info or debug, got \"\(text)\"")
        }
        logLevel = level
      case "--log-file": logFile = try Options.require(value, name)
      case "--clientProcessId", "--client-process-id":
        clientProcessID = Int32(try Options.number(value, name, max: Int(Int32.max)))
      default:
        throw UsageError("unknown option \"\(argument)\" (see tagd --help)")
      }
    }
  }

  /// Parses the arguments after `try`.
  private mutating func parseTry(_ arguments: ArraySlice<String>) throws(UsageError) {
    command = .tryField
    for argument in arguments {
      let (name, value) = Options.split(argument)
      switch name {
      case "--help", "-h": command = .help
      case "--script": tryOptions.script = true
      case "--columns": tryOptions.columns = try Options.number(value, name, max: 10_000)
      default:
        throw UsageError("unknown option \"\(argument)\" for tagd try (see tagd --help)")
      }
    }
  }

  private static func split(_ argument: String) -> (String, String?) {
    guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }

  private static func require(_ value: String?, _ name: String) throws(UsageError) -> String {
    guard let value, !value.isEmpty else {
      throw UsageError("\(name) needs a value: \(name)=VALUE")
    }
    return value
  }

  private static func number(
    _ value: String?,
    _ name: String,
    max: Int = Int.max
  ) throws(UsageError) -> Int {
    let text = try require(value, name)
    guard let number = Int(text), number > 0, number <= max else {
      throw UsageError("\(name) must be a positive integer, got \"\(text)\"")
    }
    return number
  }
}

/// A command-line mistake; printed with the usage hint, exit status 2.
struct UsageError: Error {
  var message: String
  init(_ message: String) { self.message = message }
}
