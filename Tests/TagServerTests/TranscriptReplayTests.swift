import JSONRPC
import TagServer
import TagTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Replays every `Protocol/transcripts/*.transcript` against an in-process ``Server``.
///
/// `TAGD_RECORD=1` rewrites the `<-` lines from the actual replies and then FAILS, so a
/// re-recorded transcript never passes silently: review the diff, then run again.
@Suite struct TranscriptReplayTests {
  static let transcripts: [Transcript] = (try? Files.transcripts()) ?? []

  @Test func transcriptsExist() throws {
    _ = try Files.transcripts()
    #expect(Self.transcripts.count >= 8)
  }

  @Test(arguments: transcripts.map(\.name))
  func replay(name: String) throws {
    let transcript = try #require(Self.transcripts.first { $0.name == name })
    var server = Server()
    var outbox = Outbox()
    var replies: [[String]] = []
    var exitCode: Int32?
    for send in transcript.sends where exitCode == nil {
      server.handleNow(.message(Array(send.utf8)), into: &outbox)
      replies.append(outbox.texts)
      exitCode = outbox.exitCode
      outbox.clear()
    }
    if exitCode == nil {
      server.handle(.inputClosed, into: &outbox)
      exitCode = outbox.exitCode
    }
    if getenv("TAGD_RECORD") != nil {
      record(transcript, replies: replies, exitCode: exitCode)
      Issue.record("recorded \(name).transcript; review the diff and run again without TAGD_RECORD")
      return
    }
    let actual = replies.flatMap { $0 }
    #expect(actual.count == transcript.expectedReplies.count, "reply count in \(name)")
    for (i, (got, want)) in zip(actual, transcript.expectedReplies).enumerated() {
      #expect(want.matches(got), "\(name) reply \(i + 1):\n got  \(got)\n want \(want)")
    }
    if let expected = transcript.expectedExit {
      #expect(exitCode == expected, "exit status of \(name)")
    }
  }

  /// Rewrites a transcript: comments and sends kept, each send followed by its replies.
  func record(_ transcript: Transcript, replies: [[String]], exitCode: Int32?) {
    let path = packageRoot() + "/Protocol/transcripts/\(transcript.name).transcript"
    let text = String(decoding: Files.read(path) ?? [], as: UTF8.self)
    var out: [String] = []
    var sendIndex = 0
    // Each send's replies are written after its `<~ ` lines (partial expectations are the
    // author's and stand for that many replies), before the next send.
    var pending: ArraySlice<String> = []
    func flush() {
      out += pending.map { "<- " + Transcript.abstracting($0) }
      pending = []
    }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("<- ") || line.hasPrefix("== exit ") { continue }
      if line.hasPrefix("<~ ") {
        out.append(String(line))
        pending = pending.dropFirst()
        continue
      }
      if line.hasPrefix("-> ") {
        flush()
        out.append(String(line))
        pending = sendIndex < replies.count ? replies[sendIndex][...] : []
        sendIndex += 1
        continue
      }
      flush()
      out.append(String(line))
    }
    flush()
    while out.last == "" { out.removeLast() }
    out.append("== exit \(exitCode ?? -1)")
    let bytes = Array((out.joined(separator: "\n") + "\n").utf8)
    let fd = open(path, O_WRONLY | O_TRUNC)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
  }
}

/// The README's demo input is exactly the sends of `demo.transcript`, so the output the README
/// shows is checked by the replay above.
@Test func demoInputMatchesItsTranscript() throws {
  let transcript = try #require(try Files.transcripts().first { $0.name == "demo" })
  let demo = String(
    decoding: Files.read(packageRoot() + "/Protocol/examples/demo.jsonl") ?? [],
    as: UTF8.self
  )
  #expect(demo == transcript.sends.joined(separator: "\n") + "\n")
}

/// SPEC §6c: a language changes words only.
///
/// Every transcript replayed with `initialize` asking
/// for Spanish, German and French gives the English replies once `announcement` and `prompt`
/// are set aside, and the words do change.
@Suite struct LanguageReplayTests {
  /// The replies to `transcript`'s sends, `locale` added to its `initialize` params.
  static func replies(_ transcript: Transcript, locale: String?) -> [String] {
    var server = Server()
    var outbox = Outbox()
    var replies: [String] = []
    for var send in transcript.sends {
      if let locale, send.contains(#""method":"initialize""#) {
        if send.contains(#""params":{}"#) {
          send = send.replacing(#""params":{}"#, with: #""params":{"locale":"\#(locale)"}"#)
        } else {
          send = send.replacing(#""params":{"#, with: #""params":{"locale":"\#(locale)","#)
        }
      }
      server.handleNow(.message(Array(send.utf8)), into: &outbox)
      replies += outbox.texts
      outbox.clear()
    }
    return replies
  }

  /// `value` without its `announcement`, `prompt` and `language` members, at any depth.
  static func wordless(_ value: JSONValue) -> JSONValue {
    switch value {
    case .object(let object):
      .object(
        JSONObject(
          object.members.filter { !["announcement", "prompt", "language"].contains($0.key) }
            .map { JSONMember($0.key, wordless($0.value)) }
        )
      )
    case .array(let items): .array(items.map(wordless))
    default: value
    }
  }

  static func words(_ value: JSONValue) -> [String] {
    switch value {
    case .object(let object):
      object.members.flatMap { member in
        member.key == "announcement" || member.key == "prompt"
          ? [member.value.stringValue ?? ""] : words(member.value)
      }
    case .array(let items): items.flatMap(words)
    default: []
    }
  }

  @Test(arguments: ["es", "de-CH", "fr_FR.UTF-8"])
  func languagesChangeOnlyWords(locale: String) throws {
    var changedWords = 0
    for transcript in TranscriptReplayTests.transcripts {
      let english = Self.replies(transcript, locale: nil)
      let other = Self.replies(transcript, locale: locale)
      try #require(english.count == other.count, "reply count of \(transcript.name) in \(locale)")
      for (a, b) in zip(english, other) {
        let one = try JSONReader.parse(Array(a.utf8))
        let two = try JSONReader.parse(Array(b.utf8))
        #expect(
          Self.wordless(one) == Self.wordless(two),
          "\(transcript.name) in \(locale):\n\(a)\n\(b)"
        )
        changedWords += zip(Self.words(one), Self.words(two)).filter { $0 != $1 }.count
      }
    }
    // The transcripts announce hundreds of changes; each language words them its own way.
    #expect(changedWords > 100, "only \(changedWords) sentences changed in \(locale)")
  }
}
