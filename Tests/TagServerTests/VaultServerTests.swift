import JSONRPC
import TagServer
import TagTestSupport
import Testing

/// The vault `v` and the folders `w` and `elsewhere`: paths under the checkout that the pure
/// server never opens (no path of this machine is written into the test).
private let (v, w, elsewhere) = (
  packageRoot() + "/v", packageRoot() + "/w", packageRoot() + "/elsewhere"
)

/// The vault as the pure server sees it.
///
/// Tasks are asked of the executable, events fed back between messages, requests parked until
/// the index is ready. No file is touched: the test
/// plays the executable, and so holds indexing as long as it likes.
@Suite struct VaultServerTests {
  /// A server and the replies of each step.
  struct Harness: ~Copyable {
    var server = Server()
    var outbox = Outbox()

    /// Sends one message; returns the replies and clears them (tasks stay until taken).
    mutating func send(_ body: String) -> [String] {
      server.handle(.message(Array(body.utf8)), into: &outbox)
      defer { outbox.clear() }
      return outbox.texts
    }

    /// Feeds one event; returns the replies.
    mutating func feed(_ event: ServerEvent) -> [String] {
      server.handle(event, into: &outbox)
      defer { outbox.clear() }
      return outbox.texts
    }

    /// Sends one message; returns the tasks it asked for.
    mutating func tasks(_ body: String) -> [VaultTask] {
      server.handle(.message(Array(body.utf8)), into: &outbox)
      defer { outbox.clear() }
      return outbox.vaultTasks
    }

    /// Initializes with vault `v` and indexes `notes`.
    mutating func indexed(_ notes: [ReadNote]) {
      _ = tasks(Self.initialize(#""rootUri":"file://\#(v)""#))
      _ = feed(.notesRead(notes))
      _ = feed(.vaultIndexed(vault: 0, paths: notes.map(\.path)))
    }

    static func initialize(_ members: String) -> String {
      #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{},\#(members)}}"#
    }
  }

  static let notes = [
    note("\(v)/a.md", "---\ntags: [Work, ideas]\n---\n"),
    note("\(v)/b.md", "#work\n"),
    note("\(v)/c.md", "---\ntags:\n  - work\n---\nSee #Café.\n"),
    note("\(v)/d/e.org", "#+FILETAGS: :ideas:\n"),
  ]

  /// A note read from `text`, as the executable reads one.
  static func note(_ path: String, _ text: String) -> ReadNote {
    ReadNote(path: path, bytes: Array(text.utf8))
  }

  static func request(_ id: Int, _ method: String, _ params: String) -> String {
    #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#
  }

  @Test func initializeNamesTheVaults() {
    var h = Harness()
    #expect(
      h.tasks(
        Harness.initialize(
          #""workspaceFolders":[{"uri":"file://\#(v)/a%20b","name":"x"},{"uri":"file://\#(v)/c/","name":"y"}],"rootUri":"file://\#(v)/ignored""#
        )
      ) == [.index(vault: 0, root: "\(v)/a b"), .index(vault: 1, root: "\(v)/c")]
    )
    var r = Harness()
    #expect(
      r.tasks(Harness.initialize(#""rootUri":"file://\#(v)/r""#))
        == [.index(vault: 0, root: "\(v)/r")]
    )
    var p = Harness()
    #expect(
      p.tasks(Harness.initialize(#""rootUri":null,"rootPath":"\#(v)/p""#))
        == [.index(vault: 0, root: "\(v)/p")]
    )
    var none = Harness()
    #expect(none.tasks(Harness.initialize(#""rootUri":null"#)).isEmpty)
  }

  /// The invariant: a field request sent after a vault request, while the vault is indexing,
  /// is answered first; the vault request is answered when the index is ready.
  @Test func fieldRequestsOvertakeParkedVaultRequests() throws {
    var h = Harness()
    _ = h.tasks(Harness.initialize(#""rootUri":"file://\#(v)""#))
    #expect(h.send(Self.request(2, "vault/tags", "{}")).isEmpty)
    let field = h.send(Self.request(3, "field/open", #"{"field":"f","tags":["x"]}"#))
    #expect(field.count == 1 && field[0].contains(#""id":3"#))
    #expect(h.feed(.notesRead(Self.notes)).isEmpty, "a partial index answers nothing")
    let answered = h.feed(.vaultIndexed(vault: 0, paths: Self.notes.map(\.path)))
    #expect(answered.count == 1)
    let reply = try #require(JSONCompare.parse(answered[0]))
    #expect(reply.member("id") == .integer(2))
    #expect(answered[0].contains(#""tag":"work","notes":3"#))
  }

  @Test func tagsMostNotesFirstWithSpellings() {
    var h = Harness()
    h.indexed(Self.notes)
    let reply = h.send(Self.request(2, "vault/tags", "{}"))
    #expect(
      JSONCompare.same(
        reply[0],
        #"{"jsonrpc":"2.0","id":2,"result":{"tags":[{"tag":"work","notes":3,"spellings":[{"text":"work","notes":2},{"text":"Work","notes":1}]},{"tag":"ideas","notes":2,"spellings":[{"text":"ideas","notes":2}]},{"tag":"Café","notes":1,"spellings":[{"text":"Café","notes":1}]}]}}"#
      ),
      "\(reply)"
    )
    let prefixed = h.send(Self.request(3, "vault/tags", #"{"prefix":"CAF","limit":5}"#))
    #expect(prefixed[0].contains(#""tags":[{"tag":"Café""#), "\(prefixed)")
    let limited = h.send(Self.request(4, "vault/tags", #"{"limit":1}"#))
    #expect(!limited[0].contains("ideas"))
  }

  @Test func notesAllAndAny() {
    var h = Harness()
    h.indexed(Self.notes)
    #expect(
      JSONCompare.same(
        h.send(Self.request(2, "vault/notes", #"{"tags":["WORK","ideas"]}"#))[0],
        #"{"jsonrpc":"2.0","id":2,"result":{"notes":[{"uri":"file://\#(v)/a.md"}]}}"#
      )
    )
    #expect(
      JSONCompare.same(
        h.send(Self.request(3, "vault/notes", #"{"tags":["cafe","ideas"],"match":"any"}"#))[0],
        #"{"jsonrpc":"2.0","id":3,"result":{"notes":[{"uri":"file://\#(v)/a.md"},{"uri":"file://\#(v)/d/e.org"}]}}"#
      )
    )
    let bad = h.send(Self.request(4, "vault/notes", #"{"tags":["a"],"match":"some"}"#))
    #expect(bad[0].contains("-32602") && bad[0].contains("match"))
  }

  /// The editor's text wins over the disk's until the note is closed.
  @Test func openNotesTakePrecedence() {
    var h = Harness()
    h.indexed(Self.notes)
    let open =
      #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file://\#(v)/b.md","languageId":"markdown","version":1,"text":"---\ntags: [draft]\n---\n"}}}"#
    #expect(h.send(open).isEmpty)
    _ = h.feed(.notesRead([Self.note("\(v)/b.md", "#disk")]))
    var tags = h.send(Self.request(2, "vault/tags", "{}"))[0]
    #expect(tags.contains(#""tag":"draft""#) && !tags.contains("disk"), "\(tags)")
    // An incremental change in UTF-16: `draft` → `dra😀ft` then the emoji removed again.
    let change =
      #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file://\#(v)/b.md","version":2},"contentChanges":[{"range":{"start":{"line":1,"character":10},"end":{"line":1,"character":10}},"text":"😀"},{"range":{"start":{"line":1,"character":12},"end":{"line":1,"character":13}},"text":"F"}]}}"#
    #expect(h.send(change).isEmpty)
    tags = h.send(Self.request(3, "vault/tags", "{}"))[0]
    #expect(tags.contains(#""tag":"dra😀Ft""#), "\(tags)")
    let close =
      #"{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":"file://\#(v)/b.md"}}}"#
    #expect(h.tasks(close) == [.reread(ticket: 0, paths: ["\(v)/b.md"])])
  }

  @Test func watchedFilesAreReadAgain() {
    var h = Harness()
    h.indexed(Self.notes)
    let changed =
      #"{"jsonrpc":"2.0","method":"workspace/didChangeWatchedFiles","params":{"changes":[{"uri":"file://\#(v)/a.md","type":2},{"uri":"file://\#(elsewhere)/x.md","type":1}]}}"#
    #expect(h.tasks(changed) == [.reread(ticket: 0, paths: ["\(v)/a.md"])])
    #expect(h.send(Self.request(3, "vault/tags", "{}")).isEmpty, "parked until read again")
    _ = h.feed(.notesRead([Self.note("\(v)/a.md", "#fresh")]))
    #expect(h.feed(.rereadDone(ticket: 0)).first?.contains(#""tag":"fresh""#) == true)
    _ = h.feed(.notesGone(["\(v)/d"]))
    let tags = h.send(Self.request(2, "vault/tags", "{}"))[0]
    #expect(
      !tags.contains("ideas") && tags.contains("fresh"),
      "a folder gone takes its notes: \(tags)"
    )
  }

  @Test func workspaceFoldersComeAndGo() {
    var h = Harness()
    h.indexed(Self.notes)
    let added =
      #"{"jsonrpc":"2.0","method":"workspace/didChangeWorkspaceFolders","params":{"event":{"added":[{"uri":"file://\#(w)","name":"w"}],"removed":[{"uri":"file://\#(v)","name":"v"}]}}}"#
    #expect(h.tasks(added) == [.forget(vault: 0), .index(vault: 1, root: w)])
    #expect(h.send(Self.request(2, "vault/tags", "{}")).isEmpty, "parked while /w indexes")
    let answered = h.feed(.vaultIndexed(vault: 1, paths: []))
    #expect(JSONCompare.same(answered[0], #"{"jsonrpc":"2.0","id":2,"result":{"tags":[]}}"#))
  }

  /// stdin closing does not lose a parked request: tagd exits once it is answered.
  @Test func parkedRequestsAreAnsweredBeforeExit() {
    var h = Harness()
    _ = h.tasks(Harness.initialize(#""rootUri":"file://\#(v)""#))
    #expect(h.send(Self.request(2, "vault/notes", #"{"tags":["x"]}"#)).isEmpty)
    h.server.handle(.inputClosed, into: &h.outbox)
    #expect(h.outbox.exitCode == nil)
    h.outbox.clear()
    h.server.handle(.vaultIndexed(vault: 0, paths: []), into: &h.outbox)
    #expect(h.outbox.texts.count == 1)
    #expect(h.outbox.exitCode == 1)
  }

  @Test func renameReadsTheNotesThenEditsThem() throws {
    var h = Harness()
    let texts = [
      NoteText(path: "\(v)/a.md", bytes: Array("---\ntags: [Work, x]\n---\n".utf8)),
      NoteText(path: "\(v)/b.org", bytes: Array("* H  :work:\n".utf8)),
      NoteText(path: "\(v)/c.md", bytes: Array("---\ntags:\n  - work\n  - job\n---\n".utf8)),
    ]
    h.indexed(texts.map { ReadNote(path: $0.path, bytes: $0.bytes ?? []) })
    #expect(
      h.tasks(Self.request(2, "vault/rename", #"{"from":"work","to":"job"}"#))
        == [.readTexts(ticket: 0, paths: ["\(v)/a.md", "\(v)/b.org", "\(v)/c.md"])]
    )
    let reply = h.feed(.textsRead(ticket: 0, texts: texts))
    #expect(
      JSONCompare.same(
        reply[0],
        #"{"jsonrpc":"2.0","id":2,"result":{"edit":{"changes":{"file://\#(v)/a.md":[{"range":{"start":{"line":1,"character":7},"end":{"line":1,"character":11}},"newText":"job"}],"file://\#(v)/b.org":[{"range":{"start":{"line":0,"character":5},"end":{"line":0,"character":10}},"newText":" :job"}],"file://\#(v)/c.md":[{"range":{"start":{"line":2,"character":0},"end":{"line":3,"character":0}},"newText":""}]}},"notes":3,"merged":true}}"#
      ),
      "\(reply)"
    )
    #expect(h.send(Self.request(3, "vault/rename", #"{"from":"work","to":"new job"}"#)).isEmpty)
    let refused = h.feed(.textsRead(ticket: 1, texts: texts))
    #expect(refused[0].contains("-32602") && refused[0].contains("file://\(v)/b.org"), "\(refused)")
  }

  @Test func fieldSuggestionsFromTheVault() {
    var h = Harness()
    h.indexed(Self.notes + [Self.note("\(v)/z.md", "#ideas #wonder")])
    _ = h.send(
      Self.request(
        2,
        "field/open",
        #"{"field":"f","options":{"suggestions":["wow"],"suggestFromVault":true}}"#
      )
    )
    let reply = h.send(Self.request(3, "field/suggest", #"{"field":"f","query":"w"}"#))[0]
    let texts = JSONCompare.parse(reply)?.member("result")?.member("items")
    #expect(
      texts
        == JSONCompare.parse(
          #"[{"text":"wow","matches":[{"start":0,"end":1}]},{"text":"work","matches":[{"start":0,"end":1}]},{"text":"wonder","matches":[{"start":0,"end":1}]}]"#
        ),
      "\(reply)"
    )
  }
}

extension VaultServerTests {
  /// The vault's suggestions are kept between changes of the index (only the tags that changed
  /// are matched afresh): after every change they are the ones a server indexing the same
  /// notes from scratch gives, before and after enough changes to build them again.
  @Test func suggestionsAfterChangesAgreeWithAFreshIndex() {
    var random = SplitMix64(seed: 32)
    let words = ["kalo", "kami", "Kalo", "mine", "minesa", "sako", "zepo", "kazoo", "mika", "ka"]
    func text() -> String {
      let tags = (0..<(1 + Int(random.next() % 3))).map { _ in
        words[Int(random.next() % UInt64(words.count))]
      }
      return "---\ntags: [" + tags.joined(separator: ", ") + "]\n---\n"
    }
    // The Harness's vault: the folder of its sample notes.
    let root = String(Self.notes[0].path.dropLast("/a.md".count))
    var notes: [String: String] = [:]
    for i in 0..<40 { notes["\(root)/n\(i).md"] = text() }
    func reads() -> [ReadNote] {
      notes.sorted { $0.key < $1.key }.map { Self.note($0.key, $0.value) }
    }
    let open = Self.request(2, "field/open", #"{"field":"f","options":{"suggestFromVault":true}}"#)
    let queries = ["k", "ka", "mi", "o", "kz", "zepo", ""]
    func suggested(_ h: inout Harness) -> [String] {
      queries.map { query in
        h.send(Self.request(3, "field/suggest", #"{"field":"f","query":"\#(query)","limit":6}"#))
          .joined()
      }
    }
    var kept = Harness()
    kept.indexed(reads())
    _ = kept.send(open)
    #expect(suggested(&kept).allSatisfy { $0.contains(#""text":"#) }, "every query finds tags")
    for step in 0..<120 {
      let path = "\(root)/n\(Int(random.next() % 45)).md"
      if step % 9 == 8, notes[path] != nil {
        notes[path] = nil
        _ = kept.feed(.notesGone([path]))
      } else {
        notes[path] = text()
        _ = kept.feed(.notesRead([Self.note(path, notes[path] ?? "")]))
      }
      var fresh = Harness()
      fresh.indexed(reads())
      _ = fresh.send(open)
      #expect(suggested(&kept) == suggested(&fresh), "step \(step)")
    }
  }
}

extension JSONValue {
  /// Member `key` of an object; nil for anything else.
  fileprivate func member(_ key: String) -> JSONValue? {
    guard case .object(let object) = self else { return nil }
    return object[key]
  }
}
