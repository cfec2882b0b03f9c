/// How the `character` of a ``TextPosition`` counts: UTF-8 bytes, UTF-16 code units or code points.
public enum PositionEncoding: String, Sendable, CaseIterable {
  /// Bytes of UTF-8 (Neovim and Vim columns).
  case utf8 = "utf-8"
  /// UTF-16 code units (LSP's default; VS Code, Qt).
  case utf16 = "utf-16"
  /// Unicode scalar values (Emacs points, GTK offsets).
  case utf32 = "utf-32"
}

/// A zero-based line and character offset in a text, as in LSP.
public struct TextPosition: Hashable, Sendable {
  /// Zero-based line; lines end at LF, CR or CRLF.
  public var line: Int
  /// Zero-based offset in the line, in the units of the negotiated ``PositionEncoding``.
  public var character: Int

  /// Creates a position.
  public init(line: Int, character: Int) {
    self.line = line
    self.character = character
  }
}

/// A half-open range between two positions.
public struct TextRange: Hashable, Sendable {
  /// The first position in the range.
  public var start: TextPosition
  /// The position just past the range.
  public var end: TextPosition

  /// Creates a range.
  public init(start: TextPosition, end: TextPosition) {
    self.start = start
    self.end = end
  }
}

/// One LSP-style content change: replace `range` with `newText`, or the whole text when `range` is nil.
public struct TextEdit: Hashable, Sendable {
  /// The replaced range, or nil to replace the whole text.
  public var range: TextRange?
  /// The replacement text.
  public var newText: String
  /// For a whole-text change, where the editor's caret is in `newText`, when it knows: what
  /// places an edit found by comparing texts (``EditorBuffer``) inside a run of equal text.
  public var caret: TextPosition?

  /// Creates an edit.
  public init(range: TextRange?, newText: String, caret: TextPosition? = nil) {
    self.range = range
    self.newText = newText
    self.caret = caret
  }
}

/// Content changes in order, as a message carries them (LSP `contentChanges`).
///
/// The first is held inline, any others in an array. Editors send one change a message, which
/// then allocates nothing and is destroyed as one `String`, not through an array's or an
/// `Optional`'s metadata (why the first is not a `TextEdit?`).
public struct TextEdits: RandomAccessCollection, ExpressibleByArrayLiteral, Hashable, Sendable {
  /// The first change, when ``hasHead``; an empty whole-text change otherwise.
  @usableFromInline var head = TextEdit(range: nil, newText: "")
  /// Whether there is a change (``head``).
  @usableFromInline var hasHead = false
  /// The changes after the first (an empty array allocates nothing).
  @usableFromInline var tail: [TextEdit] = []

  /// No changes.
  @inlinable public init() {}

  /// `edits`, in order.
  public init(_ edits: some Sequence<TextEdit>) {
    for edit in edits { append(edit) }
  }

  /// `edits`, in order.
  public init(arrayLiteral edits: TextEdit...) { self.init(edits) }

  /// Adds `edit` after the others.
  @inlinable public mutating func append(_ edit: TextEdit) {
    if hasHead { tail.append(edit) } else { (head, hasHead) = (edit, true) }
  }

  /// Removes every change; the tail keeps its capacity (and the head its text until replaced).
  @inlinable public mutating func removeAll() {
    hasHead = false
    if !tail.isEmpty { tail.removeAll(keepingCapacity: true) }
  }

  /// The UTF-8 bytes of every change's text, together.
  public var textBytes: Int {
    tail.reduce(hasHead ? head.newText.utf8.count : 0) { $0 + $1.newText.utf8.count }
  }

  /// Whether there is exactly one change, ``head`` (read in place, not copied out).
  var isOne: Bool { hasHead && tail.isEmpty }

  @inlinable public var startIndex: Int { 0 }
  @inlinable public var endIndex: Int { hasHead ? 1 + tail.count : 0 }
  @inlinable public subscript(position: Int) -> TextEdit {
    position == 0 && hasHead ? head : tail[position - 1]
  }
}

/// Why a position or edit could not be applied to a text.
public enum TextEditError: Error, Hashable, Sendable {
  /// The line is past the last line, or the character past the end of its line.
  case outOfRange(TextPosition)
  /// The position falls inside a character: between a UTF-16 surrogate pair, inside a UTF-8
  /// sequence, or between the CR and LF of a CRLF.
  case insideCharacter(TextPosition)
  /// The range's end comes before its start.
  case reversedRange(TextRange)
}

/// Converts between ``TextPosition``s and string indices, and applies ``TextEdit``s.
///
/// Lines end at LF, CR or CRLF, as in LSP. Indices are at Unicode-scalar granularity: a position
/// may fall between two scalars of one grapheme cluster (between `e` and U+0301), but never inside
/// a scalar's UTF-8 bytes, between a UTF-16 surrogate pair, or between the CR and LF of a CRLF.
/// Unlike LSP, which clamps, positions past the last line or past the end of their line are
/// rejected. Every call is linear in the length of the text.
public enum TextOffsets {
  /// The index in `text` that `position` names, counted in `encoding`.
  ///
  /// The index is a boundary of `text.unicodeScalars`; the end of a line is the index of its line
  /// break (or `text.endIndex` on the last line).
  ///
  /// - Throws: ``TextEditError`` when the position is outside the text or inside a character.
  public static func index(
    of position: TextPosition,
    in text: String,
    encoding: PositionEncoding
  ) throws(TextEditError) -> String.Index {
    guard position.line >= 0, position.character >= 0 else {
      throw .outOfRange(position)
    }
    let scalars = text.unicodeScalars
    var cursor = scalars.startIndex
    var line = 0
    while line < position.line {
      guard cursor < scalars.endIndex else { throw .outOfRange(position) }
      let scalar = scalars[cursor]
      cursor = scalars.index(after: cursor)
      if scalar == "\n" {
        line += 1
      } else if scalar == "\r" {
        if cursor < scalars.endIndex, scalars[cursor] == "\n" {
          cursor = scalars.index(after: cursor)
        }
        line += 1
      }
    }
    var counted = 0
    while counted < position.character {
      guard cursor < scalars.endIndex else { throw .outOfRange(position) }
      let scalar = scalars[cursor]
      if scalar == "\n" || scalar == "\r" {
        let next = scalars.index(after: cursor)
        let isCRLF = scalar == "\r" && next < scalars.endIndex && scalars[next] == "\n"
        if isCRLF && position.character == counted + 1 {
          throw .insideCharacter(position)
        }
        throw .outOfRange(position)
      }
      counted += width(of: scalar, in: encoding)
      if counted > position.character { throw .insideCharacter(position) }
      cursor = scalars.index(after: cursor)
    }
    return cursor
  }

  /// The position of `index` in `text`, counted in `encoding`.
  ///
  /// Never fails: an index inside a scalar counts as the start of that scalar, an index between
  /// the CR and LF of a CRLF as the end of its line, and an index past the end as the end.
  public static func position(
    of index: String.Index,
    in text: String,
    encoding: PositionEncoding
  ) -> TextPosition {
    let scalars = text.unicodeScalars
    var cursor = scalars.startIndex
    var line = 0
    var character = 0
    while cursor < index, cursor < scalars.endIndex {
      let scalar = scalars[cursor]
      var next = scalars.index(after: cursor)
      if next > index { break }
      if scalar == "\r", next < scalars.endIndex, scalars[next] == "\n" {
        next = scalars.index(after: next)
        if next > index { break }
      }
      if scalar == "\n" || scalar == "\r" {
        line += 1
        character = 0
      } else {
        character += width(of: scalar, in: encoding)
      }
      cursor = next
    }
    return TextPosition(line: line, character: character)
  }

  /// Applies `edits` in order, each to the text the previous one produced (LSP `didChange` rule).
  ///
  /// - Throws: ``TextEditError`` for the first edit that does not fit; the text is then unchanged.
  public static func apply(
    _ edits: some Sequence<TextEdit>,
    to text: String,
    encoding: PositionEncoding
  ) throws(TextEditError) -> String {
    var result = text
    for edit in edits {
      guard let range = edit.range else {
        result = edit.newText
        continue
      }
      let start = try index(of: range.start, in: result, encoding: encoding)
      let end = try index(of: range.end, in: result, encoding: encoding)
      guard start <= end else { throw .reversedRange(range) }
      // Spliced as UTF-8 runs (the indices are scalar boundaries): a copy of each side.
      let scalars = result.unicodeScalars
      result = String(scalars[..<start]) + edit.newText + String(scalars[end...])
    }
    return result
  }

  /// How many units of `encoding` `scalar` takes.
  private static func width(of scalar: Unicode.Scalar, in encoding: PositionEncoding) -> Int {
    switch encoding {
    case .utf8: scalar.utf8.count
    case .utf16: scalar.utf16.count
    case .utf32: 1
    }
  }
}
