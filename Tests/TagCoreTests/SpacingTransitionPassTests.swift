import TagCore
import TagTestSupport
import Testing

/// The transition as it was first written: both end layouts in full, then mixed frame by frame.
private func reference(
  _ transition: SpacingTransition,
  _ sizes: [Size],
  width: Double?,
  progress: Double
) -> FlowResult {
  let start = FlowLayout.cloud(sizes, width: width, spacing: transition.from)
  let end = FlowLayout.cloud(sizes, width: width, spacing: transition.to)
  let p = min(max(progress, 0), 1)
  if p == 0 { return start }
  if p == 1 { return end }
  func mix(_ a: Double, _ b: Double) -> Double { (1 - p) * a + p * b }
  var frames = start.frames
  for i in frames.indices {
    let a = start.frames[i]
    let b = end.frames[i]
    frames[i] = Frame(
      x: mix(a.x, b.x),
      y: mix(a.y, b.y),
      width: mix(a.width, b.width),
      height: mix(a.height, b.height)
    )
  }
  let size = Size(
    width: mix(start.size.width, end.size.width),
    height: mix(start.size.height, end.size.height)
  )
  return FlowResult(frames: frames, size: size)
}

extension SpacingTransitionTests {
  @Test func onePassGivesTheFramesOfBothLayoutsMixed() {
    var random = SplitMix64(seed: 0x7A)
    for round in 0..<400 {
      let sizes = (0..<Int.random(in: 0...120, using: &random)).map { _ in
        Size(
          width: Double.random(in: 0...150, using: &random).rounded() / [1, 2, 3][round % 3],
          height: Double(Int.random(in: 0...40, using: &random))
        )
      }
      let transition = SpacingTransition(
        from: Double.random(in: 0...20, using: &random),
        to: Double(Int.random(in: 0...20, using: &random))
      )
      let width: Double? = round % 9 == 0 ? nil : Double.random(in: 50...900, using: &random)
      let progress = [0, 1, -1, 2, 0.5, Double.random(in: 0...1, using: &random)][round % 6]
      let frames = transition.frames(of: sizes, width: width, progress: progress)
      let expected = reference(transition, sizes, width: width, progress: progress)
      // Compared bit for bit (NaN never arises from these sizes).
      #expect(frames == expected, "round \(round)")
    }
  }
}
