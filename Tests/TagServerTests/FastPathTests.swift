import JSONRPC
import Testing

@testable import TagServer

/// Every shortcut, in any layer, is still taken where it should be.
///
/// Each shortcut answers exactly as the general path beside it (ByteDecodingTests and the
/// writer tests compare them), so no reply can tell whether it was taken. These tests count
/// the shortcuts (``FastPath``, counted in debug builds) while a connection handles a few
/// framed messages of the shape the shortcut is for, and fail when it was not taken.
@Suite struct FastPathTests {
  /// One shortcut and messages after which it must have been taken.
  struct Case: CustomStringConvertible, Sendable {
    var path: FastPath
    var messages: [String]
    var description: String { "\(path)" }
  }

  static let open = #"{"jsonrpc":"2.0","id":2,"method":"field/open","params":{"field":"f"}}"#
  static func change(_ text: String) -> String {
    #"{"jsonrpc":"2.0","id":3,"method":"field/change","params":{"field":"f","text":"\#(text)"}}"#
  }
  static func layout(_ sizes: String) -> String {
    #"{"jsonrpc":"2.0","id":4,"method":"field/layout","params":{"field":"f","width":800,"chipSizes":[\#(sizes)],"fieldHeight":20}}"#
  }

  static let cases: [Case] = [
    Case(path: .envelopeScan, messages: [open]),
    Case(path: .plainHeader, messages: [open]),
    Case(path: .versionPrefix, messages: [open]),
    Case(path: .messageBodyEnd, messages: [open]),
    Case(path: .plainStringMember, messages: [open]),
    Case(path: .shortScannedString, messages: [open]),
    Case(path: .shortInteger, messages: [open]),
    Case(path: .scannedStringMember, messages: [open, change(#"gr\u0065en"#)]),
    Case(path: .trustedString, messages: [open, change(#"gr\u0065en"#)]),
    Case(
      path: .decodedLines,
      messages: [
        #"{"jsonrpc":"2.0","id":2,"method":"document/tags","params":{"text":"* A :x:\n* B :y:","line":1}}"#
      ]
    ),
    Case(
      path: .numberMember,
      messages: [
        open, change("a,"),
        #"{"jsonrpc":"2.0","id":5,"method":"field/select","params":{"field":"f","index":0}}"#,
      ]
    ),
    Case(
      path: .boolMember,
      messages: [
        #"{"jsonrpc":"2.0","id":2,"method":"field/open","params":{"field":"f","options":{"commitOnBlur":true}}}"#
      ]
    ),
    Case(
      path: .objectMember,
      messages: [
        #"{"jsonrpc":"2.0","id":2,"method":"field/open","params":{"field":"f","options":{"commitOnBlur":true}}}"#
      ]
    ),
    Case(
      path: .compactSizes,
      messages: [open, change("a,"), layout(#"{"width":40,"height":20}"#)]
    ),
    Case(
      path: .compactContentChanges,
      messages: [
        #"{"jsonrpc":"2.0","id":2,"method":"field/open","params":{"field":"f","sync":{"version":0}}}"#,
        #"{"jsonrpc":"2.0","method":"field/didChange","params":{"field":"f","version":1,"contentChanges":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"text":"red,"}]}}"#,
      ]
    ),
    Case(
      path: .pulledDidChange,
      messages: [
        #"{"jsonrpc":"2.0","id":2,"method":"field/open","params":{"field":"f","sync":{"version":0}}}"#,
        didChange(version: 1, at: 0, "red,"),
      ]
    ),
    // The same with `applied`, and the members in another order.
    Case(
      path: .pulledDidChange,
      messages: [
        #"{"jsonrpc":"2.0","id":2,"method":"field/open","params":{"field":"f","sync":{"version":0}}}"#,
        #"{"jsonrpc":"2.0","method":"field/didChange","params":{"contentChanges":[{"text":"red"}],"applied":0,"version":1,"field":"f"}}"#,
      ]
    ),
    // The client applies the update's deletion of the consumed "red,", then deletes a typed
    // character with Backspace: both end the mirror's cells.
    Case(
      path: .mirrorDeletionAtEnd,
      messages: [
        #"{"jsonrpc":"2.0","id":2,"method":"field/open","params":{"field":"f","sync":{"version":0}}}"#,
        didChange(version: 1, at: 0, "red,"),
        #"{"jsonrpc":"2.0","method":"field/didChange","params":{"field":"f","version":2,"applied":1,"contentChanges":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":4}},"text":""}]}}"#,
        didChange(version: 3, at: 0, "gr"),
        #"{"jsonrpc":"2.0","method":"field/didChange","params":{"field":"f","version":4,"contentChanges":[{"range":{"start":{"line":0,"character":1},"end":{"line":0,"character":2}},"text":""}]}}"#,
      ]
    ),
    // A range-less change with its caret (the Emacs front end's shape) reads compactly too.
    Case(
      path: .compactContentChanges,
      messages: [
        #"{"jsonrpc":"2.0","id":2,"method":"field/open","params":{"field":"f","sync":{"version":0}}}"#,
        #"{"jsonrpc":"2.0","method":"field/didChange","params":{"field":"f","version":1,"contentChanges":[{"text":"red","caret":{"line":0,"character":3}}]}}"#,
      ]
    ),
    Case(path: .shortString, messages: [open, change("green")]),
    Case(
      path: .integerDigits,
      messages: [open, change("a,"), layout(#"{"width":40,"height":20}"#)]
    ),
    Case(
      path: .sixteenths,
      messages: [open, change("a,"), layout(#"{"width":40.5,"height":20}"#)]
    ),
    // A reply copies the tags with its prompt (keptStateMiddle); an update copies them alone.
    Case(
      path: .keptTagsText,
      messages: [
        #"{"jsonrpc":"2.0","id":2,"method":"field/open","params":{"field":"f","sync":{"version":0}}}"#,
        didChange(version: 1, at: 0, "red,"),
      ]
    ),
    // The update deleting the consumed "red," (line 0).
    Case(
      path: .lineZeroEdit,
      messages: [
        #"{"jsonrpc":"2.0","id":2,"method":"field/open","params":{"field":"f","sync":{"version":0}}}"#,
        didChange(version: 1, at: 0, "red,"),
      ]
    ),
    Case(path: .keptTagsTail, messages: [open, change("a,b,c,d,e,f,g,h,i,j,")]),
    Case(path: .emptyOutcome, messages: [open, change("gree")]),
    Case(path: .keptStateMiddle, messages: [open, change("g"), change("gr")]),
    Case(path: .stateInPlace, messages: [open, change("g")]),
    Case(path: .headerDigitsGuessed, messages: [open, change("g"), change("gr")]),
    // TagCore's
    Case(
      path: .plainDraftExtension,
      messages: [
        open, change(String(repeating: "g", count: 40)), change(String(repeating: "g", count: 41)),
      ]
    ),
    // Typing and Backspace at the end of a synced draft.
    Case(
      path: .mirrorKeystroke,
      messages: [
        #"{"jsonrpc":"2.0","id":2,"method":"field/open","params":{"field":"f","sync":{"version":0}}}"#,
        didChange(version: 1, at: 0, "gr"),
        #"{"jsonrpc":"2.0","method":"field/didChange","params":{"field":"f","version":2,"contentChanges":[{"range":{"start":{"line":0,"character":1},"end":{"line":0,"character":2}},"text":""}]}}"#,
      ]
    ),
    // The client applying the update that deletes what a keystroke committed.
    Case(
      path: .mirrorAppliedCommit,
      messages: [
        #"{"jsonrpc":"2.0","id":2,"method":"field/open","params":{"field":"f","sync":{"version":0}}}"#,
        didChange(version: 1, at: 0, "red,"),
        #"{"jsonrpc":"2.0","method":"field/didChange","params":{"field":"f","version":2,"applied":1,"contentChanges":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":4}},"text":""}]}}"#,
      ]
    ),
    // Typing at the end of a long synced draft: the mirror tells the field so.
    Case(
      path: .draftEndEdit,
      messages: [
        #"{"jsonrpc":"2.0","id":2,"method":"field/open","params":{"field":"f","sync":{"version":0}}}"#,
        didChange(version: 1, at: 0, String(repeating: "g", count: 40)),
        didChange(version: 2, at: 40, "g"),
      ]
    ),
    Case(path: .asciiCandidate, messages: [open, change("green,")]),
    // A paste over 4,096 bytes counts its separators first, to make room once.
    Case(
      path: .wordSeparatorCount,
      messages: [open, change((0..<1_000).map { "t\($0)" }.joined(separator: ",") + ",x")]
    ),
    // Pieces of eight bytes and more: each separator is found in a word.
    Case(path: .wordSeparatorSearch, messages: [open, change("greenish,blue-grey,x")]),
    Case(path: .asciiTrimmedEnds, messages: [openAllowing]),
    Case(path: .asciiKeyHash, messages: [open, change("Green,")]),
    Case(path: .asciiCaselessFold, messages: [open, change("Green,")]),
    Case(
      path: .printableASCIIWidth,
      messages: [
        open, change("green,"),
        #"{"jsonrpc":"2.0","id":4,"method":"field/layout","params":{"field":"f","width":100,"cells":{"padding":1},"fieldHeight":1}}"#,
      ]
    ),
    // Fields opened and closed between keystrokes move the table's entries: switched off, the
    // replies must still be the same (a stale place would answer for the wrong field, or trap).
    Case(
      path: .lastFieldLookup,
      messages: [
        open, change("g"), change("gr"),
        #"{"jsonrpc":"2.0","id":5,"method":"field/open","params":{"field":"h","tags":["x"]}}"#,
        change("gre"),
        #"{"jsonrpc":"2.0","id":6,"method":"field/change","params":{"field":"h","text":"y"}}"#,
        #"{"jsonrpc":"2.0","id":7,"method":"field/close","params":{"field":"h"}}"#,
        change("gree"),
        #"{"jsonrpc":"2.0","id":8,"method":"field/open","params":{"field":"h"}}"#,
        #"{"jsonrpc":"2.0","id":9,"method":"field/change","params":{"field":"h","text":"z"}}"#,
        change("green"),
      ]
    ),
    // The first keystroke names the field anew (after `field/open` the table changed); the
    // second names the one the first did.
    Case(path: .integerID, messages: [open]),
    Case(path: .lastFieldID, messages: [open, change("g"), change("gr")]),
    // The same for a `field/didChange`, its id compared with the server's kept notification's.
    Case(
      path: .lastFieldID,
      messages: [
        #"{"jsonrpc":"2.0","id":2,"method":"field/open","params":{"field":"f","sync":{"version":0}}}"#,
        didChange(version: 1, at: 0, "g"), didChange(version: 2, at: 1, "r"),
      ]
    ),
    Case(
      path: .plainMirrorEdits,
      // Past the keystroke's own path (mirrorKeystroke): typing inside the text.
      messages: [
        #"{"jsonrpc":"2.0","id":2,"method":"field/open","params":{"field":"f","sync":{"version":0}}}"#,
        didChange(version: 1, at: 0, "gr"),
        didChange(version: 2, at: 1, "e"),
      ]
    ),
  ]

  /// A `field/didChange` inserting `text` at `character` of line 0.
  static func didChange(version: Int, at character: Int, _ text: String) -> String {
    #"{"jsonrpc":"2.0","method":"field/didChange","params":{"field":"f","version":\#(version),"contentChanges":[{"range":{"start":{"line":0,"character":\#(character)},"end":{"line":0,"character":\#(character)}},"text":"\#(text)"}]}}"#
  }

  static let openAllowing =
    #"{"jsonrpc":"2.0","id":2,"method":"field/open","params":{"field":"f","options":{"allow":["Red","Green"]}}}"#

  /// The shortcuts without a switch.
  ///
  /// The params reader's and the JSON scanner's: another branch is rewriting that reader
  /// (issue 33 item 4), and each was measured by editing its condition out (BENCHMARKS.md).
  /// `integerDigits`: the general number writer beside it writes integers as doubles (`40.0`,
  /// `-0` for `0`), so it is the one path for integers, not a shortcut that can be switched off.
  static let unswitched: Set<FastPath> = [
    .integerDigits, .plainStringMember, .shortScannedString, .shortInteger, .scannedStringMember,
    .trustedString,
    .numberMember,
    .boolMember, .objectMember, .compactSizes, .compactContentChanges,
  ]

  /// Frames `messages` after `initialize` in Content-Length framing, in one read.
  static func framed(_ messages: [String]) -> [UInt8] {
    let initialize =
      #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"capabilities":{}}}"#
    var bytes: [UInt8] = []
    for message in [initialize] + messages {
      bytes += Array("Content-Length: \(message.utf8.count)\r\n\r\n".utf8) + Array(message.utf8)
    }
    return bytes
  }

  /// What a connection writes for `bytes`, and how often each shortcut was taken meanwhile.
  static func serve(_ bytes: [UInt8]) -> (replies: [String], counts: [FastPath: Int]) {
    var replies: [String] = []
    let counts = FastPath.counting {
      var connection = Connection()
      var outbox = Outbox()
      connection.receive(bytes.span, into: &outbox)
      replies = outbox.messages.map { String(decoding: $0, as: UTF8.self) }
    }
    return (replies, counts)
  }

  @Test(arguments: cases)
  func shortcutIsTaken(_ shortcut: Case) {
    let (replies, counts) = Self.serve(Self.framed(shortcut.messages))
    #expect(
      !replies.contains { $0.contains("\"error\"") },
      "the messages must be served without an error"
    )
    #expect(counts[shortcut.path, default: 0] > 0, "\(shortcut.path) was not taken")
  }

  /// Switched off, the shortcut is not taken (so the test above fails when it stops being
  /// taken) and the general path beside it writes the same bytes.
  @Test(arguments: cases.filter { !unswitched.contains($0.path) })
  func switchedOffTheGeneralPathAnswersAlike(_ shortcut: Case) {
    let bytes = Self.framed(shortcut.messages)
    let on = Self.serve(bytes)
    let off = FastPath.switchedOff(shortcut.path) { Self.serve(bytes) }
    #expect(off.counts[shortcut.path] == nil, "\(shortcut.path) was taken though switched off")
    #expect(off.replies == on.replies)
  }

  /// A plain integer the scanner only skips (a member no one reads) is skipped by its digits,
  /// as a read one is: every position inside a skipped `contentChanges` is one.
  @Test func aSkippedIntegerTakesTheShortInteger() throws {
    let counts = try FastPath.counting {
      try Array(#"[12,{"line":0},-1,1.5]"#.utf8).withUnsafeBufferPointer { bytes in
        var scanner = JSONScanner(bytes)
        try scanner.scanDocument()
      }
    }
    #expect(counts[.shortInteger] == 2)
  }

  /// The registry's switches are bits of one word.
  @Test func theSwitchesFitInAWord() {
    #expect(FastPath.allCases.count <= 64)
    #expect(FastPath.allCases.map(\.rawValue) == Array(0..<FastPath.allCases.count))
  }

  /// A shortcut added to ``FastPath`` needs a case here.
  @Test func everyShortcutHasACase() {
    #expect(Set(Self.cases.map(\.path)) == Set(FastPath.allCases))
  }
}
