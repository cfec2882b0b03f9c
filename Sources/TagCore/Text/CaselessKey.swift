/// The identity of a tag for duplicate detection: caseless and locale-independent.
///
/// Two tags are the same when their keys are equal: Unicode full case folding plus canonical
/// equivalence (`Straße` = `STRASSE`, `é` = `e` + U+0301, `ﬁ` = `FI`, `Σ` = `ς`; Turkish `İ` ≠ `i`).
/// Keys are hashable, so a batch of N candidates is checked in O(N).
///
/// The fold is `uppercased().lowercased()` (the standard library's full, locale-independent case
/// mappings), which agrees with Unicode full case folding on every SPEC §1 example: uppercasing
/// first brings `ß`/`ss`, `ﬁ`/`fi` and `ς`/`σ` to one spelling. Canonical equivalence comes from
/// `String` equality and hashing. ASCII text, the common case on large pastes, takes a fast path
/// that lowercases bytes and keeps the original storage when nothing changes.
public struct CaselessKey: Hashable, Sendable {
  /// The folded text; compared with `String` equality, which is canonical equivalence.
  public let folded: String

  /// Folds `text` into its caseless key.
  public init(_ text: String) {
    folded = Self.fold(text)
  }

  /// The caseless fold of `text`; see the type's documentation.
  static func fold(_ text: String) -> String {
    var hasUpperASCII = false
    for byte in text.utf8 {
      if byte >= 0x80 { return text.uppercased().lowercased() }
      if byte >= 0x41 && byte <= 0x5A { hasUpperASCII = true }
    }
    guard hasUpperASCII else { return text }
    let bytes = text.utf8.map { byte in byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
    return String(decoding: bytes, as: UTF8.self)
  }
}
