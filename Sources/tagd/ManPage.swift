import TagServer
import VaultCommands

/// `tagd --help-man`: the tagd(1) manual page, written from the same flag tables as `--help` and
/// the README, so the installed page cannot say something `--help` does not.
extension Options {
  /// The page in man(7) roff.
  static var manPage: String {
    var page = [
      ".TH TAGD 1 \"\" \"tagd \(ServerConfig.currentVersion)\" \"User Commands\"",
      ".SH NAME",
      "tagd \\- " + roff(purpose),
      ".SH SYNOPSIS",
      ".B tagd",
      "[\\fIoptions\\fR]",
      ".br",
      ".B tagd try",
    ]
    page += tryFlags.filter { $0.name != "--help" }.map { "[" + term($0) + "]" }
    for vault in VaultCommand.allCases {
      page += [
        ".br", ".B tagd \(vault.rawValue)",
        roff(String(vault.synopsis.dropFirst("tagd \(vault.rawValue) ".count))),
      ]
    }
    page += [
      ".SH DESCRIPTION",
      roff(
        "tagd hosts tag-field and tag-cloud sessions for editor plugins and GUI widgets. A front "
          + "end starts it as a child process and speaks JSON-RPC 2.0 to it over standard input "
          + "and output, like a language server: LSP Content-Length framing or newline-delimited "
          + "JSON, LSP lifecycle, versioned text sync for editors. Standard output carries "
          + "protocol messages only; diagnostics go to standard error or the --log-file."
      ),
      ".SH OPTIONS",
    ]
    page += serveFlags.flatMap(item)
    page += [".SS \"tagd try\"", roff(tryDescription)]
    page += tryFlags.filter { $0.name != "--help" }.flatMap(item)
    for vault in VaultCommand.allCases {
      page += [
        ".SS \"tagd \(vault.rawValue)\"", roff(sentence(vault.brief)), ".PP",
        roff(vault.synopsis), ".PP", roff(vault.summary),
      ]
      page += vault.flags.filter { $0.spelling != "--help" }.flatMap {
        [".TP", roff($0.spelling), roff(sentence($0.summary))]
      }
    }
    page += [
      ".SH EXIT STATUS",
      roff(
        "0 when the session ends after a shutdown request, as in LSP; 1 when it ends without "
          + "one (exit, end of input, the client process gone, standard output closed); 2 for "
          + "a mistake on the command line, which is named on standard error. The vault "
          + "commands: tagd tags 0; tagd check 0 when clean, 1 with diagnostics; tagd rename 0 "
          + "when done, 1 when refused; 2 for a usage mistake, printed with the command's usage."
      ),
      ".SH SEE ALSO",
      roff(
        "The protocol reference for client authors: Protocol/README.md in the tagd sources, "
          + "installed with this page in tagd's documentation directory "
          + "(/usr/share/doc/tagd/Protocol on Debian)."
      ),
    ]
    return page.joined(separator: "\n") + "\n"
  }

  /// One flag as a tagged paragraph: the spelling, then what `--help` says about it.
  private static func item(_ flag: Flag) -> [String] {
    [".TP", term(flag), roff(sentence(flag.description))]
  }

  /// The flag's name in bold, its value placeholder in italics.
  private static func term(_ flag: Flag) -> String {
    switch flag.action {
    case .toggle: "\\fB\(roff(flag.name))\\fR"
    case .value(let placeholder, _): "\\fB\(roff(flag.name))\\fR=\\fI\(roff(placeholder))\\fR"
    }
  }

  /// `text` as roff input: backslashes and hyphens escaped, no line read as a request.
  private static func roff(_ text: String) -> String {
    var escaped = ""
    for character in text {
      switch character {
      case "\\": escaped += "\\e"
      case "-": escaped += "\\-"
      default: escaped.append(character)
      }
    }
    return escaped.first == "." || escaped.first == "'" ? "\\&" + escaped : escaped
  }
}
