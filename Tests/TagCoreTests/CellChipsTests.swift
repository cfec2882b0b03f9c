import TagCore
import Testing

/// Cell labels: the decorations around the tag, the tag cut with `…` by display width when its
/// frame was narrowed, so no terminal front end measures or truncates text itself.
@Suite struct CellChipsTests {
  let chips = CellChips(left: "[", right: " ×]")

  @Test func widthCountsDecorationsAndDisplayWidth() {
    #expect(chips.width(of: "red") == 7)
    #expect(chips.width(of: "日本") == 8)  // wide: 2 cells each
    #expect(chips.width(of: "e\u{301}te\u{301}") == 7)  // combining marks take none
    #expect(chips.width(of: "👩‍💻") == 6)  // one emoji cluster: 2
    #expect(CellChips().width(of: "red") == 5)  // 1.1's measure: text + 2
    #expect(CellChips(padding: 4).width(of: "red") == 7)
    #expect(CellChips(left: "<", right: ">", padding: 2).width(of: "ab") == 6)
  }

  @Test(arguments: [
    ("red", 7, "[red ×]"),
    ("a very long tag", 12, "[a very… ×]"),
    ("日本料理のレシピ", 12, "[日本料… ×]"),
    // The wide character that would straddle the edge goes too: 5 cells of room, 4 used + "…".
    ("日本料理", 9, "[日本… ×]"),
    (
      "e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}", 9, "[e\u{301}e\u{301}e\u{301}e\u{301}… ×]"
    ),
    ("😀😀😀😀", 9, "[😀😀… ×]"),
    ("abc", 4, "[ ×]"),
    ("abc", 5, "[… ×]"),
  ])
  func labelsFitTheirFrames(tag: String, width: Int, label: String) {
    let made = chips.label(for: tag, width: width)
    #expect(made == label)
    // The layout's path, which measures each tag once, gives the same label.
    let frame = Frame(x: 0, y: 0, width: Double(width), height: 1)
    #expect(chips.labels(for: [tag], widths: [chips.width(of: tag)], frames: [frame]) == [label])
    if chips.width(of: tag) > width, width >= 4 {
      #expect(DisplayWidth.cells(made) <= width)
    }
  }

  @Test func paddingIsLeftOutOfTheLabel() {
    let padded = CellChips(padding: 2)
    #expect(padded.label(for: "alpha", width: 7) == "alpha")
    #expect(padded.label(for: "alphabet", width: 7) == "alph…")
  }
}
