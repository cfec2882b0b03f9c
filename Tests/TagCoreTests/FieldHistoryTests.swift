import TagCore
import TagTestSupport
import Testing

/// The tags, draft and selection of a field, compared scalar by scalar.
private struct Snapshot: Equatable, CustomStringConvertible {
  var tags: [[Unicode.Scalar]]
  var draft: [Unicode.Scalar]
  var selected: Int?

  init(_ field: TagField) {
    tags = field.tags.map { Array($0.unicodeScalars) }
    draft = Array(field.draft.unicodeScalars)
    selected = field.selected
  }

  var description: String {
    "\(tags.map { String(String.UnicodeScalarView($0)) }) draft \(String(String.UnicodeScalarView(draft))) selected \(selected.map(String.init) ?? "-")"
  }
}

@Suite struct FieldHistoryTests {
  @Test func pasteIsOneStep() {
    var field = TagField()
    _ = field.apply(.draftChanged("a"))
    _ = field.apply(.draftChanged("a,b,c,d"))
    #expect(field.tags == ["a", "b", "c"])
    let undo = field.apply(.undo)
    #expect(field.tags.isEmpty)
    #expect(field.draft == "a")
    #expect(undo.history == HistoryChange(direction: .undo, action: .add))
    #expect(
      undo.removed == [
        RemovedTag(index: 2, tag: "c"), RemovedTag(index: 1, tag: "b"),
        RemovedTag(index: 0, tag: "a"),
      ]
    )
    #expect(Announcement.text(for: undo, tags: field.tags) == "Undid adding a, b and c.")
    let redo = field.apply(.redo)
    #expect(field.tags == ["a", "b", "c"])
    #expect(field.draft == "d")
    #expect(redo.inserted.map(\.index) == [0, 1, 2])
    #expect(Announcement.text(for: redo, tags: field.tags) == "Redid adding a, b and c.")
  }

  @Test func typingRunIsOneStep() {
    var field = TagField()
    for text in ["r", "re", "red", "red,", "g", "gr"] {
      _ = field.apply(.draftChanged(text))
    }
    #expect(field.tags == ["red"])
    _ = field.apply(.undo)  // the typing "gr"
    #expect(field.tags == ["red"] && field.draft == "")
    _ = field.apply(.undo)  // the comma
    #expect(field.tags == [] && field.draft == "red")
    let typing = field.apply(.undo)  // the typing "red"
    #expect(field.tags == [] && field.draft == "")
    #expect(Announcement.text(for: typing, tags: field.tags) == "Undid typing.")
    let nothing = field.apply(.undo)
    #expect(nothing.history == HistoryChange(direction: .undo, action: nil))
    #expect(Announcement.text(for: nothing, tags: field.tags) == "Nothing to undo.")
  }

  @Test func undoRestoresARemovedTagAtItsIndexAndSelection() {
    var field = TagField(rules: FieldRules(backspace: .select))
    _ = field.apply(.tagsAdded(["a", "b", "c"]))
    _ = field.apply(.selected(1))
    _ = field.apply(.deletedBackward)  // removes the selected b
    #expect(field.tags == ["a", "c"] && field.selected == nil)
    let undo = field.apply(.undo)
    #expect(field.tags == ["a", "b", "c"] && field.selected == 1)
    #expect(undo.inserted == [PlacedTag(index: 1, tag: "b")])
    #expect(Announcement.text(for: undo, tags: field.tags) == "Undid removing b.")
  }

  @Test func moveReplaceAndEditAreOneStepEach() {
    var field = TagField()
    _ = field.apply(.tagsAdded(["a", "b", "c"]))
    _ = field.apply(.tagMoved(from: 0, to: 2))
    _ = field.apply(.tagReplaced(at: 0, with: "B"))
    _ = field.apply(.draftChanged("x"))
    _ = field.apply(.tagEdited(at: 1))
    #expect(field.tags == ["B", "a", "x"] && field.draft == "c")
    let edit = field.apply(.undo)
    #expect(field.tags == ["B", "c", "a"] && field.draft == "x")
    #expect(Announcement.text(for: edit, tags: field.tags) == "Undid editing c.")
    _ = field.apply(.undo)  // typing x
    let replace = field.apply(.undo)
    #expect(field.tags == ["b", "c", "a"] && field.draft == "")
    #expect(replace.replaced == [ReplacedTag(index: 0, old: "B", new: "b")])
    #expect(Announcement.text(for: replace, tags: field.tags) == "Undid changing b to B.")
    let move = field.apply(.undo)
    #expect(field.tags == ["a", "b", "c"])
    #expect(move.moved == [MovedTag(from: 2, to: 0, tag: "a")])
    #expect(Announcement.text(for: move, tags: field.tags) == "Undid moving a.")
    _ = field.apply(.undo)
    #expect(field.tags.isEmpty && !field.canUndo)
  }

  @Test func newActionAfterUndoClearsRedo() {
    var field = TagField()
    _ = field.apply(.tagsAdded(["a"]))
    _ = field.apply(.tagsAdded(["b"]))
    _ = field.apply(.undo)
    #expect(field.canRedo)
    _ = field.apply(.tagsAdded(["c"]))
    #expect(!field.canRedo)
    let redo = field.apply(.redo)
    #expect(redo.history == HistoryChange(direction: .redo, action: nil))
    #expect(field.tags == ["a", "c"])
  }

  @Test func selectingIsNotAStepAndNeitherIsANoOp() {
    var field = TagField()
    _ = field.apply(.tagsAdded(["a", "b"]))
    _ = field.apply(.selected(0))
    _ = field.apply(.tagsAdded(["A"]))  // dropped: nothing changes
    _ = field.apply(.tagRemoved(at: 7))
    _ = field.apply(.undo)
    #expect(field.tags.isEmpty && field.selected == nil)
  }

  /// Typing that ends where it began (`l`, then Backspace) leaves no step: an undo that would
  /// change nothing is no undo at all ("Undid typing." for nothing).
  @Test func typingUndoneByHandLeavesNoStep() {
    var field = TagField()
    _ = field.apply(.draftChanged("l"))
    #expect(field.canUndo)
    _ = field.apply(.draftChanged(""))
    #expect(!field.canUndo)
    let undo = field.apply(.undo)
    #expect(undo.history == HistoryChange(direction: .undo, action: nil))
    #expect(Announcement.text(for: undo, tags: field.tags) == "Nothing to undo.")
    // After a real step, the same typing leaves that step on top, unchanged.
    _ = field.apply(.tagsAdded(["a"]))
    _ = field.apply(.draftChanged("xy"))
    _ = field.apply(.draftChanged("x"))
    _ = field.apply(.draftChanged(""))
    let undoAdd = field.apply(.undo)
    #expect(undoAdd.history == HistoryChange(direction: .undo, action: .add))
    #expect(field.tags.isEmpty)
  }

  /// Every change says what it changed, once: the core's outcome is what the server versions
  /// and pushes on.
  @Test func theOutcomeSaysWhatChanged() {
    var field = TagField()
    #expect(field.apply(.draftChanged("a")).changed == [.draft])
    #expect(field.apply(.draftChanged("a")).changed == [])
    #expect(field.apply(.draftChanged("a,")).changed == [.tags, .draft])
    #expect(field.apply(.selected(0)).changed == [.selection])
    #expect(field.apply(.selected(0)).changed == [])
    #expect(field.apply(.draftChanged("b")).changed == [.draft, .selection])
    #expect(field.apply(.undo).changed == [.draft, .selection])
    #expect(field.apply(.undo).changed == [.tags, .draft, .selection])
    #expect(field.apply(.undo).changed == [.draft])
    #expect(field.apply(.undo).changed == [])
    #expect(field.apply(.tagRemoved(at: 5)).changed == [])
  }

  @Test func depthIsBounded() {
    var field = TagField(rules: FieldRules(historyLimit: 2))
    for tag in ["a", "b", "c", "d"] { _ = field.apply(.tagsAdded([tag])) }
    _ = field.apply(.undo)
    _ = field.apply(.undo)
    #expect(field.tags == ["a", "b"] && !field.canUndo)
    var none = TagField(rules: FieldRules(historyLimit: 0))
    _ = none.apply(.tagsAdded(["a"]))
    #expect(!none.canUndo)
    _ = none.apply(.undo)
    #expect(none.tags == ["a"])
  }

  @Test func resetHistoryForgetsTheOpeningTags() {
    var field = TagField()
    _ = field.apply(.tagsAdded(["a"]))
    field.resetHistory()
    #expect(!field.canUndo)
  }

  @Test func keysFollowUndoAndRedo() {
    var field = TagField()
    _ = field.apply(.tagsAdded(["a", "b", "c"]))
    _ = field.apply(.tagRemoved(at: 0))
    _ = field.apply(.undo)
    #expect(field.index(of: "A") == 0 && field.index(of: "c") == 2)
    _ = field.apply(.tagReplaced(at: 1, with: "x"))
    _ = field.apply(.undo)
    #expect(field.index(of: "x") == nil && field.index(of: "b") == 1)
    _ = field.apply(.redo)
    #expect(field.index(of: "x") == 1 && field.index(of: "b") == nil)
    #expect(field.tagBytes == 3)
  }

  /// Undoing a paste of many tags is one step and costs a removal per tag, not a copy per step.
  @Test func largePasteUndoesAndRedoes() {
    var field = TagField()
    let text = (0..<20_000).map { "t\($0)" }.joined(separator: ",") + ","
    _ = field.apply(.draftChanged(text))
    #expect(field.tags.count == 20_000)
    let undo = field.apply(.undo)
    #expect(field.tags.isEmpty && undo.removed.count == 20_000 && field.tagBytes == 0)
    _ = field.apply(.redo)
    #expect(field.tags.count == 20_000 && field.index(of: "T19999") == 19_999)
  }

  /// Random action sequences against a model of the history: every undo restores exactly the
  /// state before the step it undoes, every redo exactly the state after it.
  @Test(arguments: 1...40)
  func undoRestoresExactState(seed: Int) {
    var random = SplitMix64(seed: UInt64(seed) &* 104_729)
    let modes = BackspaceMode.allCases
    let rules = FieldRules(
      maxTags: seed % 3 == 0 ? 5 : nil,
      transform: seed % 5 == 0 ? .lowercase : .none,
      deny: seed % 4 == 0 ? ["b"] : [],
      backspace: modes[seed % modes.count],
      commitOnBlur: seed % 2 == 0,
      historyLimit: seed % 7 == 0 ? 3 : 100
    )
    let alphabet = ["a", "b", "B", "c", "é", "e\u{301}", " ", ",", "\n", "d", "ß"]
    var field = TagField(rules: rules)
    var steps: [(before: Snapshot, after: Snapshot)] = []
    var redo: [(before: Snapshot, after: Snapshot)] = []
    var typingOpen = false
    for number in 0..<300 {
      let count = field.tags.count
      let event: FieldEvent
      switch Int.random(in: 0..<16, using: &random) {
      case 0..<3: event = .draftChanged(field.draft + random.string(from: alphabet, maxLength: 3))
      case 3: event = .draftChanged(random.string(from: alphabet, maxLength: 12))
      case 4: event = .submitted
      case 5: event = .deletedBackward
      case 6: event = .tagsAdded((0..<3).map { _ in random.string(from: alphabet, maxLength: 3) })
      case 7: event = .tagRemoved(at: Int.random(in: 0...count, using: &random))
      case 8:
        event = .selected(
          Bool.random(using: &random) ? nil : Int.random(in: 0...count, using: &random)
        )
      case 9:
        event = .tagMoved(
          from: Int.random(in: 0...count, using: &random),
          to: Int.random(in: 0...count, using: &random)
        )
      case 10:
        event = .tagReplaced(
          at: Int.random(in: 0...count, using: &random),
          with: random.string(from: alphabet, maxLength: 3)
        )
      case 11: event = .tagEdited(at: Int.random(in: 0...count, using: &random))
      case 12: event = .blurred
      case 13, 14: event = .undo
      default: event = .redo
      }
      let before = Snapshot(field)
      let outcome = field.apply(event)
      let after = Snapshot(field)
      let context = "seed \(seed) event \(number) \(event)"
      switch event {
      case .undo:
        typingOpen = false
        if let step = steps.popLast() {
          #expect(after == step.before, "\(context): undo gave \(after), not \(step.before)")
          #expect(outcome.history?.action != nil, "\(context)")
          redo.append(step)
        } else {
          #expect(after == before, "\(context)")
          #expect(outcome.history == HistoryChange(direction: .undo, action: nil), "\(context)")
        }
      case .redo:
        typingOpen = false
        if let step = redo.popLast() {
          #expect(after == step.after, "\(context): redo gave \(after), not \(step.after)")
          steps.append(step)
          if steps.count > rules.historyLimit { steps.removeFirst() }
        } else {
          #expect(after == before, "\(context)")
        }
      default:
        let isTyping: Bool
        if case .draftChanged = event {
          isTyping = after.tags == before.tags
        } else {
          isTyping = false
        }
        if after.tags != before.tags || after.draft != before.draft {
          redo.removeAll()
          if isTyping && typingOpen, !steps.isEmpty {
            steps[steps.count - 1].after = after
            typingOpen = true
            // Typing back to where its step began leaves no step.
            if let last = steps.last, last.after == last.before {
              steps.removeLast()
              typingOpen = false
            }
          } else {
            steps.append((before, after))
            if steps.count > rules.historyLimit { steps.removeFirst() }
            typingOpen = isTyping
          }
        } else {
          if !isTyping { typingOpen = false }
          // A selection change alone: the last step's "after" is still what redo gives.
        }
      }
      #expect(field.canUndo == !steps.isEmpty, "\(context)")
      #expect(field.canRedo == !redo.isEmpty, "\(context)")
      // The key index agrees with the tags after every event.
      for (index, tag) in field.tags.enumerated() {
        #expect(field.index(of: tag) == index, "\(context)")
      }
      #expect(field.tagBytes == field.tags.reduce(0) { $0 + $1.utf8.count }, "\(context)")
      if let selected = field.selected {
        #expect(field.tags.indices.contains(selected), "\(context)")
      }
    }
    // Undo everything back to the oldest kept step, then redo everything.
    while field.canUndo { _ = field.apply(.undo) }
    if let first = steps.first { #expect(Snapshot(field) == first.before, "seed \(seed)") }
    while field.canRedo { _ = field.apply(.redo) }
    if let last = redo.first ?? steps.last {
      #expect(Snapshot(field) == last.after, "seed \(seed)")
    }
  }
}
