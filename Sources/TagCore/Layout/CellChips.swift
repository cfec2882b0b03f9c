/// How a terminal front end draws chips in cells: the decorations around a tag's text
/// (`[` and ` ×]`, say) and any padding, so that tagd measures each chip and gives back the
/// exact label to draw (Protocol/README.md, "Cell layouts").
public struct CellChips: Hashable, Sendable {
  /// Drawn before the tag's text.
  public var left: String
  /// Drawn after the tag's text.
  public var right: String
  /// Cells added to each chip beyond its label (for the front end's own spacing).
  public var padding: Int

  /// Decorations and padding; `padding` defaults to 2 without decorations (tagd 1.1's cell
  /// measure: text plus two cells) and to 0 with them.
  public init(left: String = "", right: String = "", padding: Int? = nil) {
    self.left = left
    self.right = right
    self.padding = padding ?? (left.isEmpty && right.isEmpty ? 2 : 0)
  }

  /// The chip's width in cells: its decorated text plus the padding.
  public func width(of tag: String) -> Int {
    DisplayWidth.cells(left) + DisplayWidth.cells(tag) + DisplayWidth.cells(right) + padding
  }

  /// What to draw in a chip frame `width` cells wide: the decorations around the tag, the tag
  /// cut with `…` when the frame was narrowed below the chip's width.
  public func label(for tag: String, width: Int) -> String {
    let room = width - padding - DisplayWidth.cells(left) - DisplayWidth.cells(right)
    return left + DisplayWidth.truncated(tag, toCells: max(0, room)) + right
  }

  /// The label of every chip of a field layout: `frames` holds the chips' frames (the text
  /// field's, if present after them, is ignored).
  public func labels(for tags: [String], frames: [Frame]) -> [String] {
    zip(tags, frames).map { tag, frame in label(for: tag, width: Int(frame.width)) }
  }
}
