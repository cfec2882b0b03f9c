import TagCore
import Testing

/// The buffer mirror of Protocol/sync.md, step by step.
@Suite struct EditorBufferTests {
  func insert(_ text: String, at character: Int, line: Int = 0) -> TextEdit {
    let p = TextPosition(line: line, character: character)
    return TextEdit(range: TextRange(start: p, end: p), newText: text)
  }

  func delete(_ from: Int, _ to: Int) -> TextEdit {
    TextEdit(
      range: TextRange(
        start: TextPosition(line: 0, character: from),
        end: TextPosition(line: 0, character: to)
      ),
      newText: ""
    )
  }

  /// The mirror's cells are Unicode scalars, not characters: an edit that takes a combining
  /// mark away from its letter, in the middle or at the end, or puts one back, changes exactly
  /// that scalar (the cells are a `String`, whose own edits work on characters).
  @Test func editsInsideACharacterChangeOnlyTheirScalars() throws {
    var field = TagField()
    var buffer = EditorBuffer(text: "", version: 0)
    func expectText(_ bytes: String) {
      #expect(Array(buffer.text.utf8) == Array(bytes.utf8))
      #expect(Array(buffer.draft.utf8) == Array(bytes.utf8))
      #expect(Array(field.draft.utf8) == Array(bytes.utf8))
    }
    // c a f e ◌́ s: the combining acute accent is UTF-16 position 4.
    let steps: [(TextEdit, String)] = [
      (insert("cafe\u{301}s", at: 0), "cafe\u{301}s"),
      (delete(4, 5), "cafes"),
      (insert("\u{301}", at: 4), "cafe\u{301}s"),
      (delete(5, 6), "cafe\u{301}"),
      (delete(4, 5), "cafe"),
      (insert("\u{301}", at: 4), "cafe\u{301}"),
    ]
    for (version, (edit, text)) in steps.enumerated() {
      _ = try buffer.clientChanged(
        version: version + 1,
        edits: [edit],
        encoding: .utf16,
        field: &field
      )
      expectText(text)
    }
  }

  /// An edit across consumed and typed text takes the cells it covers and keeps what is left
  /// of each: the consumed text before it still to delete, the typed text after it still the
  /// draft's.
  @Test func anEditAcrossConsumedAndTypedTextKeepsWhatIsLeftOfEach() throws {
    var field = TagField()
    var buffer = EditorBuffer(text: "", version: 0)
    _ = try buffer.clientChanged(
      version: 1,
      edits: [insert("red,gr", at: 0)],
      encoding: .utf16,
      field: &field
    )
    #expect(field.tags == ["red"])
    #expect(buffer.pendingEdits(encoding: .utf16) == [delete(0, 4)])
    // "re" [d, g] "r": the last two consumed cells and the first typed one become "X".
    let replacing = TextEdit(
      range: TextRange(
        start: TextPosition(line: 0, character: 2),
        end: TextPosition(line: 0, character: 5)
      ),
      newText: "X"
    )
    _ = try buffer.clientChanged(version: 2, edits: [replacing], encoding: .utf16, field: &field)
    #expect(buffer.text == "reXr")
    #expect(field.draft == "Xr")
    #expect(buffer.draft == "Xr")
    #expect(buffer.pendingEdits(encoding: .utf16) == [delete(0, 2)])
  }

  /// A whole-text change is compared with the mirror: typing after committed text the client
  /// has not deleted yet is typing, not the committed text typed again.
  @Test func wholeTextChangesAreFoundAgainstTheMirror() throws {
    var field = TagField()
    var buffer = EditorBuffer(text: "", version: 0)
    _ = try buffer.clientChanged(
      version: 1,
      edits: [TextEdit(range: nil, newText: "red,g")],
      encoding: .utf16,
      field: &field
    )
    let typed = try buffer.clientChanged(
      version: 2,
      edits: [TextEdit(range: nil, newText: "red,gr")],
      encoding: .utf16,
      field: &field
    )
    #expect(typed.isEmpty, "no duplicate red: \(typed)")
    #expect(field.tags == ["red"])
    #expect(field.draft == "gr")
    #expect(buffer.pendingEdits(encoding: .utf16) == [delete(0, 4)])
  }

  /// The one tie-break: inside a run of equal characters, the edit is the last place.
  ///
  /// Unless the caret says where. Here that decides whether a deleted comma is the Backspace at the end
  /// (which removes the last tag, the draft being empty) or a tidying of committed text.
  @Test(arguments: [(nil, [String]()), (1, ["x"]), (2, [])] as [(Int?, [String])])
  func theCaretPlacesAnEditInARun(caret: Int?, tags: [String]) throws {
    var field = TagField()
    var buffer = EditorBuffer(text: "", version: 0)
    _ = try buffer.clientChanged(
      version: 1,
      edits: [TextEdit(range: nil, newText: "x,,")],
      encoding: .utf16,
      field: &field
    )
    #expect(field.tags == ["x"])
    _ = try buffer.clientChanged(
      version: 2,
      edits: [
        TextEdit(
          range: nil,
          newText: "x,",
          caret: caret.map { TextPosition(line: 0, character: $0) }
        )
      ],
      encoding: .utf16,
      field: &field
    )
    #expect(field.tags == tags)
    #expect(buffer.text == "x,")
  }

  @Test func committedTextIsConsumedUntilTheClientDeletesIt() throws {
    var field = TagField()
    var buffer = EditorBuffer(text: "", version: 0)
    let outcome = try buffer.clientChanged(
      version: 1,
      edits: [insert("red, g", at: 0)],
      encoding: .utf16,
      field: &field
    )
    #expect(outcome.added == ["red"])
    #expect(field.draft == "g")
    #expect(buffer.text == "red, g")
    #expect(buffer.draft == "g")
    #expect(buffer.pendingEdits(encoding: .utf16) == [delete(0, 5)])
    // The client applies the edit and reports it.
    let applied = try buffer.clientChanged(
      version: 2,
      edits: [delete(0, 5)],
      encoding: .utf16,
      applied: true,
      field: &field
    )
    #expect(applied.isEmpty)
    #expect(field.tags == ["red"])
    #expect(buffer.text == "g")
    #expect(!buffer.hasConsumedText)
  }

  @Test func typingAfterConsumedTextGoesToTheDraft() throws {
    var field = TagField()
    var buffer = EditorBuffer(text: "", version: 0)
    _ = try buffer.clientChanged(
      version: 1,
      edits: [insert("a,", at: 0)],
      encoding: .utf16,
      field: &field
    )
    _ = try buffer.clientChanged(
      version: 2,
      edits: [insert("b", at: 2)],
      encoding: .utf16,
      field: &field
    )
    _ = try buffer.clientChanged(
      version: 3,
      edits: [insert(",", at: 3)],
      encoding: .utf16,
      field: &field
    )
    #expect(field.tags == ["a", "b"])
    #expect(buffer.text == "a,b,")
    #expect(buffer.pendingEdits(encoding: .utf16) == [delete(0, 4)])
  }

  @Test func backspaceOverConsumedTextWithAnEmptyDraftRemovesTheLastTag() throws {
    var field = TagField()
    var buffer = EditorBuffer(text: "", version: 0)
    _ = try buffer.clientChanged(
      version: 1,
      edits: [insert("x,y,", at: 0)],
      encoding: .utf16,
      field: &field
    )
    let outcome = try buffer.clientChanged(
      version: 2,
      edits: [delete(3, 4)],
      encoding: .utf16,
      field: &field
    )
    #expect(outcome.removed == [RemovedTag(index: 1, tag: "y")])
    #expect(field.tags == ["x"])
    #expect(buffer.pendingEdits(encoding: .utf16) == [delete(0, 3)])
  }

  @Test func appliedDeletionsNeverRemoveTags() throws {
    var field = TagField()
    var buffer = EditorBuffer(text: "", version: 0)
    _ = try buffer.clientChanged(
      version: 1,
      edits: [insert("x,", at: 0)],
      encoding: .utf16,
      field: &field
    )
    _ = try buffer.clientChanged(
      version: 2,
      edits: [delete(0, 2)],
      encoding: .utf16,
      applied: true,
      field: &field
    )
    #expect(field.tags == ["x"])
  }

  @Test func nothingIsCommittedWhileComposing() throws {
    var field = TagField()
    var buffer = EditorBuffer(text: "", version: 0)
    let during = try buffer.clientChanged(
      version: 1,
      edits: [insert("a,か", at: 0)],
      encoding: .utf16,
      composing: true,
      field: &field
    )
    #expect(during.isEmpty)
    #expect(field.tags.isEmpty)
    #expect(buffer.composing)
    let after = try buffer.clientChanged(version: 2, edits: [], encoding: .utf16, field: &field)
    #expect(after.added == ["a"])
    #expect(field.draft == "か")
  }

  @Test func staleVersionsAndMisfitEditsChangeNothing() throws {
    var field = TagField()
    var buffer = EditorBuffer(text: "ab", version: 5)
    #expect(throws: EditorBufferError.staleVersion(current: 5, given: 5)) {
      try buffer.clientChanged(
        version: 5,
        edits: [insert("x", at: 0)],
        encoding: .utf16,
        field: &field
      )
    }
    #expect(throws: EditorBufferError.invalidEdit(.outOfRange(TextPosition(line: 0, character: 9))))
    {
      try buffer.clientChanged(
        version: 6,
        edits: [insert(",", at: 0), insert("x", at: 9)],
        encoding: .utf16,
        field: &field
      )
    }
    #expect(buffer.text == "ab")
    #expect(buffer.version == 5)
    #expect(field.tags.isEmpty)
  }

  @Test func positionsCountInTheNegotiatedEncoding() throws {
    var field = TagField()
    var buffer = EditorBuffer(text: "😀", version: 0)
    _ = try buffer.clientChanged(
      version: 1,
      edits: [insert(",é", at: 4)],
      encoding: .utf8,
      field: &field
    )
    #expect(field.tags == ["😀"])
    #expect(buffer.pendingEdits(encoding: .utf8) == [delete(0, 5)])
    #expect(buffer.pendingEdits(encoding: .utf16) == [delete(0, 3)])
    #expect(buffer.pendingEdits(encoding: .utf32) == [delete(0, 2)])
  }

  /// Finding (a): while composing, the draft is what the buffer holds, composition included.
  @Test func composedTextIsInTheDraft() throws {
    var field = TagField()
    var buffer = EditorBuffer(text: "", version: 0)
    _ = try buffer.clientChanged(
      version: 1,
      edits: [insert("x,", at: 0)],
      encoding: .utf16,
      field: &field
    )
    #expect(field.tags == ["x"] && field.draft == "")
    _ = try buffer.clientChanged(
      version: 2,
      edits: [insert("n", at: 2)],
      encoding: .utf16,
      composing: true,
      field: &field
    )
    #expect(field.draft == "n")
    #expect(buffer.draft == "n")
    #expect(buffer.pendingEdits(encoding: .utf16) == [delete(0, 2)])
  }

  /// Finding (b): a batched didChange runs the rule after each content change, as slow typing.
  @Test func batchedChangesRunTheRuleAfterEach() throws {
    var field = TagField()
    _ = field.apply(.tagsAdded(["keep"]))
    var buffer = EditorBuffer(text: "", version: 0)
    _ = try buffer.clientChanged(
      version: 1,
      edits: [insert("x", at: 0), insert(",", at: 1), delete(1, 2)],
      encoding: .utf16,
      field: &field
    )
    #expect(field.tags == ["keep"])
    #expect(field.draft == "")
    #expect(buffer.text == "x")
    #expect(buffer.pendingEdits(encoding: .utf16) == [delete(0, 1)])
  }

  /// Editing a tag puts its text into the draft: the update asks the client to insert it.
  @Test func editingATagInsertsItsText() throws {
    var field = TagField()
    var buffer = EditorBuffer(text: "", version: 0)
    _ = try buffer.clientChanged(
      version: 1,
      edits: [insert("red,", at: 0)],
      encoding: .utf16,
      field: &field
    )
    let outcome = buffer.apply(.tagEdited(at: 0), to: &field)
    #expect(outcome.edited == RemovedTag(index: 0, tag: "red"))
    #expect(field.draft == "red" && buffer.draft == "red" && buffer.text == "red,")
    let edits = buffer.pendingEdits(encoding: .utf16)
    #expect(edits == [TextEdit(range: delete(0, 4).range, newText: "red")])
    // The client applies it and reports it: the mirror now holds the draft as plain text.
    _ = try buffer.clientChanged(
      version: 2,
      edits: TextEdits(edits),
      encoding: .utf16,
      applied: true,
      field: &field
    )
    #expect(buffer.text == "red" && !buffer.hasPendingEdits && field.draft == "red")
  }

  /// Text typed before the client applies an insertion goes after the inserted text, and a
  /// Backspace on the stale buffer deletes the last character of what a slow typist saw.
  @Test func typingBeforeAnInsertionArrives() throws {
    var field = TagField()
    var buffer = EditorBuffer(text: "", version: 0)
    _ = try buffer.clientChanged(
      version: 1,
      edits: [insert("ab", at: 0)],
      encoding: .utf16,
      field: &field
    )
    _ = try buffer.clientChanged(
      version: 2,
      edits: [insert(",", at: 2)],
      encoding: .utf16,
      field: &field
    )
    _ = buffer.apply(.undo, to: &field)
    #expect(field.tags.isEmpty && field.draft == "ab")
    // The client, still at version 2, deletes the "," it sees: the slow typist deletes "b".
    _ = try buffer.clientChanged(version: 3, edits: [delete(2, 3)], encoding: .utf16, field: &field)
    #expect(field.draft == "a")
    _ = try buffer.clientChanged(
      version: 4,
      edits: [insert("c", at: 2)],
      encoding: .utf16,
      field: &field
    )
    #expect(field.draft == "ac" && buffer.text == "abc")
    let edits = buffer.pendingEdits(encoding: .utf16)
    #expect(try TextOffsets.apply(edits, to: buffer.text, encoding: .utf16) == "ac")
  }

  /// An applied insertion the server no longer wants lands consumed and is deleted next.
  @Test func staleInsertionIsDeletedAgain() throws {
    var field = TagField()
    var buffer = EditorBuffer(text: "", version: 0)
    _ = try buffer.clientChanged(
      version: 1,
      edits: [insert("red,", at: 0)],
      encoding: .utf16,
      field: &field
    )
    _ = buffer.apply(.tagEdited(at: 0), to: &field)
    let edits = buffer.pendingEdits(encoding: .utf16)
    _ = buffer.apply(.submitted, to: &field)  // Return before the client applied the edit
    #expect(field.tags == ["red"] && field.draft == "")
    _ = try buffer.clientChanged(
      version: 2,
      edits: TextEdits(edits),
      encoding: .utf16,
      applied: true,
      field: &field
    )
    #expect(buffer.text == "red" && buffer.draft == "")
    #expect(buffer.pendingEdits(encoding: .utf16) == [delete(0, 3)])
  }

  /// A Backspace that lands on stale consumed text while composing shortens the draft the slow
  /// typist saw, and commits nothing (here the draft holds a separator: a tag "a,b" edited back).
  @Test func backspaceWhileComposingCommitsNothing() throws {
    var field = TagField()
    var buffer = EditorBuffer(text: "", version: 0)
    _ = try buffer.clientChanged(
      version: 1,
      edits: [insert("x,", at: 0)],
      encoding: .utf16,
      field: &field
    )
    _ = buffer.apply(.tagReplaced(at: 0, with: "a,b"), to: &field)
    _ = buffer.apply(.tagEdited(at: 0), to: &field)
    #expect(field.tags.isEmpty && field.draft == "a,b")
    _ = try buffer.clientChanged(
      version: 2,
      edits: [delete(1, 2)],
      encoding: .utf16,
      composing: true,
      field: &field
    )
    #expect(field.tags.isEmpty)
    #expect(field.draft == "a,")
  }
}
