/// What one field event did: tags added and removed, and candidates dropped with their reasons.
///
/// Rule rejections are outcomes, not errors: the core never fails.
public struct FieldOutcome: Hashable, Sendable {
  /// Tags appended, in order.
  public var added: [String]
  /// Tags removed, with the index each had just before it was removed.
  public var removed: [RemovedTag]
  /// Candidates that did not become tags.
  public var dropped: [DroppedCandidate]

  /// Creates an outcome; the default is "nothing happened".
  public init(added: [String] = [], removed: [RemovedTag] = [], dropped: [DroppedCandidate] = []) {
    self.added = added
    self.removed = removed
    self.dropped = dropped
  }

  /// True when no tag was added or removed and nothing was dropped.
  public var isEmpty: Bool { added.isEmpty && removed.isEmpty && dropped.isEmpty }
}

/// A tag taken out of the field.
public struct RemovedTag: Hashable, Sendable {
  /// The index the tag had just before its removal.
  public var index: Int
  /// The tag's text.
  public var tag: String

  /// Creates a record of a removal.
  public init(index: Int, tag: String) {
    self.index = index
    self.tag = tag
  }
}

/// A candidate that was not added, and why.
public struct DroppedCandidate: Hashable, Sendable {
  /// The candidate after trimming (and transform); empty for ``DropReason/empty``.
  public var text: String
  /// Why it was dropped.
  public var reason: DropReason

  /// Creates a record of a dropped candidate.
  public init(text: String, reason: DropReason) {
    self.text = text
    self.reason = reason
  }
}

/// Why a candidate did not become a tag.
public enum DropReason: Hashable, Sendable {
  /// Nothing was left after trimming whitespace.
  case empty
  /// Equal (caseless) to the tag at this index of the field's tags after the event; that tag may
  /// be an earlier candidate of the same batch.
  case duplicate(of: Int)
  /// Longer than the field's ``FieldRules/maxTagLength``.
  case tooLong(limit: Int)
  /// The field already holds ``FieldRules/maxTags`` tags.
  case tooMany(limit: Int)
}
