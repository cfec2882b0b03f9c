import JSONRPC

/// A rectangle in terminal cells, as `field/layout` returns it.
struct CellFrame: Equatable {
  var x: Int
  var y: Int
  var width: Int
  var height: Int

  /// Reads `{x, y, width, height}`; numbers are rounded down to whole cells.
  init?(_ value: JSONValue) {
    guard let x = value["x"]?.doubleValue, let y = value["y"]?.doubleValue,
      let width = value["width"]?.doubleValue, let height = value["height"]?.doubleValue,
      x.isFinite, y.isFinite, width.isFinite, height.isFinite
    else { return nil }
    self.init(x: Int(x), y: Int(y), width: Int(width), height: Int(height))
  }

  init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }
}

/// What the terminal shows of the field: tagd's state and layout plus the local selection.
///
/// The tags, draft and prompt come from the latest FieldState reply, the frames from the latest
/// `field/layout` reply; the selection and the status line are the terminal's own.
struct FieldView {
  var tags: [String] = []
  var draft = ""
  var prompt = "Add a tag"
  var chipFrames: [CellFrame] = []
  var fieldFrame = CellFrame(x: 0, y: 0, width: 10, height: 1)
  var height = 1
  /// The index of the chip picked with the arrow keys, if any.
  var selection: Int?
  /// The last announcement ("added: red", "dropped: RED duplicates red").
  var status = ""
  /// The suggestions for the draft, best first, with their matched ranges (in characters).
  var suggestions: [(text: String, matches: [Range<Int>])] = []
  /// The suggestion picked with the arrow keys, if any.
  var highlighted: Int?

  /// Takes a FieldState reply: tags, draft, prompt, and the announcement of its outcome.
  mutating func apply(state: JSONValue) {
    if let tags = state["tags"]?.arrayValue { self.tags = tags.compactMap(\.stringValue) }
    if let text = state["text"]?.stringValue { draft = text }
    if let prompt = state["prompt"]?.stringValue { self.prompt = prompt }
    if let selected = selection, selected >= tags.count {
      selection = tags.isEmpty ? nil : tags.count - 1
    }
    let outcome = state["outcome"]
    // Undo, redo, moves and edits: tagd's own sentence says it best.
    if outcome?["history"] != nil || outcome?["moved"] != nil || outcome?["edited"] != nil
      || outcome?["replaced"] != nil, let sentence = state["announcement"]?.stringValue
    {
      status = sentence
      return
    }
    let announcement = FieldView.announcement(outcome, tags: tags)
    if !announcement.isEmpty { status = announcement }
  }

  /// Takes a `field/suggest` reply; `matches` count UTF-32 code points (what `tagd try`
  /// negotiates), turned into character offsets here.
  mutating func apply(suggestions reply: JSONValue) {
    suggestions = (reply["items"]?.arrayValue ?? []).compactMap { item in
      guard let text = item["text"]?.stringValue else { return nil }
      let scalars = Array(text.unicodeScalars)
      // Character offset of each scalar offset.
      var characterAt = [Int](repeating: 0, count: scalars.count + 1)
      var scalar = 0
      for (number, character) in text.enumerated() {
        for _ in character.unicodeScalars {
          characterAt[scalar] = number
          scalar += 1
        }
      }
      characterAt[scalars.count] = text.count
      let matches: [Range<Int>] = (item["matches"]?.arrayValue ?? []).compactMap { match in
        guard let start = match["start"]?.int64Value, let end = match["end"]?.int64Value,
          start >= 0, start <= end, Int(end) <= scalars.count
        else { return nil }
        return characterAt[Int(start)]..<characterAt[Int(end)]
      }
      return (text, matches)
    }
    if let index = highlighted, index >= suggestions.count { highlighted = nil }
  }

  /// Takes a `field/layout` reply: one frame per chip, then the text field's.
  mutating func apply(layout: JSONValue) {
    let frames = (layout["frames"]?.arrayValue ?? []).compactMap(CellFrame.init)
    guard let field = frames.last else { return }
    chipFrames = Array(frames.dropLast())
    fieldFrame = field
    height = Int(layout["size"]?["height"]?.doubleValue ?? 1)
  }

  /// What a screen reader would say about an outcome: added, removed and dropped tags.
  ///
  /// Empty candidates (a stray separator or Return) are not announced.
  static func announcement(_ outcome: JSONValue?, tags: [String]) -> String {
    var parts: [String] = []
    let added = (outcome?["added"]?.arrayValue ?? []).compactMap(\.stringValue)
    if !added.isEmpty { parts.append("added: " + added.joined(separator: ", ")) }
    let removed = (outcome?["removed"]?.arrayValue ?? []).compactMap { $0["tag"]?.stringValue }
    if !removed.isEmpty { parts.append("removed: " + removed.joined(separator: ", ")) }
    for drop in outcome?["dropped"]?.arrayValue ?? [] {
      let text = drop["text"]?.stringValue ?? ""
      let limit = drop["limit"]?.int64Value.map(String.init) ?? "?"
      switch drop["reason"]?.stringValue {
      case "duplicate":
        let index = drop["duplicateOf"]?.int64Value.map(Int.init) ?? -1
        let original = tags.indices.contains(index) ? tags[index] : "an existing tag"
        parts.append("dropped: \(text) duplicates \(original)")
      case "tooLong": parts.append("dropped: \(text) is longer than \(limit) characters")
      case "tooMany": parts.append("dropped: \(text), the field is full (\(limit) tags)")
      case "empty": break
      case let reason: parts.append("dropped: \(text) (\(reason ?? "unknown reason"))")
      }
    }
    return parts.joined(separator: "; ")
  }
}
