import JSONRPC
import TagTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The vault's loose ends, on the built tagd over real pipes: the vocabulary kept current, each
/// vault's own vocabulary, the note size limit, note titles, and bad LSP input answered with a
/// logged reason while tagd keeps serving.
@Suite struct VaultLSPEndToEndTests {
  typealias Client = VaultEndToEndTests.Client

  /// A `textDocument/didOpen` of `path` with `text` (escaped for JSON by the caller).
  static func didOpen(_ path: String, _ text: String) -> String {
    #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file://\#(path)","languageId":"markdown","version":1,"text":"\#(text)"}}}"#
  }

  static let publish = "textDocument/publishDiagnostics"

  /// `.tagd.toml` edited while tagd serves: the open note's diagnostics follow, seen by tagd's
  /// own watch or (with it off) told by the client's `workspace/didChangeWatchedFiles`.
  @Test(arguments: [true, false])
  func vocabularyChangesRepublishDiagnostics(watching: Bool) throws {
    let vault = TemporaryFolder("tagd-vocabulary")
    vault.write(".tagd.toml", "deny = [\"misc\"]\n")
    vault.write("a.md", "#work\n")
    let client = try Client(
      folder: vault,
      framing: .contentLength,
      environment: watching ? [] : ["TAGD_NO_WATCH=1"]
    )
    #expect(client.tags { $0.contains("work") }.contains("work"))
    client.send(Self.didOpen(vault.path("b.md"), #"#work #misc\n"#))
    let before = try #require(client.published(holding: [Self.publish, "`misc` is denied"]))
    #expect(!before.contains("`work` is denied"), "\(before)")
    vault.write(".tagd.toml", "deny = [\"work\"]\n")
    if !watching {
      // Not watching: nothing changes until the client tells.
      _ = client.request("vault/tags", "{}")
      #expect(!client.replies.contains { $0.contains("`work` is denied") })
      let uri = "file://" + vault.path(".tagd.toml")
      client.send(
        #"{"jsonrpc":"2.0","method":"workspace/didChangeWatchedFiles","params":{"changes":[{"uri":"\#(uri)","type":2}]}}"#
      )
    }
    let after = try #require(client.published(holding: [Self.publish, "`work` is denied"]))
    #expect(!after.contains("`misc` is denied"), "\(after)")
    // Removed: no vocabulary, no diagnostics.
    unlink(vault.path(".tagd.toml"))
    if !watching {
      let uri = "file://" + vault.path(".tagd.toml")
      client.send(
        #"{"jsonrpc":"2.0","method":"workspace/didChangeWatchedFiles","params":{"changes":[{"uri":"\#(uri)","type":3}]}}"#
      )
    }
    #expect(client.published(holding: [Self.publish, #""diagnostics":[]"#]) != nil)
    #expect(client.child.finish() == 1)
  }

  /// Two workspace folders, each with its own `.tagd.toml`: each note is checked against its
  /// own vault's vocabulary.
  @Test func eachVaultUsesItsOwnVocabulary() throws {
    let one = TemporaryFolder("tagd-one")
    one.write(".tagd.toml", "deny = [\"a\"]\n")
    one.write("x.md", "#a #b\n")
    let two = TemporaryFolder("tagd-two")
    two.write(".tagd.toml", "deny = [\"b\"]\n")
    two.write("y.md", "#a #b\n")
    let client = try Client(folder: one, framing: .newlineDelimited, also: [two])
    #expect(client.tags { $0.contains(#""notes":2"#) }.contains(#""notes":2"#))
    client.send(Self.didOpen(one.path("n.md"), #"#a #b\n"#))
    client.send(Self.didOpen(two.path("n.md"), #"#a #b\n"#))
    let first = try #require(client.published(holding: [Self.publish, one.path("n.md")]))
    #expect(first.contains("`a` is denied") && !first.contains("`b` is denied"), "\(first)")
    let second = try #require(client.published(holding: [Self.publish, two.path("n.md")]))
    #expect(second.contains("`b` is denied") && !second.contains("`a` is denied"), "\(second)")
    #expect(client.child.finish() == 1)
  }

  /// `--max-note-bytes=N`: a note over it is skipped with a logged reason, the rest served.
  @Test func noteSizeLimitFlag() throws {
    let vault = TemporaryFolder("tagd-limit")
    vault.write("small.md", "#small\n")
    vault.write("big.md", String(repeating: "words ", count: 400) + "#big\n")
    let client = try Client(
      folder: vault,
      framing: .newlineDelimited,
      arguments: ["--max-note-bytes=1000", "--log=warning"]
    )
    let tags = try #require(client.request("vault/tags", "{}"))
    #expect(tags.contains(#""tag":"small""#) && !tags.contains("big"), "\(tags)")
    // A note that grows past the limit later is forgotten, with a reason. Written beside and
    // renamed over, as editors save: written in place, the watcher can read the note truncated
    // and empty, which also has no tags, and the wait below ends before the limit is logged.
    vault.write("small.tmp", String(repeating: "words ", count: 400) + "#small\n")
    #expect(rename(vault.path("small.tmp"), vault.path("small.md")) == 0)
    #expect(client.tags { !$0.contains("small") }.contains(#""tags":[]"#))
    #expect(client.child.finish() == 1)
    let log = String(decoding: client.child.stderr, as: UTF8.self)
    #expect(log.contains("big.md") && log.contains("limit 1000"), "\(log)")
    #expect(log.contains("small.md") && log.contains("limit 1000"), "\(log)")
    let help = try runTagd(["--help"])
    #expect(help.stdout.contains("--max-note-bytes=N"))
    #expect(try runTagd(["--max-note-bytes=0"]).status == 2)
  }

  /// `vault/notes` gives each note's title: front matter `title`, else the first `# ` heading,
  /// else Org's `#+TITLE:`; a note without one has no `title`.
  @Test func notesHaveTitles() throws {
    let vault = TemporaryFolder("tagd-titles")
    vault.write("a.md", "---\ntitle: 'From YAML'\ntags: [t]\n---\n# Not this\n")
    vault.write("b.md", "+++\ntitle = \"From TOML\"\ntags = [\"t\"]\n+++\n")
    vault.write("c.md", "```\n# code\n```\nText #t\n\n#  A heading  \n# Second\n")
    vault.write("d.org", "#+title: Org title\n* H :t:\n")
    vault.write("e.md", "#t\n## Only a level-two heading\n")
    let client = try Client(folder: vault, framing: .newlineDelimited)
    let notes = try #require(client.request("vault/notes", #"{"tags":["t"]}"#))
    let uri = { "file://" + vault.path($0) }
    let want = #"""
      {"jsonrpc":"2.0","id":11,"result":{"notes":[\#
      {"uri":"\#(uri("a.md"))","title":"From YAML"},\#
      {"uri":"\#(uri("b.md"))","title":"From TOML"},\#
      {"uri":"\#(uri("c.md"))","title":"A heading"},\#
      {"uri":"\#(uri("d.org"))","title":"Org title"},\#
      {"uri":"\#(uri("e.md"))"}]}}
      """#
    #expect(JSONCompare.same(notes, want), "\(notes)")
    // The editor's text is the note's: its title too.
    client.send(Self.didOpen(vault.path("e.md"), #"# Opened\n#t\n"#))
    let opened = try #require(client.request("vault/notes", #"{"tags":["t"]}"#))
    #expect(opened.contains(#"{"uri":"\#(uri("e.md"))","title":"Opened"}"#), "\(opened)")
    #expect(client.child.finish() == 1)
  }

  /// Issue 32's bad input on the language server: LSP's answer or a clear error, a logged
  /// reason, and tagd keeps serving.
  @Test func badLSPInputIsLoggedAndServingGoesOn() throws {
    let vault = TemporaryFolder("tagd-bad")
    vault.write("a.md", "#work\n")
    let client = try Client(folder: vault, framing: .contentLength, arguments: ["--log=warning"])
    #expect(client.tags { $0.contains("work") }.contains("work"))
    let note = "file://" + vault.path("a.md")
    client.send(Self.didOpen(vault.path("a.md"), #"#work\n"#))
    // A change of a note never opened.
    let never = "file://" + vault.path("never.md")
    client.send(
      ##"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"\##(never)","version":2},"contentChanges":[{"text":"#x"}]}}"##
    )
    // A ranged change past the end of the open note: ignored, the text stays as it was.
    client.send(
      ##"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"\##(note)","version":2},"contentChanges":[{"range":{"start":{"line":7,"character":0},"end":{"line":7,"character":3}},"text":"#job"}]}}"##
    )
    let hover = try #require(
      client.request(
        "textDocument/hover",
        #"{"textDocument":{"uri":"\#(note)"},"position":{"line":0,"character":2}}"#
      )
    )
    #expect(hover.contains("**work** · 1 note"), "\(hover)")
    // A rename on something that is not a tag: -32602 naming the place.
    let rename = try #require(
      client.request(
        "textDocument/rename",
        #"{"textDocument":{"uri":"\#(note)"},"position":{"line":1,"character":0},"newName":"x"}"#
      )
    )
    #expect(rename.contains("-32602") && rename.contains("there is no tag at line 1"), "\(rename)")
    let tags = try #require(client.request("vault/tags", "{}"))
    #expect(tags.contains(#""tag":"work""#) && !tags.contains("job"), "\(tags)")
    #expect(client.child.finish() == 1)
    let log = String(decoding: client.child.stderr, as: UTF8.self)
    #expect(log.contains("never.md: it was never opened"), "\(log)")
    #expect(log.contains("a.md (version 2)") && log.contains("send the whole text"), "\(log)")
  }

  /// More tags match than a completion sends: the most used ones, marked `isIncomplete` so that
  /// the client asks again as the user types (the others are found by typing more); a list that
  /// holds every match says it is complete.
  @Test func completionSendsTheBestAndSaysWhenThereIsMore() throws {
    let vault = TemporaryFolder("tagd-completion-limit")
    // `topic00` … `topic79`, one note each; `topic42` in two more.
    for index in 0..<80 {
      vault.write("n\(index).md", "#topic" + (index < 10 ? "0" : "") + "\(index)\n")
    }
    vault.write("x.md", "#topic42\n")
    vault.write("y.md", "#topic42\n")
    let client = try Client(folder: vault, framing: .contentLength)
    #expect(client.tags { $0.contains("topic79") }.contains("topic79"))
    let note = "file://" + vault.path("new.md")
    client.send(Self.didOpen(vault.path("new.md"), "#to #topic7"))
    func complete(after character: Int) throws -> JSONValue? {
      let reply = try #require(
        client.request(
          "textDocument/completion",
          #"{"textDocument":{"uri":"\#(note)"},"position":{"line":0,"character":\#(character)}}"#
        )
      )
      return try JSONReader.parse(Array(reply.utf8))["result"]
    }
    // After `#to`: 81 tags match (`topic7`, typed in this note, too).
    let many = try complete(after: 3)
    let items = many?["items"]?.arrayValue ?? []
    let firstLabels = items.compactMap { $0["label"]?.stringValue }
    #expect(items.count == 50, "\(firstLabels)")
    #expect(many?["isIncomplete"] == .bool(true))
    #expect(items.first?["label"] == "topic42" && items.first?["detail"] == "3 notes")
    #expect(Set(firstLabels).count == 50)
    // After `#topic7`: `topic70` … `topic79` (not `topic7`, which no other note carries), then
    // the fuzzy matches `topic07` … `topic67`: all of them.
    let all = try complete(after: 11)
    let labels = (all?["items"]?.arrayValue ?? []).compactMap { $0["label"]?.stringValue }
    let expected =
      (70..<80).map { "topic\($0)" }
      + ["07", "17", "27", "37", "47", "57", "67"]
      .map { "topic" + $0 }
    #expect(labels == expected)
    #expect(all?["isIncomplete"] == .bool(false))
    #expect(client.child.finish() == 1)
  }
}
