import TagServer
import TagTestSupport
import Testing

@testable import tagd

/// The entries of `--help`: each flag (and `tagd try`) with its explanation, lines joined.
private func helpEntries() -> [(term: String, text: String)] {
  var entries: [(term: String, text: String)] = []
  for line in Options.usage.split(separator: "\n", omittingEmptySubsequences: false) {
    if line.hasPrefix("  -") || line.hasPrefix("tagd try ") {
      let term = line.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
      let isTry = line.hasPrefix("tagd try ")
      let rest = line.dropFirst(isTry ? 8 : 2 + term.count).drop { $0 == " " }
      entries.append((isTry ? "tagd try" : term, String(rest)))
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
    } else if line == ".SS \"tagd try\"" {
      term = "tagd try"
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
    #expect(help.count == Options.serveFlags.count + Options.tryFlags.count)
    #expect(man.map(\.term).sorted() == help.map(\.term).sorted())
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
