/// The request streams the benchmark sends; built before any clock starts.
enum Workloads {
  /// `initialize` with id `id`.
  static func initialize(id: Int = 1) -> String {
    #"{"jsonrpc":"2.0","id":\#(id),"method":"initialize","params":{"processId":null,"capabilities":{}}}"#
  }

  /// Phrases typed into the field: a draft of a few words.
  static let phrases = [
    "red", "green apple", "new york city", "summer sale", "todo", "urgent fix", "blue",
    "weekend trip", "q3 planning", "bug",
  ]

  /// The initial tags of the typing field: a handful.
  static let openTags = ["inbox", "work", "later"]

  /// Typing into a field: the whole draft per request, a separator every fifth request.
  ///
  /// Every phrase is typed in four steps and then committed with a comma. After the
  /// first round the phrases are duplicates (dropped), so the field keeps a handful of tags.
  ///
  /// Returns the framed requests (ids `firstID...`) and the draft each reply must show.
  static func typing(
    count: Int,
    firstID: Int,
    field: String
  ) -> (frames: FrameWriter, drafts: [String]) {
    var writer = FrameWriter()
    var drafts: [String] = []
    drafts.reserveCapacity(count)
    var phrase = 0
    var step = 0
    for index in 0..<count {
      let words = Array(phrases[phrase % phrases.count])
      let text: String
      if step < 4 {
        text = String(words[0..<max(1, words.count * (step + 1) / 4)])
        drafts.append(text)
        step += 1
      } else {
        text = String(words) + ","
        drafts.append("")
        step = 0
        phrase += 1
      }
      writer.request(
        id: firstID + index,
        method: "field/change",
        params: #"{"field":"\#(field)","text":"\#(text)"}"#
      )
    }
    return (writer, drafts)
  }

  /// The typing workload on the editor sync path.
  ///
  /// The same keystrokes as `typing`, each a `field/didChange` inserting what the step adds at
  /// the end of the buffer. After each comma
  /// the client applies the server's deletion of the committed text and reports it (`applied`),
  /// as an editor that keeps up does; those reports are part of the keystroke's cost.
  static func syncTyping(count: Int, field: String) -> FrameWriter {
    var sync = SyncWriter(field: field)
    var phrase = 0
    var step = 0
    for _ in 0..<count {
      let words = Array(phrases[phrase % phrases.count])
      let text: String
      if step < 4 {
        text = String(words[0..<max(1, words.count * (step + 1) / 4)])
        step += 1
      } else {
        text = String(words) + ","
        step = 0
        phrase += 1
      }
      sync.type(String(text.dropFirst(sync.buffer.count)))
      if step == 0 {
        // The server consumed the whole buffer ("phrase,"): delete it as its update asks.
        sync.delete(from: 0, applied: sync.version)
      }
    }
    return sync.frames
  }

  /// `field/didChange` notifications on one line of plain ASCII text, as an editor sends them.
  struct SyncWriter {
    /// The field's id.
    var field: String
    /// The client's buffer version after the last change.
    var version = 0
    /// The client's buffer.
    var buffer = ""
    /// The framed notifications.
    var frames = FrameWriter()

    /// Replaces the buffer's characters `start..<end` with `text` (ASCII, nothing to escape).
    mutating func change(at start: Int, to end: Int, _ text: String, applied: Int? = nil) {
      version += 1
      let range =
        #"{"start":{"line":0,"character":\#(start)},"end":{"line":0,"character":\#(end)}}"#
      let appliedMember = applied.map { #","applied":\#($0)"# } ?? ""
      frames.append(
        #"{"jsonrpc":"2.0","method":"field/didChange","params":{"field":"\#(field)","version":\#(version),"contentChanges":[{"range":\#(range),"text":"\#(text)"}]\#(appliedMember)}}"#
      )
      let scalars = Array(buffer)
      buffer = String(scalars[..<start]) + text + String(scalars[end...])
    }

    /// Types `text` at the end of the buffer.
    mutating func type(_ text: String) { change(at: buffer.count, to: buffer.count, text) }

    /// Deletes the buffer from character `start` to its end.
    mutating func delete(from start: Int, applied: Int? = nil) {
      change(at: start, to: buffer.count, "", applied: applied)
    }
  }

  /// `count` distinct tag names.
  static func tagNames(_ count: Int, prefix: String = "tag") -> [String] {
    (0..<count).map { "\(prefix)\($0)" }
  }

  /// A JSON array of strings (names need no escaping).
  static func stringArray(_ names: [String]) -> String {
    var text = "["
    text.reserveCapacity(names.count * 12)
    for (index, name) in names.enumerated() {
      if index > 0 { text += "," }
      text += "\"" + name + "\""
    }
    return text + "]"
  }

  /// A JSON array of `count` sizes with varied widths.
  static func sizes(_ count: Int) -> String {
    var text = "["
    text.reserveCapacity(count * 28)
    for index in 0..<count {
      if index > 0 { text += "," }
      text += #"{"width":\#(40 + (index * 37) % 90),"height":20}"#
    }
    return text + "]"
  }

  /// A JSON array of `count` cloud tags `{title}`.
  static func cloudTags(_ count: Int) -> String {
    var text = "["
    text.reserveCapacity(count * 20)
    for index in 0..<count {
      if index > 0 { text += "," }
      text += #"{"title":"tag\#(index)"}"#
    }
    return text + "]"
  }
}
