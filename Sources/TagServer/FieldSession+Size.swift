import TagCore

extension FieldSession {
  /// The UTF-8 bytes held by the field's tags and draft: what `--max-field-bytes` bounds.
  var byteCount: Int {
    field.tagBytes + field.draft.utf8.count
  }

  /// An upper bound on the bytes `event` can add to the field.
  ///
  /// A candidate's transform can lengthen it (`ΐ` uppercases to three scalars), but never by more
  /// than 6 bytes per input byte; a removal or Backspace adds nothing.
  func maxGrowth(of event: FieldEvent) -> Int {
    switch event {
    case .draftChanged(let text): 6 * text.utf8.count
    case .tagsAdded(let tags): tags.reduce(0) { $0 + 6 * $1.utf8.count }
    case .tagReplaced(_, let text): 6 * text.utf8.count
    case .draftComposing(let text): text.utf8.count
    // These may commit the draft (edit commits a non-empty draft first, blur may commit it).
    case .submitted, .deletedBackward, .tagEdited, .blurred: 6 * field.draft.utf8.count
    // Undo and redo only return to states that were within the limit when they were made.
    case .tagRemoved, .tagRemovedMatching, .selected, .tagMoved, .undo, .redo: 0
    }
  }
}
