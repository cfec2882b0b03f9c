/// Terminal display width of text in character cells, for front ends that lay out in cells.
///
/// Wide and fullwidth East Asian characters and emoji take 2 cells, combining marks and other
/// zero-width characters 0, everything else 1. Counted per grapheme cluster.
public enum DisplayWidth {
  /// The number of terminal cells `text` occupies.
  public static func cells(_ text: String) -> Int {
    fatalError("unimplemented")
  }
}
