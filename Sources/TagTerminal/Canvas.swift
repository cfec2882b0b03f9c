import TagCore

/// A grid of terminal cells that one frame of the screen is drawn into, then written out either
/// as plain text (script mode, tests) or as escape sequences (a real terminal).
struct Canvas {
  /// How a cell is drawn on a real terminal.
  enum Style: Equatable {
    case plain
    case dim
    case reverse
  }

  /// One cell: a grapheme cluster, or "" for the right half of a wide character.
  struct Cell: Equatable {
    var text: String
    var style: Style
  }

  let width: Int
  private(set) var rows: [[Cell]]

  /// Creates a blank canvas `width` cells wide and `height` rows high.
  init(width: Int, height: Int) {
    self.width = max(1, width)
    rows = Array(
      repeating: Array(repeating: Cell(text: " ", style: .plain), count: self.width),
      count: max(0, height)
    )
  }

  /// Draws `text` from column `x` of row `y`, clipped to `maxWidth` cells and the canvas edge.
  ///
  /// Control characters are not drawn; zero-width marks join the cell before them.
  /// - Returns: the column after the last cell drawn.
  @discardableResult
  mutating func draw(_ text: String, x: Int, y: Int, maxWidth: Int, style: Style = .plain) -> Int {
    guard rows.indices.contains(y), x >= 0 else { return x }
    let limit = min(width, x + max(0, maxWidth))
    var column = x
    for character in text {
      let cells = DisplayWidth.cells(of: character)
      if cells == 0 {
        let isControl = character.unicodeScalars.contains {
          $0.properties.generalCategory == .control
        }
        if !isControl, column > x { rows[y][column - 1].text.append(character) }
        continue
      }
      guard column + cells <= limit else { break }
      rows[y][column] = Cell(text: String(character), style: style)
      if cells == 2 { rows[y][column + 1] = Cell(text: "", style: style) }
      column += cells
    }
    return column
  }

  /// The rows as plain text, trailing spaces trimmed, one line each.
  func plainText() -> String {
    rows.map { row in
      var line = row.map(\.text).joined()
      while line.last == " " { line.removeLast() }
      return line
    }.joined(separator: "\n")
  }

  /// Escape sequences that repaint the whole screen from the top-left corner and leave the
  /// cursor at (`cursorRow`, `cursorColumn`), both counted from 0.
  func terminalBytes(cursorRow: Int, cursorColumn: Int) -> [UInt8] {
    var out = "\u{1B}[?25l\u{1B}[H"
    for (index, row) in rows.enumerated() {
      out += "\u{1B}[\(index + 1);1H"
      var style = Style.plain
      for cell in row {
        if cell.style != style {
          out += Canvas.sgr(cell.style)
          style = cell.style
        }
        out += cell.text
      }
      out += "\u{1B}[0m\u{1B}[K"
    }
    out += "\u{1B}[\(rows.count + 1);1H\u{1B}[J"
    out += "\u{1B}[\(cursorRow + 1);\(cursorColumn + 1)H\u{1B}[?25h"
    return Array(out.utf8)
  }

  private static func sgr(_ style: Style) -> String {
    switch style {
    case .plain: "\u{1B}[0m"
    case .dim: "\u{1B}[0;2m"
    case .reverse: "\u{1B}[0;7m"
    }
  }
}
