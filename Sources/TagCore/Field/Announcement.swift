/// What a screen reader should say after a field event: SPEC §4 and §6's announcement strings.
///
/// English, one or two short sentences, built only from the outcome (which tags were added,
/// removed or dropped and why), so every front end announces the same thing.
///
/// ```swift
/// Announcement.text(for: outcome, tags: field.tags)
/// // after pasting "red, green,RED," into an empty field:
/// // "Added red and green. RED is already a tag, as red."
/// ```
public enum Announcement {
  /// The announcement for `outcome`, given the field's tags after it; nil when nothing happened
  /// worth saying (empty candidates are not announced).
  public static func text(for outcome: FieldOutcome, tags: [String]) -> String? {
    var sentences: [String] = []
    if !outcome.added.isEmpty {
      sentences.append("Added \(list(outcome.added)).")
    }
    if !outcome.removed.isEmpty {
      sentences.append("Removed \(list(outcome.removed.map(\.tag))).")
    }
    for drop in outcome.dropped {
      switch drop.reason {
      case .empty:
        continue
      case .duplicate(let index):
        let existing = tags.indices.contains(index) ? tags[index] : drop.text
        sentences.append(
          existing == drop.text
            ? "\(drop.text) is already a tag." : "\(drop.text) is already a tag, as \(existing)."
        )
      case .tooLong(let limit):
        sentences.append("\(drop.text) is longer than \(limit) characters.")
      case .tooMany(let limit):
        sentences.append("\(drop.text) was not added: the limit is \(limit) tags.")
      }
    }
    return sentences.isEmpty ? nil : sentences.joined(separator: " ")
  }

  private static func list(_ items: [String]) -> String {
    switch items.count {
    case 0: ""
    case 1: items[0]
    case 2...5: items.dropLast().joined(separator: ", ") + " and " + (items.last ?? "")
    default: "\(items.count) tags"
    }
  }
}
