/// The per-field options that decide how typed text becomes tags.
public struct FieldRules: Hashable, Sendable {
  /// Characters that end a tag.
  ///
  /// `"\n"` stands for every newline: LF, CR and CRLF (a CRLF counts once). Default: comma and newline.
  public var separators: Set<Unicode.Scalar>
  /// The most tags the field holds; candidates past it are dropped as ``DropReason/tooMany(limit:)``.
  public var maxTags: Int?
  /// The longest tag in characters (grapheme clusters), after trimming and transform.
  public var maxTagLength: Int?
  /// When true, duplicates are found by canonical equivalence only (`a` ≠ `A`).
  public var caseSensitive: Bool
  /// A rewrite applied to each candidate after trimming, before the duplicate check.
  public var transform: TagTransform

  /// Creates rules; the defaults are SPEC §1's.
  public init(
    separators: Set<Unicode.Scalar> = [",", "\n"],
    maxTags: Int? = nil,
    maxTagLength: Int? = nil,
    caseSensitive: Bool = false,
    transform: TagTransform = .none
  ) {
    self.separators = separators
    self.maxTags = maxTags
    self.maxTagLength = maxTagLength
    self.caseSensitive = caseSensitive
    self.transform = transform
  }
}

/// A rewrite applied to every candidate tag.
public enum TagTransform: String, Hashable, Sendable, CaseIterable {
  /// Keep the spelling as typed.
  case none
  /// Lowercase every candidate.
  case lowercase
  /// Uppercase every candidate.
  case uppercase
}
