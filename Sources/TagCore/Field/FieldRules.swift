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
  /// A regular expression every tag (trimmed, transformed) must match as a whole; candidates that
  /// do not are dropped as ``DropReason/pattern``.
  public var pattern: TagPattern?
  /// When present, only candidates equal (under the field's equality, after trimming and
  /// transform) to one of these are accepted; the rest are dropped as ``DropReason/notAllowed``.
  public var allow: [String]?
  /// Candidates equal to one of these are dropped as ``DropReason/denied``.
  public var deny: [String]
  /// What Backspace on an empty draft does.
  public var backspace: BackspaceMode
  /// Whether ``FieldEvent/blurred`` commits a non-empty draft.
  public var commitOnBlur: Bool
  /// How many undo steps are kept; 0 keeps none.
  public var historyLimit: Int

  /// Creates rules; the defaults are SPEC §1's and §6's.
  public init(
    separators: Set<Unicode.Scalar> = [",", "\n"],
    maxTags: Int? = nil,
    maxTagLength: Int? = nil,
    caseSensitive: Bool = false,
    transform: TagTransform = .none,
    pattern: TagPattern? = nil,
    allow: [String]? = nil,
    deny: [String] = [],
    backspace: BackspaceMode = .remove,
    commitOnBlur: Bool = false,
    historyLimit: Int = 100
  ) {
    self.separators = separators
    self.maxTags = maxTags
    self.maxTagLength = maxTagLength
    self.caseSensitive = caseSensitive
    self.transform = transform
    self.pattern = pattern
    self.allow = allow
    self.deny = deny
    self.backspace = backspace
    self.commitOnBlur = commitOnBlur
    self.historyLimit = historyLimit
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

/// What Backspace on an empty draft does (SPEC §6 `backspace`).
public enum BackspaceMode: String, Hashable, Sendable, CaseIterable {
  /// Removes the last tag (SPEC §1).
  case remove
  /// The first press selects the last chip, the next removes it.
  case select
  /// The last tag leaves the list and its text becomes the draft.
  case edit
}
