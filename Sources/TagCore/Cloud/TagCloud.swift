/// One tag of a cloud: its title (also its identity) and the front end's tint colour.
public struct CloudTag: Hashable, Sendable {
  /// The visible text; unique within a cloud.
  public var title: String
  /// The front end's own colour string, passed through untouched.
  public var tint: String?

  /// Creates a tag.
  public init(title: String, tint: String? = nil) {
    self.title = title
    self.tint = tint
  }
}

/// The state of a selectable tag cloud: its tags and which of them are selected.
///
/// A pure value. Titles are compared exactly (String equality, so canonically equivalent
/// spellings are the same title).
///
/// ```swift
/// var cloud = TagCloud(tags: [CloudTag(title: "swift"), CloudTag(title: "rust")])
/// cloud?.toggle("swift")   // true: now selected
/// ```
public struct TagCloud: Hashable, Sendable {
  /// The tags, in display order.
  public private(set) var tags: [CloudTag]
  /// The selected titles.
  public private(set) var selection: Set<String>
  private var indexByTitle: [String: Int]

  /// Creates a cloud; nil when a title repeats (see ``firstRepeatedTitle(in:)``).
  public init?(tags: [CloudTag], selection: Set<String> = []) {
    guard let index = TagCloud.index(tags) else { return nil }
    self.tags = tags
    indexByTitle = index
    self.selection = selection.filter { index[$0] != nil }
  }

  /// The first repeated title, as `(index, indexOfFirst)`, or nil when all are unique.
  public static func firstRepeatedTitle(in tags: [CloudTag]) -> (index: Int, first: Int)? {
    var seen: [String: Int] = [:]
    seen.reserveCapacity(tags.count)
    for (i, tag) in tags.enumerated() {
      if let first = seen[tag.title] { return (i, first) }
      seen[tag.title] = i
    }
    return nil
  }

  /// The position of the tag titled `title`.
  public func index(of title: String) -> Int? { indexByTitle[title] }

  /// Whether the tag titled `title` is selected.
  public func isSelected(_ title: String) -> Bool { selection.contains(title) }

  /// The selected titles in tag order.
  public var selectedTitles: [String] { tags.lazy.map(\.title).filter { selection.contains($0) } }

  /// Selects or deselects the tag titled `title`; returns its new state, or nil if there is
  /// no such tag (then nothing changes).
  @discardableResult
  public mutating func toggle(_ title: String) -> Bool? {
    guard indexByTitle[title] != nil else { return nil }
    if selection.remove(title) == nil {
      selection.insert(title)
      return true
    }
    return false
  }

  /// Replaces the whole selection; returns the first title that names no tag (then nothing
  /// changes), or nil on success.
  public mutating func select(_ titles: [String]) -> String? {
    if let unknown = titles.first(where: { indexByTitle[$0] == nil }) { return unknown }
    selection = Set(titles)
    return nil
  }

  /// Replaces the tags, keeping the selection of titles that remain; false (and no change)
  /// when a title repeats.
  public mutating func replaceTags(_ newTags: [CloudTag]) -> Bool {
    guard let index = TagCloud.index(newTags) else { return false }
    tags = newTags
    indexByTitle = index
    selection = selection.filter { indexByTitle[$0] != nil }
    return true
  }

  /// Positions by title, built in one pass; nil when a title repeats.
  private static func index(_ tags: [CloudTag]) -> [String: Int]? {
    var index: [String: Int] = [:]
    index.reserveCapacity(tags.count)
    for (i, tag) in tags.enumerated() {
      guard index.updateValue(i, forKey: tag.title) == nil else { return nil }
    }
    return index
  }
}
