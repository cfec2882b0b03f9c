/// The state of one tag input field — its tags and its draft — and the rules that change it.
///
/// A pure value: `apply(_:)` takes an event and returns what happened. The draft never holds a
/// separator after an event has been applied.
///
/// ```swift
/// var field = TagField()
/// let outcome = field.apply(.draftChanged("red, green,blue"))
/// // field.tags == ["red", "green"], field.draft == "blue", outcome.added == ["red", "green"]
/// ```
public struct TagField: Hashable, Sendable {
  /// The committed tags, in order, spelled as first typed.
  public private(set) var tags: [String]
  /// The text still in the box: never contains a separator.
  public private(set) var draft: String
  /// The rules this field follows.
  public let rules: FieldRules

  /// Creates an empty field.
  public init(rules: FieldRules = FieldRules()) {
    fatalError("unimplemented")
  }

  /// Applies one event and reports what it did.
  public mutating func apply(_ event: FieldEvent) -> FieldOutcome {
    fatalError("unimplemented")
  }

  /// The index of the tag equal (under this field's rules) to `text`, if any.
  public func index(of text: String) -> Int? {
    fatalError("unimplemented")
  }
}

/// Something that happened to a tag field, named for what the user did.
public enum FieldEvent: Hashable, Sendable {
  /// The box now holds this whole text (typing, paste, any edit).
  case draftChanged(String)
  /// Return: the draft is committed as if a separator were typed after it.
  case submitted
  /// Backspace at the start of the box: with an empty draft, removes the last tag.
  case deletedBackward
  /// Tags offered from outside the box (a clicked suggestion), with the typed-tag rules.
  case tagsAdded([String])
  /// The chip at this index was removed (its cross button); out of range removes nothing.
  case tagRemoved(at: Int)
  /// The tag equal to this text was removed; no match removes nothing.
  case tagRemovedMatching(String)
}
