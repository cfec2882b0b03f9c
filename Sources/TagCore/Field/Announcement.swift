/// What a screen reader should say after a field event: SPEC §4 and §6's announcement strings.
///
/// English, one or two short sentences, built only from the outcome (which tags were added,
/// removed, moved, changed or dropped and why, what was undone), so every front end announces
/// the same thing.
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
    // Most keystrokes do nothing worth saying.
    guard !outcome.isEmpty else { return nil }
    var sentences: [String] = []
    if let history = outcome.history {
      sentences.append(describe(history, outcome))
    } else {
      if !outcome.added.isEmpty {
        sentences.append("Added \(list(outcome.added)).")
      }
      if let edited = outcome.edited {
        let others = outcome.removed.filter { $0 != edited }
        if !others.isEmpty { sentences.append("Removed \(list(others.map(\.tag))).") }
        sentences.append("Editing \(edited.tag).")
      } else if !outcome.removed.isEmpty {
        sentences.append("Removed \(list(outcome.removed.map(\.tag))).")
      }
      for move in outcome.moved {
        sentences.append("Moved \(move.tag) to position \(move.to + 1) of \(tags.count).")
      }
      for replacement in outcome.replaced {
        sentences.append("Changed \(replacement.old) to \(replacement.new).")
      }
      if let selected = outcome.selected {
        sentences.append("\(selected.tag) selected, \(selected.index + 1) of \(tags.count).")
      }
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
      case .pattern:
        sentences.append("\(drop.text) does not have the form this field asks for.")
      case .notAllowed:
        sentences.append("\(drop.text) is not one of the allowed tags.")
      case .denied:
        sentences.append("\(drop.text) is not allowed.")
      }
    }
    switch sentences.count {
    case 0: return nil
    case 1: return sentences[0]
    default: return sentences.joined(separator: " ")
    }
  }

  /// The sentence for an undo or redo ("Undid adding red.", "Nothing to undo.").
  private static func describe(_ history: HistoryChange, _ outcome: FieldOutcome) -> String {
    let undo = history.direction == .undo
    guard let action = history.action else { return undo ? "Nothing to undo." : "Nothing to redo." }
    // What the original action added are the tags an undo removes and a redo inserts, and so on.
    let added =
      undo ? outcome.removed.sorted { $0.index < $1.index }.map(\.tag) : outcome.inserted.map(\.tag)
    let removed =
      undo ? outcome.inserted.map(\.tag) : outcome.removed.sorted { $0.index < $1.index }.map(\.tag)
    let phrase: String
    switch action {
    case .typing:
      phrase = "typing"
    case .add:
      // Return on a blank draft only clears it: an add step that added nothing.
      phrase = added.isEmpty ? "clearing the draft" : "adding \(list(added))"
    case .remove:
      phrase = "removing \(list(removed))"
    case .move:
      phrase = "moving \(list(outcome.moved.map(\.tag)))"
    case .replace:
      phrase =
        outcome.replaced.first.map { r in
          undo ? "changing \(r.new) to \(r.old)" : "changing \(r.old) to \(r.new)"
        } ?? "a change"
    case .edit:
      phrase = "editing \((undo ? removed.first : removed.last) ?? "a tag")"
    }
    return (undo ? "Undid " : "Redid ") + phrase + "."
  }

  private static func list(_ items: [String]) -> String {
    switch items.count {
    case 0: "nothing"
    case 1: items[0]
    case 2...5: items.dropLast().joined(separator: ", ") + " and " + (items.last ?? "")
    default: "\(items.count) tags"
    }
  }
}
