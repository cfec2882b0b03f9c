import TagCore

/// Draws a ``FieldView`` into a ``Canvas``: the key help, the chips and the draft at the frames
/// tagd computed, and the status line.
enum TryScreen {
  /// The key help on the first line.
  static let header =
    "tagd try · type tags, ',' or Return adds · ←/→ select, Del/x removes, Alt-←/→ moves, Return edits · Tab/↓ suggestions · Ctrl-Z/Ctrl-Y undo/redo · Ctrl-D quits"

  /// Rows above the field: the header and a blank line.
  static let fieldTop = 2

  /// The screen for `view` at `columns` cells wide, and where the cursor goes (row, column).
  static func render(_ view: FieldView, columns: Int) -> (canvas: Canvas, cursor: (Int, Int)) {
    let fieldRows = max(view.height, view.fieldFrame.y + 1)
    let suggestionRows = view.suggestions.isEmpty ? 0 : 1
    var canvas = Canvas(width: columns, height: fieldTop + fieldRows + suggestionRows + 2)
    drawClipped(header, into: &canvas, x: 0, y: 0, width: columns, style: .dim)
    for (index, frame) in view.chipFrames.enumerated() where index < view.tags.count {
      let selected = index == view.selection
      canvas.draw(
        chip(frame.label ?? view.tags[index], selected: selected),
        x: frame.x,
        y: fieldTop + frame.y,
        maxWidth: frame.width,
        style: selected ? .reverse : .plain
      )
    }
    let field = view.fieldFrame
    let row = fieldTop + field.y
    var cursorColumn = field.x
    if view.draft.isEmpty {
      drawClipped(view.prompt, into: &canvas, x: field.x, y: row, width: field.width, style: .dim)
    } else {
      let visible = tail(of: view.draft, cells: max(0, field.width - 1))
      cursorColumn = canvas.draw(visible, x: field.x, y: row, maxWidth: field.width)
    }
    if !view.suggestions.isEmpty {
      drawSuggestions(view, into: &canvas, row: fieldTop + fieldRows, columns: columns)
    }
    let statusRow = fieldTop + fieldRows + suggestionRows + 1
    drawClipped(view.status, into: &canvas, x: 0, y: statusRow, width: columns, style: .plain)
    return (canvas, (row, min(cursorColumn, max(0, columns - 1))))
  }

  /// The suggestion row: `↓ New York · <Newark> · …`, the picked one in angle brackets, matched
  /// characters in reverse video (plain text shows only the names).
  private static func drawSuggestions(
    _ view: FieldView,
    into canvas: inout Canvas,
    row: Int,
    columns: Int
  ) {
    var x = canvas.draw("↓ ", x: 0, y: row, maxWidth: columns, style: .dim)
    for (number, suggestion) in view.suggestions.enumerated() {
      if number > 0 { x = canvas.draw(" · ", x: x, y: row, maxWidth: columns - x, style: .dim) }
      let picked = number == view.highlighted
      if picked { x = canvas.draw("<", x: x, y: row, maxWidth: columns - x) }
      for (offset, character) in suggestion.text.enumerated() {
        let matched = suggestion.matches.contains { $0.contains(offset) }
        x = canvas.draw(
          String(character),
          x: x,
          y: row,
          maxWidth: columns - x,
          style: matched ? .reverse : .plain
        )
      }
      if picked { x = canvas.draw(">", x: x, y: row, maxWidth: columns - x) }
      if x >= columns { break }
    }
  }

  /// The decorations tagd puts around each chip's text in the labels it sends (`[tag ×]`).
  static let chipLeft = "["
  /// See ``chipLeft``.
  static let chipRight = " ×]"

  /// tagd's label for a chip, its brackets turned to `<` `>` when it is selected.
  static func chip(_ label: String, selected: Bool) -> String {
    guard selected, label.hasPrefix(chipLeft), label.hasSuffix("]") else { return label }
    return "<" + label.dropFirst(chipLeft.count).dropLast() + ">"
  }

  /// Draws `text`, ending it with `…` when it does not fit in `width` cells.
  private static func drawClipped(
    _ text: String,
    into canvas: inout Canvas,
    x: Int,
    y: Int,
    width: Int,
    style: Canvas.Style
  ) {
    let shown = DisplayWidth.truncated(text, toCells: width)
    canvas.draw(shown, x: x, y: y, maxWidth: width, style: style)
  }

  /// The longest suffix of `text` that fits in `cells`: the end of a long draft, by the cursor.
  private static func tail(of text: String, cells: Int) -> String {
    var used = 0
    var result: [Character] = []
    for character in text.reversed() {
      used += DisplayWidth.cells(of: character)
      if used > cells { break }
      result.append(character)
    }
    return String(result.reversed())
  }
}
