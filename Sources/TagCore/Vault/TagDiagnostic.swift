/// A problem with one tag of a note (SPEC §6e `publishDiagnostics`, §6f `tagd check`).
public struct TagDiagnostic: Hashable, Sendable {
  /// The four codes.
  public enum Code: String, Hashable, Sendable, CaseIterable {
    /// A spelling other than the vault's.
    case variant = "tag-variant"
    /// The same tag (caseless) twice in one list.
    case repeated = "tag-repeated"
    /// The vocabulary's `allow` lacks the tag, or its `deny` has it.
    case notAllowed = "tag-not-allowed"
    /// The tag is an alias (`[aliases]`) of another tag.
    case alias = "tag-alias"
  }

  /// What a quick fix does.
  public enum Fix: Hashable, Sendable {
    /// Write the vault's spelling instead, in every note (``NoteRename/plan(_:kind:from:to:)``
    /// from the tag's text to this spelling).
    case useSpelling(String)
    /// Remove this entry (``NoteRename/removing(_:in:kind:)``): it repeats the entry whose text
    /// is at `first`.
    case removeRepeat(first: Range<Int>)
    /// Write the alias's tag instead (``NoteRename/plan(_:kind:from:to:)`` from the tag's text
    /// to this tag).
    case useTag(String)
  }

  /// Which problem.
  public var code: Code
  /// The tag it is about: its text's byte range, line and place.
  public var tag: NoteTag
  /// The problem in English.
  public var message: String
  /// What a quick fix does; nil when there is none (`tag-not-allowed`).
  public var fix: Fix?

  /// The UTF-8 byte range the diagnostic covers: the tag's text.
  public var range: Range<Int> { tag.range }

  /// Creates a diagnostic.
  public init(code: Code, tag: NoteTag, message: String, fix: Fix?) {
    self.code = code
    self.tag = tag
    self.message = message
    self.fix = fix
  }
}

/// The diagnostics of one note.
public enum TagDiagnostics {
  /// The problems of `tags` (one note's, as ``NoteReader`` read them) against the vault
  /// `index` (which should already hold this note's tags) and its `vocabulary`, in the note's
  /// order.
  ///
  /// A repeat is reported as `tag-repeated` only. An alias is reported as `tag-alias` and not
  /// also as not allowed or as a variant. Otherwise a tag may be both not allowed and a
  /// variant.
  public static func check(
    _ tags: [NoteTag],
    index: VaultIndex,
    vocabulary: Vocabulary? = nil
  ) -> [TagDiagnostic] {
    var diagnostics: [TagDiagnostic] = []
    var firsts: [Int: [CaselessKey: NoteTag]] = [:]
    var spellings: [CaselessKey: String?] = [:]
    for tag in tags {
      let key = CaselessKey(tag.text)
      if let list = tag.list {
        if let first = firsts[list]?[key] {
          let message =
            first.text.hasSameUTF8(as: tag.text)
            ? "`\(tag.text)` is already in this list (line \(first.line + 1))"
            : "`\(tag.text)` repeats `\(first.text)`, already in this list (line \(first.line + 1))"
          diagnostics.append(
            TagDiagnostic(
              code: .repeated,
              tag: tag,
              message: message,
              fix: .removeRepeat(first: first.range)
            )
          )
          continue
        }
        firsts[list, default: [:]][key] = tag
      }
      if let target = vocabulary?.tag(forAlias: tag.text) {
        diagnostics.append(
          TagDiagnostic(
            code: .alias,
            tag: tag,
            message: "`\(tag.text)` is an alias of `\(target)`",
            fix: .useTag(target)
          )
        )
        continue
      }
      if let refusal = vocabulary?.refusal(of: tag.text) {
        let message =
          switch refusal {
          case .denied: "`\(tag.text)` is denied by the vault's vocabulary (.tagd.toml)"
          case .notInAllow: "`\(tag.text)` is not in the vault's allowed tags (.tagd.toml)"
          }
        diagnostics.append(TagDiagnostic(code: .notAllowed, tag: tag, message: message, fix: nil))
      }
      let spelling: String?
      if let known = spellings[key] {
        spelling = known
      } else {
        spelling = index.vaultSpelling(of: tag.text)
        spellings[key] = spelling
      }
      if let spelling, !spelling.hasSameUTF8(as: tag.text) {
        let notes = index.tag(tag.text).map { " (\($0.notes) notes)" } ?? ""
        let how =
          spelling == tag.text
          ? "; the two differ only in how their characters are composed (Unicode normalization)"
          : ""
        diagnostics.append(
          TagDiagnostic(
            code: .variant,
            tag: tag,
            message: "`\(tag.text)` is spelled `\(spelling)` in the vault\(notes)\(how)",
            fix: .useSpelling(spelling)
          )
        )
      }
    }
    return diagnostics
  }
}
