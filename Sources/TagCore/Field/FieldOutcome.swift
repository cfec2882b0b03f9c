/// What one field event did: tags added, removed, moved, replaced, edited; candidates dropped with
/// their reasons; the chip selected; the step undone or redone.
///
/// Rule rejections are outcomes, not errors: the core never fails. Every member is enough for a
/// front end to animate the change and for ``Announcement`` to describe it.
public struct FieldOutcome: Hashable, Sendable {
  /// Tags appended by a commit, in order.
  public var added: [String]
  /// Tags removed, with the index each had just before it was removed.
  public var removed: [RemovedTag] {
    get { rare?.members.removed ?? [] }
    set { rareMembers.removed = newValue }
    _modify { yield &rareMembers.removed }
  }
  /// Candidates that did not become tags.
  public var dropped: [DroppedCandidate]
  /// Tags put back at an index by undo or redo (not appended by a commit), in the order they
  /// were inserted; each index is the tag's index right after its insertion.
  public var inserted: [PlacedTag] {
    get { rare?.members.inserted ?? [] }
    set { rareMembers.inserted = newValue }
    _modify { yield &rareMembers.inserted }
  }
  /// The tags moved, in order (``FieldEvent/tagMoved(from:to:)``, or undo/redo of a move).
  public var moved: [MovedTag] {
    get { rare?.members.moved ?? [] }
    set { rareMembers.moved = newValue }
    _modify { yield &rareMembers.moved }
  }
  /// The tags whose text changed in place (``FieldEvent/tagReplaced(at:with:)``, or undo/redo).
  public var replaced: [ReplacedTag] {
    get { rare?.members.replaced ?? [] }
    set { rareMembers.replaced = newValue }
    _modify { yield &rareMembers.replaced }
  }
  /// The tag that left the list for the draft (``FieldEvent/tagEdited(at:)``, Backspace in
  /// ``BackspaceMode/edit``).
  public var edited: RemovedTag? {
    get { rare?.members.edited }
    set { rareMembers.edited = newValue }
  }
  /// The chip this event selected (``FieldEvent/selected(_:)``, Backspace in
  /// ``BackspaceMode/select``); nil when the event selected nothing new.
  public var selected: PlacedTag? {
    get { rare?.members.selected }
    set { rareMembers.selected = newValue }
  }
  /// The step this event undid or redid; for an undo or redo with nothing to do, a record with
  /// a nil ``HistoryChange/action``.
  public var history: HistoryChange? {
    get { rare?.members.history }
    set { rareMembers.history = newValue }
  }
  /// The tags kept although they break the rules the field has just been given
  /// (``TagField/setRules(_:)``): a stricter rule never deletes a tag.
  public var flagged: [FlaggedTag] {
    get { rare?.members.flagged ?? [] }
    set { rareMembers.flagged = newValue }
    _modify { yield &rareMembers.flagged }
  }
  /// The members above, which few events set; nil until one is set, copied on write.
  ///
  /// Kept out of line so that the outcome of a keystroke (nothing, or a tag added or dropped)
  /// is made and destroyed with one reference where there were eight arrays and three
  /// optionals. Removed tags are here too: with them inline the outcome was 33 bytes, too
  /// large for registers, and the server destroyed it through type metadata on every keystroke.
  @usableFromInline var rare: Rare?
  /// What the event changed of the field's state, decided once by the core: what versions
  /// move on, what an undo step records and what a front end must redraw follow from it.
  public var changed: FieldChanges = []

  /// Creates an outcome; the default is "nothing happened".
  public init(
    added: [String] = [],
    removed: [RemovedTag] = [],
    dropped: [DroppedCandidate] = [],
    inserted: [PlacedTag] = [],
    moved: [MovedTag] = [],
    replaced: [ReplacedTag] = [],
    edited: RemovedTag? = nil,
    selected: PlacedTag? = nil,
    history: HistoryChange? = nil,
    flagged: [FlaggedTag] = []
  ) {
    self.added = added
    self.dropped = dropped
    let members = RareMembers(
      removed: removed,
      inserted: inserted,
      moved: moved,
      replaced: replaced,
      edited: edited,
      selected: selected,
      history: history,
      flagged: flagged
    )
    if !members.isEmpty { rare = Rare(members) }
  }

  /// "Nothing happened", built member by member: the public initializer's defaulted
  /// arguments made the optimizer build two empty outcomes and copy one per event.
  init() {
    added = []
    dropped = []
  }

  /// True when nothing was added, removed, dropped, inserted, moved, replaced, edited, selected,
  /// undone, redone or flagged.
  ///
  /// Inlinable: asked of every keystroke's outcome by the server, a call retained and released
  /// each of the outcome's four references around it.
  @inlinable public var isEmpty: Bool {
    added.isEmpty && dropped.isEmpty && (rare?.members.isEmpty ?? true)
  }

  /// Whether only ``added`` and ``dropped`` can hold anything: a writer skips the others.
  @inlinable public var hasOnlyCommonMembers: Bool { rare == nil }

  /// The out-of-line members, made unique (or made) before one is changed.
  private var rareMembers: RareMembers {
    get { rare?.members ?? RareMembers() }
    _modify {
      var box = rare ?? Rare(RareMembers())
      rare = nil
      if !isKnownUniquelyReferenced(&box) { box = Rare(box.members) }
      defer { rare = box }
      yield &box.members
    }
  }

  /// Outcomes are equal when they report the same things; ``changed``, the summary of what
  /// state moved, is not compared (an outcome written by hand in a test says what happened).
  public static func == (lhs: FieldOutcome, rhs: FieldOutcome) -> Bool {
    lhs.added == rhs.added && lhs.removed == rhs.removed && lhs.dropped == rhs.dropped
      && lhs.inserted == rhs.inserted && lhs.moved == rhs.moved && lhs.replaced == rhs.replaced
      && lhs.edited == rhs.edited && lhs.selected == rhs.selected && lhs.history == rhs.history
      && lhs.flagged == rhs.flagged
  }

  /// Hashes what ``==`` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(added)
    hasher.combine(removed)
    hasher.combine(dropped)
    hasher.combine(inserted)
    hasher.combine(moved)
    hasher.combine(replaced)
    hasher.combine(edited)
    hasher.combine(selected)
    hasher.combine(history)
    hasher.combine(flagged)
  }

  /// Appends what `other` did after this outcome (for a batch of events reported as one).
  public mutating func merge(_ other: FieldOutcome) {
    // Most keystrokes merge outcomes that did nothing.
    guard !other.isEmpty else {
      changed.formUnion(other.changed)
      return
    }
    guard !isEmpty else {
      let changedBefore = changed
      self = other
      changed.formUnion(changedBefore)
      return
    }
    added += other.added
    dropped += other.dropped
    if other.rare != nil {
      removed += other.removed
      inserted += other.inserted
      moved += other.moved
      replaced += other.replaced
      edited = other.edited ?? edited
      selected = other.selected ?? selected
      history = other.history ?? history
      flagged += other.flagged
    }
    changed.formUnion(other.changed)
  }
}

/// ``FieldOutcome``'s members that few events set.
@usableFromInline struct RareMembers: Sendable {
  @usableFromInline var removed: [RemovedTag] = []
  @usableFromInline var inserted: [PlacedTag] = []
  @usableFromInline var moved: [MovedTag] = []
  @usableFromInline var replaced: [ReplacedTag] = []
  @usableFromInline var edited: RemovedTag?
  @usableFromInline var selected: PlacedTag?
  @usableFromInline var history: HistoryChange?
  @usableFromInline var flagged: [FlaggedTag] = []

  @inlinable var isEmpty: Bool {
    removed.isEmpty && inserted.isEmpty && moved.isEmpty && replaced.isEmpty && edited == nil
      && selected == nil && history == nil && flagged.isEmpty
  }
}

/// The box that holds ``RareMembers`` out of line; an outcome changes it only when it holds the
/// only reference (``FieldOutcome``'s `rareMembers`), so sharing it between copies is safe.
@usableFromInline final class Rare: @unchecked Sendable {
  @usableFromInline var members: RareMembers

  init(_ members: RareMembers) { self.members = members }
}

/// Which parts of a field's state an event changed.
public struct FieldChanges: OptionSet, Hashable, Sendable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// The tag list: a tag added, removed, moved or respelled.
  public static let tags = FieldChanges(rawValue: 1)
  /// The draft's bytes (a canonically equivalent respelling is a change).
  public static let draft = FieldChanges(rawValue: 2)
  /// The selected chip.
  public static let selection = FieldChanges(rawValue: 4)
}

/// A tag the field holds that breaks its rules: kept, because a stricter rule never deletes a
/// tag (``TagField/setRules(_:)``), and flagged so the front end can show why.
public struct FlaggedTag: Hashable, Sendable {
  /// The tag's index.
  public var index: Int
  /// The tag's text.
  public var tag: String
  /// The rule it breaks, as a candidate's drop reason: ``DropReason/duplicate(of:)`` names the
  /// earlier tag it now equals, ``DropReason/tooMany(limit:)`` marks the tags past `maxTags`.
  public var reason: DropReason

  /// Creates a record.
  public init(index: Int, tag: String, reason: DropReason) {
    self.index = index
    self.tag = tag
    self.reason = reason
  }
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

/// A tag at an index.
public struct PlacedTag: Hashable, Sendable {
  /// The tag's index.
  public var index: Int
  /// The tag's text.
  public var tag: String

  /// Creates a record.
  public init(index: Int, tag: String) {
    self.index = index
    self.tag = tag
  }
}

/// A tag that moved: it was at `from` and is now at `to` (indices in the list before and after).
public struct MovedTag: Hashable, Sendable {
  /// The index before the move.
  public var from: Int
  /// The index after the move.
  public var to: Int
  /// The tag's text.
  public var tag: String

  /// Creates a record of a move.
  public init(from: Int, to: Int, tag: String) {
    self.from = from
    self.to = to
    self.tag = tag
  }
}

/// A tag whose text changed in place.
public struct ReplacedTag: Hashable, Sendable {
  /// The tag's index (unchanged).
  public var index: Int
  /// The text before.
  public var old: String
  /// The text after.
  public var new: String

  /// Creates a record of a replacement.
  public init(index: Int, old: String, new: String) {
    self.index = index
    self.old = old
    self.new = new
  }
}

/// An undo or a redo.
public struct HistoryChange: Hashable, Sendable {
  /// Undo or redo.
  public var direction: HistoryDirection
  /// The kind of the step undone or redone; nil when there was nothing to undo or redo.
  public var action: FieldAction?

  /// Creates a record.
  public init(direction: HistoryDirection, action: FieldAction?) {
    self.direction = direction
    self.action = action
  }
}

/// Which way through the history.
public enum HistoryDirection: String, Hashable, Sendable, CaseIterable {
  /// Back one step.
  case undo
  /// Forward one step.
  case redo
}

/// The kind of user action an undo step records.
public enum FieldAction: String, Hashable, Sendable, CaseIterable {
  /// Typing in the draft that committed nothing; a run of such changes is one step.
  case typing
  /// Tags committed (typed separator, paste, Return, blur, added from outside).
  case add
  /// A tag removed (Backspace, a chip's remove button).
  case remove
  /// A tag moved.
  case move
  /// A tag's text replaced in place.
  case replace
  /// A tag taken back into the draft.
  case edit
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
  /// Does not match the field's ``FieldRules/pattern`` as a whole.
  case pattern
  /// Not equal to any entry of the field's ``FieldRules/allow`` list.
  case notAllowed
  /// Equal to an entry of the field's ``FieldRules/deny`` list.
  case denied
}
