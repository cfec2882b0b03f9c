import JSONRPC
import TagCore
import TagTestSupport
import Testing

@testable import TagProtocol
@testable import TagServer

/// An announcement said straight into a reply (the phrasebook writing into the `JSONWriter` as
/// its ``PhraseSink``) is byte for byte the announcement made as a `String` and then written
/// as a JSON string: every sentence of the catalog, in every language, with its tags spelt as
/// texts JSON must escape.
@Test func announcementsSaidIntoTheReplyMatchTheirStringsWritten() {
  let spellings = ["a\"b", "back\\slash", "tab\there", "\u{01}x", "Été", "😀", "plain"]
  var compared = 0
  for (_, sentence) in AnnouncementCatalog.rows {
    for spelling in spellings {
      let spelt = respell(sentence, spelling)
      for language in Language.allCases {
        var said = JSONWriter()
        said.appendRaw("\"")
        language.say(spelt, into: &said)
        said.appendRaw("\"")
        var made = JSONWriter()
        made.string(language.words(for: spelt))
        #expect(said.bytes == made.bytes, "\(language) \(spelt)")
        compared += 1
      }
    }
  }
  #expect(compared == AnnouncementCatalog.rows.count * spellings.count * Language.allCases.count)
}

/// `sentence` with each of its tags and texts replaced by `spelling` and a number.
private func respell(_ sentence: Sentence, _ spelling: String) -> Sentence {
  func list(_ tags: [String]) -> [String] { tags.indices.map { "\(spelling)\($0)" } }
  switch sentence {
  case .added(let tags): return .added(list(tags))
  case .removed(let tags): return .removed(list(tags))
  case .editing: return .editing(spelling)
  case .moved(_, let position, let count): return .moved(spelling, position: position, count: count)
  case .changed: return .changed(from: spelling, to: spelling + "2")
  case .selected(_, let position, let count):
    return .selected(spelling, position: position, count: count)
  case .kept(let tags): return .kept(list(tags))
  case .cloudSelected(let tags): return .cloudSelected(list(tags))
  case .cloudDeselected(let tags): return .cloudDeselected(list(tags))
  case .duplicate: return .duplicate(spelling)
  case .duplicateOf: return .duplicateOf(spelling, existing: spelling.uppercased())
  case .tooLong(_, let limit): return .tooLong(spelling, limit: limit)
  case .tooMany(_, let limit): return .tooMany(spelling, limit: limit)
  case .pattern: return .pattern(spelling)
  case .notAllowed: return .notAllowed(spelling)
  case .denied: return .denied(spelling)
  case .nothingTo: return sentence
  case .history(let direction, let step):
    switch step {
    case .adding(let tags): return .history(direction, .adding(list(tags)))
    case .removing(let tags): return .history(direction, .removing(list(tags)))
    case .moving(let tags): return .history(direction, .moving(list(tags)))
    case .changing: return .history(direction, .changing(from: spelling, to: spelling + "2"))
    case .editing(let tag): return .history(direction, .editing(tag.map { _ in spelling }))
    case .typing, .clearingDraft, .someChange: return sentence
    }
  case .suggestions(let count, _): return .suggestions(count: count, first: spelling)
  }
}

/// An outcome that changed something but has nothing to say (a separator typed into an empty
/// draft drops an empty piece) has its announcement taken back; the members written after it
/// (a synced field's pushed `frames`) still get their comma, so every message is valid JSON.
@Test func anAnnouncementTakenBackLeavesTheNextMemberItsComma() throws {
  let bodies = [
    #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
    #"{"jsonrpc":"2.0","id":2,"method":"field/open","params":{"field":"f","tags":["a"],"sync":{"version":0,"layout":{"width":40,"cells":{}}}}}"#,
    #"{"jsonrpc":"2.0","method":"field/didChange","params":{"field":"f","version":1,"contentChanges":[{"text":","}]}}"#,
  ]
  var server = Server()
  var messages: [[UInt8]] = []
  for body in bodies {
    var outbox = Outbox()
    server.handle(.message(Array(body.utf8)), into: &outbox)
    messages += outbox.messages.map { Array($0) }
  }
  let update = try #require(messages.last)
  let text = String(decoding: update, as: UTF8.self)
  #expect(text.contains(#""reason":"empty""#), "\(text)")
  #expect(!text.contains(#""announcement""#), "\(text)")
  for message in messages {
    let parsed = try? JSONReader.parse(message)
    #expect(parsed != nil, "not JSON: \(String(decoding: message, as: UTF8.self))")
  }
  guard case .object(let object)? = try? JSONReader.parse(update),
    case .object(let params)? = object["params"]
  else { return }
  #expect(params["frames"] != nil, "\(text)")
}
