import Shortcuts

/// The identity of a tag for duplicate detection: caseless and locale-independent.
///
/// Two tags are the same when their keys are equal: Unicode full case folding plus canonical
/// equivalence (`Straße` = `STRASSE`, `é` = `e` + U+0301, `ﬁ` = `FI`, `Σ` = `ς`; Turkish `İ` ≠ `i`).
/// Keys are hashable, so a batch of N candidates is checked in O(N).
///
/// The fold is built from the standard library's full, locale-independent case mappings:
/// `lowercased().uppercased().lowercased()`. Uppercasing brings `ß`/`ss`, `ﬁ`/`fi` and `ς`/`σ` to
/// one spelling; lowercasing first also sends capital `ẞ` through `ß` to `ss`. The mappings differ
/// from Unicode case folding in one letter, dotless `ı` (U+0131), which has no folding (it is not
/// `i`), so it is kept as is. Canonical equivalence comes from `String` equality and hashing.
/// ASCII text, the common case on large pastes, takes a fast path that lowercases bytes and keeps
/// the original storage when nothing changes.
public struct CaselessKey: Hashable, Sendable {
  /// The folded text; compared with `String` equality, which is canonical equivalence.
  public let folded: String

  /// Folds `text` into its caseless key.
  public init(_ text: String) {
    folded = Self.fold(text)
  }

  /// The caseless fold of `text`; see the type's documentation.
  static func fold(_ text: String) -> String {
    let bytes = text.utf8.span
    var seen: UInt8 = 0
    var capitals = 0
    for offset in bytes.indices {
      let byte = bytes[offset]
      seen |= byte
      capitals &+= byte &- 0x41 < 26 ? 1 : 0
    }
    guard seen < 0x80, FastPath.asciiCaselessFold.isOn else { return foldUnicode(text) }
    FastPath.asciiCaselessFold.taken()
    // ASCII: the fold lowers the capitals, which is what `lowercased()` does here.
    return capitals > 0 ? text.lowercased() : text
  }

  /// The fold of text that is not all ASCII.
  private static func foldUnicode(_ text: String) -> String {
    let dotlessI: Unicode.Scalar = "\u{131}"
    guard text.unicodeScalars.contains(dotlessI) else {
      return text.lowercased().uppercased().lowercased()
    }
    // The case mappings are per scalar, so folding the pieces between the `ı`s is the same as
    // folding the whole text with `ı` left alone.
    var folded = ""
    let pieces = text.unicodeScalars.split(separator: dotlessI, omittingEmptySubsequences: false)
    for (number, piece) in pieces.enumerated() {
      if number > 0 { folded.unicodeScalars.append(dotlessI) }
      folded += String(piece).lowercased().uppercased().lowercased()
    }
    return folded
  }
}
