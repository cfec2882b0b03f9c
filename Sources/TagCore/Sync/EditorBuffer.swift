import Shortcuts

/// The server's mirror of an editor buffer that holds a field's draft, for asynchronous sync.
///
/// The mirror is one `String` of cells (Unicode scalars, addressed by UTF-8 offset), kept as
/// runs of cells in one state, each state one of:
///
/// - **normal**: in the client's buffer and in the draft;
/// - **consumed**: in the client's buffer, but the commit rule has already turned it into tags
///   (or dropped it), or a server-side change replaced it: the client should delete it;
/// - **inserted**: not yet in the client's buffer, but in the draft: text the server put there
///   (editing a tag, undo, redo) that the client should insert.
///
/// The client's buffer at ``version`` is the cells that are not inserted; the field's draft is
/// the cells that are not consumed. ``pendingEdits(encoding:)`` turns the client's buffer into
/// the draft. While no cell is consumed (most keystrokes) the draft is the cells' `String`
/// itself: the field's draft and the mirror are one UTF-8 value, shared, never rebuilt
/// (``draft``). See `Protocol/sync.md` for the protocol and the argument for why no keystroke is
/// lost.
///
/// A keystroke costs the size of the change, not of the buffer: typing at the end of a line of
/// ASCII text (what the mirror counts as ``specials``, none) maps positions to bytes directly,
/// appends to the last run, and the rule scans only what was typed
/// (``TagField/apply(_:)`` on a draft that extends a plain one). Text on several lines or
/// outside ASCII converts positions through ``TextOffsets``, linear in the buffer, as before.
///
/// ```swift
/// var field = TagField()
/// var buffer = EditorBuffer(text: "", version: 0)
/// _ = try buffer.clientChanged(
///   version: 1, edits: [TextEdit(range: nil, newText: "red,g")], encoding: .utf16, field: &field)
/// // field.tags == ["red"], field.draft == "g"; buffer.pendingEdits(.utf16) deletes "red,"
/// ```
public struct EditorBuffer: Hashable, Sendable {
  /// Where a cell stands between the client's buffer and the draft.
  enum State: UInt8, Hashable, Sendable {
    case normal
    case consumed
    case inserted
  }

  /// A stretch of cells in one state: `count` UTF-8 bytes of ``cells``.
  struct Run: Hashable, Sendable {
    var state: State
    var count: Int
  }

  /// The cells, in order: a `String`, so that the draft is this same value when it is every
  /// cell (no copy, no validation), and so that text the client types is appended as it is.
  private var cells: String
  /// The cells' states: runs covering ``cells``' UTF-8 in order, none empty, no two neighbours alike.
  private var runs: [Run]
  /// The bytes of the client's text (the cells not inserted).
  private var visibleCount: Int
  /// How many bytes of the client's text are outside ASCII or line breaks: none means the text
  /// is one line where every position's character is its byte offset, in every encoding.
  private var specials: Int
  /// Whether the text is one such line and positions may be read as byte offsets (the
  /// ``FastPath/plainMirrorEdits`` shortcut; otherwise they go through ``TextOffsets``).
  private var isPlain: Bool { specials == 0 && FastPath.plainMirrorEdits.isOn }
  /// The client's buffer version these cells mirror.
  public private(set) var version: Int
  /// Whether an input-method composition is open (nothing is committed meanwhile).
  public private(set) var composing = false

  /// Mirrors a buffer whose whole text is `text` at `version`.
  public init(text: String, version: Int) {
    cells = text
    runs = text.isEmpty ? [] : [Run(state: .normal, count: text.utf8.count)]
    visibleCount = text.utf8.count
    specials = Self.specials(in: text.utf8.span)
    self.version = version
  }

  /// The client's buffer text.
  public var text: String { string { $0 != .inserted } }

  /// The draft the field holds: the buffer without consumed text, with inserted text; the
  /// cells' own `String` (shared, not copied) when none is consumed.
  public var draft: String { string { $0 != .consumed } }

  /// Whether edits wait for the client: consumed text to delete or server text to insert.
  public var hasPendingEdits: Bool { runs.contains { $0.state != .normal } }

  /// Same as ``hasPendingEdits`` (the name from before the server could insert text).
  public var hasConsumedText: Bool { hasPendingEdits }

  /// The text of the runs whose state `include` accepts, copied run by run.
  private func string(where include: (State) -> Bool) -> String {
    var length = 0
    for run in runs where include(run.state) { length += run.count }
    guard length > 0 else { return "" }
    // The usual case, nothing left out: the cells' own value, shared.
    if length == cells.utf8.count { return cells }
    var gathered: [UInt8] = []
    gathered.reserveCapacity(length)
    var from = 0
    for run in runs {
      if include(run.state) { append(from..<(from + run.count), to: &gathered) }
      from += run.count
    }
    return gathered.span.text()
  }

  /// Appends the cells' UTF-8 between byte offsets `range` to `array`.
  private func append(_ range: Range<Int>, to array: inout [UInt8]) {
    let utf8 = cells.utf8.span
    for offset in range { array.append(utf8[offset]) }
  }

  /// The bytes of the cells between byte offsets `range` that are outside ASCII or line breaks.
  private func specials(_ range: Range<Int>) -> Int {
    Self.specials(in: cells.utf8.span.extracting(range))
  }

  /// The index of the cells' UTF-8 byte `offset` (constant time: the `String` is native UTF-8).
  private func index(_ offset: Int) -> String.Index {
    cells.utf8.index(cells.utf8.startIndex, offsetBy: offset)
  }

  /// The bytes of `text` that are outside ASCII or line breaks.
  private static func specials(in text: Span<UInt8>) -> Int {
    var count = 0
    for offset in text.indices {
      let byte = text[offset]
      if byte >= 0x80 || byte == 0x0A || byte == 0x0D { count += 1 }
    }
    return count
  }

  /// Applies one `field/didChange` to the mirror and runs the commit rule on `field` after each
  /// content change, as slow typing would.
  ///
  /// - Parameters:
  ///   - version: the client's buffer version after the edits; must be greater than ``version``.
  ///   - edits: LSP content changes, applied in order.
  ///   - encoding: how positions count.
  ///   - composing: an input-method composition is open after these edits: no rule runs, and the
  ///     draft becomes the buffer's text as it is (``FieldEvent/draftComposing(_:)``).
  ///   - applied: the edits are the client applying the server's pending edits.
  ///   - field: the field whose draft this buffer holds.
  /// - Returns: what the change did to the field.
  /// - Throws: ``EditorBufferError``; the buffer and field are then unchanged.
  public mutating func clientChanged(
    version: Int,
    edits: TextEdits,
    encoding: PositionEncoding,
    composing: Bool = false,
    applied: Bool = false,
    field: inout TagField
  ) throws(EditorBufferError) -> FieldOutcome {
    guard version > self.version else { throw .staleVersion(current: self.version, given: version) }
    if !composing, !applied, let outcome = keystrokeAtEnd(edits, field: &field) {
      self.version = version
      self.composing = false
      return outcome
    }
    if applied, deletedAllConsumed(edits) {
      self.version = version
      self.composing = composing
      return FieldOutcome()
    }
    // Every edit must fit before anything changes. The rule never changes the client's text,
    // only cell states, so edits that fit the client's text one after another fit the mirror.
    if !plainEditsFit(edits) {
      do throws(TextEditError) {
        _ = try TextOffsets.apply(edits, to: text, encoding: encoding)
        for edit in edits where edit.range == nil {
          if let caret = edit.caret {
            _ = try TextOffsets.index(of: caret, in: edit.newText, encoding: encoding)
          }
        }
      } catch {
        throw .invalidEdit(error)
      }
    }
    var outcome = FieldOutcome()
    // Whether `outcome` holds a step's outcome yet: the first is taken as it is (one edit, the
    // usual change, merges nothing).
    var taken = false
    func take(_ next: consuming FieldOutcome) {
      if taken { outcome.merge(next) } else { outcome = next }
      taken = true
    }
    // Whether the rule ran on the draft as the last edit left it (running it again on its own
    // result changes nothing: that draft holds no separator).
    var committed = false
    // Whether the last edit was typing or a deletion at the end of a draft that is every cell.
    var atEnd = false
    for edit in edits {
      // These cannot fail: the same edits fitted above.
      guard let (start, end, newText) = try? offsets(of: edit, encoding: encoding) else {
        continue
      }
      committed = false
      atEnd = false
      if applied {
        realize(start, end, newText)
      } else if newText.isEmpty, isBackspaceOverConsumedText(start: start, end: end) {
        replace(start, end, with: "", as: .normal)
        take(backspaceOnDraft(&field, composing: composing))
        continue
      } else {
        atEnd = replace(start, end, with: newText, as: .normal)
      }
      // The server's own edits leave the draft as it was: no rule runs on them (a tag edited
      // back into the draft may hold a separator, and only the next keystroke splits it).
      if !composing && !applied {
        take(commit(&field, atEnd: atEnd))
        committed = true
      }
    }
    self.version = version
    self.composing = composing
    if composing {
      take(field.apply(.draftComposing(draft)))
    } else if !applied && !committed {
      // A composition that just ended (possibly with no edits) commits what it held.
      take(commit(&field))
    }
    return outcome
  }

  /// The usual keystroke, applied without the general path's checks and loop.
  ///
  /// One edit typing or deleting at the end of one line of ASCII where nothing is pending, so
  /// the draft is every cell: the cells change at their end and the rule runs, as the general
  /// path would (``FastPath/mirrorKeystroke``); nil, changing nothing, for any other change.
  private mutating func keystrokeAtEnd(
    _ edits: TextEdits,
    field: inout TagField
  ) -> FieldOutcome? {
    guard FastPath.mirrorKeystroke.isOn, edits.isOne, specials == 0,
      runs.count == 0 || (runs.count == 1 && runs[0].state == .normal),
      let range = edits.head.range, range.start.line == 0, range.end.line == 0,
      range.end.character == visibleCount, range.start.character >= 0,
      range.start.character <= range.end.character
    else { return nil }
    let text = edits.head.newText
    if range.start.character == range.end.character {
      cells.append(text)
      Self.append(Run(state: .normal, count: text.utf8.count), to: &runs)
      visibleCount += text.utf8.count
      specials += Self.specials(in: text.utf8.span)
    } else if !text.isEmpty || !removedAtEnd(range.start.character..<range.end.character) {
      return nil
    }
    FastPath.mirrorKeystroke.taken()
    return commit(&field, atEnd: true)
  }

  /// The client applying the update after a keystroke that committed all it had.
  ///
  /// One edit deleting the whole one-line ASCII buffer, every cell consumed: the mirror
  /// empties, as
  /// ``realize(_:_:_:)`` would leave it (``FastPath/mirrorAppliedCommit``); false, changing
  /// nothing, for any other change.
  private mutating func deletedAllConsumed(_ edits: TextEdits) -> Bool {
    guard FastPath.mirrorAppliedCommit.isOn, edits.isOne, specials == 0, runs.count == 1,
      runs[0].state == .consumed, edits.head.newText.isEmpty, let range = edits.head.range,
      range.start.line == 0, range.start.character == 0, range.end.line == 0,
      range.end.character == visibleCount
    else { return false }
    FastPath.mirrorAppliedCommit.taken()
    cells = ""
    runs.removeAll(keepingCapacity: true)
    visibleCount = 0
    return true
  }

  /// Takes the client's change without letting it reach the field (it would take the field past
  /// a limit): the client's text after `edits` is all consumed, and the draft as it was is
  /// inserted after it, so the pending edits put the client's buffer back to the draft.
  ///
  /// - Throws: ``EditorBufferError``, as ``clientChanged(version:edits:encoding:composing:applied:field:)``
  ///   would; the buffer is then unchanged.
  public mutating func refuse(
    version: Int,
    edits: TextEdits,
    encoding: PositionEncoding
  ) throws(EditorBufferError) {
    guard version > self.version else { throw .staleVersion(current: self.version, given: version) }
    let clientText: String
    do throws(TextEditError) {
      clientText = try TextOffsets.apply(edits, to: text, encoding: encoding)
    } catch {
      throw .invalidEdit(error)
    }
    let draft = self.draft
    cells = clientText + draft
    runs = []
    Self.append(Run(state: .consumed, count: clientText.utf8.count), to: &runs)
    Self.append(Run(state: .inserted, count: draft.utf8.count), to: &runs)
    visibleCount = clientText.utf8.count
    specials = Self.specials(in: clientText.utf8.span)
    self.version = version
  }

  /// Whether `edits` fit the client's text one after another, decided without converting
  /// positions: true only while the text is one line of ASCII (``specials`` none) and every
  /// range is on line 0 within it; false means "ask ``TextOffsets``", not "does not fit".
  private func plainEditsFit(_ edits: TextEdits) -> Bool {
    guard isPlain else { return false }
    var length = visibleCount
    for (index, edit) in edits.enumerated() {
      var removed = length
      if let range = edit.range {
        guard range.start.line == 0, range.end.line == 0, range.start.character >= 0,
          range.start.character <= range.end.character, range.end.character <= length
        else { return false }
        removed = range.end.character - range.start.character
      }
      length += edit.newText.utf8.count - removed
      // Text that brings a line break or non-ASCII: the rest is checked the general way.
      if index < edits.count - 1, Self.specials(in: edit.newText.utf8.span) > 0 { return false }
    }
    FastPath.plainMirrorEdits.taken()
    return true
  }

  /// Whether an edit is a Backspace aimed at text the user can still see but the server has
  /// already consumed.
  ///
  /// It deletes exactly one character (grapheme), consumed, at the end of the client's buffer. A
  /// slow typist would not have seen that character: the buffer would have held the draft, and
  /// Backspace would have deleted the draft's last character, or, on an empty draft, acted on
  /// the tags. Larger deletions (a word, a line) of consumed text only tidy the buffer.
  private func isBackspaceOverConsumedText(start: Int, end: Int) -> Bool {
    guard start < end, end == visibleCount else { return false }
    var removed: [UInt8] = []
    var visible = 0
    var at = 0
    for run in runs {
      defer { at += run.count }
      guard run.state != .inserted else { continue }
      let lower = max(start, visible)
      let upper = min(end, visible + run.count)
      visible += run.count
      guard lower < upper else { continue }
      guard run.state == .consumed else { return false }
      append(
        (at + lower - (visible - run.count))..<(at + upper - (visible - run.count)),
        to: &removed
      )
    }
    return String(decoding: removed, as: UTF8.self).count == 1
  }

  /// Backspace as a slow typist would have pressed it, on the draft with the caret at its end
  /// (while `composing`, without running the rule on what is left).
  private mutating func backspaceOnDraft(
    _ field: inout TagField,
    composing: Bool = false
  ) -> FieldOutcome {
    let outcome: FieldOutcome
    if field.selected == nil, !field.draft.isEmpty {
      let shorter = String(field.draft.dropLast())
      outcome = field.apply(composing ? .draftComposing(shorter) : .draftChanged(shorter))
    } else {
      outcome = field.apply(.deletedBackward)
    }
    retarget(to: field.draft)
    return outcome
  }

  /// Applies a field event that does not come from the buffer (Return, Backspace on an empty
  /// buffer, tags added, removed, edited, undo, …), keeping the buffer consistent: the draft
  /// the event leaves is what the buffer will hold once the client applies the pending edits.
  ///
  /// Backspace on a buffer the client sees as empty while the draft holds text the server has
  /// inserted deletes the last character of that text, as a slow typist's Backspace would.
  public mutating func apply(_ event: FieldEvent, to field: inout TagField) -> FieldOutcome {
    // The client sends Backspace as a request only when its buffer is empty (no normal cells);
    // a draft then holds only text the server inserted, which a slow typist would have seen.
    if case .deletedBackward = event, !runs.contains(where: { $0.state == .normal }) {
      return backspaceOnDraft(&field)
    }
    let outcome = field.apply(event)
    retarget(to: field.draft)
    return outcome
  }

  /// The edits that turn the client's buffer at ``version`` into the draft (``forEachPendingEdit(encoding:_:)``'s).
  public func pendingEdits(encoding: PositionEncoding) -> [TextEdit] {
    var edits: [TextEdit] = []
    forEachPendingEdit(encoding: encoding) { edits.append($0) }
    return edits
  }

  /// Gives `body` the edits that turn the client's buffer at ``version`` into the draft.
  ///
  /// Each maximal run of consumed and inserted cells becomes one edit replacing the run's consumed text with its
  /// inserted text. Given from last to first, so applying them one by one in order is correct;
  /// walked from the end, so a writer takes each as it comes (no array to make and free).
  public func forEachPendingEdit(encoding: PositionEncoding, _ body: (TextEdit) -> Void) {
    // One line of ASCII: a byte offset is the character in every encoding.
    let text = isPlain ? "" : self.text
    func position(_ offset: Int) -> TextPosition {
      guard !isPlain else { return TextPosition(line: 0, character: offset) }
      let index = text.utf8.index(text.utf8.startIndex, offsetBy: offset)
      return TextOffsets.position(of: index, in: text, encoding: encoding)
    }
    var visible = visibleCount
    var at = cells.utf8.count
    var index = runs.count
    while index > 0 {
      guard runs[index - 1].state != .normal else {
        index -= 1
        visible -= runs[index].count
        at -= runs[index].count
        continue
      }
      let (end, upper) = (visible, index)
      while index > 0, runs[index - 1].state != .normal {
        index -= 1
        if runs[index].state == .consumed { visible -= runs[index].count }
        at -= runs[index].count
      }
      var inserted: [UInt8] = []
      var from = at
      for run in runs[index..<upper] {
        if run.state == .inserted { append(from..<(from + run.count), to: &inserted) }
        from += run.count
      }
      body(
        TextEdit(
          range: TextRange(start: position(visible), end: position(end)),
          newText: inserted.isEmpty ? "" : String(decoding: inserted, as: UTF8.self)
        )
      )
    }
  }

  /// Runs the commit rule on the draft and updates the cells to match (used when a field opens
  /// with text, and after every change).
  ///
  /// `atEnd`: the draft is every cell and the last edit typed or deleted at its end, which the
  /// field is told (``TagField/applyDraftEditedAtEnd(_:)``).
  public mutating func commit(_ field: inout TagField, atEnd: Bool = false) -> FieldOutcome {
    let outcome = atEnd ? field.applyDraftEditedAtEnd(cells) : field.apply(.draftChanged(draft))
    // The rule rewrites the draft only when it found a separator, and then every piece before
    // it was added or dropped: otherwise (most keystrokes) the cells already spell the draft.
    if outcome.added.isEmpty && outcome.dropped.isEmpty { return outcome }
    retarget(to: field.draft)
    return outcome
  }

  // MARK: Cells

  /// Makes the draft cells spell `newDraft`.
  ///
  /// When the new draft is a suffix of the old one (the commit rule, which keeps what follows
  /// the last separator), the cells before it are consumed. Otherwise the server replaced the
  /// draft (a tag edited back into it, undo, redo): every draft cell is consumed (cells the
  /// client never had simply go) and the new draft is inserted at the end of the buffer, where
  /// a slow typist's caret would be. Reusing common text instead would tie the user's later
  /// Backspaces to characters that now mean something else.
  ///
  /// Compared as bytes: a UTF-8 suffix of whole scalars starts at a scalar boundary.
  private mutating func retarget(to newDraft: String) {
    let draftCount = runs.reduce(0) { $0 + ($1.state != .consumed ? $1.count : 0) }
    let newCount = newDraft.utf8.count
    guard newCount <= draftCount, draftEnds(with: newDraft) else {
      return replaceDraft(keeping: 0, inserting: newDraft)
    }
    if newCount == draftCount { return }
    replaceDraft(keeping: newCount, inserting: nil)
  }

  /// Whether the draft cells end with the bytes of `suffix`, compared run by run from the end.
  private func draftEnds(with suffix: String) -> Bool {
    let wanted = suffix.utf8.span
    let source = cells.utf8.span
    var left = wanted.count
    var end = source.count
    var index = runs.count
    while left > 0, index > 0 {
      index -= 1
      let run = runs[index]
      defer { end -= run.count }
      guard run.state != .consumed else { continue }
      let length = min(left, run.count)
      let mine = source.extracting((end - length)..<end)
      guard String.sameBytes(mine, wanted.extracting((left - length)..<left)) else { return false }
      left -= length
    }
    return left == 0
  }

  /// Consumes every draft cell but the last `keep` bytes of them (normal cells become
  /// consumed, inserted ones go) and, when `inserting` is given, inserts it at the end.
  ///
  /// In place, run by run (the runs and cells were built anew on every commit).
  private mutating func replaceDraft(keeping keep: Int, inserting: String?) {
    let draftCount = runs.reduce(0) { $0 + ($1.state != .consumed ? $1.count : 0) }
    var affected = draftCount - keep
    var index = 0
    var at = 0
    while affected > 0, index < runs.count {
      let run = runs[index]
      guard run.state != .consumed else {
        at += run.count
        index += 1
        continue
      }
      let length = min(affected, run.count)
      affected -= length
      if run.state == .inserted {
        // Its first `length` cells go: the client never had them.
        cells.removeSubrange(self.index(at)..<self.index(at + length))
        if length == run.count {
          runs.remove(at: index)
        } else {
          runs[index].count -= length
          at += run.count - length
          index += 1
        }
      } else if length == run.count {
        runs[index].state = .consumed
        at += run.count
        index += 1
      } else {
        // Its first `length` cells are consumed, the rest stays normal.
        runs[index].count -= length
        runs.insert(Run(state: .consumed, count: length), at: index)
        at += run.count
        index += 2
      }
    }
    // Runs in one state that now meet are joined.
    index = 1
    while index < runs.count {
      if runs[index - 1].state == runs[index].state {
        runs[index - 1].count += runs[index].count
        runs.remove(at: index)
      } else {
        index += 1
      }
    }
    if let inserting, !inserting.isEmpty {
      cells.append(inserting)
      Self.append(Run(state: .inserted, count: inserting.utf8.count), to: &runs)
    }
  }

  /// Appends `run` to `runs`, joining it to the last run when their states agree.
  private static func append(_ run: Run, to runs: inout [Run]) {
    guard run.count > 0 else { return }
    if let last = runs.last, last.state == run.state {
      runs[runs.count - 1].count += run.count
    } else {
      runs.append(run)
    }
  }

  /// The byte index of the cell that starts visible (client) byte `offset`, or the cells'
  /// UTF-8 count past the last one.
  private func indexOfVisible(_ offset: Int) -> Int {
    var visible = 0
    var at = 0
    for run in runs {
      if run.state != .inserted {
        if offset < visible + run.count { return at + offset - visible }
        visible += run.count
      }
      at += run.count
    }
    return cells.utf8.count
  }

  /// The cells that the client's range between visible byte offsets `start` and `end` covers.
  ///
  /// A non-empty range runs from its first to its last visible cell, so inserted cells strictly
  /// inside go with it and those at either boundary stay. An empty range (typing) sits after the
  /// inserted cells at its boundary: what a slow typist types goes after text the server put
  /// there.
  private func cellRange(_ start: Int, _ end: Int) -> Range<Int> {
    let lower = indexOfVisible(start)
    return start == end ? lower..<lower : lower..<(indexOfVisible(end - 1) + 1)
  }

  /// Replaces the client's text between visible byte offsets `start` and `end` with `text`
  /// in cells of `state`; true when that typed or deleted at the end of cells that are all
  /// normal, so that the draft is the cells before and after.
  @discardableResult
  private mutating func replace(
    _ start: Int,
    _ end: Int,
    with text: String,
    as state: State
  ) -> Bool {
    let range = cellRange(start, end)
    if range.isEmpty, range.lowerBound == cells.utf8.count {
      // Typing at the end: the text joins the last run or starts one.
      cells.append(text)
      Self.append(Run(state: state, count: text.utf8.count), to: &runs)
      if state != .inserted {
        visibleCount += text.utf8.count
        specials += Self.specials(in: text.utf8.span)
      }
    } else if !(text.isEmpty && removedAtEnd(range)) {
      splice(range, with: text, as: state)
      return false
    }
    return state == .normal && runs.count <= 1 && runs.first?.state != .consumed
  }

  /// Removes the cells at byte `range` when it ends the cells within the last run, which is not
  /// inserted (the usual Backspace, and the client applying a deletion of consumed text);
  /// false, changing nothing, otherwise.
  private mutating func removedAtEnd(_ range: Range<Int>) -> Bool {
    guard FastPath.mirrorDeletionAtEnd.isOn, range.upperBound == cells.utf8.count,
      let last = runs.last, last.count >= range.count, last.state != .inserted
    else { return false }
    FastPath.mirrorDeletionAtEnd.taken()
    visibleCount -= range.count
    specials -= specials(range)
    removeCells(range)
    if last.count == range.count {
      runs.removeLast()
    } else {
      runs[runs.count - 1].count -= range.count
    }
    return true
  }

  /// Replaces the cells at byte `range` with `text` in cells of `state`, keeping the runs and
  /// the client text's counts.
  ///
  /// In place: only the runs that meet the range are replaced (by what is left of the first
  /// before it, the new run, and what is left of the last after it), and neighbours in the same
  /// state are joined where they now meet. The runs were built anew each time, an allocation
  /// per `applied` report.
  private mutating func splice(_ range: Range<Int>, with text: String, as state: State) {
    // The runs wholly before the range stay.
    var first = 0
    var at = 0
    while first < runs.count, at + runs[first].count <= range.lowerBound {
      at += runs[first].count
      first += 1
    }
    let firstStart = at
    // The runs that start before its end meet it: their cells inside it go.
    var end = first
    while end < runs.count, at < range.upperBound {
      let run = runs[end]
      let lower = max(range.lowerBound, at)
      let upper = min(range.upperBound, at + run.count)
      if lower < upper, run.state != .inserted {
        visibleCount -= upper - lower
        specials -= specials(lower..<upper)
      }
      at += run.count
      end += 1
    }
    var head = Run(state: state, count: 0)
    var tail = head
    if first < end {
      head = Run(state: runs[first].state, count: range.lowerBound - firstStart)
      tail = Run(state: runs[end - 1].state, count: at - range.upperBound)
    }
    runs.removeSubrange(first..<end)
    var index = first
    if head.count > 0 {
      runs.insert(head, at: index)
      index += 1
    }
    if !text.isEmpty {
      runs.insert(Run(state: state, count: text.utf8.count), at: index)
      index += 1
    }
    if tail.count > 0 {
      runs.insert(tail, at: index)
      index += 1
    }
    // Join runs in the same state where they now meet, from the right.
    while index >= first, index > 0 {
      if index < runs.count, runs[index - 1].state == runs[index].state {
        runs[index - 1].count += runs[index].count
        runs.remove(at: index)
      }
      index -= 1
    }
    if state != .inserted {
      visibleCount += text.utf8.count
      specials += Self.specials(in: text.utf8.span)
    }
    if range.isEmpty, range.lowerBound == cells.utf8.count {
      cells.append(text)
    } else if text.isEmpty {
      removeCells(range)
    } else {
      cells.replaceSubrange(self.index(range.lowerBound)..<self.index(range.upperBound), with: text)
    }
  }

  /// Removes the cells at byte `range`: a whole or trailing range by taking what is left as a
  /// new `String` (`removeSubrange` cost ~1,000 instructions even for a few bytes), copied as
  /// the valid UTF-8 it is (cells end on scalar boundaries): a `Substring` made into a `String`
  /// checked the bytes again, ~430 more on 1,000.
  private mutating func removeCells(_ range: Range<Int>) {
    if range.upperBound < cells.utf8.count {
      cells.removeSubrange(index(range.lowerBound)..<index(range.upperBound))
    } else if range.lowerBound == 0 {
      cells = ""
    } else {
      let kept = cells.utf8.span.extracting(0..<range.lowerBound)
      let isASCII = cells.utf8Span.isKnownASCII
      cells = String(copying: unsafe UTF8Span(unchecked: kept, isKnownASCII: isASCII))
    }
  }

  /// The client applied one of the server's edits: `text` replaced its consumed text between
  /// visible byte offsets `start` and `end`.
  ///
  /// The consumed cells go; if the inserted cells at that place (up to the nearest normal cells
  /// on either side) still spell `text`, they become normal. Otherwise the server no longer
  /// wants that text there (it was committed or replaced meanwhile), so it lands consumed and
  /// the next update deletes it.
  private mutating func realize(_ start: Int, _ end: Int, _ text: String) {
    let lower = start == 0 ? 0 : indexOfVisible(start - 1) + 1
    let upper = indexOfVisible(end)
    var wanted: [UInt8] = []
    var sawNormal = false
    var at = 0
    for run in runs {
      let lo = max(at, lower)
      let hi = min(at + run.count, upper)
      at += run.count
      guard lo < hi else { continue }
      switch run.state {
      case .normal: sawNormal = true
      case .inserted: append(lo..<hi, to: &wanted)
      case .consumed: break
      }
    }
    if !sawNormal, wanted.elementsEqual(text.utf8) {
      if !(text.isEmpty && removedAtEnd(lower..<upper)) {
        splice(lower..<upper, with: text, as: .normal)
      }
    } else {
      splice(cellRange(start, end), with: text, as: .consumed)
    }
  }

  /// What `edit` replaces in the client's text, as visible byte offsets, and with what.
  ///
  /// A ranged edit replaces its range. A whole-text edit (no range) is compared with the
  /// client's text as the mirror holds it, and becomes the one edit between them
  /// (``difference(to:caret:encoding:)``), so it behaves exactly as the ranged edit an editor
  /// would have sent: pending edits, `applied` reports and Backspace alike.
  private func offsets(
    of edit: TextEdit,
    encoding: PositionEncoding
  ) throws(TextEditError) -> (start: Int, end: Int, newText: String) {
    guard edit.range == nil else {
      let (start, end) = try visibleOffsets(of: edit.range, encoding: encoding)
      return (start, end, edit.newText)
    }
    return try difference(to: edit.newText, caret: edit.caret, encoding: encoding)
  }

  /// The one edit that turns the client's text into `new`, found by comparing them.
  ///
  /// The longest common prefix, then the longest common suffix of what is left: the edit is
  /// what lies between, on whole scalars. Where that is ambiguous — a pure insertion or deletion
  /// inside a run of equal text (`aa` → `aaa`) could sit at several places — it is the last
  /// one, where typing at the end puts it, unless `caret` (a position in `new`) says otherwise:
  /// then the inserted text ends at the caret, or the deletion starts at it, as far as the run
  /// allows. Protocol/sync.md documents the same tie-break.
  func difference(
    to new: String,
    caret: TextPosition?,
    encoding: PositionEncoding
  ) throws(TextEditError) -> (start: Int, end: Int, newText: String) {
    let oldText = text
    let old = oldText.utf8.span
    let newBytes = new.utf8.span
    let shorter = min(old.count, newBytes.count)
    var prefix = 0
    while prefix < shorter, old[prefix] == newBytes[prefix] { prefix += 1 }
    // On a scalar boundary: a common lead byte means the same sequence length in both.
    while prefix > 0, prefix < old.count, old[prefix] & 0xC0 == 0x80 { prefix -= 1 }
    var suffix = 0
    while suffix < shorter - prefix,
      old[old.count - 1 - suffix] == newBytes[newBytes.count - 1 - suffix]
    {
      suffix += 1
    }
    while suffix > 0, old[old.count - suffix] & 0xC0 == 0x80 { suffix -= 1 }
    var start = prefix
    let removed = old.count - prefix - suffix
    let inserted = newBytes.count - prefix - suffix
    if let caret, removed == 0 || inserted == 0 {
      let caretIndex = try TextOffsets.index(of: caret, in: new, encoding: encoding)
      let at = new.utf8.distance(from: new.utf8.startIndex, to: caretIndex)
      // The run moves left while the byte before it equals its last byte (a rotation).
      let run = removed == 0 ? newBytes : old
      let length = max(removed, inserted)
      let target = removed == 0 ? at - length : at
      while start > max(target, 0), run[start - 1] == run[start - 1 + length] { start -= 1 }
      while start < prefix, run[start] & 0xC0 == 0x80 { start += 1 }
    }
    return (start, start + removed, newBytes.extracting(start..<(start + inserted)).text())
  }

  /// The visible (client) byte offsets of a range in the current client text (nil range: all).
  private func visibleOffsets(
    of range: TextRange?,
    encoding: PositionEncoding
  ) throws(TextEditError) -> (Int, Int) {
    guard let range else { return (0, visibleCount) }
    if isPlain, range.start.line == 0, range.end.line == 0, range.start.character >= 0,
      range.start.character <= range.end.character, range.end.character <= visibleCount
    {
      return (range.start.character, range.end.character)
    }
    let text = self.text
    let utf8 = text.utf8
    let start = utf8.distance(
      from: utf8.startIndex,
      to: try TextOffsets.index(of: range.start, in: text, encoding: encoding)
    )
    let end = utf8.distance(
      from: utf8.startIndex,
      to: try TextOffsets.index(of: range.end, in: text, encoding: encoding)
    )
    guard start <= end else { throw .reversedRange(range) }
    return (start, end)
  }
}

/// Why a client change could not be applied to an ``EditorBuffer``.
public enum EditorBufferError: Error, Hashable, Sendable {
  /// The change's version is not greater than the buffer's.
  case staleVersion(current: Int, given: Int)
  /// A range does not fit the buffer: the client and the mirror have diverged.
  case invalidEdit(TextEditError)
}
