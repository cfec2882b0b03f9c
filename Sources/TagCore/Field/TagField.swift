/// The state of one tag input field — its tags and its draft — and the rules that change it.
///
/// A pure value: `apply(_:)` takes an event and returns what happened. The draft never holds a
/// separator after an event has been applied.
///
/// ```swift
/// var field = TagField()
/// let outcome = field.apply(.draftChanged("red, green,blue"))
/// // field.tags == ["red", "green"], field.draft == "blue", outcome.added == ["red", "green"]
/// ```
///
/// ## Candidates
///
/// Every candidate (a piece before a separator, a submitted draft, an entry of
/// ``FieldEvent/tagsAdded(_:)``) goes through the same steps, and the first failing check decides
/// the drop reason:
///
/// 1. trimmed of surrounding whitespace and newlines (`Character.isWhitespace`), then rewritten by
///    ``FieldRules/transform``;
/// 2. empty → ``DropReason/empty``;
/// 3. more characters than ``FieldRules/maxTagLength`` → ``DropReason/tooLong(limit:)``;
/// 4. equal by key to a tag (including one added earlier in the same batch) →
///    ``DropReason/duplicate(of:)``;
/// 5. the field already holds ``FieldRules/maxTags`` → ``DropReason/tooMany(limit:)``;
/// 6. otherwise appended, spelled as typed (after the transform).
///
/// Keys are ``CaselessKey``s, or the text itself (canonical equivalence only) when
/// ``FieldRules/caseSensitive``. Duplicates are found through a hashed index kept alongside the
/// tags, so a paste of N tags costs O(N).
public struct TagField: Hashable, Sendable {
  /// The committed tags, in order, spelled as first typed.
  public private(set) var tags: [String]
  /// The text still in the box: never contains a separator.
  public private(set) var draft: String
  /// The rules this field follows.
  public let rules: FieldRules
  /// The UTF-8 bytes of all tags, kept up to date as tags come and go (for memory limits).
  public private(set) var tagBytes = 0

  /// The key of each tag, parallel to `tags`.
  private var keys: [String]
  /// The index in `tags` of the tag with each key.
  private var indexByKey: [String: Int]

  /// Creates an empty field.
  public init(rules: FieldRules = FieldRules()) {
    self.rules = rules
    tags = []
    draft = ""
    keys = []
    indexByKey = [:]
  }

  /// Applies one event and reports what it did.
  ///
  /// - ``FieldEvent/draftChanged(_:)``: text without a separator becomes the draft exactly as
  ///   given. Otherwise every piece before the last separator is a candidate, and the piece after
  ///   it, less its leading U+0020 spaces (other whitespace stays), becomes the draft. The new
  ///   draft is therefore always a suffix of the text given, which lets a front end keep its caret
  ///   by counting from the end. Newline separators: LF, CR and a CRLF pair each end one piece.
  /// - ``FieldEvent/submitted``: the draft is one candidate, as if a separator were typed after it
  ///   (an empty or blank draft reports an ``DropReason/empty`` drop); the draft empties.
  /// - ``FieldEvent/deletedBackward``: with an empty draft, removes the last tag; otherwise nothing.
  /// - ``FieldEvent/tagsAdded(_:)``: each entry is one candidate; entries are not split on
  ///   separators. The draft is untouched.
  /// - ``FieldEvent/tagRemoved(at:)`` and ``FieldEvent/tagRemovedMatching(_:)``: remove one tag,
  ///   or nothing when the index is out of range or no tag matches.
  public mutating func apply(_ event: FieldEvent) -> FieldOutcome {
    var outcome = FieldOutcome()
    switch event {
    case .draftChanged(let text):
      guard let split = FieldText.split(text, separators: rules.separators) else {
        draft = text
        break
      }
      reserve(split.pieces.count, in: &outcome)
      for piece in split.pieces {
        admit(piece, into: &outcome)
      }
      draft = split.draft
    case .submitted:
      let candidate = draft
      draft = ""
      admit(candidate, into: &outcome)
    case .deletedBackward:
      if draft.isEmpty, !tags.isEmpty {
        outcome.removed.append(remove(at: tags.count - 1))
      }
    case .tagsAdded(let entries):
      reserve(entries.count, in: &outcome)
      for entry in entries {
        admit(entry, into: &outcome)
      }
    case .tagRemoved(let index):
      if tags.indices.contains(index) {
        outcome.removed.append(remove(at: index))
      }
    case .tagRemovedMatching(let text):
      if let index = index(of: text) {
        outcome.removed.append(remove(at: index))
      }
    }
    return outcome
  }

  /// The index of the tag equal (under this field's rules) to `text`, if any.
  ///
  /// `text` is normalised as a candidate would be (trimmed, transformed), so this is the index a
  /// candidate `text` would be reported a ``DropReason/duplicate(of:)`` of.
  public func index(of text: String) -> Int? {
    let candidate = normalized(text)
    guard !candidate.isEmpty else { return nil }
    return indexByKey[key(of: candidate)]
  }

  // MARK: Equality

  /// Fields are equal when their tags, drafts and rules are; the key index follows from those.
  public static func == (lhs: TagField, rhs: TagField) -> Bool {
    lhs.tags == rhs.tags && lhs.draft == rhs.draft && lhs.rules == rhs.rules
  }

  /// Hashes the tags, draft and rules.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(tags)
    hasher.combine(draft)
    hasher.combine(rules)
  }

  // MARK: Candidates

  /// Trims `text` and applies the rules' transform.
  private func normalized(_ text: String) -> String {
    let trimmed = FieldText.trimmed(text)
    switch rules.transform {
    case .none: return String(trimmed)
    case .lowercase: return trimmed.lowercased()
    case .uppercase: return trimmed.uppercased()
    }
  }

  /// The duplicate-detection key of an already normalised candidate.
  private func key(of candidate: String) -> String {
    rules.caseSensitive ? candidate : CaselessKey.fold(candidate)
  }

  /// Makes room for a batch of candidates up front, so a paste of N tags grows each table once.
  private mutating func reserve(_ count: Int, in outcome: inout FieldOutcome) {
    guard count > 16 else { return }
    let room = min(count, rules.maxTags ?? count)
    tags.reserveCapacity(tags.count + room)
    keys.reserveCapacity(keys.count + room)
    indexByKey.reserveCapacity(indexByKey.count + room)
    outcome.added.reserveCapacity(room)
  }

  /// Runs one candidate through the checks (empty, too long, duplicate, too many) in that order.
  private mutating func admit(_ text: String, into outcome: inout FieldOutcome) {
    let candidate = normalized(text)
    if candidate.isEmpty {
      outcome.dropped.append(DroppedCandidate(text: "", reason: .empty))
      return
    }
    // A string has at most as many characters as UTF-8 bytes: count characters only if needed.
    if let limit = rules.maxTagLength, candidate.utf8.count > limit, candidate.count > limit {
      outcome.dropped.append(DroppedCandidate(text: candidate, reason: .tooLong(limit: limit)))
      return
    }
    let key = key(of: candidate)
    if let existing = indexByKey[key] {
      outcome.dropped.append(DroppedCandidate(text: candidate, reason: .duplicate(of: existing)))
      return
    }
    if let limit = rules.maxTags, tags.count >= limit {
      outcome.dropped.append(DroppedCandidate(text: candidate, reason: .tooMany(limit: limit)))
      return
    }
    indexByKey[key] = tags.count
    tags.append(candidate)
    tagBytes += candidate.utf8.count
    keys.append(key)
    outcome.added.append(candidate)
  }

  /// Removes the tag at a valid `index` and re-indexes the tags after it: O(n - index).
  private mutating func remove(at index: Int) -> RemovedTag {
    let tag = tags.remove(at: index)
    tagBytes -= tag.utf8.count
    let key = keys.remove(at: index)
    indexByKey[key] = nil
    for later in index..<keys.count {
      indexByKey[keys[later]] = later
    }
    return RemovedTag(index: index, tag: tag)
  }
}

/// Something that happened to a tag field, named for what the user did.
public enum FieldEvent: Hashable, Sendable {
  /// The box now holds this whole text (typing, paste, any edit).
  case draftChanged(String)
  /// Return: the draft is committed as if a separator were typed after it.
  case submitted
  /// Backspace at the start of the box: with an empty draft, removes the last tag.
  case deletedBackward
  /// Tags offered from outside the box (a clicked suggestion), with the typed-tag rules.
  case tagsAdded([String])
  /// The chip at this index was removed (its cross button); out of range removes nothing.
  case tagRemoved(at: Int)
  /// The tag equal to this text was removed; no match removes nothing.
  case tagRemovedMatching(String)
}

/// Splitting and trimming of field text, on Unicode scalars so that a CRLF (one `Character`) is
/// seen as its two scalars.
enum FieldText {
  /// The pieces of `text` before its last separator and the new draft, or nil when `text` holds
  /// no separator.
  ///
  /// `"\n"` in `separators` makes LF, CR and CRLF separators, a CRLF pair counting once. The draft
  /// is the piece after the last separator without its leading U+0020 spaces: a suffix of `text`.
  static func split(
    _ text: String,
    separators: Set<Unicode.Scalar>
  ) -> (pieces: [String], draft: String)? {
    // Separators are ASCII in practice, and an ASCII byte in UTF-8 is always a whole scalar, so
    // the text can be scanned as bytes; anything else takes the scalar path.
    if separators.allSatisfy(\.isASCII) {
      var text = text
      return text.withUTF8 { splitASCII($0, separators: separators) }
    }
    return splitScalars(text, separators: separators)
  }

  private static func splitASCII(
    _ utf8: UnsafeBufferPointer<UInt8>,
    separators: Set<Unicode.Scalar>
  ) -> (pieces: [String], draft: String)? {
    var isSeparator = [Bool](repeating: false, count: 128)
    for separator in separators { isSeparator[Int(separator.value)] = true }
    let newlines = isSeparator[0x0A]
    if newlines { isSeparator[0x0D] = true }
    var pieces: [String] = []
    var pieceStart = 0
    var found = false
    var position = 0
    let count = utf8.count
    while position < count {
      let byte = utf8[position]
      var next = position + 1
      if byte < 0x80, isSeparator[Int(byte)] {
        if newlines, byte == 0x0D, next < count, utf8[next] == 0x0A { next += 1 }
        pieces.append(
          String(
            decoding: UnsafeBufferPointer(rebasing: utf8[pieceStart..<position]),
            as: UTF8.self
          )
        )
        pieceStart = next
        found = true
      }
      position = next
    }
    guard found else { return nil }
    var draftStart = pieceStart
    while draftStart < count, utf8[draftStart] == 0x20 { draftStart += 1 }
    return (
      pieces, String(decoding: UnsafeBufferPointer(rebasing: utf8[draftStart...]), as: UTF8.self)
    )
  }

  private static func splitScalars(
    _ text: String,
    separators: Set<Unicode.Scalar>
  ) -> (pieces: [String], draft: String)? {
    let newlines = separators.contains("\n")
    let scalars = text.unicodeScalars
    var pieces: [String] = []
    var pieceStart = scalars.startIndex
    var found = false
    var position = scalars.startIndex
    while position < scalars.endIndex {
      let scalar = scalars[position]
      var next = scalars.index(after: position)
      let isSeparator: Bool
      if newlines && (scalar == "\n" || scalar == "\r") {
        if scalar == "\r", next < scalars.endIndex, scalars[next] == "\n" {
          next = scalars.index(after: next)
        }
        isSeparator = true
      } else {
        isSeparator = separators.contains(scalar)
      }
      if isSeparator {
        pieces.append(String(scalars[pieceStart..<position]))
        pieceStart = next
        found = true
      }
      position = next
    }
    guard found else { return nil }
    var draftStart = pieceStart
    while draftStart < scalars.endIndex, scalars[draftStart] == " " {
      draftStart = scalars.index(after: draftStart)
    }
    return (pieces, String(scalars[draftStart...]))
  }

  /// `text` without the whitespace and newline characters at either end.
  static func trimmed(_ text: String) -> Substring {
    // Fast path: ASCII ends that are not whitespace need no Unicode properties.
    let utf8 = text.utf8
    if let head = utf8.first, let tail = utf8.last, head < 0x80, tail < 0x80,
      !isASCIIWhitespace(head), !isASCIIWhitespace(tail)
    {
      return text[...]
    }
    guard let first = text.firstIndex(where: { !$0.isWhitespace }),
      let last = text.lastIndex(where: { !$0.isWhitespace })
    else { return text[text.endIndex...] }
    return text[first...last]
  }

  private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
  }
}
