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

  /// Creates an edit.
  public init(range: TextRange?, newText: String) {
    self.range = range
    self.newText = newText
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
public enum TextOffsets {
  /// The index in `text` that `position` names, counted in `encoding`.
  ///
  /// - Throws: ``TextEditError`` when the position is outside the text or inside a character.
  public static func index(
    of position: TextPosition,
    in text: String,
    encoding: PositionEncoding
  ) throws(TextEditError) -> String.Index {
    fatalError("unimplemented")
  }

  /// The position of `index` in `text`, counted in `encoding`.
  public static func position(
    of index: String.Index,
    in text: String,
    encoding: PositionEncoding
  ) -> TextPosition {
    fatalError("unimplemented")
  }

  /// Applies `edits` in order, each to the text the previous one produced (LSP `didChange` rule).
  ///
  /// - Throws: ``TextEditError`` for the first edit that does not fit; the text is then unchanged.
  public static func apply(
    _ edits: [TextEdit],
    to text: String,
    encoding: PositionEncoding
  ) throws(TextEditError) -> String {
    fatalError("unimplemented")
  }
}
