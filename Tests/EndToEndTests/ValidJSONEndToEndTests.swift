import JSONRPC
import TagTestSupport
import Testing

/// Every message tagd writes is valid JSON, read back from the built binary over real pipes in
/// the richest streams it writes: a synced field with a `cells` layout (pushed `frames`), typing
/// with separators into an empty draft (an outcome whose announcement is taken back), pastes with
/// duplicates and denied tags, undo and redo, chip edits, suggestions, and a cloud, with the
/// announcements in each of the four languages, in both framings.
///
/// A writer that takes a member back and leaves the comma state wrong gives `…]}"frames":` in a
/// `field/didUpdate`; only a parser reading every message finds that.
@Suite struct ValidJSONEndToEndTests {
  @Test(arguments: ["en", "es", "de", "fr"], [Framing.contentLength, .newlineDelimited])
  func everyMessageOfARichSessionParses(locale: String, framing: Framing) throws {
    let child = try spawnTagd()
    for body in Self.richSession(locale: locale, seed: 33) { child.write(frame(body, framing)) }
    #expect(child.finish() == 0)
    #expect(isOnlyFrames(child.stdout, framing: framing), "not only valid JSON frames")
    let bodies = splitFrames(child.stdout, framing: framing)
    var parsed = 0
    for body in bodies {
      guard case .object(let message)? = try? JSONReader.parse(Array(body.utf8)) else {
        Issue.record("not a JSON object: \(body)")
        continue
      }
      #expect(message["jsonrpc"] == .string("2.0"), "\(body)")
      parsed += 1
    }
    // The session reached what it is for: pushed frames, announcements, errors answered.
    #expect(parsed == bodies.count && bodies.count > 300)
    #expect(bodies.count { $0.contains(#""method":"field/didUpdate""#) } > 100)
    #expect(bodies.count { $0.contains(#""frames":"#) } > 100)
    #expect(bodies.count { $0.contains(#""announcement":"#) } > 100)
    #expect(bodies.contains { $0.contains(#""history":"#) })
    #expect(bodies.contains { $0.contains(#""reason":"denied""#) })
    #expect(bodies.contains { $0.contains(#""error":"#) })
  }

  /// A seeded session of some 400 messages: a synced field `s` with a `cells` layout, a field `f`
  /// edited by requests, a cloud `c`.
  static func richSession(locale: String, seed: UInt64) -> [String] {
    var random = SplitMix64(seed: seed)
    var bodies: [String] = []
    var id = 0
    func request(_ method: String, _ params: String) {
      id += 1
      bodies.append(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#)
    }
    let words = [
      "red", "Blue", "blue", "spam", "日本", "ñandú", "x\"q", "a\\b", "tab\tx", "12", "  ",
    ]
    func pick(_ choices: [String]) -> String { choices[Int(random.next() % UInt64(choices.count))] }
    request("initialize", #"{"processId":null,"capabilities":{},"locale":"\#(locale)"}"#)
    request(
      "field/open",
      #"{"field":"s","tags":["alpha","Beta"],"options":{"maxTags":12,"deny":["spam"]},"sync":{"version":0,"layout":{"width":30,"cells":{"left":"[","right":" ×]"}}}}"#
    )
    request("field/open", #"{"field":"f","tags":["x"],"options":{"maxTags":8,"deny":["spam"]}}"#)
    request(
      "cloud/open",
      #"{"cloud":"c","tags":[{"title":"swift"},{"title":"go"},{"title":"zig"}]}"#
    )
    request("field/setSuggestions", #"{"field":"f","suggestions":["red","rose","ruby"]}"#)
    // A separator typed into the empty draft: an empty piece dropped, nothing to announce.
    var text = ","
    var version = 1
    func typed() {
      bodies.append(
        #"{"jsonrpc":"2.0","method":"field/didChange","params":{"field":"s","version":\#(version),"contentChanges":[{"text":\#(quoted(text))}]}}"#
      )
    }
    typed()
    for _ in 0..<400 {
      switch random.next() % 100 {
      case 0..<45:
        text +=
          random.next() % 5 == 0
          ? pick(words) + pick([",", ", ", "\n", ""]) : pick(["a", "b", ",", " "])
        version += 1
        typed()
      case 45..<55 where !text.isEmpty:
        text.removeLast()
        version += 1
        typed()
      case 55..<63:
        request(pick(["field/undo", "field/redo"]), #"{"field":"\#(pick(["s", "f"]))"}"#)
      case 63..<71:
        let paste = (0..<Int(1 + random.next() % 12)).map { _ in pick(words) }.joined(
          separator: ","
        )
        request("field/change", #"{"field":"f","text":\#(quoted(paste + pick([",", ""])))}"#)
      case 71..<75:
        request(
          "field/removeTag",
          #"{"field":"\#(pick(["s", "f"]))","index":\#(random.next() % 4)}"#
        )
      case 75..<78: request("field/select", #"{"field":"f","index":\#(random.next() % 4)}"#)
      case 78..<80: request("field/deleteBackward", #"{"field":"f"}"#)
      case 80..<82:
        request(
          "field/moveTag",
          #"{"field":"f","from":\#(random.next() % 3),"to":\#(random.next() % 3)}"#
        )
      case 82..<84:
        request(
          "field/replaceTag",
          #"{"field":"f","index":\#(random.next() % 3),"text":\#(quoted(pick(words)))}"#
        )
      case 84..<86: request("field/editTag", #"{"field":"f","index":\#(random.next() % 3)}"#)
      case 86..<88: request("field/submit", #"{"field":"\#(pick(["s", "f"]))"}"#)
      case 88..<92:
        request(
          "cloud/toggle",
          #"{"cloud":"c","title":"\#(pick(["swift", "go", "zig", "nope"]))"}"#
        )
      case 92..<94:
        request(
          "cloud/layout",
          #"{"cloud":"c","width":200,"sizes":[{"width":40,"height":20},{"width":30,"height":20},{"width":20,"height":20}]}"#
        )
      case 94..<96:
        request(
          "field/layout",
          #"{"field":"f","width":20,"fieldHeight":1,"cells":{"left":"[","right":"]"}}"#
        )
      default: request("field/suggest", #"{"field":"f","query":"\#(pick(["r", "ro", "zz"]))"}"#)
      }
    }
    bodies.append(#"{"jsonrpc":"2.0","id":\#(id + 1),"method":"shutdown"}"#)
    bodies.append(#"{"jsonrpc":"2.0","method":"exit"}"#)
    return bodies
  }
}

/// `text` as a JSON string.
private func quoted(_ text: String) -> String {
  var w = JSONWriter()
  w.string(text)
  return String(decoding: w.bytes, as: UTF8.self)
}
