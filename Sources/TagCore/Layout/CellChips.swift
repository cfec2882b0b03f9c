/// How a terminal front end draws chips in cells: the decorations around a tag's text
/// (`[` and ` ×]`, say) and any padding, so that tagd measures each chip and gives back the
/// exact label to draw (Protocol/README.md, "Cell layouts").
public struct CellChips: Hashable, Sendable {
  /// Drawn before the tag's text.
  public let left: String
  /// Drawn after the tag's text.
  public let right: String
  /// Cells added to each chip beyond its label (for the front end's own spacing).
  public let padding: Int
  /// The cells of `left`, `right` and `padding` together: measured once, not per chip.
  private let extra: Int

  /// Decorations and padding; `padding` defaults to 2 without decorations (tagd 1.1's cell
  /// measure: text plus two cells) and to 0 with them.
  public init(left: String = "", right: String = "", padding: Int? = nil) {
    self.left = left
    self.right = right
    self.padding = padding ?? (left.isEmpty && right.isEmpty ? 2 : 0)
    self.extra = DisplayWidth.cells(left) + DisplayWidth.cells(right) + self.padding
  }

  /// The chip's width in cells: its decorated text plus the padding.
  public func width(of tag: String) -> Int {
    DisplayWidth.cells(tag) + extra
  }

  /// What to draw in a chip frame `width` cells wide: the decorations around the tag, the tag
  /// cut with `…` when the frame was narrowed below the chip's width.
  public func label(for tag: String, width: Int) -> String {
    left + DisplayWidth.truncated(tag, toCells: max(0, width - extra)) + right
  }

  /// The label of every chip of a field layout.
  ///
  /// `widths` are the chips' measured widths (``width(of:)``) and `frames` their frames (the
  /// text field's, if present after them, is ignored). Only a chip narrowed below its width is
  /// measured again, to be cut.
  public func labels(for tags: [String], widths: [Int], frames: [Frame]) -> [String] {
    zip(zip(tags, widths), frames).map { chip, frame in
      let (tag, width) = chip
      return Int(frame.width) >= width
        ? left + tag + right : label(for: tag, width: Int(frame.width))
    }
  }
}
