import VaultFiles

#if canImport(Glibc)
import Glibc
#endif

/// `tagd tags`, `tagd check` and `tagd rename` (SPEC §6f): the vault on the command line.
///
/// Each command is declared once here: its synopsis, what it does and its flags make the
/// `--help` text, the usage printed with a usage error and the lines `tagd --help` shows.
public enum VaultCommand: String, CaseIterable, Sendable {
  case tags
  case check
  case rename

  /// The command line after `tagd` names a vault command.
  public static func named(_ arguments: [String]) -> VaultCommand? {
    arguments.first.flatMap(VaultCommand.init(rawValue:))
  }

  /// The synopsis, as `--help` shows it.
  public var synopsis: String {
    switch self {
    case .tags: "tagd tags [DIR] [--json] [--max-note-bytes=N] [--threads=N]"
    case .check: "tagd check [DIR] [--json] [--max-note-bytes=N] [--threads=N]"
    case .rename: "tagd rename FROM TO [DIR] [--dry-run] [--max-note-bytes=N] [--threads=N]"
    }
  }

  /// What it does, in one line (`tagd --help`).
  public var brief: String {
    switch self {
    case .tags: "list the tags of the notes under DIR, most used first"
    case .check: "report variant spellings, repeats, denied tags and aliases in the notes"
    case .rename: "rename a tag in every note, changing only the tag's bytes"
    }
  }

  /// What it does, in one paragraph.
  public var summary: String {
    switch self {
    case .tags:
      "Lists the tags of the notes under DIR (default: the current folder), one line per tag: "
        + "the number of notes carrying it, a tab, the tag as the vault spells it; most used "
        + "first. Spellings that differ only in case or composition are one tag. --json prints "
        + "the result of the vault/tags method instead."
    case .check:
      "Checks the tags of the notes under DIR against each other and the vault's .tagd.toml: "
        + "one line per problem, path:line:column: code: message (1-based, columns in "
        + "characters), codes tag-variant, tag-repeated, tag-not-allowed and tag-alias. "
        + "--json prints them as JSON ({diagnostics: [{path, line, column, code, message}]}). "
        + "Exit status 0 when clean, 1 otherwise."
    case .rename:
      "Renames the tag FROM to TO in every note under DIR (FROM/... below it too), changing "
        + "only the tags' bytes; a list that already has TO keeps it once. Each note is "
        + "replaced atomically, its mode kept; a note changed on disk since it was read is "
        + "not written but named. --dry-run prints a unified diff and writes nothing. Exit "
        + "status 0 when done, 1 when refused (a note cannot hold TO, or one changed on disk)."
    }
  }

  /// The flags it takes.
  public var flags: [(spelling: String, summary: String)] {
    var result: [(String, String)] = []
    switch self {
    case .tags: result.append(("--json", "print the vault/tags result as JSON"))
    case .check: result.append(("--json", "print the diagnostics as JSON"))
    case .rename: result.append(("--dry-run", "print a unified diff; write nothing"))
    }
    result.append(
      (
        "--max-note-bytes=N",
        "skip notes larger than N bytes (default \(NoteLimits.defaultMaxBytesText))"
      )
    )
    result.append(
      ("--threads=N", "read and parse notes on N threads (default: the processors, at most 8)")
    )
    result.append(("--help", "print this help and exit"))
    return result
  }

  /// The `--help` text.
  public var help: String {
    var lines = ["Usage: \(synopsis)", ""]
    lines += wrap(summary, width: 98)
    lines += ["", "Options:"]
    for flag in flags {
      let term = "  " + flag.spelling
      lines.append(term.padding(to: 24) + flag.summary)
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Runs the command on `arguments` (after the command's name); returns the exit status.
  public func run(_ arguments: [String]) -> Int32 {
    let request: Request
    do {
      request = try Request(self, arguments: arguments)
    } catch {
      Output.error.write("tagd \(rawValue): \(error.message)\n\n\(help)")
      return 2
    }
    if request.help {
      Output.standard.write(help)
      return 0
    }
    switch self {
    case .tags: return TagsCommand.run(request)
    case .check: return CheckCommand.run(request)
    case .rename: return RenameCommand.run(request)
    }
  }
}

/// The default size limit, as the help shows it.
enum NoteLimits {
  static let defaultMaxBytesText = "8 MiB"
}

/// A vault command's arguments, parsed.
struct Request {
  var directory = "."
  var json = false
  var dryRun = false
  var help = false
  var maxNoteBytes = NoteFiles.defaultMaxBytes
  var threads = NoteFiles.defaultThreads
  var from = ""
  var to = ""

  init(_ command: VaultCommand, arguments: [String]) throws(CommandUsageError) {
    var positional: [String] = []
    var flagsDone = false
    for argument in arguments {
      if flagsDone || !argument.hasPrefix("-") || argument == "-" {
        positional.append(argument)
        continue
      }
      switch argument {
      case "--": flagsDone = true
      case "--help", "-h": help = true
      case "--json" where command != .rename: json = true
      case "--dry-run" where command == .rename: dryRun = true
      default:
        if argument.hasPrefix("--max-note-bytes=") {
          let text = argument.dropFirst("--max-note-bytes=".count)
          guard let number = Int(text), number > 0 else {
            throw CommandUsageError("--max-note-bytes must be a positive integer, got \"\(text)\"")
          }
          maxNoteBytes = number
        } else if argument.hasPrefix("--threads=") {
          let text = argument.dropFirst("--threads=".count)
          guard let number = Int(text), number > 0, number <= 64 else {
            throw CommandUsageError("--threads must be an integer from 1 to 64, got \"\(text)\"")
          }
          threads = number
        } else {
          throw CommandUsageError("unknown option \"\(argument)\"")
        }
      }
    }
    if help { return }
    let needed = command == .rename ? 2 : 0
    guard positional.count >= needed else {
      throw CommandUsageError(positional.isEmpty ? "FROM and TO are needed" : "TO is needed")
    }
    guard positional.count <= needed + 1 else {
      throw CommandUsageError("unexpected argument \"\(positional[needed + 1])\"")
    }
    if command == .rename {
      from = positional[0]
      to = positional[1]
      guard !from.isEmpty, !to.isEmpty else { throw CommandUsageError("a tag cannot be empty") }
    }
    if positional.count == needed + 1 { directory = positional[needed] }
  }
}

/// A command-line mistake: printed with the command's usage, exit status 2.
struct CommandUsageError: Error {
  var message: String
  init(_ message: String) { self.message = message }
}

/// Words of `text` in lines of at most `width` columns.
func wrap(_ text: String, width: Int) -> [String] {
  var lines: [String] = []
  var line = ""
  for word in text.split(separator: " ") {
    if !line.isEmpty && line.count + 1 + word.count > width {
      lines.append(line)
      line = ""
    }
    line += (line.isEmpty ? "" : " ") + word
  }
  if !line.isEmpty { lines.append(line) }
  return lines
}

extension String {
  func padding(to width: Int) -> String {
    count >= width ? self + " " : self + String(repeating: " ", count: width - count)
  }
}

/// Standard output or standard error, written whole.
struct Output {
  let descriptor: Int32
  static let standard = Output(descriptor: STDOUT_FILENO)
  static let error = Output(descriptor: STDERR_FILENO)

  func write(_ text: String) { write(Array(text.utf8)) }

  func write(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeBytes {
        Glibc.write(descriptor, $0.baseAddress.map { $0 + offset }, $0.count - offset)
      }
      if n > 0 {
        offset += n
      } else if n < 0 && errno == EINTR {
        continue
      } else {
        return
      }
    }
  }
}

/// A line of output with control characters made visible (`\t`, `\n`, `\r`, `\xHH`), so that
/// a tag or path holding one stays on its line.
func visible(_ text: String) -> String {
  guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return text }
  var result = ""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\t": result += "\\t"
    case "\n": result += "\\n"
    case "\r": result += "\\r"
    case _ where scalar.value < 0x20 || scalar.value == 0x7F:
      let hex = String(scalar.value, radix: 16, uppercase: true)
      result += "\\x" + (hex.count < 2 ? "0" : "") + hex
    default: result.unicodeScalars.append(scalar)
    }
  }
  return result
}
