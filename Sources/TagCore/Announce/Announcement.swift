/// What a screen reader should say after a field event: SPEC §4, §6 and §6c's announcements.
///
/// Built only from the outcome (which tags were added, removed, moved, changed or dropped and
/// why, what was undone), so every front end announces the same thing: first the outcome is
/// turned into ``Sentence`` values, then ``Language/words(for:)`` puts each into words
/// (`Phrasebook.swift`, every sentence of every language).
///
/// ```swift
/// Announcement.text(for: outcome, tags: field.tags, in: .es)
/// // after pasting "rojo, verde,ROJO," into an empty field:
/// // "Se han añadido rojo y verde. ROJO ya existe como rojo."
/// ```
public enum Announcement {
  /// The announcement for `outcome`, given the field's tags after it; nil when nothing happened
  /// worth saying (empty candidates are not announced).
  public static func text(
    for outcome: FieldOutcome,
    tags: [String],
    in language: Language = .en
  ) -> String? {
    var said = SaidText()
    say(outcome, tags: tags, in: language, into: &said)
    return said.text.isEmpty ? nil : said.text
  }

  /// Puts the announcement for `outcome` into `sink`, its sentences separated by spaces;
  /// nothing when nothing happened worth saying.
  public static func say<Sink: PhraseSink & ~Copyable>(
    _ outcome: FieldOutcome,
    tags: [String],
    in language: Language,
    into sink: inout Sink
  ) {
    // Most keystrokes do nothing worth saying.
    guard !outcome.isEmpty else { return }
    var first = true
    forEachSentence(for: outcome, tags: tags) { sentence in
      if !first { sink.words(" ") }
      first = false
      language.say(sentence, into: &sink)
    }
  }

  /// The announcement for a cloud reply whose selection gained `selected` and lost
  /// `deselected` (titles in tag order); nil when neither has a title.
  public static func cloudText(
    selected: [String],
    deselected: [String],
    in language: Language = .en
  ) -> String? {
    var said = SaidText()
    if !selected.isEmpty { language.say(.cloudSelected(selected), into: &said) }
    if !deselected.isEmpty {
      if !selected.isEmpty { said.words(" ") }
      language.say(.cloudDeselected(deselected), into: &said)
    }
    return said.text.isEmpty ? nil : said.text
  }

  /// The sentences that say what `outcome` did, in the order they are spoken (one at a time,
  /// with no list of them made).
  static func forEachSentence(
    for outcome: FieldOutcome,
    tags: [String],
    _ say: (Sentence) -> Void
  ) {
    if let history = outcome.history {
      say(describe(history, outcome))
    } else {
      if !outcome.added.isEmpty {
        say(.added(outcome.added))
      }
      if let edited = outcome.edited {
        let others = outcome.removed.filter { $0 != edited }
        if !others.isEmpty { say(.removed(others.map(\.tag))) }
        say(.editing(edited.tag))
      } else if !outcome.removed.isEmpty {
        say(.removed(outcome.removed.map(\.tag)))
      }
      for move in outcome.moved {
        say(.moved(move.tag, position: move.to + 1, count: tags.count))
      }
      for replacement in outcome.replaced {
        say(.changed(from: replacement.old, to: replacement.new))
      }
      if let selected = outcome.selected {
        say(.selected(selected.tag, position: selected.index + 1, count: tags.count))
      }
      if !outcome.flagged.isEmpty {
        say(.kept(outcome.flagged.map(\.tag)))
      }
    }
    for drop in outcome.dropped {
      switch drop.reason {
      case .empty:
        continue
      case .duplicate(let index):
        let existing = tags.indices.contains(index) ? tags[index] : drop.text
        say(
          existing == drop.text
            ? .duplicate(drop.text) : .duplicateOf(drop.text, existing: existing)
        )
      case .tooLong(let limit): say(.tooLong(drop.text, limit: limit))
      case .tooMany(let limit): say(.tooMany(drop.text, limit: limit))
      case .pattern: say(.pattern(drop.text))
      case .notAllowed: say(.notAllowed(drop.text))
      case .denied: say(.denied(drop.text))
      }
    }
  }

  /// The sentence for an undo or redo.
  private static func describe(_ history: HistoryChange, _ outcome: FieldOutcome) -> Sentence {
    guard let action = history.action else { return .nothingTo(history.direction) }
    let undo = history.direction == .undo
    // What the original action added are the tags an undo removes and a redo inserts, and so on.
    let added =
      undo ? outcome.removed.sorted { $0.index < $1.index }.map(\.tag) : outcome.inserted.map(\.tag)
    let removed =
      undo ? outcome.inserted.map(\.tag) : outcome.removed.sorted { $0.index < $1.index }.map(\.tag)
    let step: Sentence.Step
    switch action {
    case .typing:
      step = .typing
    case .add:
      // Return on a blank draft only clears it: an add step that added nothing.
      step = added.isEmpty ? .clearingDraft : .adding(added)
    case .remove:
      step = .removing(removed)
    case .move:
      step = .moving(outcome.moved.map(\.tag))
    case .replace:
      step =
        outcome.replaced.first.map { r in
          undo ? .changing(from: r.new, to: r.old) : .changing(from: r.old, to: r.new)
        } ?? .someChange
    case .edit:
      step = .editing(undo ? removed.first : removed.last)
    }
    return .history(history.direction, step)
  }
}

/// One sentence of an announcement, before it is put into words.
public enum Sentence: Hashable, Sendable {
  /// Tags were added (in order).
  case added([String])
  /// Tags were removed.
  case removed([String])
  /// A tag went back into the draft to be edited.
  case editing(String)
  /// A tag moved to a 1-based position among `count` tags.
  case moved(String, position: Int, count: Int)
  /// A tag's text was replaced.
  case changed(from: String, to: String)
  /// A chip was selected, at a 1-based position among `count` tags.
  case selected(String, position: Int, count: Int)
  /// The field's rules changed and these tags, which break them, were kept.
  case kept([String])
  /// A cloud's tags were selected.
  case cloudSelected([String])
  /// A cloud's tags were deselected.
  case cloudDeselected([String])
  /// A candidate was dropped as a duplicate of a tag spelt the same way.
  case duplicate(String)
  /// A candidate was dropped as a duplicate of a tag spelt another way.
  case duplicateOf(String, existing: String)
  /// A candidate was longer than `limit` characters.
  case tooLong(String, limit: Int)
  /// A candidate did not fit: the field holds at most `limit` tags.
  case tooMany(String, limit: Int)
  /// A candidate did not match the field's pattern.
  case pattern(String)
  /// A candidate is not on the field's allow list.
  case notAllowed(String)
  /// A candidate is on the field's deny list.
  case denied(String)
  /// Undo or redo found nothing to undo or redo.
  case nothingTo(HistoryDirection)
  /// A step was undone or redone.
  case history(HistoryDirection, Step)
  /// `field/suggest` found `count` suggestions, `first` the best (what Tab takes); said when
  /// suggestions appear or change, since the list never takes the focus.
  case suggestions(count: Int, first: String)

  /// What an undone or redone step had done.
  public enum Step: Hashable, Sendable {
    /// Typing that committed nothing.
    case typing
    /// Return on a blank draft: it only cleared the draft.
    case clearingDraft
    /// Adding these tags.
    case adding([String])
    /// Removing these tags.
    case removing([String])
    /// Moving these tags.
    case moving([String])
    /// Changing one tag's text into another.
    case changing(from: String, to: String)
    /// Taking a tag back into the draft (nil when it is not known which).
    case editing(String?)
    /// A change that left no record of what it changed.
    case someChange
  }
}
