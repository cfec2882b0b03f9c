import JSONRPC
import TagTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The vault served by the built tagd over real pipes, in both framings: indexing on
/// background threads, requests parked until it is done, changes on disk seen by inotify and
/// through `workspace/didChangeWatchedFiles`.
///
/// Waits have upper bounds (never asserted as times): a reply is polled for until it comes.
@Suite struct VaultEndToEndTests {
  /// A FIFO named by `TAGD_HOLD_INDEXING`: tagd's first index waits on it until `release()`.
  struct IndexingHold {
    let folder = TemporaryFolder("tagd-hold")
    var path: String { folder.path("hold") }
    var environment: [String] { ["TAGD_HOLD_INDEXING=\(path)"] }

    init() { #expect(mkfifo(folder.path("hold"), 0o600) == 0) }

    /// Opening the FIFO for writing lets the indexer's open for reading return.
    func release() {
      let writer = open(path, O_WRONLY)
      #expect(writer >= 0)
      close(writer)
    }
  }

  /// A tagd serving `folder` as its vault, with `environment` (`NAME=value`) set for it only.
  final class Client {
    let child: ChildProcess
    let framing: Framing
    var nextID = 10

    init(
      folder: TemporaryFolder,
      framing: Framing,
      environment: [String] = [],
      arguments: [String] = [],
      also others: [TemporaryFolder] = []
    ) throws {
      self.framing = framing
      child = try ChildProcess(
        path: "/usr/bin/env",
        arguments: environment + [tagdPath()] + arguments
      )
      let uri = "file://" + folder.path
      // Several folders are given as `workspaceFolders`, one as `rootUri`.
      let folders = ([folder] + others).map { #"{"uri":"file://\#($0.path)","name":"v"}"# }
      let vaults =
        others.isEmpty
        ? #""rootUri":"\#(uri)""# : #""workspaceFolders":[\#(folders.joined(separator: ","))]"#
      send(
        #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{},\#(vaults)}}"#
      )
    }

    /// Waits (10 seconds at most) for a frame that holds every one of `pieces`; returns it.
    func published(holding pieces: [String]) -> String? {
      let found = { (frames: [String]) in
        frames.last { frame in pieces.allSatisfy { frame.contains($0) } }
      }
      _ = child.waitFor { found(splitFrames($0, framing: self.framing)) != nil }
      return found(replies)
    }

    func send(_ body: String) {
      child.write(frame(body, framing))
    }

    var replies: [String] { splitFrames(child.stdout, framing: framing) }

    /// The reply to request `id`, waiting for it up to 10 seconds.
    func reply(_ id: Int) -> String? {
      let marker = #""id":\#(id),"#
      _ = child.waitFor { splitFrames($0, framing: self.framing).contains { $0.contains(marker) } }
      return replies.first { $0.contains(marker) }
    }

    /// Sends a request and waits for its reply.
    func request(_ method: String, _ params: String) -> String? {
      nextID += 1
      send(#"{"jsonrpc":"2.0","id":\#(nextID),"method":"\#(method)","params":\#(params)}"#)
      return reply(nextID)
    }

    /// Asks `vault/tags` again and again until `condition` holds for the reply (10 seconds at
    /// most); returns the last reply.
    func tags(until condition: (String) -> Bool) -> String {
      let deadline = now() + 10
      var last = ""
      repeat {
        last = request("vault/tags", "{}") ?? ""
        if condition(last) { return last }
        usleep(20_000)
      } while now() < deadline
      return last
    }
  }

  static let framings: [Framing] = [.contentLength, .newlineDelimited]

  /// The invariant, over pipes: while the vault is being indexed (held by the
  /// `TAGD_HOLD_INDEXING` FIFO, so no timing is involved), a `field/open` sent after a
  /// `vault/tags` is answered and the `vault/tags` is not; released, it is answered with the
  /// whole vault.
  @Test(arguments: framings)
  func fieldRequestsAreNotHeldByIndexing(framing: Framing) throws {
    let vault = TemporaryFolder("tagd-vault")
    for i in 0..<300 {
      vault.write("notes/n\(i).md", "---\ntags: [big, n\(i % 7)]\n---\n#inline\n")
    }
    let hold = IndexingHold()
    let client = try Client(folder: vault, framing: framing, environment: hold.environment)
    client.send(#"{"jsonrpc":"2.0","id":2,"method":"vault/tags","params":{"limit":1}}"#)
    client.send(#"{"jsonrpc":"2.0","id":3,"method":"field/open","params":{"field":"f"}}"#)
    let field = try #require(client.reply(3))
    #expect(field.contains(#""field":"f""#))
    #expect(!client.replies.contains { $0.contains(#""id":2,"#) }, "vault/tags waits")
    hold.release()
    let tags = try #require(client.reply(2))
    #expect(tags.contains(#"{"tag":"big","notes":300"#), "\(tags)")
    let order = client.replies.compactMap { reply -> Int64? in
      guard case .object(let object)? = JSONCompare.parse(reply),
        case .integer(let id)? = object["id"]
      else { return nil }
      return id
    }
    #expect(order == [1, 3, 2])
    #expect(client.child.finish() == 1)
  }

  /// A note written, changed and removed on disk is seen by tagd's own inotify watch.
  @Test(arguments: framings)
  func changesOnDiskAreSeen(framing: Framing) throws {
    let vault = TemporaryFolder("tagd-vault")
    vault.write("a.md", "#first\n")
    let client = try Client(folder: vault, framing: framing)
    #expect(client.tags { $0.contains(#""tag":"first""#) }.contains("first"))
    vault.write("sub/new.md", "---\ntags: [second]\n---\n")
    #expect(client.tags { $0.contains(#""tag":"second""#) }.contains(#""tag":"second""#))
    vault.write("a.md", "#third\n")
    let changed = client.tags { $0.contains(#""tag":"third""#) && !$0.contains("first") }
    #expect(changed.contains(#""tag":"third""#) && !changed.contains("first"), "\(changed)")
    unlink(vault.path("a.md"))
    let removed = client.tags { !$0.contains("third") }
    #expect(!removed.contains("third") && removed.contains("second"), "\(removed)")
    // A new folder's notes, written right after it was made.
    vault.write("deep/er/x.md", "#fourth\n")
    #expect(client.tags { $0.contains("fourth") }.contains(#""tag":"fourth""#))
    #expect(client.child.finish() == 1)
  }

  /// With tagd's own watch off (`TAGD_NO_WATCH`), a change reaches it through
  /// `workspace/didChangeWatchedFiles`, and only through it.
  @Test(arguments: framings)
  func changesReportedByTheClientAreSeen(framing: Framing) throws {
    let vault = TemporaryFolder("tagd-vault")
    vault.write("a.md", "#first\n")
    let client = try Client(folder: vault, framing: framing, environment: ["TAGD_NO_WATCH=1"])
    #expect(client.tags { $0.contains("first") }.contains("first"))
    vault.write("a.md", "#second\n")
    // Not watching: the reply still has the old tag (the index was not told).
    let stale = client.request("vault/tags", "{}") ?? ""
    #expect(stale.contains("first") && !stale.contains("second"), "\(stale)")
    let uri = "file://" + vault.path("a.md")
    client.send(
      #"{"jsonrpc":"2.0","method":"workspace/didChangeWatchedFiles","params":{"changes":[{"uri":"\#(uri)","type":2}]}}"#
    )
    let fresh = client.tags { $0.contains("second") }
    #expect(fresh.contains(#""tag":"second""#) && !fresh.contains("first"), "\(fresh)")
    unlink(vault.path("a.md"))
    client.send(
      #"{"jsonrpc":"2.0","method":"workspace/didChangeWatchedFiles","params":{"changes":[{"uri":"\#(uri)","type":3}]}}"#
    )
    #expect(client.tags { $0.contains(#""tags":[]"#) }.contains(#""tags":[]"#))
    #expect(client.child.finish() == 1)
  }

  /// Notes tagd must skip are skipped with a logged reason, and the rest is served.
  @Test func unreadableNotesAreSkippedWithAReason() throws {
    let vault = TemporaryFolder("tagd-vault")
    vault.write("good.md", "#good\n")
    vault.write("binary.md", [0x23, 0x62, 0xFF, 0xFE, 0x00])
    vault.write(".hidden/secret.md", "#secret\n")
    vault.write(
      "huge.md",
      [UInt8](repeating: UInt8(ascii: "a"), count: 20_000_000) + Array(" #huge\n".utf8)
    )
    #expect(mkfifo(vault.path("pipe.md"), 0o600) == 0)
    vault.write("loop/note.md", "#looped\n")
    #expect(symlink(vault.path("loop"), vault.path("loop/self")) == 0, "a symlink loop")
    let outside = TemporaryFolder("tagd-outside")
    outside.write("far.md", "#far\n")
    #expect(symlink(outside.path, vault.path("outside")) == 0, "a link out of the vault")
    let client = try Client(folder: vault, framing: .newlineDelimited, arguments: ["--log=warning"])
    let tags = try #require(client.request("vault/tags", "{}"))
    #expect(
      JSONCompare.same(
        tags,
        #"{"jsonrpc":"2.0","id":11,"result":{"tags":[{"tag":"good","notes":1,"spellings":[{"text":"good","notes":1}]},{"tag":"looped","notes":1,"spellings":[{"text":"looped","notes":1}]}]}}"#
      ),
      "\(tags)"
    )
    // A FIFO named `.md` that appears later, reported by the client: read again without
    // blocking, so the request that waits for the reread is answered.
    #expect(mkfifo(vault.path("late.md"), 0o600) == 0)
    let late = "file://" + vault.path("late.md")
    client.send(
      #"{"jsonrpc":"2.0","method":"workspace/didChangeWatchedFiles","params":{"changes":[{"uri":"\#(late)","type":1}]}}"#
    )
    let after = try #require(client.request("vault/tags", #"{"limit":1}"#), "answered")
    #expect(after.contains(#""tag":"good""#))
    #expect(client.child.finish() == 1)
    let log = String(decoding: client.child.stderr, as: UTF8.self)
    #expect(log.contains("binary.md") && log.contains("UTF-8"), "\(log)")
    #expect(log.contains("pipe.md"), "\(log)")
    #expect(log.contains("huge.md"), "a note over 8 MiB is skipped with a reason: \(log)")
  }
}
