/// One change to a field's tag list, as recorded for undo: enough to apply it again or invert it.
struct TagChange: Hashable, Sendable {
  enum Kind: Hashable, Sendable {
    /// `tags` were inserted starting at `index`.
    case insert
    /// `tags` were removed starting at `index`.
    case remove
    /// The tag at `index` changed from `tags[0]` to `tags[1]`.
    case replace
    /// The tag `tags[0]` moved from `index` to `target`.
    case move
  }

  var kind: Kind
  var index: Int
  var tags: [String]
  var target = 0

  /// The change that undoes this one.
  var inverse: TagChange {
    switch kind {
    case .insert: TagChange(kind: .remove, index: index, tags: tags)
    case .remove: TagChange(kind: .insert, index: index, tags: tags)
    case .replace: TagChange(kind: .replace, index: index, tags: [tags[1], tags[0]])
    case .move: TagChange(kind: .move, index: target, tags: tags, target: index)
    }
  }
}

/// One undo step: the tag-list changes of one user action, in order, and the draft and
/// selection on either side of it.
@usableFromInline struct HistoryStep: Hashable, Sendable {
  var action: FieldAction
  var changes: [TagChange]
  var draftBefore: String
  var draftAfter: String
  var selectedBefore: Int?
  var selectedAfter: Int?

  /// Moves the end of this (typing) step to `draft` and `selected`.
  mutating func end(draft: String, selected: Int?) {
    draftAfter = draft
    selectedAfter = selected
  }
}

/// A field's undo and redo stacks, bounded to `limit` undo steps.
@usableFromInline struct FieldHistory: Hashable, Sendable {
  private(set) var limit: Int
  @usableFromInline private(set) var undo: [HistoryStep] = []
  @usableFromInline private(set) var redo: [HistoryStep] = []
  /// Whether the top undo step may still absorb typing.
  private var typingOpen = false

  init(limit: Int) {
    self.limit = max(limit, 0)
  }

  /// Records a new user action: discards the redo steps, and merges typing into a typing step
  /// that is still open.
  mutating func push(_ step: HistoryStep) {
    redo.removeAll()
    if step.action == .typing, typingOpen, let last = undo.indices.last {
      undo[last].end(draft: step.draftAfter, selected: step.selectedAfter)
      return
    }
    pushUndo(step)
    typingOpen = step.action == .typing
  }

  /// Merges typing into the open typing step, if there is one (the common keystroke, with no
  /// step to build); false when a new step is needed.
  ///
  /// Typing that ends where its step began (`l`, then Backspace) leaves no step: undoing it
  /// would change nothing.
  mutating func extendTyping(draft: String, selected: Int?) -> Bool {
    guard typingOpen, let last = undo.indices.last else { return false }
    if !redo.isEmpty { redo.removeAll() }
    undo[last].end(draft: draft, selected: selected)
    if undo[last].selectedBefore == selected, undo[last].draftBefore.hasSameUTF8(as: draft) {
      undo.removeLast()
      typingOpen = false
    }
    return true
  }

  /// Keeps at most `newLimit` undo steps from now on, the newest.
  mutating func limit(to newLimit: Int) {
    limit = max(newLimit, 0)
    if undo.count > limit { undo.removeFirst(undo.count - limit) }
  }

  /// Ends a run of typing: the next typing starts a new step.
  mutating func seal() { typingOpen = false }

  mutating func pushUndo(_ step: HistoryStep) {
    typingOpen = false
    guard limit > 0 else { return }
    if undo.count == limit { undo.removeFirst() }
    undo.append(step)
  }

  mutating func pushRedo(_ step: HistoryStep) {
    typingOpen = false
    redo.append(step)
  }

  mutating func popUndo() -> HistoryStep? {
    typingOpen = false
    return undo.popLast()
  }

  mutating func popRedo() -> HistoryStep? {
    typingOpen = false
    return redo.popLast()
  }
}
