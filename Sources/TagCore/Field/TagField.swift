import Shortcuts

/// The state of one tag input field — its tags, its draft, its selected chip and its undo
/// history — and the rules that change it.
///
/// A pure value: `apply(_:)` takes an event and returns what happened. The draft never holds a
/// separator after an event has been applied, except while an input method composes
/// (``FieldEvent/draftComposing(_:)``).
///
/// ```swift
/// var field = TagField()
/// let outcome = field.apply(.draftChanged("red, green,blue"))
/// // field.tags == ["red", "green"], field.draft == "blue", outcome.added == ["red", "green"]
/// _ = field.apply(.undo)
/// // field.tags == [], field.draft == ""
/// ```
///
/// ## Candidates
///
/// Every candidate (a piece before a separator, a submitted draft, an entry of
/// ``FieldEvent/tagsAdded(_:)``, the text of ``FieldEvent/tagReplaced(at:with:)``) goes through
/// the same steps, and the first failing check decides the drop reason:
///
/// 1. trimmed of surrounding whitespace and newlines (`Character.isWhitespace`), then rewritten by
///    ``FieldRules/transform``;
/// 2. empty → ``DropReason/empty``;
/// 3. more characters than ``FieldRules/maxTagLength`` → ``DropReason/tooLong(limit:)``;
/// 4. no whole match of ``FieldRules/pattern`` → ``DropReason/pattern``;
/// 5. ``FieldRules/allow`` present and no entry equal by key → ``DropReason/notAllowed``;
/// 6. equal by key to an entry of ``FieldRules/deny`` → ``DropReason/denied``;
/// 7. equal by key to a tag (including one added earlier in the same batch; for a replacement,
///    any tag but the one replaced) → ``DropReason/duplicate(of:)``;
/// 8. the field already holds ``FieldRules/maxTags`` → ``DropReason/tooMany(limit:)`` (not for a
///    replacement, which keeps the count);
/// 9. otherwise appended (or, for a replacement, put in place), spelled as typed (after the
///    transform).
///
/// Keys are ``CaselessKey``s, or the text itself (canonical equivalence only) when
/// ``FieldRules/caseSensitive``. `allow` and `deny` entries are trimmed, transformed and keyed the
/// same way, once, when the field is created. Duplicates are found through a hashed index kept
/// alongside the tags, so a paste of N tags costs O(N).
///
/// ## Selection
///
/// ``selected`` is the index of the selected chip, or nil. It follows its tag when tags before it
/// are removed or moved, and when the selected tag itself is moved; it clears when its tag is
/// removed or edited, when the draft changes or a commit happens, and on blur.
///
/// ## History
///
/// Every event that changes the tags or the draft is one undo step, except that a run of draft
/// changes that commit nothing (typing) is one step until another kind of event ends it. A paste
/// of many tags, an edit in place, a move: one step each. Selecting a chip is not a step (it is
/// navigation, like moving a caret), but undo and redo restore the selection the step began or
/// ended with. At most ``FieldRules/historyLimit`` steps are kept (the oldest go first); a new
/// step after an undo discards the redo steps. Steps store the changes to the tag list, not
/// copies of it, so undoing or redoing a paste of N tags costs O(N).
public struct TagField: Hashable, Sendable {
  /// The committed tags, in order, spelled as first typed.
  public private(set) var tags: [String]
  /// The text still in the box: never contains a separator.
  public private(set) var draft: String
  /// The index of the selected chip, if any.
  public private(set) var selected: Int?
  /// The rules this field follows.
  public let rules: FieldRules
  /// The UTF-8 bytes of all tags, kept up to date as tags come and go (for memory limits).
  public private(set) var tagBytes = 0
  /// The tags that break ``rules``, in tag order: only ever non-empty after ``setRules(_:)``
  /// (every tag the rules admitted passes them), and kept up to date as tags change after it.
  public private(set) var flagged: [FlaggedTag] = []

  /// The key of each tag, parallel to `tags`.
  private var keys: [String]
  /// The index in `tags` of the tag with each key.
  private var keyIndex = KeyIndex()
  /// ``FieldRules/separators`` as a table looked up per byte.
  private let separators: FieldText.Separators
  /// The keys of ``FieldRules/allow``, when present.
  private let allowKeys: Set<String>?
  /// The keys of ``FieldRules/deny``.
  private let denyKeys: Set<String>
  /// Whether the rules have a pattern, an allow list or a deny list.
  private let hasFilters: Bool
  /// Undo and redo steps (visible to inlined code for ``canUndo`` and ``canRedo`` only).
  @usableFromInline private(set) var history: FieldHistory
  /// The tag-list changes of the event being applied (empty between events).
  private var log: [TagChange] = []
  /// Where the run of tags the event being applied has appended so far starts, or -1: that
  /// run, not yet in `log`, becomes one logged insertion (a paste does not touch `log` per tag).
  private var appendStart = -1
  /// Whether ``draft`` is known to hold no separator (the rule left it so): typing that only
  /// adds text after it then needs only the added text scanned.
  private var draftIsPlain = true
  /// Whether the draft change being applied is known to be the draft with bytes added at or
  /// removed from its end (``applyDraftEditedAtEnd(_:)``): no prefix check is needed.
  private var editedAtEnd = false
  /// Whether the rules changed under tags admitted by others (``setRules(_:)``): only then can
  /// a tag break them, so only then does a change of the tags look for ``flagged`` ones (an
  /// undo may bring back a tag the new rules refuse).
  private var rulesChanged = false

  /// Creates an empty field.
  public init(rules: FieldRules = FieldRules()) {
    self.rules = rules
    tags = []
    draft = ""
    keys = []
    separators = FieldText.Separators(rules.separators)
    history = FieldHistory(limit: rules.historyLimit)
    allowKeys = rules.allow.map { Set($0.map { Self.key(of: Self.normalized($0, rules), rules) }) }
    denyKeys = Set(rules.deny.map { Self.key(of: Self.normalized($0, rules), rules) })
    hasFilters = rules.pattern != nil || rules.allow != nil || !rules.deny.isEmpty
  }

  /// Whether ``FieldEvent/undo`` has a step to undo.
  ///
  /// Inlinable, like ``canRedo``: a call across modules copied the whole field (~116
  /// instructions a reply).
  @inlinable public var canUndo: Bool { !history.undo.isEmpty }
  /// Whether ``FieldEvent/redo`` has a step to redo.
  @inlinable public var canRedo: Bool { !history.redo.isEmpty }

  /// Forgets every undo and redo step (a field just opened with its initial tags has none).
  public mutating func resetHistory() {
    history = FieldHistory(limit: rules.historyLimit)
  }

  /// Applies one event and reports what it did.
  ///
  /// - ``FieldEvent/draftChanged(_:)``: text without a separator becomes the draft exactly as
  ///   given. Otherwise every piece before the last separator is a candidate, and the piece after
  ///   it, less its leading U+0020 spaces (other whitespace stays), becomes the draft. The new
  ///   draft is therefore always a suffix of the text given, which lets a front end keep its caret
  ///   by counting from the end. Newline separators: LF, CR and a CRLF pair each end one piece.
  /// - ``FieldEvent/draftComposing(_:)``: the text becomes the draft as it is, rule or not.
  /// - ``FieldEvent/submitted``: the draft is one candidate, as if a separator were typed after it
  ///   (an empty or blank draft reports an ``DropReason/empty`` drop); the draft empties.
  /// - ``FieldEvent/deletedBackward``: with a selected chip, removes it. Otherwise, with an empty
  ///   draft and at least one tag, acts on the last tag by ``FieldRules/backspace``: removes it,
  ///   selects it, or edits it (as ``FieldEvent/tagEdited(at:)``). With a non-empty draft and no
  ///   selection, nothing.
  /// - ``FieldEvent/tagsAdded(_:)``: each entry is one candidate; entries are not split on
  ///   separators. The draft is untouched.
  /// - ``FieldEvent/tagRemoved(at:)`` and ``FieldEvent/tagRemovedMatching(_:)``: remove one tag,
  ///   or nothing when the index is out of range or no tag matches.
  /// - ``FieldEvent/selected(_:)``: selects a chip (nil clears); an index out of range changes
  ///   nothing.
  /// - ``FieldEvent/tagMoved(from:to:)``: the tag at `from` ends at index `to`; out of range or
  ///   equal indices change nothing.
  /// - ``FieldEvent/tagReplaced(at:with:)``: the text is one candidate (not split); if it passes,
  ///   it replaces the tag in place; if it is dropped, the tag stays as it was and the outcome
  ///   says why. A replacement equal in spelling to the tag changes nothing.
  /// - ``FieldEvent/tagEdited(at:)``: a non-empty draft is first committed as on Return (so no
  ///   typed text is lost), then the tag leaves the list and its text becomes the draft. One step.
  /// - ``FieldEvent/blurred``: with ``FieldRules/commitOnBlur`` and a non-empty draft, as
  ///   ``FieldEvent/submitted``; clears the selection either way.
  /// - ``FieldEvent/undo`` and ``FieldEvent/redo``: step back or forward through the history,
  ///   restoring tags, draft and selection exactly.
  public mutating func apply(_ event: FieldEvent) -> FieldOutcome {
    let outcome: FieldOutcome
    switch event {
    case .undo: outcome = undo()
    case .redo: outcome = redo()
    default: outcome = applyStep(event)
    }
    if rulesChanged, outcome.changed.contains(.tags) { flagged = findFlagged() }
    return outcome
  }

  /// ``apply(_:)`` of ``FieldEvent/draftChanged(_:)`` for a `text` the caller knows to be the
  /// draft with bytes added at or removed from its end (the sync mirror's typing and Backspace):
  /// the rule then scans only what was added, comparing nothing (``FastPath/draftEndEdit``).
  public mutating func applyDraftEditedAtEnd(_ text: String) -> FieldOutcome {
    editedAtEnd = true
    defer { editedAtEnd = false }
    return apply(.draftChanged(text))
  }

  /// Gives the field new rules, keeping its tags, draft, selection and history.
  ///
  /// A stricter rule never deletes a tag: tags that break the new rules stay where they are and
  /// are reported (the outcome's ``FieldOutcome/flagged``, and ``flagged`` until they are
  /// removed, replaced or pass again). The reasons are those a candidate would be dropped for,
  /// checked in the same order: ``DropReason/tooLong(limit:)``, ``DropReason/pattern``,
  /// ``DropReason/notAllowed``, ``DropReason/denied``, ``DropReason/duplicate(of:)`` (of the
  /// first tag with the same key, when the new equality makes two tags equal) and
  /// ``DropReason/tooMany(limit:)`` (every tag at an index past ``FieldRules/maxTags``). The
  /// transform rewrites new candidates only. The draft stays as it is, even when it holds a
  /// separator of the new rules: the next change of the draft splits it. Not an undo step: it
  /// changes no tag; at most the new ``FieldRules/historyLimit`` steps are kept (the newest).
  public mutating func setRules(_ newRules: FieldRules) -> FieldOutcome {
    var changed = TagField(rules: newRules)
    changed.insertRaw(tags, at: 0)
    changed.draft = draft
    changed.draftIsPlain = false
    changed.selected = selected
    changed.history = history
    changed.history.limit(to: newRules.historyLimit)
    changed.history.seal()
    changed.rulesChanged = true
    changed.flagged = changed.findFlagged()
    self = changed
    var outcome = FieldOutcome()
    outcome.flagged = flagged
    return outcome
  }

  /// Every tag that breaks ``rules``, with the first rule it breaks.
  private func findFlagged() -> [FlaggedTag] {
    var found: [FlaggedTag] = []
    var firstWithKey: [String: Int] = [:]
    for (index, tag) in tags.enumerated() {
      let key = keys[index]
      var reason = check(tag, key: key)
      if let first = firstWithKey[key] {
        reason = reason ?? .duplicate(of: first)
      } else {
        firstWithKey[key] = index
      }
      if reason == nil, let limit = rules.maxTags, index >= limit {
        reason = .tooMany(limit: limit)
      }
      if let reason { found.append(FlaggedTag(index: index, tag: tag, reason: reason)) }
    }
    return found
  }

  /// Applies an event other than undo and redo, and records it in the history.
  ///
  /// What the event changed is decided here, once, and reported in the outcome
  /// (``FieldOutcome/changed``): the history records a step from it, the server moves the
  /// version and pushes updates by it.
  private mutating func applyStep(_ event: FieldEvent) -> FieldOutcome {
    let draftBefore = draft
    let selectedBefore = selected
    var outcome = FieldOutcome()
    let action = perform(event, into: &outcome)
    if appendStart >= 0 { flushAppended() }
    if !log.isEmpty { outcome.changed.insert(.tags) }
    // Compared by bytes: a draft respelled in a canonically equivalent form did change.
    if !draft.hasSameUTF8(as: draftBefore) { outcome.changed.insert(.draft) }
    if selected != selectedBefore { outcome.changed.insert(.selection) }
    record(event, action, outcome.changed, draftBefore: draftBefore, selectedBefore: selectedBefore)
    return outcome
  }

  /// Records in the history what an event just changed.
  private mutating func record(
    _ event: FieldEvent,
    _ action: FieldAction,
    _ changed: FieldChanges,
    draftBefore: String,
    selectedBefore: Int?
  ) {
    guard !changed.isDisjoint(with: [.tags, .draft]) else {
      // Nothing to undo (selecting is navigation); any event but a draft change ends a run of
      // typing.
      switch event {
      case .draftChanged, .draftComposing: break
      default: history.seal()
      }
      return
    }
    if action == .typing, history.extendTyping(draft: draft, selected: selected) { return }
    let step = HistoryStep(
      action: action,
      changes: log,
      draftBefore: draftBefore,
      draftAfter: draft,
      selectedBefore: selectedBefore,
      selectedAfter: selected
    )
    log = []
    history.push(step)
  }

  /// The index of the tag equal (under this field's rules) to `text`, if any.
  ///
  /// `text` is normalised as a candidate would be (trimmed, transformed), so this is the index a
  /// candidate `text` would be reported a ``DropReason/duplicate(of:)`` of.
  public func index(of text: String) -> Int? {
    let candidate = candidate(text)
    guard !candidate.text.isEmpty else { return nil }
    return index(ofKey: candidate.key, hash: candidate.hash)
  }

  /// Why `text` could not be added as a tag right now, or nil if it could (trimming, transform,
  /// length, pattern, allow and deny lists, duplicates, the tag limit).
  public func refusal(of text: String) -> DropReason? {
    let candidate = candidate(text)
    if let reason = check(candidate.text, key: candidate.key) { return reason }
    if let existing = index(ofKey: candidate.key, hash: candidate.hash) {
      return .duplicate(of: existing)
    }
    if let limit = rules.maxTags, tags.count >= limit { return .tooMany(limit: limit) }
    return nil
  }

  // MARK: Equality

  /// Fields are equal when their tags, drafts, selections and rules are; the key index follows
  /// from those, and the history is not compared.
  public static func == (lhs: TagField, rhs: TagField) -> Bool {
    lhs.tags == rhs.tags && lhs.draft == rhs.draft && lhs.selected == rhs.selected
      && lhs.rules == rhs.rules
  }

  /// Hashes the tags, draft, selection and rules.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(tags)
    hasher.combine(draft)
    hasher.combine(selected)
    hasher.combine(rules)
  }

  // MARK: Events

  /// Applies a non-history event; returns the kind of step it is if it changed anything.
  private mutating func perform(
    _ event: FieldEvent,
    into outcome: inout FieldOutcome
  ) -> FieldAction {
    switch event {
    case .draftChanged(let text):
      guard
        !Self.extendsPlainDraft(
          text,
          draft: draft,
          draftIsPlain: draftIsPlain,
          editedAtEnd: editedAtEnd,
          separators: separators
        ), let rest = admitPieces(of: text, into: &outcome)
      else {
        if selected != nil, !text.hasSameUTF8(as: draft) { selected = nil }
        draft = text
        draftIsPlain = true
        return .typing
      }
      draft = rest
      draftIsPlain = true
      selected = nil
      // A separator that committed nothing (a dropped candidate) only edited the draft.
      return log.isEmpty && appendStart < 0 ? .typing : .add
    case .draftComposing(let text):
      if selected != nil, !text.hasSameUTF8(as: draft) { selected = nil }
      draft = text
      draftIsPlain = false
      return .typing
    case .submitted:
      commitDraft(into: &outcome)
      return .add
    case .deletedBackward:
      if let index = selected {
        outcome.removed.append(removeLogged(at: index))
        return .remove
      }
      guard draft.isEmpty, !tags.isEmpty else { return .remove }
      let last = tags.count - 1
      switch rules.backspace {
      case .remove:
        outcome.removed.append(removeLogged(at: last))
        return .remove
      case .select:
        selected = last
        outcome.selected = PlacedTag(index: last, tag: tags[last])
        return .remove
      case .edit:
        edit(at: last, into: &outcome)
        return .edit
      }
    case .tagsAdded(let entries):
      reserve(entries.count, in: &outcome)
      for entry in entries {
        admit(entry, into: &outcome)
      }
      return .add
    case .tagRemoved(let index):
      if tags.indices.contains(index) {
        outcome.removed.append(removeLogged(at: index))
      }
      return .remove
    case .tagRemovedMatching(let text):
      if let index = index(of: text) {
        outcome.removed.append(removeLogged(at: index))
      }
      return .remove
    case .selected(let index):
      if let index {
        if tags.indices.contains(index), selected != index {
          selected = index
          outcome.selected = PlacedTag(index: index, tag: tags[index])
        }
      } else {
        selected = nil
      }
      return .move
    case .tagMoved(let from, let to):
      if tags.indices.contains(from), tags.indices.contains(to), from != to {
        outcome.moved.append(moveLogged(from: from, to: to))
      }
      return .move
    case .tagReplaced(let index, let text):
      if tags.indices.contains(index) {
        replace(at: index, with: text, into: &outcome)
      }
      return .replace
    case .tagEdited(let index):
      if tags.indices.contains(index) {
        edit(at: index, into: &outcome)
      }
      return .edit
    case .blurred:
      selected = nil
      if rules.commitOnBlur, !draft.isEmpty {
        commitDraft(into: &outcome)
      }
      return .add
    case .undo, .redo:
      return .typing
    }
  }

  /// Return: the draft is one candidate and the draft empties.
  private mutating func commitDraft(into outcome: inout FieldOutcome) {
    let candidate = draft
    draft = ""
    draftIsPlain = true
    selected = nil
    admit(candidate, into: &outcome)
  }

  /// Commits a non-empty draft, then takes the tag at `index` out of the list into the draft.
  private mutating func edit(at index: Int, into outcome: inout FieldOutcome) {
    if !draft.isEmpty { commitDraft(into: &outcome) }
    let removed = removeLogged(at: index)
    outcome.removed.append(removed)
    outcome.edited = removed
    draft = removed.tag
    draftIsPlain = false
    selected = nil
  }

  /// Replaces the tag at a valid `index` if `text` passes the candidate checks.
  private mutating func replace(at index: Int, with text: String, into outcome: inout FieldOutcome)
  {
    let candidate = candidate(text)
    let new = candidate.text
    if let reason = check(new, key: candidate.key) {
      outcome.dropped.append(DroppedCandidate(text: new, reason: reason))
      return
    }
    if let existing = self.index(ofKey: candidate.key, hash: candidate.hash), existing != index {
      outcome.dropped.append(DroppedCandidate(text: new, reason: .duplicate(of: existing)))
      return
    }
    let old = tags[index]
    // The same spelling changes nothing (a respelling such as `red` → `Red` does change it).
    guard !new.hasSameUTF8(as: old) else { return }
    flushAppended()
    log.append(TagChange(kind: .replace, index: index, tags: [old, new]))
    replaceRaw(at: index, with: new, key: candidate.key, hash: candidate.hash)
    outcome.replaced.append(ReplacedTag(index: index, old: old, new: new))
  }

  // MARK: History

  private mutating func undo() -> FieldOutcome {
    guard let step = history.popUndo() else {
      return FieldOutcome(history: HistoryChange(direction: .undo, action: nil))
    }
    var outcome = FieldOutcome(history: HistoryChange(direction: .undo, action: step.action))
    for change in step.changes.reversed() {
      applyRaw(change.inverse, into: &outcome)
    }
    outcome.changed = Self.changes(
      step,
      from: (draft, selected),
      to: (step.draftBefore, step.selectedBefore)
    )
    draft = step.draftBefore
    draftIsPlain = false
    selected = step.selectedBefore
    history.pushRedo(step)
    return outcome
  }

  private mutating func redo() -> FieldOutcome {
    guard let step = history.popRedo() else {
      return FieldOutcome(history: HistoryChange(direction: .redo, action: nil))
    }
    var outcome = FieldOutcome(history: HistoryChange(direction: .redo, action: step.action))
    for change in step.changes {
      applyRaw(change, into: &outcome)
    }
    outcome.changed = Self.changes(
      step,
      from: (draft, selected),
      to: (step.draftAfter, step.selectedAfter)
    )
    draft = step.draftAfter
    draftIsPlain = false
    selected = step.selectedAfter
    history.pushUndo(step)
    return outcome
  }

  /// What undoing or redoing `step` changes, going from draft and selection `from` to `to`.
  private static func changes(
    _ step: HistoryStep,
    from: (draft: String, selected: Int?),
    to: (draft: String, selected: Int?)
  ) -> FieldChanges {
    var changed: FieldChanges = step.changes.isEmpty ? [] : .tags
    if !from.draft.hasSameUTF8(as: to.draft) { changed.insert(.draft) }
    if from.selected != to.selected { changed.insert(.selection) }
    return changed
  }

  /// Applies a recorded change without logging it, reporting it in `outcome`.
  private mutating func applyRaw(_ change: TagChange, into outcome: inout FieldOutcome) {
    switch change.kind {
    case .insert:
      insertRaw(change.tags, at: change.index)
      outcome.inserted.reserveCapacity(outcome.inserted.count + change.tags.count)
      for (offset, tag) in change.tags.enumerated() {
        outcome.inserted.append(PlacedTag(index: change.index + offset, tag: tag))
      }
    case .remove:
      let count = change.tags.count
      outcome.removed.reserveCapacity(outcome.removed.count + count)
      // Last first, so each index is both the tag's index before the change and just before
      // its own removal.
      for offset in (0..<count).reversed() {
        outcome.removed.append(
          RemovedTag(index: change.index + offset, tag: tags[change.index + offset])
        )
      }
      removeRaw(at: change.index, count: count)
    case .replace:
      let new = change.tags[1]
      let key = key(of: new)
      replaceRaw(at: change.index, with: new, key: key, hash: KeyIndex.hash(key))
      outcome.replaced.append(ReplacedTag(index: change.index, old: change.tags[0], new: new))
    case .move:
      outcome.moved.append(MovedTag(from: change.index, to: change.target, tag: tags[change.index]))
      moveRaw(from: change.index, to: change.target)
    }
  }

  // MARK: Candidates

  /// Trims `text` and applies the rules' transform.
  private func normalized(_ text: String) -> String { Self.normalized(text, rules) }

  private static func normalized(_ text: String, _ rules: FieldRules) -> String {
    let trimmed = FieldText.trimmed(text)
    switch rules.transform {
    case .none: return String(trimmed)
    case .lowercase: return trimmed.lowercased()
    case .uppercase: return trimmed.uppercased()
    }
  }

  /// The duplicate-detection key of an already normalised candidate.
  private func key(of candidate: String) -> String { Self.key(of: candidate, rules) }

  private static func key(of candidate: String, _ rules: FieldRules) -> String {
    rules.caseSensitive ? candidate : CaselessKey.fold(candidate)
  }

  /// The checks that do not depend on the other tags: empty, too long, pattern, allow, deny.
  private func check(_ candidate: String, key: String) -> DropReason? {
    Self.checkLength(candidate, limit: rules.maxTagLength)
      ?? (hasFilters ? filter(candidate, key: key) : nil)
  }

  /// Empty, or longer than `limit` characters.
  ///
  /// Inlined: called once per candidate, a call cost a pasted tag more than the check.
  @inline(__always)
  private static func checkLength(_ candidate: String, limit: Int?) -> DropReason? {
    if candidate.isEmpty { return .empty }
    // A string has at most as many characters as UTF-8 bytes: count characters only if needed.
    if let limit, candidate.utf8.count > limit, candidate.count > limit {
      return .tooLong(limit: limit)
    }
    return nil
  }

  /// The pattern, allow and deny checks, for a field that has any.
  @inline(never)
  private func filter(_ candidate: String, key: String) -> DropReason? {
    if let pattern = rules.pattern, !pattern.matches(candidate) { return .pattern }
    if let allowKeys, !allowKeys.contains(key) { return .notAllowed }
    if denyKeys.contains(key) { return .denied }
    return nil
  }

  /// Makes room for a batch of candidates up front, so a paste of N tags grows each table once.
  private mutating func reserve(_ count: Int, in outcome: inout FieldOutcome) {
    guard count > 16 else { return }
    let room = min(count, rules.maxTags ?? count)
    tags.reserveCapacity(tags.count + room)
    keys.reserveCapacity(keys.count + room)
    keyIndex.reserve(tags.count + room)
    outcome.added.reserveCapacity(room)
  }

  /// Moves the run of appended tags into `log`.
  private mutating func flushAppended() {
    guard appendStart >= 0 else { return }
    log.append(TagChange(kind: .insert, index: appendStart, tags: Array(tags[appendStart...])))
    appendStart = -1
  }

  /// Whether `text` is the current draft, known to hold no separator, followed by text without
  /// one, or a prefix of that draft: then `text` holds no separator, found by scanning only what
  /// was added (typing or deleting at the end of a long draft costs what changed, not the
  /// draft's length).
  ///
  /// The added text starts at a scalar boundary (the draft is a UTF-8 prefix), and a CR that a
  /// LF could join would be a separator in the draft, so no separator spans the boundary.
  ///
  /// Drafts shorter than 32 bytes are scanned whole: there the prefix checks cost more than
  /// they spare, and a keystroke that commits would pay for both (BENCHMARKS.md).
  ///
  /// Static, given what it reads: as a method it copied the whole field on every keystroke.
  private static func extendsPlainDraft(
    _ text: String,
    draft: String,
    draftIsPlain: Bool,
    editedAtEnd: Bool,
    separators: FieldText.Separators
  ) -> Bool {
    guard FastPath.plainDraftExtension.isOn, draftIsPlain, draft.utf8.count >= 32 else {
      return false
    }
    // The caller knows the edit was at the end: the lengths say which way.
    let knownAtEnd = editedAtEnd && FastPath.draftEndEdit.isOn
    if knownAtEnd { FastPath.draftEndEdit.taken() }
    // Deleting at the end: every prefix of text without a separator has none.
    if knownAtEnd ? text.utf8.count <= draft.utf8.count : draft.hasUTF8Prefix(text) {
      FastPath.plainDraftExtension.taken()
      return true
    }
    guard knownAtEnd || text.hasUTF8Prefix(draft) else { return false }
    let utf8 = text.utf8.span
    var added = FieldText.Pieces()
    guard added.next(utf8.extracting(draft.utf8.count..<utf8.count), separators) == nil else {
      return false
    }
    FastPath.plainDraftExtension.taken()
    return true
  }

  /// Runs each piece of `text` before its last separator through the candidate checks, as
  /// bytes; returns the new draft, or nil when `text` holds no separator.
  private mutating func admitPieces(of text: String, into outcome: inout FieldOutcome) -> String? {
    // The separators are read in place, not copied to a local (two retains and releases a
    // keystroke): each `next` borrows them between the candidates' admissions.
    let utf8 = text.utf8.span
    var pieces = FieldText.Pieces()
    if utf8.count > 4096 {
      // A large paste: the tables grow once.
      reserve(FieldText.Pieces.bound(utf8, separators), in: &outcome)
    }
    let seed = KeyIndex.seed
    while true {
      pieces.skipToEnd(utf8, separators)
      guard let piece = pieces.next(utf8, separators) else { break }
      let candidate =
        FieldText.candidate(
          piece,
          of: utf8,
          transform: rules.transform,
          caseless: !rules.caseSensitive,
          seed: seed
        )
        ?? self.candidate(utf8.extracting(piece).text())
      admit(candidate, into: &outcome)
    }
    return pieces.draftStart(utf8).map { utf8.extracting($0..<utf8.count).text() }
  }

  /// `text` as a candidate: trimmed, transformed, keyed and hashed.
  private func candidate(_ text: String) -> Candidate {
    Candidate(normalized(text), caseless: !rules.caseSensitive)
  }

  /// Runs one candidate through the checks in order and appends it if it passes.
  private mutating func admit(_ text: String, into outcome: inout FieldOutcome) {
    admit(candidate(text), into: &outcome)
  }

  /// ``admit(_:into:)`` for a candidate already made.
  ///
  /// Inlined: once per pasted tag, its call cost ~35 instructions.
  @inline(__always)
  private mutating func admit(_ candidate: Candidate, into outcome: inout FieldOutcome) {
    let text = candidate.text
    // Not through `check`: a call of a method on `self` here copied the whole field first.
    if let reason = Self.checkLength(text, limit: rules.maxTagLength)
      ?? (hasFilters ? filter(text, key: candidate.key) : nil)
    {
      outcome.dropped.append(DroppedCandidate(text: text, reason: reason))
      return
    }
    // One probe finds a duplicate or the slot the new tag's entry takes.
    let probe = keyIndex.probe(candidate.hash) { keys[$0] == candidate.key }
    if let existing = probe.found {
      outcome.dropped.append(DroppedCandidate(text: text, reason: .duplicate(of: existing)))
      return
    }
    if let limit = rules.maxTags, tags.count >= limit {
      outcome.dropped.append(DroppedCandidate(text: text, reason: .tooMany(limit: limit)))
      return
    }
    // Consecutive appends are one logged insertion, so a paste logs one change.
    if appendStart < 0 { appendStart = tags.count }
    keyIndex.append(candidate.hash, at: probe.slot)
    tags.append(text)
    tagBytes += text.utf8.count
    keys.append(candidate.key)
    outcome.added.append(text)
  }

  /// The index of the tag whose key is `key` (with `hash`, its ``KeyIndex/hash(_:)``).
  private func index(ofKey key: String, hash: Int) -> Int? {
    keyIndex.find(hash) { keys[$0] == key }
  }

  // MARK: Tag-list changes

  /// Removes the tag at a valid `index`, logging it and keeping the selection on its tag.
  private mutating func removeLogged(at index: Int) -> RemovedTag {
    flushAppended()
    log.append(TagChange(kind: .remove, index: index, tags: [tags[index]]))
    if let current = selected {
      selected = current == index ? nil : current > index ? current - 1 : current
    }
    let tag = tags[index]
    removeRaw(at: index, count: 1)
    return RemovedTag(index: index, tag: tag)
  }

  /// Moves the tag at valid `from` to valid `to`, logging it and keeping the selection on its tag.
  private mutating func moveLogged(from: Int, to: Int) -> MovedTag {
    flushAppended()
    log.append(TagChange(kind: .move, index: from, tags: [tags[from]], target: to))
    if let current = selected {
      if current == from {
        selected = to
      } else if from < current, current <= to {
        selected = current - 1
      } else if to <= current, current < from {
        selected = current + 1
      }
    }
    let moved = MovedTag(from: from, to: to, tag: tags[from])
    moveRaw(from: from, to: to)
    return moved
  }

  /// Inserts `newTags` (already admitted once, so distinct and valid) at `index`: O(n - index).
  private mutating func insertRaw(_ newTags: [String], at index: Int) {
    let newKeys = newTags.map(key(of:))
    let old = tags.count
    tags.insert(contentsOf: newTags, at: index)
    keys.insert(contentsOf: newKeys, at: index)
    for tag in newTags { tagBytes += tag.utf8.count }
    keyIndex.update(removing: index..<old, adding: index..<tags.count) { hashes in
      hashes.insert(contentsOf: newKeys.map(KeyIndex.hash), at: index)
    }
  }

  /// Removes `count` tags from a valid `index`: O(n - index).
  private mutating func removeRaw(at index: Int, count: Int) {
    let range = index..<(index + count)
    for tag in tags[range] { tagBytes -= tag.utf8.count }
    tags.removeSubrange(range)
    keys.removeSubrange(range)
    keyIndex.update(removing: index..<(tags.count + count), adding: index..<tags.count) {
      $0.removeSubrange(range)
    }
  }

  /// Puts `tag` (with its `key` and that key's `hash`) at a valid `index`.
  private mutating func replaceRaw(at index: Int, with tag: String, key: String, hash: Int) {
    tagBytes += tag.utf8.count - tags[index].utf8.count
    tags[index] = tag
    keys[index] = key
    keyIndex.update(removing: index..<(index + 1), adding: index..<(index + 1)) { $0[index] = hash }
  }

  /// Moves the tag at valid `from` to valid `to`: O(|to - from|) plus the array shift.
  private mutating func moveRaw(from: Int, to: Int) {
    tags.insert(tags.remove(at: from), at: to)
    keys.insert(keys.remove(at: from), at: to)
    let range = min(from, to)..<(max(from, to) + 1)
    keyIndex.update(removing: range, adding: range) { $0.insert($0.remove(at: from), at: to) }
  }
}

/// Something that happened to a tag field, named for what the user did.
public enum FieldEvent: Hashable, Sendable {
  /// The box now holds this whole text (typing, paste, any edit).
  case draftChanged(String)
  /// The box holds this whole text while an input method composes: it becomes the draft as it
  /// is and nothing is committed, so this draft may hold a separator until the next
  /// ``draftChanged(_:)``.
  case draftComposing(String)
  /// Return: the draft is committed as if a separator were typed after it.
  case submitted
  /// Backspace at the start of the box: acts on the selected chip, or by ``FieldRules/backspace``
  /// on the last tag when the draft is empty.
  case deletedBackward
  /// Tags offered from outside the box (a clicked suggestion), with the typed-tag rules.
  case tagsAdded([String])
  /// The chip at this index was removed (its cross button); out of range removes nothing.
  case tagRemoved(at: Int)
  /// The tag equal to this text was removed; no match removes nothing.
  case tagRemovedMatching(String)
  /// The chip at this index is selected; nil clears the selection.
  case selected(Int?)
  /// The tag at `from` moves so that it ends at index `to`.
  case tagMoved(from: Int, to: Int)
  /// The tag at this index is edited in place to this text, with the typed-tag rules.
  case tagReplaced(at: Int, with: String)
  /// The tag at this index leaves the list and its text becomes the draft.
  case tagEdited(at: Int)
  /// The field lost focus.
  case blurred
  /// Back one step in the history.
  case undo
  /// Forward one step in the history.
  case redo
}
