import JSONRPC
import TagTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 32 item 5 over real pipes: a keystroke in a note re-reads only that note and
/// re-publishes diagnostics only where they change; no keystroke waits for indexing.
@Suite struct VaultKeystrokeTests {
  typealias Client = VaultEndToEndTests.Client

  /// The `textDocument/publishDiagnostics` notifications received so far, by note name (the
  /// last path component of their URI), in order.
  static func published(_ client: Client) -> [(note: String, diagnostics: Int)] {
    client.replies.compactMap { reply in
      guard case .object(let message)? = JSONCompare.parse(reply),
        message["method"] == .string("textDocument/publishDiagnostics"),
        case .object(let params)? = message["params"],
        case .string(let uri)? = params["uri"],
        case .array(let diagnostics)? = params["diagnostics"]
      else { return nil }
      return (String(uri.split(separator: "/").last ?? ""), diagnostics.count)
    }
  }

  static func didOpen(_ uri: String, _ text: String) -> String {
    let escaped = text.replacing("\n", with: "\\n")
    return
      #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"\#(uri)","languageId":"markdown","version":1,"text":"\#(escaped)"}}}"#
  }

  static func didChange(
    _ uri: String,
    version: Int,
    line: Int,
    from: Int,
    to: Int,
    _ text: String
  )
    -> String
  {
    #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"\#(uri)","version":\#(version)},"contentChanges":[{"range":{"start":{"line":\#(line),"character":\#(from)},"end":{"line":\#(line),"character":\#(to)}},"text":"\#(text)"}]}}"#
  }

  /// Two open notes each write `Work` where the vault writes `work` (a `tag-variant` each).
  ///
  /// Typing in one note's body changes none of the diagnostics: nothing is published again.
  /// Fixing the spelling in one note publishes that note's (now empty) list, not the other's.
  /// And a keystroke reads no other note: a note changed on disk (no watch, nobody told) keeps
  /// its old tags in the index.
  @Test(arguments: VaultEndToEndTests.framings)
  func aKeystrokeRepublishesOnlyWhatChanged(framing: Framing) throws {
    let vault = TemporaryFolder("tagd-vault")
    let variant = "---\ntags: [Work]\n---\nbody\n"
    vault.write("a.md", variant)
    vault.write("b.md", variant)
    for name in ["c", "d", "e"] { vault.write("\(name).md", "---\ntags: [work]\n---\n") }
    vault.write("other.md", "#before\n")
    let client = try Client(folder: vault, framing: framing, environment: ["TAGD_NO_WATCH=1"])
    #expect(client.request("vault/tags", "{}")?.contains(#""tag":"work","notes":5"#) == true)
    let a = "file://" + vault.path("a.md")
    let b = "file://" + vault.path("b.md")
    client.send(Self.didOpen(a, variant))
    client.send(Self.didOpen(b, variant))
    _ = client.request("vault/tags", #"{"limit":1}"#)
    #expect(Self.published(client).map(\.note) == ["a.md", "b.md"], "\(client.replies)")
    #expect(Self.published(client).map(\.diagnostics) == [1, 1])

    // Another note changes on disk; tagd is not told (no watch), so it must not see it.
    vault.write("other.md", "#after\n")
    // Typing "hello " at the end of a.md's body, a letter at a time.
    for (offset, letter) in "hello ".enumerated() {
      client.send(
        Self.didChange(
          a,
          version: 2 + offset,
          line: 3,
          from: 4 + offset,
          to: 4 + offset,
          "\(letter)"
        )
      )
    }
    let tags = try #require(client.request("vault/tags", "{}"))
    #expect(
      Self.published(client).count == 2,
      "nothing changed, nothing published again: \(client.replies)"
    )
    #expect(tags.contains(#""tag":"before""#) && !tags.contains("after"), "\(tags)")

    // `Work` → `work` in a.md: its variant is gone; b.md's diagnostic reads the same as before.
    client.send(Self.didChange(a, version: 20, line: 1, from: 7, to: 8, "w"))
    _ = client.request("vault/tags", #"{"limit":1}"#)
    let after = Self.published(client)
    #expect(after.count == 3, "\(client.replies)")
    #expect(after.last?.note == "a.md" && after.last?.diagnostics == 0, "\(after)")
    #expect(client.child.finish() == 1)
  }

  /// While the first index is held (the `TAGD_HOLD_INDEXING` FIFO, no timing), field keystrokes
  /// in a field with `suggestFromVault` and keystrokes in an open note are all served, before
  /// the parked `vault/tags`; released, the field suggests from the whole vault.
  @Test(arguments: VaultEndToEndTests.framings)
  func noKeystrokeWaitsForIndexing(framing: Framing) throws {
    let vault = TemporaryFolder("tagd-vault")
    for i in 0..<300 { vault.write("notes/n\(i).md", "---\ntags: [bigtag, n\(i % 7)]\n---\n") }
    let hold = VaultEndToEndTests.IndexingHold()
    let client = try Client(folder: vault, framing: framing, environment: hold.environment)
    client.send(#"{"jsonrpc":"2.0","id":2,"method":"vault/tags","params":{"limit":1}}"#)
    let note = "file://" + vault.path("notes/n0.md")
    client.send(Self.didOpen(note, "---\ntags: [bigtag]\n---\n"))
    client.send(Self.didChange(note, version: 2, line: 3, from: 0, to: 0, "#b"))
    client.send(
      #"{"jsonrpc":"2.0","id":3,"method":"field/open","params":{"field":"f","options":{"suggestFromVault":true}}}"#
    )
    client.send(
      #"{"jsonrpc":"2.0","id":4,"method":"field/change","params":{"field":"f","text":"big"}}"#
    )
    client.send(#"{"jsonrpc":"2.0","id":5,"method":"field/suggest","params":{"field":"f"}}"#)
    let suggested = try #require(client.reply(5), "field/suggest answered while indexing")
    #expect(client.reply(4)?.contains(#""text":"big""#) == true, "\(client.replies)")
    #expect(suggested.contains(#""items":"#), "\(suggested)")
    #expect(!client.replies.contains { $0.contains(#""id":2,"#) }, "vault/tags waits")
    hold.release()
    #expect(client.reply(2)?.contains(#""tag":"bigtag","notes":300"#) == true, "\(client.replies)")
    let whole = try #require(client.request("field/suggest", #"{"field":"f"}"#))
    #expect(whole.contains(#""text":"bigtag""#), "\(whole)")
    #expect(client.child.finish() == 1)
  }
}
