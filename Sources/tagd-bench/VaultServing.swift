#if canImport(Glibc)
import Glibc
#endif

/// `tagd` serving a generated vault over pipes, as an editor runs it (issue 31 item 7, issue 32
/// item 5): its peak RSS once the first index is done, the latency of completion and hover on an
/// open note, and the instructions of a keystroke (callgrind).
///
/// The server is started with the vault as `rootUri`; a `vault/tags` request waits for the first
/// full index (Protocol/vault.md), so its reply marks the index as done.
enum VaultServing {
  /// The note the editor opens: `f0/n0.md` of the generated vault, with this text.
  static let notePath = "f0/n0.md"
  static let noteLines = [
    "---", "title: Bench note", "tags: [kalo, mi]", "---", "Some words about #ka", "",
  ]
  static var noteText: String { noteLines.joined(separator: "\n") }

  /// `text` as a JSON string's contents (the note's text has only newlines to escape).
  static func escaped(_ text: String) -> String {
    text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\n", with: "\\n")
  }

  /// A server serving `root`: `initialize` with it as `rootUri`, then a `vault/tags` waited for.
  final class Session {
    let child: Child
    /// Frames already looked at for replies.
    private var scanned = 0
    private var replied: Set<Int> = []
    var nextID = 100
    let root: String

    init(program: String, arguments: [String] = [], root: String) throws(BenchError) {
      self.root = root
      child = try Child(path: program, arguments: arguments)
      var writer = FrameWriter()
      writer.request(
        id: 1,
        method: "initialize",
        params: #"{"processId":null,"capabilities":{},"rootUri":"file://\#(root)"}"#
      )
      writer.append(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#)
      writer.request(id: 2, method: "vault/tags", params: #"{"limit":1}"#)
      _ = try send(writer.bytes, awaiting: 2)
    }

    var noteURI: String { "file://\(root)/\(VaultServing.notePath)" }

    /// Writes `bytes` and reads until the reply to request `id` has come; returns its body.
    func send(
      _ bytes: [UInt8],
      awaiting id: Int,
      timeout: Double = 1200
    ) throws(BenchError)
      -> String
    {
      let marker = Array(#""id":\#(id),"#.utf8)
      var pending = bytes[...]
      while true {
        try child.exchange(
          pending,
          untilFrames: child.frames.count + (pending.isEmpty ? 1 : 0),
          timeout: timeout
        )
        pending = []
        while scanned < child.frames.count {
          let range = child.bodies(scanned..<(scanned + 1)).first ?? 0..<0
          scanned += 1
          let body = child.received[range]
          if body.firstRange(of: marker) != nil {
            let text = String(decoding: body, as: UTF8.self)
            if text.contains(#""error":"#) { throw BenchError("request \(id) failed: \(text)") }
            return text
          }
        }
      }
    }

    /// Sends a request and waits for its reply; returns the body.
    func call(_ method: String, _ params: String) throws(BenchError) -> String {
      nextID += 1
      var writer = FrameWriter()
      writer.request(id: nextID, method: method, params: params)
      return try send(writer.bytes, awaiting: nextID)
    }

    /// `textDocument/didOpen` of the bench note.
    func openNote() -> [UInt8] {
      var writer = FrameWriter()
      writer.append(
        #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"\#(noteURI)","languageId":"markdown","version":1,"text":"\#(VaultServing.escaped(VaultServing.noteText))"}}}"#
      )
      return writer.bytes
    }
  }

  // MARK: Memory

  /// Peak RSS (`VmHWM`) and RSS of a tagd serving `root`, its first index done, in bytes.
  static func memory(tagd: String, root: String) throws(BenchError) -> (peak: Int, now: Int) {
    let session = try Session(program: tagd, root: root)
    defer { session.child.finish() }
    guard let peak = Procfs.status(session.child.pid, "VmHWM"),
      let now = Procfs.status(session.child.pid, "VmRSS")
    else { throw BenchError("no VmHWM in /proc/\(session.child.pid)/status") }
    return (peak, now)
  }

  // MARK: Latency

  /// The `params` of a request at `line`, `character` of the note `uri`.
  static func position(_ uri: String, _ line: Int, _ character: Int) -> String {
    #"{"textDocument":{"uri":"\#(uri)"},"position":{"line":\#(line),"character":\#(character)}}"#
  }

  /// One request on the open note, and a text its reply must hold.
  struct NoteRequest {
    var name: String
    var method: String
    var params: String
    var expect: String
  }

  /// The requests timed by ``latency(tagd:root:count:)`` and counted by `--lsp`.
  static func requests(uri: String) -> [NoteRequest] {
    [
      NoteRequest(
        name: "`textDocument/completion` after `#ka`",
        method: "textDocument/completion",
        params: position(uri, 4, noteLines[4].utf8.count),
        expect: #""label":"#
      ),
      NoteRequest(
        name: "`textDocument/completion` in a YAML list after `mi`",
        method: "textDocument/completion",
        params: position(uri, 2, 15),
        expect: #""label":"#
      ),
      NoteRequest(
        name: "`textDocument/hover` on a tag",
        method: "textDocument/hover",
        params: position(uri, 2, 8),
        expect: "notes"
      ),
    ]
  }

  /// `count` of `request` (ids from 1000).
  static func requestFrames(_ request: NoteRequest, count: Int) -> FrameWriter {
    var writer = FrameWriter()
    for index in 0..<count {
      writer.request(id: 1000 + index, method: request.method, params: request.params)
    }
    return writer
  }

  /// One kind of request, timed `count` times.
  struct LatencyRow {
    var name: String
    /// Round trips (request written → reply read), ms.
    var roundTrip: [Double]
    /// tagd's CPU time over the same window (`/proc/PID/schedstat`), ms.
    var server: [Double]
  }

  /// Completion and hover on the open bench note, `count` times each, one at a time.
  static func latency(tagd: String, root: String, count: Int) throws(BenchError) -> [LatencyRow] {
    let session = try Session(program: tagd, root: root)
    defer { session.child.finish() }
    var opened = session.openNote()
    var writer = FrameWriter()
    writer.request(id: 3, method: "vault/tags", params: #"{"limit":1}"#)
    opened += writer.bytes
    _ = try session.send(opened, awaiting: 3)
    let uri = session.noteURI
    let at = { (line: Int, character: Int) in position(uri, line, character) }
    let inline = noteLines[4].utf8.count
    var rows: [LatencyRow] = []
    for item in requests(uri: uri) {
      var row = LatencyRow(name: item.name, roundTrip: [], server: [])
      for _ in 0..<count {
        let before = Procfs.cpuNanoseconds(session.child.pid) ?? 0
        let start = Clock.nanoseconds()
        let reply = try session.call(item.method, item.params)
        row.roundTrip.append(Double(Clock.nanoseconds() - start) / 1e6)
        row.server.append(Double((Procfs.cpuNanoseconds(session.child.pid) ?? 0) - before) / 1e6)
        guard reply.contains(item.expect) else {
          throw BenchError("\(item.method) answered without \(item.expect): \(reply.prefix(300))")
        }
      }
      rows.append(row)
    }
    // A keystroke, then completion: each round types a letter after `#ka` or deletes it again
    // (the index changes every time), then asks for completion there.
    var row = LatencyRow(
      name: "`didChange` (a letter after `#ka`) + `textDocument/completion`",
      roundTrip: [],
      server: []
    )
    var version = 1
    for round in 0..<count {
      version += 1
      let typing = round % 2 == 0
      let range =
        typing
        ? #"{"start":{"line":4,"character":\#(inline)},"end":{"line":4,"character":\#(inline)}}"#
        : #"{"start":{"line":4,"character":\#(inline)},"end":{"line":4,"character":\#(inline + 1)}}"#
      var frames = FrameWriter()
      frames.append(
        #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"\#(uri)","version":\#(version)},"contentChanges":[{"range":\#(range),"text":"\#(typing ? "l" : "")"}]}}"#
      )
      session.nextID += 1
      frames.request(
        id: session.nextID,
        method: "textDocument/completion",
        params: at(4, inline + (typing ? 1 : 0))
      )
      let before = Procfs.cpuNanoseconds(session.child.pid) ?? 0
      let start = Clock.nanoseconds()
      let reply = try session.send(frames.bytes, awaiting: session.nextID)
      row.roundTrip.append(Double(Clock.nanoseconds() - start) / 1e6)
      row.server.append(Double((Procfs.cpuNanoseconds(session.child.pid) ?? 0) - before) / 1e6)
      guard reply.contains(#""label":"#) else {
        throw BenchError("completion after a keystroke had no items: \(reply.prefix(300))")
      }
    }
    rows.append(row)
    return rows
  }

  // MARK: Instructions

  /// What one measured keystroke is.
  enum Keystroke: CaseIterable {
    /// `textDocument/didChange` on the open note: a letter typed or deleted in its body.
    case note
    /// `field/change` and `field/suggest` in a field with `suggestFromVault`.
    case field

    var name: String {
      switch self {
      case .note:
        "`textDocument/didChange` in an open note (letters of `and #kalo more ` typed, then deleted)"
      case .field: "`field/change` + `field/suggest` in a field with `suggestFromVault`"
      }
    }
  }

  /// The callgrind option that counts only what `Connection.receive(_:into:)` runs (its
  /// mangled name: valgrind does not demangle Swift, and a wildcard would also match the
  /// closures inside it, whose own toggles would turn counting off): the message path
  /// (decoding, the server's work, the reply written to the outbox), not the indexing threads
  /// nor the idle loop.
  static let toggle =
    "--toggle-collect=$s9TagServer10ConnectionV7receive_4intoys4SpanVys5UInt8VG_AA6OutboxVztF"

  /// Instructions per keystroke of `kind` in a tagd serving `root`: (2N − N keystrokes) ÷ N.
  static func instructions(
    _ kind: Keystroke,
    tagd: String,
    valgrind: String,
    root: String,
    keystrokes: Int,
    progress: (String) -> Void
  ) throws(BenchError) -> Double {
    try instructions(
      of: "\(kind) keystrokes",
      tagd: tagd,
      valgrind: valgrind,
      root: root,
      count: keystrokes,
      progress: progress
    ) { count, uri in keystrokeFrames(kind, count: count, uri: uri) }
  }

  /// Instructions per message of what `frames(count, noteURI)` writes, in a tagd serving `root`
  /// with the bench note open: (2N − N messages) ÷ N.
  static func instructions(
    of name: String,
    tagd: String,
    valgrind: String,
    root: String,
    count messages: Int,
    progress: (String) -> Void,
    frames: (Int, String) -> FrameWriter
  ) throws(BenchError) -> Double {
    var totals: [Int] = []
    for count in [messages, 2 * messages] {
      progress("callgrind: \(name) ×\(count) on \(root)…")
      let output = try Instructions.temporaryFile([])
      defer { unlink(output) }
      let session = try Session(
        program: valgrind,
        arguments: [
          "--tool=callgrind", "--callgrind-out-file=\(output)", "--collect-atstart=no", toggle,
          tagd,
        ],
        root: root
      )
      var setUp = session.openNote()
      var writer = FrameWriter()
      writer.request(
        id: 3,
        method: "field/open",
        params: #"{"field":"v","options":{"suggestFromVault":true}}"#
      )
      setUp += writer.bytes
      _ = try session.send(setUp, awaiting: 3)
      var typed = frames(count, session.noteURI)
      typed.request(id: 9, method: "vault/tags", params: #"{"limit":1}"#)
      _ = try session.send(typed.bytes, awaiting: 9)
      session.child.finish()
      guard let text = Procfs.read(output),
        let line = text.split(separator: "\n").first(where: { $0.hasPrefix("totals:") }),
        let total = Int(line.dropFirst("totals:".count).split(separator: " ").first ?? "")
      else { throw BenchError("no callgrind totals in \(output)") }
      totals.append(total)
    }
    return Double(totals[1] - totals[0]) / Double(messages)
  }

  /// `count` keystrokes of `kind`.
  static func keystrokeFrames(_ kind: Keystroke, count: Int, uri: String) -> FrameWriter {
    var writer = FrameWriter()
    switch kind {
    case .note:
      // Type the phrase at the end of the body's line, then delete it letter by letter.
      let phrase = Array(" and #kalo more")
      let column = noteLines[4].utf8.count
      var typed = 0
      var deleting = false
      for index in 0..<count {
        let range: String
        let text: String
        if deleting {
          range =
            #"{"start":{"line":4,"character":\#(column + typed - 1)},"end":{"line":4,"character":\#(column + typed)}}"#
          text = ""
          typed -= 1
          if typed == 0 { deleting = false }
        } else {
          range =
            #"{"start":{"line":4,"character":\#(column + typed)},"end":{"line":4,"character":\#(column + typed)}}"#
          text = String(phrase[typed])
          typed += 1
          if typed == phrase.count { deleting = true }
        }
        writer.append(
          #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"\#(uri)","version":\#(index + 2)},"contentChanges":[{"range":\#(range),"text":"\#(text)"}]}}"#
        )
      }
    case .field:
      // The drafts of words of the vault's vocabulary, a letter at a time.
      let words = ["kalo", "minesa", "rutovi", "zepo", "sakane"]
      var id = 1000
      for index in 0..<count {
        let word = words[(index / 6) % words.count]
        let draft = String(word.prefix(1 + index % 6))
        writer.request(
          id: id,
          method: "field/change",
          params: #"{"field":"v","text":"\#(draft)"}"#
        )
        writer.request(id: id + 1, method: "field/suggest", params: #"{"field":"v","limit":10}"#)
        id += 2
      }
    }
    return writer
  }
}
