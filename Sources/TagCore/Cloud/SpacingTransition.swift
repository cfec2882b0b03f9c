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
  public func frames(of sizes: [Size], width: Double?, progress: Double) -> FlowResult {
    let start = FlowLayout.cloud(sizes, width: width, spacing: from)
    let end = FlowLayout.cloud(sizes, width: width, spacing: to)
    let p = min(max(progress, 0), 1)
    if p == 0 { return start }
    if p == 1 { return end }
    var frames = start.frames
    for i in frames.indices {
      let a = start.frames[i]
      let b = end.frames[i]
      frames[i] = Frame(
        x: mix(a.x, b.x, p),
        y: mix(a.y, b.y, p),
        width: mix(a.width, b.width, p),
        height: mix(a.height, b.height, p)
      )
    }
    let size = Size(
      width: mix(start.size.width, end.size.width, p),
      height: mix(start.size.height, end.size.height, p)
    )
    return FlowResult(frames: frames, size: size)
  }

  private func mix(_ a: Double, _ b: Double, _ p: Double) -> Double { (1 - p) * a + p * b }
}
