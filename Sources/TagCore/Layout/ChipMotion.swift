/// How one chip moves between two layouts of a field, for front ends that animate (SPEC §4).
public struct ChipMotion: Hashable, Sendable {
  /// The chip's tag.
  public var tag: String
  /// Its frame in the earlier layout; nil when the tag was inserted.
  public var from: Frame?
  /// Its frame in the later layout; nil when the tag was removed.
  public var to: Frame?

  /// Creates a motion.
  public init(tag: String, from: Frame?, to: Frame?) {
    self.tag = tag
    self.from = from
    self.to = to
  }

  /// The chips that appear, disappear or move between two layouts, in the later layout's order
  /// followed by the removed chips in the earlier order; chips that stay put are left out.
  ///
  /// Chips are matched by tag text (a field's tags are unique), so a chip that moved because a
  /// tag before it was removed is reported as moved, not as removed and inserted.
  public static func between(
    _ old: (tags: [String], frames: [Frame]),
    _ new: (tags: [String], frames: [Frame])
  ) -> [ChipMotion] {
    var oldFrames: [String: Frame] = [:]
    oldFrames.reserveCapacity(old.tags.count)
    for (tag, frame) in zip(old.tags, old.frames) { oldFrames[tag] = frame }
    var motions: [ChipMotion] = []
    var seen = Set<String>()
    seen.reserveCapacity(new.tags.count)
    for (tag, frame) in zip(new.tags, new.frames) {
      seen.insert(tag)
      let before = oldFrames[tag]
      if before != frame { motions.append(ChipMotion(tag: tag, from: before, to: frame)) }
    }
    for (tag, frame) in zip(old.tags, old.frames) where !seen.contains(tag) {
      motions.append(ChipMotion(tag: tag, from: frame, to: nil))
    }
    return motions
  }
}
