import TagServer
import TagTestSupport
import Testing
import VaultCommands

@testable import tagd

/// The entries of `--help`: each flag (and `tagd try`, `tagd tags`, …) with its explanation,
/// lines joined.
private func helpEntries() -> [(term: String, text: String)] {
  var entries: [(term: String, text: String)] = []
  let commands = ["tagd try"] + VaultCommand.allCases.map { "tagd \($0.rawValue)" }
  for line in Options.usage.split(separator: "\n", omittingEmptySubsequences: false) {
    let command = commands.first { line.hasPrefix($0 + " ") }
    if line.hasPrefix("  -") || command != nil {
      let term = line.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
      let rest = line.dropFirst(command?.count ?? (2 + term.count)).drop { $0 == " " }
      entries.append((command ?? term, String(rest)))
    } else if line.hasPrefix(String(repeating: " ", count: 31)), let last = entries.indices.last {
      let more = line.drop { $0 == " " }
      entries[last].text += (entries[last].text.isEmpty ? "" : " ") + more
    }
  }
  return entries
}

/// Roff input as a reader sees it: font changes dropped, escapes resolved.
private func plain(_ roff: some StringProtocol) -> String {
  var text = String(roff)
  for (escape, meaning) in [("\\fB", ""), ("\\fI", ""), ("\\fR", ""), ("\\&", ""), ("\\-", "-")] {
    text = text.split(separator: escape, omittingEmptySubsequences: false).joined(
      separator: meaning
    )
  }
  return text.split(separator: "\\e", omittingEmptySubsequences: false).joined(separator: "\\")
}

/// The entries of the man page: each `.TP` term and the `tagd try` subsection, with their text.
private func manEntries() -> [(term: String, text: String)] {
  let lines = Options.manPage.split(separator: "\n")
  var entries: [(term: String, text: String)] = []
  var index = 0
  while index < lines.count {
    let line = lines[index]
    index += 1
    let term: String
    if line == ".TP", index < lines.count {
      term = plain(lines[index])
      index += 1
    } else if line.hasPrefix(".SS \"tagd ") {
      term = String(line.dropFirst(5).dropLast())
    } else {
      continue
    }
    var text: [String] = []
    while index < lines.count, !lines[index].hasPrefix(".") {
      text.append(plain(lines[index]))
      index += 1
    }
    entries.append((term, text.joined(separator: " ")))
  }
  return entries
}

@Suite struct ManPageTests {
  /// The man page lists what `--help` lists, with the same words (the options before `tagd try`,
  /// as manual pages have them, where `--help` puts `tagd try` first).
  @Test func manPageSaysWhatHelpSays() {
    let help = helpEntries()
    let man = manEntries()
    #expect(
      help.count == Options.serveFlags.count + Options.tryFlags.count + VaultCommand.allCases.count
    )
    // The vault commands' own flags are in the man page under each command, not in `--help`.
    let vaultFlags = Set(VaultCommand.allCases.flatMap { $0.flags.map(\.spelling) }).subtracting([
      "--help"
    ])
    // A flag both serving and the vault commands take (`--max-note-bytes`) is in both places;
    // the first, checked below, is the option's.
    let shared = vaultFlags.intersection(help.map(\.term))
    #expect(
      (man.map(\.term).filter { !vaultFlags.contains($0) } + shared).sorted()
        == help.map(\.term).sorted()
    )
    let manText = Dictionary(man.map { ($0.term, $0.text) }) { first, _ in first }
    for entry in help {
      #expect(manText[entry.term] == entry.text, "\(entry.term) in the man page")
    }
  }

  @Test func headerNameAndSynopsis() {
    let lines = Options.manPage.split(separator: "\n").map(String.init)
    #expect(
      lines.first == ".TH TAGD 1 \"\" \"tagd \(ServerConfig.currentVersion)\" \"User Commands\""
    )
    // whatis(1) and lintian read the NAME line as "name \- summary".
    let name = lines.firstIndex(of: ".SH NAME").map { lines[$0 + 1] }
    #expect(name.map { plain($0) } == "tagd - " + Options.purpose)
    let synopsis = Options.manPage.split(separator: ".SH ").first { $0.hasPrefix("SYNOPSIS") }
    #expect(synopsis.map { plain($0).contains("[--columns=N]\n[--script]") } == true)
    // No text line may start with a control character: roff would read it as a request.
    let body = lines.filter { !$0.hasPrefix(".") && !$0.hasPrefix("\\&") }
    #expect(body.allSatisfy { $0.first != "'" })
  }
}
