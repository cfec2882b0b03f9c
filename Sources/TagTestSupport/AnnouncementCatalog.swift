public import TagCore

/// One example of every kind of sentence, with placeholders for the tags: the rows of the table
/// in Protocol/announcements.md (a test rebuilds the table from these and compares).
public enum AnnouncementCatalog {
  /// The name of a sentence's kind, as the table's first column shows it.
  public static func kind(of sentence: Sentence) -> String {
    switch sentence {
    case .added: "added"
    case .removed: "removed"
    case .editing: "editing"
    case .moved: "moved"
    case .changed: "changed"
    case .selected: "selected"
    case .kept: "kept"
    case .cloudSelected: "cloudSelected"
    case .cloudDeselected: "cloudDeselected"
    case .duplicate: "duplicate"
    case .duplicateOf: "duplicateOf"
    case .tooLong: "tooLong"
    case .tooMany: "tooMany"
    case .pattern: "pattern"
    case .notAllowed: "notAllowed"
    case .denied: "denied"
    case .nothingTo(.undo): "nothingToUndo"
    case .nothingTo(.redo): "nothingToRedo"
    case .history(let direction, let step): "\(direction.rawValue) \(stepName(step))"
    case .suggestions: "suggestions"
    }
  }

  private static func stepName(_ step: Sentence.Step) -> String {
    switch step {
    case .typing: "typing"
    case .clearingDraft: "clearingDraft"
    case .adding: "adding"
    case .removing: "removing"
    case .moving: "moving"
    case .changing: "changing"
    case .editing: "editing"
    case .someChange: "someChange"
    }
  }

  /// The table's name for a fragment.
  public static func name(of fragment: Language.Fragment) -> String {
    switch fragment {
    case .nothing: "(an empty list)"
    case .tagCount: "(a list of more than five)"
    case .defaultPrompt: "(the default prompt)"
    }
  }

  /// Every kind's name: a row of ``rows`` must show each.
  public static let kinds: Set<String> = {
    let steps: [Sentence.Step] = [
      .typing, .clearingDraft, .adding([]), .removing([]), .moving([]),
      .changing(from: "", to: ""), .editing(nil), .someChange,
    ]
    let plain: [Sentence] = [
      .added([]), .removed([]), .editing(""), .moved("", position: 0, count: 0),
      .changed(from: "", to: ""), .selected("", position: 0, count: 0), .kept([]),
      .cloudSelected([]),
      .cloudDeselected([]), .duplicate(""),
      .duplicateOf("", existing: ""), .tooLong("", limit: 0), .tooMany("", limit: 0),
      .pattern(""), .notAllowed(""), .denied(""), .nothingTo(.undo), .nothingTo(.redo),
      .suggestions(count: 0, first: ""),
    ]
    let history = HistoryDirection.allCases.flatMap { d in steps.map { Sentence.history(d, $0) } }
    return Set((plain + history).map(kind(of:)))
  }()

  /// The table's rows: a kind and an example sentence (several for the forms that vary).
  public static let rows: [(kind: String, sentence: Sentence)] = {
    let sentences: [Sentence] = [
      .added(["{tag}"]), .added(["{a}", "{b}", "{c}"]), .added(["a", "b", "c", "d", "e", "f"]),
      .removed(["{tag}"]), .removed(["{a}", "{b}"]), .editing("{tag}"),
      .moved("{tag}", position: 2, count: 5), .changed(from: "{old}", to: "{new}"),
      .selected("{tag}", position: 2, count: 5), .kept(["{tag}"]), .kept(["{a}", "{b}"]),
      .kept(["a", "b", "c", "d", "e", "f"]), .cloudSelected(["{tag}"]),
      .cloudSelected(["{a}", "{b}"]), .cloudDeselected(["{tag}"]), .duplicate("{text}"),
      .duplicateOf("{text}", existing: "{tag}"), .tooLong("{text}", limit: 1),
      .tooLong("{text}", limit: 20), .tooMany("{text}", limit: 1),
      .tooMany("{text}", limit: 10), .pattern("{text}"), .notAllowed("{text}"),
      .denied("{text}"), .nothingTo(.undo), .nothingTo(.redo),
      .suggestions(count: 3, first: "{tag}"), .suggestions(count: 1, first: "{tag}"),
      .suggestions(count: 0, first: ""),
    ]
    let steps: [Sentence.Step] = [
      .typing, .clearingDraft, .adding(["{a}", "{b}"]), .removing(["{tag}"]),
      .moving(["{tag}"]), .changing(from: "{old}", to: "{new}"), .editing("{tag}"),
      .editing(nil), .someChange,
    ]
    let history = HistoryDirection.allCases.flatMap { d in steps.map { Sentence.history(d, $0) } }
    return (sentences + history).map { (kind(of: $0), $0) }
  }()
}
