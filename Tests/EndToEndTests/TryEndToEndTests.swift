import TagTestSupport
import Testing

/// `tagd try --script`: keystrokes on stdin, the final screen on stdout, a real tagd child
/// behind it.
@Suite struct TryEndToEndTests {
  static let escape = "\u{1B}"
  static let left = "\u{1B}[D"
  static let delete = "\u{1B}[3~"
  static let backspace = "\u{7F}"

  /// Wraps `text` in bracketed-paste markers, as a terminal sends a paste.
  static func paste(_ text: String) -> String { "\u{1B}[200~" + text + "\u{1B}[201~" }

  static let down = "\u{1B}[B"
  static let up = "\u{1B}[A"
  static let right = "\u{1B}[C"
  static let altLeft = "\u{1B}[1;3D"
  static let altRight = "\u{1B}[1;3C"
  static let undo = "\u{1A}"
  static let redo = "\u{19}"
  static let cities = "--suggestions=New York,Newark,New York City,Café Noir,Kyoto"

  /// Runs `tagd try --script --columns=N` on `keys`; returns the screen's lines below the
  /// header (the field rows, a blank line, the status line) and the exit status.
  func run(
    _ keys: String,
    columns: Int = 60,
    _ extra: [String] = []
  ) throws -> (lines: [String], status: Int32?) {
    let child = try spawnTagd(["try", "--script", "--columns=\(columns)"] + extra)
    child.write(Array(keys.utf8))
    let status = child.finish()
    let screen = String(decoding: child.stdout, as: UTF8.self)
    var lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    #expect(lines.first?.hasPrefix("tagd try") == true, "header missing: \(screen)")
    #expect(String(decoding: child.stderr, as: UTF8.self) == "")
    return (Array(lines.dropFirst(2)), status)
  }

  @Test func typingAndReturnAddTags() throws {
    let (lines, status) = try run("red\rgreen\rblu")
    #expect(status == 0)
    #expect(lines == ["[red ×] [green ×] blu", "", "Added green."])
  }

  @Test func pasteWithSeparatorsIsOneChange() throws {
    let (lines, _) = try run(Self.paste("red, green,blue"))
    // One field/change: both tags are announced together, the rest stays as the draft.
    #expect(lines == ["[red ×] [green ×] blue", "", "Added red and green."])
  }

  @Test func duplicatesAreAnnounced() throws {
    let (lines, _) = try run("red\r" + Self.paste("RED,green,"))
    #expect(
      lines == ["[red ×] [green ×] Add a tag", "", "Added green. RED is already a tag, as red."]
    )
  }

  @Test func backspaceDeletesTheLastGraphemeOfTheDraft() throws {
    let (lines, _) = try run("abe\u{301}" + Self.backspace + "c")
    #expect(lines == ["abc", "", ""])
  }

  @Test func backspaceOnEmptyDraftRemovesTheLastTag() throws {
    let (lines, _) = try run("red,green,x" + Self.backspace + Self.backspace)
    #expect(lines == ["[red ×] Add a tag", "", "Removed green."])
  }

  @Test func arrowsSelectAndXRemovesTheSelectedChip() throws {
    let (lines, _) = try run("red,green,blue," + Self.left + Self.left + "x")
    // After the removal the selection stays on the chip now at that index.
    #expect(lines == ["[red ×] <blue ×> Add a tag", "", "Removed green."])
  }

  @Test func deleteRemovesTheSelectedChip() throws {
    let (lines, _) = try run("red,green,blue," + Self.left + Self.left + Self.left + Self.delete)
    #expect(lines == ["<green ×> [blue ×] Add a tag", "", "Removed red."])
  }

  @Test func narrowWidthWrapsChips() throws {
    let (lines, _) = try run("alpha,beta,gamma,delta,", columns: 20)
    #expect(
      lines == [
        "[alpha ×] [beta ×]",
        "",
        "[gamma ×] [delta ×]",
        "",
        "Add a tag",
        "",
        "Added alpha, beta,…",
      ]
    )
  }

  @Test func tooWideChipIsShortenedAndTheDraftScrolls() throws {
    let (lines, _) = try run("abcdefghijkl,0123456789abcdef", columns: 12)
    #expect(lines == ["[abcdefg… ×]", "", "56789abcdef", "", "Added abcde…"])
  }

  @Test func wideCharactersTakeTwoCells() throws {
    let (lines, _) = try run("東京,ok,", columns: 30)
    #expect(lines == ["[東京 ×] [ok ×] Add a tag", "", "Added 東京 and ok."])
  }

  @Test func escapeTwiceQuitsAndIgnoresTheRest() throws {
    let (lines, status) = try run("red," + Self.escape + Self.escape + "more")
    #expect(status == 0)
    #expect(lines == ["[red ×] Add a tag", "", "Added red."])
  }

  @Test func controlDQuits() throws {
    let (lines, status) = try run("red,\u{4}green,")
    #expect(status == 0)
    #expect(lines == ["[red ×] Add a tag", "", "Added red."])
  }

  @Test func unknownOptionIsAUsageError() throws {
    let child = try spawnTagd(["try", "--bogus"])
    #expect(child.finish() == 2)
    #expect(String(decoding: child.stderr, as: UTF8.self).contains("--bogus"))
  }

  // MARK: SPEC §6 in the terminal

  @Test func suggestionsAreRankedUnderTheField() throws {
    let (lines, _) = try run("ny", [Self.cities])
    // Word-prefix matches (the initials N·Y), best first; Newark does not match.
    #expect(lines == ["ny", "↓ New York · New York City", "", ""])
  }

  @Test func suggestionsAreAccentInsensitiveAndLeaveOutPresentTags() throws {
    let (lines, _) = try run("cafe", [Self.cities])
    #expect(lines == ["cafe", "↓ Café Noir", "", ""])
    let (present, _) = try run("new york\rnew", [Self.cities])
    #expect(present == ["[new york ×] new", "↓ New York City · Newark", "", "Added new york."])
  }

  @Test func tabTakesTheFirstSuggestion() throws {
    let (lines, _) = try run("ny\t", [Self.cities])
    #expect(lines == ["[New York ×] Add a tag", "", "Added New York."])
  }

  @Test func downPicksASuggestionAndReturnOrTabTakesIt() throws {
    let (picked, _) = try run("ny" + Self.down, [Self.cities])
    #expect(picked == ["ny", "↓ <New York> · New York City", "", ""])
    let (taken, _) = try run("ny" + Self.down + Self.down + "\r", [Self.cities])
    #expect(taken == ["[New York City ×] Add a tag", "", "Added New York City."])
    let (tabbed, _) = try run("ny" + Self.down + Self.down + Self.up + "\t", [Self.cities])
    #expect(tabbed == ["[New York ×] Add a tag", "", "Added New York."])
  }

  @Test func undoOfATakenSuggestionBringsTheDraftBack() throws {
    let (lines, _) = try run("ny\t" + Self.undo, [Self.cities])
    #expect(lines == ["ny", "↓ New York · New York City", "", "Undid adding New York."])
  }

  @Test func controlZUndoesAndControlYRedoes() throws {
    let (undone, _) = try run("red\rgreen\r" + Self.undo)
    #expect(undone == ["[red ×] green", "", "Undid adding green."])
    let (twice, _) = try run("red\rgreen\r" + Self.undo + Self.undo)
    #expect(twice == ["[red ×] Add a tag", "", "Undid typing."])
    let (thrice, _) = try run("red\rgreen\r" + Self.undo + Self.undo + Self.undo)
    #expect(thrice == ["red", "", "Undid adding red."])
    let (redone, _) = try run("red\rgreen\r" + Self.undo + Self.redo)
    #expect(redone == ["[red ×] [green ×] Add a tag", "", "Redid adding green."])
  }

  @Test func undoRestoresARemovedChipWhereItWas() throws {
    let (lines, _) = try run("a\rb\rc\r" + Self.left + Self.left + "x" + Self.undo)
    #expect(lines == ["[a ×] [b ×] [c ×] Add a tag", "", "Undid removing b."])
  }

  @Test func altArrowsMoveTheSelectedChip() throws {
    let (right, _) = try run("red,green,blue," + Self.left + Self.left + Self.left + Self.altRight)
    #expect(right == ["[green ×] <red ×> [blue ×] Add a tag", "", "Moved red to position 2 of 3."])
    let (left, _) = try run("red,green,blue," + Self.left + Self.altLeft + Self.altLeft)
    #expect(left == ["<blue ×> [red ×] [green ×] Add a tag", "", "Moved blue to position 1 of 3."])
    // At the edge, and without a selection, nothing moves.
    let (edge, _) = try run("red,green," + Self.left + Self.altRight + Self.right + Self.altLeft)
    #expect(edge == ["[red ×] [green ×] Add a tag", "", "Added red and green."])
  }

  @Test func returnOnASelectedChipEditsIt() throws {
    let (lines, _) = try run("red,green,blue," + Self.left + Self.left + "\r")
    #expect(lines == ["[red ×] [blue ×] green", "", "Editing green."])
    // Typing after it and Return commit the edited text as a tag again.
    let (again, _) = try run("red,green," + Self.left + Self.left + "\r" + "-ish\r")
    #expect(again == ["[green ×] [red-ish ×] Add a tag", "", "Added red-ish."])
  }
}
