/// The server's mirror of an editor buffer that holds a field's draft, for asynchronous sync.
///
/// The buffer is the client's text at ``version``; some of its characters are *consumed*: text
/// the commit rule has already turned into tags (or spaces it dropped) that the client has not
/// deleted yet. The field's draft is always the buffer without its consumed characters. See
/// `Protocol/sync.md` for the protocol and the argument for why no keystroke is lost.
///
/// ```swift
/// var field = TagField()
/// var buffer = EditorBuffer(text: "", version: 0)
/// _ = try buffer.clientChanged(
///   version: 1, edits: [TextEdit(range: nil, newText: "red,g")], encoding: .utf16, field: &field)
/// // field.tags == ["red"], field.draft == "g"; buffer.pendingEdits(.utf16) deletes "red,"
/// ```
public struct EditorBuffer: Hashable, Sendable {
  /// One character of the buffer and whether it is consumed.
  struct Cell: Hashable, Sendable {
    var scalar: Unicode.Scalar
    var consumed: Bool
  }

  /// The characters, in order.
  private(set) var cells: [Cell]
  /// The client's buffer version these cells mirror.
  public private(set) var version: Int
  /// Whether an input-method composition is open (nothing is committed meanwhile).
  public private(set) var composing = false

  /// Mirrors a buffer whose whole text is `text` at `version`.
  public init(text: String, version: Int) {
    cells = text.unicodeScalars.map { Cell(scalar: $0, consumed: false) }
    self.version = version
  }

  /// The client's buffer text.
  public var text: String { string(includingConsumed: true) }

  /// The buffer without consumed characters: the draft the field should hold.
  public var draft: String { string(includingConsumed: false) }

  /// The cells' text as UTF-8 built in one buffer (appending scalars to a String one by one
  /// was most of the sync path's cost).
  private func string(includingConsumed: Bool) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(cells.count)
    for cell in cells where includingConsumed || !cell.consumed {
      let value = cell.scalar.value
      if value < 0x80 {
        bytes.append(UInt8(truncatingIfNeeded: value))
      } else {
        UTF8.encode(cell.scalar) { bytes.append($0) }
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Whether any consumed characters still wait for the client to delete them.
  public var hasConsumedText: Bool { cells.contains { $0.consumed } }

  /// Applies one `field/didChange` to the mirror and runs the commit rule on `field`.
  ///
  /// - Parameters:
  ///   - version: the client's buffer version after the edits; must be greater than ``version``.
  ///   - edits: LSP content changes, applied in order.
  ///   - encoding: how positions count.
  ///   - composing: an input-method composition is open after these edits.
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
    // Apply every edit to a copy of the (small) buffer first, so a misfit edit changes nothing;
    // the field (which may hold many tags) is touched only once all edits fit.
    var next = self
    var backspaces = 0
    for edit in edits {
      let (start, end): (Int, Int)
      do throws(TextEditError) {
        (start, end) = try next.offsets(of: edit.range, encoding: encoding)
      } catch {
        throw .invalidEdit(error)
      }
      if !applied, next.isBackspaceOverConsumedText(edit, start: start, end: end) {
        backspaces += 1
      }
      next.cells.replaceSubrange(
        start..<end,
        with: edit.newText.unicodeScalars.map { Cell(scalar: $0, consumed: false) }
      )
    }
    next.version = version
    next.composing = composing
    self = next
    var outcome = FieldOutcome()
    for _ in 0..<backspaces {
      merge(field.apply(.deletedBackward), into: &outcome)
    }
    if !composing {
      merge(commit(&field), into: &outcome)
    }
    return outcome
  }

  /// Whether an edit is a Backspace aimed at consumed text the user can still see.
  ///
  /// It deletes exactly one character, consumed, at the end of a buffer whose draft is empty. With slow
  /// typing the buffer would have been empty and Backspace would have removed the last tag.
  /// Larger deletions (a word, a line) of consumed text only tidy the buffer.
  private func isBackspaceOverConsumedText(_ edit: TextEdit, start: Int, end: Int) -> Bool {
    guard edit.range != nil, edit.newText.isEmpty, end == cells.count, start < end,
      !cells.contains(where: { !$0.consumed })
    else { return false }
    var removed = String.UnicodeScalarView()
    removed.append(contentsOf: cells[start..<end].lazy.map(\.scalar))
    return String(removed).count == 1
  }

  /// Applies a field event that does not come from the buffer (Return, Backspace on an empty
  /// buffer, tags added or removed), keeping the buffer consistent: Return consumes the draft.
  public mutating func apply(_ event: FieldEvent, to field: inout TagField) -> FieldOutcome {
    let outcome = field.apply(event)
    markConsumed(upTo: field.draft)
    return outcome
  }

  /// The edits that delete every consumed run, against the buffer at ``version``, listed from
  /// last to first so applying them one by one in order is correct.
  public func pendingEdits(encoding: PositionEncoding) -> [TextEdit] {
    var runs: [Range<Int>] = []
    var i = 0
    while i < cells.count {
      guard cells[i].consumed else {
        i += 1
        continue
      }
      let start = i
      while i < cells.count && cells[i].consumed { i += 1 }
      runs.append(start..<i)
    }
    guard !runs.isEmpty else { return [] }
    let text = self.text
    let scalars = text.unicodeScalars
    return runs.reversed().map { run in
      let start = scalars.index(scalars.startIndex, offsetBy: run.lowerBound)
      let end = scalars.index(start, offsetBy: run.count)
      let range = TextRange(
        start: TextOffsets.position(of: start, in: text, encoding: encoding),
        end: TextOffsets.position(of: end, in: text, encoding: encoding)
      )
      return TextEdit(range: range, newText: "")
    }
  }

  /// Runs the commit rule on the draft and marks what it consumed (used when a field opens
  /// with text, and after every change).
  public mutating func commit(_ field: inout TagField) -> FieldOutcome {
    let outcome = field.apply(.draftChanged(draft))
    markConsumed(upTo: field.draft)
    return outcome
  }

  /// Marks the leading unconsumed characters consumed until only `remaining` (a suffix of the
  /// current draft, as the commit rule guarantees) is left unconsumed.
  private mutating func markConsumed(upTo remaining: String) {
    var excess = cells.lazy.filter { !$0.consumed }.count - remaining.unicodeScalars.count
    var i = 0
    while excess > 0 && i < cells.count {
      if !cells[i].consumed {
        cells[i].consumed = true
        excess -= 1
      }
      i += 1
    }
  }

  /// The scalar offsets of a range in the current text (nil range: the whole text).
  private func offsets(
    of range: TextRange?,
    encoding: PositionEncoding
  ) throws(TextEditError) -> (Int, Int) {
    guard let range else { return (0, cells.count) }
    let text = self.text
    let scalars = text.unicodeScalars
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

  private func merge(_ other: FieldOutcome, into outcome: inout FieldOutcome) {
    outcome.added += other.added
    outcome.removed += other.removed
    outcome.dropped += other.dropped
  }
}

/// Why a client change could not be applied to an ``EditorBuffer``.
public enum EditorBufferError: Error, Hashable, Sendable {
  /// The change's version is not greater than the buffer's.
  case staleVersion(current: Int, given: Int)
  /// A range does not fit the buffer: the client and the mirror have diverged.
  case invalidEdit(TextEditError)
}
