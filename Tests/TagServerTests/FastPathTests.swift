import JSONRPC
import Testing

@testable import TagServer

/// Every shortcut is still taken where it should be.
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
    Case(path: .plainStringMember, messages: [open]),
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
    Case(path: .lentParamsUse, messages: [open]),
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
      path: .scannedSizes,
      messages: [open, change("a,"), layout(#"{ "width": 40, "height": 20 }"#)]
    ),
    Case(
      path: .compactContentChanges,
      messages: [
        #"{"jsonrpc":"2.0","id":2,"method":"field/open","params":{"field":"f","sync":{"version":0}}}"#,
        #"{"jsonrpc":"2.0","method":"field/didChange","params":{"field":"f","version":1,"contentChanges":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"text":"red,"}]}}"#,
      ]
    ),
    Case(
      path: .contentChanges,
      messages: [
        #"{"jsonrpc":"2.0","id":2,"method":"field/open","params":{"field":"f","sync":{"version":0}}}"#,
        #"{"jsonrpc":"2.0","method":"field/didChange","params":{"field":"f","version":1,"contentChanges":[{ "range": {"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"text":"red,"}]}}"#,
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
    Case(
      path: .shortestDigits,
      messages: [open, change("a,"), layout(#"{"width":40.3,"height":20}"#)]
    ),
    Case(path: .keptTagsText, messages: [open, change("a,"), change("b")]),
    Case(path: .keptTagsTail, messages: [open, change("a,b,c,d,e,f,g,h,i,j,")]),
    Case(path: .emptyOutcome, messages: [open, change("gree")]),
    Case(path: .stateInPlace, messages: [open, change("g")]),
    Case(path: .headerDigitsGuessed, messages: [open, change("g"), change("gr")]),
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

  @Test(arguments: cases)
  func shortcutIsTaken(_ shortcut: Case) {
    let bytes = Self.framed(shortcut.messages)
    var errors = 0
    let counts = FastPath.counting {
      var connection = Connection()
      var outbox = Outbox()
      connection.receive(bytes, into: &outbox)
      errors =
        outbox.messages.filter { String(decoding: $0, as: UTF8.self).contains("\"error\"") }
        .count
    }
    #expect(errors == 0, "the messages must be served without an error")
    #expect(counts[shortcut.path, default: 0] > 0, "\(shortcut.path) was not taken")
  }

  /// A shortcut added to ``FastPath`` needs a case here.
  @Test func everyShortcutHasACase() {
    #expect(Set(Self.cases.map(\.path)) == Set(FastPath.allCases))
  }
}
