/// The identity of a tag for duplicate detection: caseless and locale-independent.
///
/// Two tags are the same when their keys are equal: Unicode full case folding plus canonical
/// equivalence (`Straße` = `STRASSE`, `é` = `e` + U+0301, `ﬁ` = `FI`, `Σ` = `ς`; Turkish `İ` ≠ `i`).
/// Keys are hashable, so a batch of N candidates is checked in O(N).
public struct CaselessKey: Hashable, Sendable {
  /// The folded text; compared with `String` equality, which is canonical equivalence.
  public let folded: String

  /// Folds `text` into its caseless key.
  public init(_ text: String) {
    fatalError("unimplemented")
  }
}
