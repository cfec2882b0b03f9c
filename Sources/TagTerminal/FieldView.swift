import JSONRPC

/// A rectangle in terminal cells, as `field/layout` returns it.
struct CellFrame: Equatable {
  var x: Int
  var y: Int
  var width: Int
  var height: Int
  /// What tagd says to draw in it (chips of a cell layout), if anything.
  var label: String?

  /// Reads `{x, y, width, height, label?}`; numbers are rounded down to whole cells.
  init?(_ value: JSONValue) {
    guard let x = value["x"]?.doubleValue, let y = value["y"]?.doubleValue,
      let width = value["width"]?.doubleValue, let height = value["height"]?.doubleValue,
      x.isFinite, y.isFinite, width.isFinite, height.isFinite
    else { return nil }
    self.init(x: Int(x), y: Int(y), width: Int(width), height: Int(height))
    label = value["label"]?.stringValue
  }

  init(x: Int, y: Int, width: Int, height: Int, label: String? = nil) {
    self.label = label
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
  /// The last `announcement` tagd sent, word for word: what a screen reader would say.
  var status = ""
  /// The suggestions for the draft, best first, with their matched ranges (in characters).
  var suggestions: [(text: String, matches: [Range<Int>])] = []
  /// The suggestion picked with the arrow keys, if any.
  var highlighted: Int?

  /// Takes a FieldState reply: tags, draft, prompt, and tagd's announcement of its outcome (kept
  /// until the next reply that has one).
  mutating func apply(state: JSONValue) {
    if let tags = state["tags"]?.arrayValue { self.tags = tags.compactMap(\.stringValue) }
    if let text = state["text"]?.stringValue { draft = text }
    if let prompt = state["prompt"]?.stringValue { self.prompt = prompt }
    if let selected = selection, selected >= tags.count {
      selection = tags.isEmpty ? nil : tags.count - 1
    }
    if let announcement = state["announcement"]?.stringValue { status = announcement }
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
}
