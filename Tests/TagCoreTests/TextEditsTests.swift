import TagCore
import Testing

/// ``TextEdits``: the first change inline, the others in an array, read as one list.
struct TextEditsTests {
  private func typed(_ text: String, at character: Int) -> TextEdit {
    let at = TextPosition(line: 0, character: character)
    return TextEdit(range: TextRange(start: at, end: at), newText: text)
  }

  @Test func noChangesAreEmpty() {
    let edits = TextEdits()
    #expect(edits.isEmpty && edits.count == 0 && edits.textBytes == 0)
    #expect(Array(edits) == [])
  }

  @Test func changesKeepTheirOrder() {
    let changes = [typed("a", at: 0), typed("bc", at: 1), typed("déf", at: 3)]
    var edits = TextEdits()
    for change in changes { edits.append(change) }
    #expect(Array(edits) == changes)
    #expect(edits.count == 3 && edits[0] == changes[0] && edits[2] == changes[2])
    #expect(edits.textBytes == 1 + 2 + 4)
    #expect(edits == TextEdits(changes))
    #expect(edits != TextEdits(changes.reversed()))
  }

  @Test func oneChangeIsTheFirst() {
    let edits: TextEdits = [typed("x", at: 0)]
    #expect(edits.count == 1 && edits.first == typed("x", at: 0) && edits.textBytes == 1)
  }
}
