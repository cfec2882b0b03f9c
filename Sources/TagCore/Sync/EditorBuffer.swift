/// The server's mirror of an editor buffer that holds a field's draft, for asynchronous sync.
///
/// The mirror is a sequence of cells, one per Unicode scalar, each in one of three states:
///
/// - **normal**: in the client's buffer and in the draft;
/// - **consumed**: in the client's buffer, but the commit rule has already turned it into tags
///   (or dropped it), or a server-side change replaced it: the client should delete it;
/// - **inserted**: not yet in the client's buffer, but in the draft: text the server put there
///   (editing a tag, undo, redo) that the client should insert.
///
/// The client's buffer at ``version`` is the cells that are not inserted; the field's draft is
/// the cells that are not consumed. ``pendingEdits(encoding:)`` turns the client's buffer into
/// the draft. See `Protocol/sync.md` for the protocol and the argument for why no keystroke is
/// lost.
///
/// ```swift
/// var field = TagField()
/// var buffer = EditorBuffer(text: "", version: 0)
/// _ = try buffer.clientChanged(
///   version: 1, edits: [TextEdit(range: nil, newText: "red,g")], encoding: .utf16, field: &field)
/// // field.tags == ["red"], field.draft == "g"; buffer.pendingEdits(.utf16) deletes "red,"
/// ```
public struct EditorBuffer: Hashable, Sendable {
  /// One scalar of the mirror and its state.
  struct Cell: Hashable, Sendable {
    var scalar: Unicode.Scalar
    var state: State
  }

  /// Where a cell stands between the client's buffer and the draft.
  enum State: UInt8, Hashable, Sendable {
    case normal
    case consumed
    case inserted
  }

  /// The cells, in order.
  private(set) var cells: [Cell]
  /// The client's buffer version these cells mirror.
  public private(set) var version: Int
  /// Whether an input-method composition is open (nothing is committed meanwhile).
  public private(set) var composing = false

  /// Mirrors a buffer whose whole text is `text` at `version`.
  public init(text: String, version: Int) {
    cells = text.unicodeScalars.map { Cell(scalar: $0, state: .normal) }
    self.version = version
  }

  /// The client's buffer text.
  public var text: String { string { $0 != .inserted } }

  /// The draft the field holds: the buffer without consumed text, with inserted text.
  public var draft: String { string { $0 != .consumed } }

  /// Whether edits wait for the client: consumed text to delete or server text to insert.
  public var hasPendingEdits: Bool { cells.contains { $0.state != .normal } }

  /// Same as ``hasPendingEdits`` (the name from before the server could insert text).
  public var hasConsumedText: Bool { hasPendingEdits }

  /// The included cells' text as UTF-8 built in one buffer (appending scalars to a String one
  /// by one was most of the sync path's cost).
  private func string(where include: (State) -> Bool) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(cells.count)
    for cell in cells where include(cell.state) {
      let value = cell.scalar.value
      if value < 0x80 {
        bytes.append(UInt8(truncatingIfNeeded: value))
      } else {
        UTF8.encode(cell.scalar) { bytes.append($0) }
      }
    }
    return String(decoding: bytes, as: UTF8.self)
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
    edits: [TextEdit],
    encoding: PositionEncoding,
    composing: Bool = false,
    applied: Bool = false,
    field: inout TagField
  ) throws(EditorBufferError) -> FieldOutcome {
    guard version > self.version else { throw .staleVersion(current: self.version, given: version) }
    // Every edit must fit before anything changes. The rule never changes the client's text,
    // only cell states, so edits that fit the client's text one after another fit the mirror.
    do throws(TextEditError) {
      _ = try TextOffsets.apply(edits, to: text, encoding: encoding)
    } catch {
      throw .invalidEdit(error)
    }
    var outcome = FieldOutcome()
    for edit in edits {
      // These cannot fail: the same edits fitted above.
      guard let (start, end) = try? visibleOffsets(of: edit.range, encoding: encoding) else {
        continue
      }
      if applied {
        realize(start, end, edit.newText)
      } else if isBackspaceOverConsumedText(edit, start: start, end: end) {
        replace(start, end, with: "")
        outcome.merge(backspaceOnDraft(&field, composing: composing))
        continue
      } else {
        replace(start, end, with: edit.newText)
      }
      // The server's own edits leave the draft as it was: no rule runs on them (a tag edited
      // back into the draft may hold a separator, and only the next keystroke splits it).
      if !composing && !applied { outcome.merge(commit(&field)) }
    }
    self.version = version
    self.composing = composing
    if composing {
      outcome.merge(field.apply(.draftComposing(draft)))
    } else if !applied {
      // A composition that just ended (possibly with no edits) commits what it held.
      outcome.merge(commit(&field))
    }
    return outcome
  }

  /// Whether an edit is a Backspace aimed at text the user can still see but the server has
  /// already consumed.
  ///
  /// It deletes exactly one character (grapheme), consumed, at the end of the client's buffer. A
  /// slow typist would not have seen that character: the buffer would have held the draft, and
  /// Backspace would have deleted the draft's last character, or, on an empty draft, acted on
  /// the tags. Larger deletions (a word, a line) of consumed text only tidy the buffer.
  private func isBackspaceOverConsumedText(_ edit: TextEdit, start: Int, end: Int) -> Bool {
    guard edit.range != nil, edit.newText.isEmpty, start < end else { return false }
    var removed = String.UnicodeScalarView()
    var visible = 0
    for cell in cells where cell.state != .inserted {
      if visible >= start && visible < end {
        guard cell.state == .consumed else { return false }
        removed.append(cell.scalar)
      }
      visible += 1
    }
    return end == visible && String(removed).count == 1
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
    if event == .deletedBackward, !cells.contains(where: { $0.state == .normal }) {
      return backspaceOnDraft(&field)
    }
    let outcome = field.apply(event)
    retarget(to: field.draft)
    return outcome
  }

  /// The edits that turn the client's buffer at ``version`` into the draft.
  ///
  /// Each maximal run of consumed and inserted cells becomes one edit replacing the run's consumed text with its
  /// inserted text. Listed from last to first, so applying them one by one in order is correct.
  public func pendingEdits(encoding: PositionEncoding) -> [TextEdit] {
    var runs: [(start: Int, consumed: Int, text: String.UnicodeScalarView)] = []
    var visible = 0
    var i = 0
    while i < cells.count {
      guard cells[i].state != .normal else {
        visible += 1
        i += 1
        continue
      }
      var run = (start: visible, consumed: 0, text: String.UnicodeScalarView())
      while i < cells.count && cells[i].state != .normal {
        if cells[i].state == .consumed {
          run.consumed += 1
          visible += 1
        } else {
          run.text.append(cells[i].scalar)
        }
        i += 1
      }
      runs.append(run)
    }
    guard !runs.isEmpty else { return [] }
    let text = self.text
    let scalars = text.unicodeScalars
    return runs.reversed().map { run in
      let start = scalars.index(scalars.startIndex, offsetBy: run.start)
      let end = scalars.index(start, offsetBy: run.consumed)
      let range = TextRange(
        start: TextOffsets.position(of: start, in: text, encoding: encoding),
        end: TextOffsets.position(of: end, in: text, encoding: encoding)
      )
      return TextEdit(range: range, newText: String(run.text))
    }
  }

  /// Runs the commit rule on the draft and updates the cells to match (used when a field opens
  /// with text, and after every change).
  public mutating func commit(_ field: inout TagField) -> FieldOutcome {
    let outcome = field.apply(.draftChanged(draft))
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
  private mutating func retarget(to newDraft: String) {
    let draftCells = cells.indices.filter { cells[$0].state != .consumed }
    let new = Array(newDraft.unicodeScalars)
    if draftCells.count == new.count,
      zip(draftCells, new).allSatisfy({ cells[$0.0].scalar == $0.1 })
    {
      return
    }
    var keep = 0
    if new.count <= draftCells.count,
      zip(draftCells.suffix(new.count), new).allSatisfy({ cells[$0.0].scalar == $0.1 })
    {
      keep = new.count
    }
    for index in draftCells.dropLast(keep) where cells[index].state == .normal {
      cells[index].state = .consumed
    }
    var dropped = Set(draftCells.dropLast(keep).filter { cells[$0].state == .inserted })
    // Appending first keeps the indices in `dropped` valid.
    if keep == 0 {
      cells.append(contentsOf: new.map { Cell(scalar: $0, state: .inserted) })
    }
    if !dropped.isEmpty {
      var index = 0
      cells.removeAll { _ in
        defer { index += 1 }
        return dropped.remove(index) != nil
      }
    }
  }

  /// The index of the cell that is visible (client) scalar `offset`, or `cells.count` past the
  /// last one.
  private func indexOfVisible(_ offset: Int) -> Int {
    var visible = 0
    for (index, cell) in cells.enumerated() where cell.state != .inserted {
      if visible == offset { return index }
      visible += 1
    }
    return cells.count
  }

  /// The cells that the client's range between visible offsets `start` and `end` covers.
  ///
  /// A non-empty range runs from its first to its last visible cell, so inserted cells strictly
  /// inside go with it and those at either boundary stay. An empty range (typing) sits after the
  /// inserted cells at its boundary: what a slow typist types goes after text the server put
  /// there.
  private func cellRange(_ start: Int, _ end: Int) -> Range<Int> {
    let lower = indexOfVisible(start)
    return start == end ? lower..<lower : lower..<(indexOfVisible(end - 1) + 1)
  }

  /// Replaces the client's text between visible offsets `start` and `end` with typed `text`.
  private mutating func replace(_ start: Int, _ end: Int, with text: String) {
    cells.replaceSubrange(
      cellRange(start, end),
      with: text.unicodeScalars.map { Cell(scalar: $0, state: .normal) }
    )
  }

  /// The client applied one of the server's edits: `text` replaced its consumed text between
  /// `start` and `end`.
  ///
  /// The consumed cells go; if the inserted cells at that place (up to the nearest normal cells
  /// on either side) still spell `text`, they become normal. Otherwise the server no longer
  /// wants that text there (it was committed or replaced meanwhile), so it lands consumed and
  /// the next update deletes it.
  private mutating func realize(_ start: Int, _ end: Int, _ text: String) {
    let lower = start == 0 ? 0 : indexOfVisible(start - 1) + 1
    let upper = indexOfVisible(end)
    let span = cells[lower..<upper]
    let wanted = span.lazy.filter { $0.state == .inserted }.map(\.scalar)
    if !span.contains(where: { $0.state == .normal }), wanted.elementsEqual(text.unicodeScalars) {
      let kept = span.filter { $0.state == .inserted }.map {
        Cell(scalar: $0.scalar, state: .normal)
      }
      cells.replaceSubrange(lower..<upper, with: kept)
    } else {
      cells.replaceSubrange(
        cellRange(start, end),
        with: text.unicodeScalars.map { Cell(scalar: $0, state: .consumed) }
      )
    }
  }

  /// The visible (client) scalar offsets of a range in the current client text (nil range: all).
  private func visibleOffsets(
    of range: TextRange?,
    encoding: PositionEncoding
  ) throws(TextEditError) -> (Int, Int) {
    let text = self.text
    let scalars = text.unicodeScalars
    guard let range else { return (0, scalars.count) }
    let start = scalars.distance(
      from: scalars.startIndex,
      to: try TextOffsets.index(of: range.start, in: text, encoding: encoding)
    )
    let end = scalars.distance(
      from: scalars.startIndex,
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
