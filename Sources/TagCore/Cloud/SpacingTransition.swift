/// An animated change of a cloud's spacing, sampled at a progress between 0 and 1.
///
/// Each item moves on a straight line from its frame at `from` to its frame at `to`, so no
/// item jumps between lines mid-animation, and the ends are exact: progress 0 gives exactly
/// the layout at `from`, progress 1 exactly the layout at `to`.
public struct SpacingTransition: Hashable, Sendable {
  /// The spacing at progress 0.
  public var from: Double
  /// The spacing at progress 1.
  public var to: Double

  /// Creates a transition.
  public init(from: Double, to: Double) {
    self.from = from
    self.to = to
  }

  /// The cloud's frames at `progress` (clamped to 0…1).
  ///
  /// Both end layouts are run side by side, item by item, into one array of frames.
  public func frames(of sizes: [Size], width: Double?, progress: Double) -> FlowResult {
    let p = min(max(progress, 0), 1)
    if p == 0 { return FlowLayout.cloud(sizes, width: width, spacing: from) }
    if p == 1 { return FlowLayout.cloud(sizes, width: width, spacing: to) }
    var start = FlowEngine(policy: .cloud, availableWidth: width, spacing: from)
    var end = FlowEngine(policy: .cloud, availableWidth: width, spacing: to)
    var frames: [Frame] = []
    frames.reserveCapacity(sizes.count)
    for size in sizes {
      let a = start.place(.box(size))
      let b = end.place(.box(size))
      frames.append(
        Frame(
          x: mix(a.x, b.x, p),
          y: mix(a.y, b.y, p),
          width: mix(a.width, b.width, p),
          height: mix(a.height, b.height, p)
        )
      )
    }
    let size = Size(
      width: mix(start.totalSize.width, end.totalSize.width, p),
      height: mix(start.totalSize.height, end.totalSize.height, p)
    )
    return FlowResult(frames: frames, size: size)
  }

  private func mix(_ a: Double, _ b: Double, _ p: Double) -> Double { (1 - p) * a + p * b }
}
