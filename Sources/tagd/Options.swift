import JSONRPC
import TagServer
import TagTerminal
import VaultCommands
import VaultFiles

/// The command line, parsed: what the user asked the executable to do.
///
/// Every flag is declared once, in `Options.serveFlags` or `Options.tryFlags`: parsing, `--help`
/// and the README's flag table (checked by a test) all come from those tables, and each default
/// shown is read from the config types (`ServerConfig`, the values below).
struct Options {
  /// What to run.
  enum Command: Equatable {
    case serve
    /// `tagd try`: the interactive terminal field.
    case tryField
    case help
    /// `--help-man`: the same help as the tagd(1) man page.
    case manPage
    case version
    /// `tagd tags`, `tagd check`, `tagd rename`: parsed and run by VaultCommands.
    case vault(VaultCommand)
  }

  var command = Command.serve
  var framing: Framing?
  var config = ServerConfig()
  var logLevel = Options.defaultLogLevel
  var logFile: String?
  var clientProcessID: Int32?
  /// The largest note a vault's notes are read up to; larger ones are skipped.
  var maxNoteBytes = NoteFiles.defaultMaxBytes
  var tryOptions = TryOptions()
  /// The arguments after a vault command's name.
  var vaultArguments: [String] = []

  /// The `--log` level when none is given: quiet but for errors.
  static let defaultLogLevel = LogLevel.error

  /// Parses arguments (without the program name).
  init(arguments: [String]) throws(UsageError) {
    if let vault = VaultCommand.named(arguments) {
      command = .vault(vault)
      vaultArguments = Array(arguments.dropFirst())
      return
    }
    let isTry = arguments.first == "try"
    if isTry { command = .tryField }
    let flags = isTry ? Options.tryFlags : Options.serveFlags
    for argument in arguments.dropFirst(isTry ? 1 : 0) {
      let (name, value) = Options.split(argument)
      guard let flag = flags.first(where: { $0.name == name || $0.aliases.contains(name) }) else {
        let context = isTry ? " for tagd try" : ""
        throw UsageError("unknown option \"\(argument)\"\(context) (see tagd --help)")
      }
      try flag.apply(to: &self, value: value)
    }
  }

  private static func split(_ argument: String) -> (String, String?) {
    guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }
}

/// One command-line flag: its spelling, what `--help` and the README say about it, its default
/// (read from the config types), and what it does to the options.
struct Flag: Sendable {
  /// What the flag does with its value.
  enum Action: Sendable {
    /// A switch: takes no value.
    case toggle(@Sendable (inout Options) -> Void)
    /// Takes `=VALUE`; `placeholder` names it in the docs (`N`, `PATH`, `a|b|c`).
    case value(placeholder: String, @Sendable (inout Options, String) throws(UsageError) -> Void)
  }

  /// The spelling, such as `--max-depth`.
  var name: String
  /// Other accepted spellings, not documented (`-h`, `--client-process-id`).
  var aliases: [String] = []
  /// What it does, lower case, no final period (the README row, and `--help` capitalised).
  var summary: String
  /// The default, as shown to users; nil when there is nothing to show.
  var defaultText: String?
  var action: Action

  /// The flag as written in the docs: `--max-depth=N` or `--stdio`.
  var spelling: String {
    switch action {
    case .toggle: name
    case .value(let placeholder, _): "\(name)=\(placeholder)"
    }
  }

  /// The summary with its default, as the README and `--help` show it.
  var description: String {
    summary + (defaultText.map { " (default \($0))" } ?? "")
  }

  func apply(to options: inout Options, value: String?) throws(UsageError) {
    switch action {
    case .toggle(let set):
      if let value { throw UsageError("\(name) takes no value, got \(name)=\(value)") }
      set(&options)
    case .value(_, let set):
      guard let value, !value.isEmpty else {
        throw UsageError("\(name) needs a value: \(spelling)")
      }
      try set(&options, value)
    }
  }

  /// A flag whose value is a positive integer no larger than `max`.
  static func number(
    _ name: String,
    aliases: [String] = [],
    _ summary: String,
    default defaultText: String?,
    max: Int = Int.max,
    _ set: @escaping @Sendable (inout Options, Int) -> Void
  ) -> Flag {
    Flag(
      name: name,
      aliases: aliases,
      summary: summary,
      defaultText: defaultText,
      action: .value(placeholder: "N") { options, text throws(UsageError) in
        guard let number = Int(text), number > 0, number <= max else {
          throw UsageError("\(name) must be a positive integer, got \"\(text)\"")
        }
        set(&options, number)
      }
    )
  }

  /// A flag whose value is one of `choices` (plus undocumented `aliases` of a choice).
  static func choice<Value: Sendable>(
    _ name: String,
    _ summary: String,
    default defaultText: String,
    _ choices: [(String, Value)],
    aliases: [(String, Value)] = [],
    _ set: @escaping @Sendable (inout Options, Value) -> Void
  ) -> Flag {
    let names = choices.map(\.0)
    let all = choices + aliases
    return Flag(
      name: name,
      summary: summary,
      defaultText: defaultText,
      action: .value(placeholder: names.joined(separator: "|")) {
        options,
        text throws(UsageError) in
        guard let match = all.first(where: { $0.0 == text }) else {
          let list = names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
          throw UsageError("\(name) must be \(list), got \"\(text)\"")
        }
        set(&options, match.1)
      }
    )
  }
}

/// A byte count as users read it: `64 MiB`, `64 KiB`, or the plain number.
func byteText(_ count: Int) -> String {
  if count >= 1 << 20 && count % (1 << 20) == 0 { return "\(count >> 20) MiB" }
  if count >= 1 << 10 && count % (1 << 10) == 0 { return "\(count >> 10) KiB" }
  return "\(count)"
}

extension Options {
  /// The flags of `tagd` (serving), in the order `--help` and the README list them.
  static let serveFlags: [Flag] = {
    let config = ServerConfig()
    return [
      Flag(
        name: "--stdio",
        summary: "accepted and ignored (stdio is the only transport)",
        action: .toggle { _ in }
      ),
      .choice(
        "--framing",
        "how messages are delimited; auto looks at the first non-whitespace byte",
        default: "auto",
        [("auto", nil), ("content-length", .contentLength), ("ndjson", .newlineDelimited)]
          as [(String, Framing?)],
        aliases: [
          ("lsp", .contentLength), ("newline", .newlineDelimited), ("jsonl", .newlineDelimited),
        ]
      ) { $0.framing = $1 },
      .number(
        "--max-message-bytes",
        "largest message body; bigger ones are skipped with an error",
        default: byteText(config.frameLimits.maxMessageBytes)
      ) { $0.config.frameLimits.maxMessageBytes = $1 },
      .number(
        "--max-header-bytes",
        "largest Content-Length header block",
        default: byteText(config.frameLimits.maxHeaderBytes)
      ) { $0.config.frameLimits.maxHeaderBytes = $1 },
      .number("--max-depth", "deepest JSON nesting", default: "\(config.maxDepth)") {
        $0.config.maxDepth = $1
      },
      .number("--max-sessions", "most open fields and clouds", default: "\(config.maxSessions)") {
        $0.config.maxSessions = $1
      },
      .number("--max-tags", "most tags per field or cloud", default: "\(config.maxTags)") {
        $0.config.maxTags = $1
      },
      .number(
        "--max-tag-length",
        "longest tag in characters",
        default: "\(config.maxTagLength)"
      ) { $0.config.maxTagLength = $1 },
      .number(
        "--max-field-bytes",
        "most UTF-8 bytes of tags plus draft in one field",
        default: byteText(config.maxFieldBytes)
      ) { $0.config.maxFieldBytes = $1 },
      .number(
        "--max-note-bytes",
        "largest note read in a vault; larger ones are skipped with a logged reason",
        default: byteText(NoteFiles.defaultMaxBytes)
      ) { $0.maxNoteBytes = $1 },
      .choice(
        "--log",
        "diagnostics level, written to stderr or the log file",
        default: defaultLogLevel.name,
        LogLevel.allCases.map { ($0.name, $0) }
      ) { $0.logLevel = $1 },
      Flag(
        name: "--log-file",
        summary: "append diagnostics to a file instead of stderr",
        action: .value(placeholder: "PATH") { options, path in options.logFile = path }
      ),
      .number(
        "--clientProcessId",
        aliases: ["--client-process-id"],
        "exit when process N is gone (as initialize's processId)",
        default: nil,
        max: Int(Int32.max)
      ) { $0.clientProcessID = Int32($1) },
      Flag(
        name: "--version",
        summary: "print the version and exit",
        action: .toggle { $0.command = .version }
      ),
      Flag(
        name: "--help",
        aliases: ["-h"],
        summary: "print this help and exit",
        action: .toggle { $0.command = .help }
      ),
      Flag(
        name: "--help-man",
        summary: "print this help as the tagd(1) manual page (roff) and exit",
        action: .toggle { $0.command = .manPage }
      ),
    ]
  }()

  /// The flags of `tagd try`.
  static let tryFlags: [Flag] = [
    .number(
      "--columns",
      "lay the field out N cells wide",
      default: "the terminal width",
      max: 10_000
    ) { $0.tryOptions.columns = $1 },
    Flag(
      name: "--script",
      summary: "read keystrokes from stdin (implied when it is not a terminal); at end of input "
        + "print the final screen as plain text",
      action: .toggle { $0.tryOptions.script = true }
    ),
    Flag(
      name: "--suggestions",
      summary: "offer these tags as ranked suggestions under the field (↓/↑ pick one, Tab or "
        + "Return takes it; Tab alone takes the first)",
      action: .value(placeholder: "A,B,…") { options, value throws(UsageError) in
        options.tryOptions.suggestions = value.split(separator: ",").map(String.init)
      }
    ),
    Flag(
      name: "--help",
      aliases: ["-h"],
      summary: "print this help and exit",
      action: .toggle { $0.command = .help }
    ),
  ]

  /// The `try` subcommand as one line of the README's flag table.
  static let tryUsage =
    "try "
    + tryFlags.filter { $0.name != "--help" }.map { "[\($0.spelling)]" }.joined(separator: " ")

  /// The rows of the README's `## Flags` table, generated from the flag tables.
  static var readmeRows: [String] {
    serveFlags.map { "| `\($0.spelling.replacingBars)` | \($0.description.replacingBars) |" }
      + ["| `\(tryUsage)` | the interactive terminal field above instead of serving |"]
  }

  /// What tagd is, in one line (`--help`'s first line, the man page's NAME).
  static let purpose = "tag-field and tag-cloud sessions over JSON-RPC 2.0 on stdin/stdout"

  /// What `tagd try` is (in `--help` and the man page).
  static let tryDescription =
    "An interactive tag field in this terminal, driving a tagd child over the protocol: type "
    + "or paste tags, ',' or Return adds, Backspace, ←/→ select a chip, Delete or x "
    + "removes it, Ctrl-D or Esc Esc quits."

  /// The usage text for `--help`.
  static var usage: String {
    var lines = [
      "tagd — \(purpose)",
      "",
      "Usage: tagd [options]",
      "       tagd \(tryUsage)",
    ]
    lines += VaultCommand.allCases.map { "       " + $0.synopsis }
    lines += [""]
    lines += helpLines("tagd try", tryDescription)
    for flag in tryFlags where flag.name != "--help" {
      lines += helpLines("  " + flag.spelling, sentence(flag.description))
    }
    for vault in VaultCommand.allCases {
      lines += helpLines("tagd \(vault.rawValue)", sentence(vault.brief))
    }
    lines.append("Each works on a folder of notes; tagd tags|check|rename --help says how.")
    lines += ["", "Options:"]
    for flag in serveFlags {
      lines += helpLines("  " + flag.spelling, sentence(flag.description))
    }
    lines += ["", "Protocol reference: Protocol/README.md in the source tree."]
    return lines.joined(separator: "\n")
  }

  /// `text` with a capital first letter and a final period.
  static func sentence(_ text: String) -> String {
    text.prefix(1).uppercased() + text.dropFirst() + "."
  }

  /// A term and its explanation, the explanation wrapped at 98 columns from column 31 (on the
  /// next line when the term is too long).
  private static func helpLines(_ term: String, _ text: String) -> [String] {
    let indent = String(repeating: " ", count: 31)
    var lines: [String] = []
    var line = term.count < 30 ? term + String(repeating: " ", count: 31 - term.count) : term
    if term.count >= 30 {
      lines.append(line)
      line = indent
    }
    var empty = true
    for word in text.split(separator: " ") {
      if !empty && line.count + 1 + word.count > 98 {
        lines.append(line)
        line = indent
        empty = true
      }
      line += (empty ? "" : " ") + word
      empty = false
    }
    lines.append(line)
    return lines
  }
}

extension String {
  /// `|` escaped for a Markdown table cell.
  fileprivate var replacingBars: String {
    split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|")
  }
}

/// A command-line mistake; printed with the usage hint, exit status 2.
struct UsageError: Error {
  var message: String
  init(_ message: String) { self.message = message }
}
