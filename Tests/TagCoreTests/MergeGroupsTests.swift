import TagTestSupport
import Testing

@testable import TagCore

// MARK: - Helpers

extension MergeGroups {
  /// The groups as arrays (the server reads the flat partition).
  fileprivate static func groups(of frames: [Frame], mergeDistance: Double = 10) -> [[Int]] {
    partition(of: frames, mergeDistance: mergeDistance).groups
  }

  /// The groups `method` finds as arrays; nil when the line sweep alone declines.
  fileprivate static func groups(
    of frames: [Frame],
    mergeDistance: Double,
    method: Method
  ) -> [[Int]]? {
    partition(of: frames, mergeDistance: mergeDistance, method: method)?.groups
  }
}

extension MergeGroups.Partition {
  fileprivate var groups: [[Int]] { (0..<count).map { Array(self[$0]) } }
}

private func frame(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> Frame {
  Frame(x: x, y: y, width: width, height: height)
}

/// An independent O(n²) statement of SPEC §3: the literal distance formula, every pair compared,
/// components by repeated flood fill.
private func bruteForceGroups(_ frames: [Frame], mergeDistance: Double) -> [[Int]] {
  func distance(_ a: Frame, _ b: Frame) -> Double {
    let dx = max(0, max(a.x, b.x) - min(a.x + a.width, b.x + b.width))
    let dy = max(0, max(a.y, b.y) - min(a.y + a.height, b.y + b.height))
    return (dx * dx + dy * dy).squareRoot()
  }
  var label = [Int](repeating: -1, count: frames.count)
  var groups: [[Int]] = []
  for start in frames.indices where label[start] < 0 {
    label[start] = groups.count
    var members = [start]
    var next = 0
    while next < members.count {
      let current = members[next]
      next += 1
      for other in frames.indices where label[other] < 0 {
        if distance(frames[current], frames[other]) < mergeDistance {
          label[other] = groups.count
          members.append(other)
        }
      }
    }
    groups.append(members.sorted())
  }
  return groups
}

struct MergeCase: CustomTestStringConvertible, Sendable {
  var name: String
  var frames: [Frame]
  var mergeDistance: Double = 10
  var groups: [[Int]]

  var testDescription: String { name }
}

// MARK: - Tables

private let mergeCases: [MergeCase] = [
  MergeCase(name: "empty", frames: [], groups: []),
  MergeCase(name: "one frame", frames: [frame(0, 0, 10, 10)], groups: [[0]]),
  MergeCase(
    name: "horizontal neighbours 5 apart",
    frames: [frame(0, 0, 10, 10), frame(15, 0, 10, 10)],
    groups: [[0, 1]]
  ),
  MergeCase(
    name: "horizontal gap of exactly 10 does not merge",
    frames: [frame(0, 0, 10, 10), frame(20, 0, 10, 10)],
    groups: [[0], [1]]
  ),
  MergeCase(
    name: "horizontal gap just under 10 merges",
    frames: [frame(0, 0, 10, 10), frame(19.999, 0, 10, 10)],
    groups: [[0, 1]]
  ),
  MergeCase(
    name: "vertical neighbours 9 apart",
    frames: [frame(0, 0, 10, 10), frame(0, 19, 10, 10)],
    groups: [[0, 1]]
  ),
  MergeCase(
    name: "vertical gap of exactly 10 does not merge",
    frames: [frame(0, 0, 10, 10), frame(0, 20, 10, 10)],
    groups: [[0], [1]]
  ),
  MergeCase(
    name: "diagonal corner to corner 3-4-5",
    frames: [frame(0, 0, 10, 10), frame(13, 14, 10, 10)],
    groups: [[0, 1]]
  ),
  MergeCase(
    name: "diagonal corner to corner exactly 10 (6-8-10) does not merge",
    frames: [frame(0, 0, 10, 10), frame(16, 18, 10, 10)],
    groups: [[0], [1]]
  ),
  MergeCase(
    name: "diagonal under 10 although both gaps are large-ish (6-7)",
    frames: [frame(0, 0, 10, 10), frame(16, 17, 10, 10)],
    groups: [[0, 1]]
  ),
  MergeCase(
    name: "diagonal with both gaps 8: farther than 10",
    frames: [frame(0, 0, 10, 10), frame(18, 18, 10, 10)],
    groups: [[0], [1]]
  ),
  MergeCase(
    name: "a chain merges transitively into one group",
    frames: (0..<6).map { frame(Double($0) * 18, 0, 10, 10) },
    groups: [[0, 1, 2, 3, 4, 5]]
  ),
  MergeCase(
    name: "interleaved chains: groups ordered by first index, members ascending",
    frames: [
      frame(0, 0, 10, 10), frame(0, 100, 10, 10), frame(0, 118, 10, 10), frame(15, 0, 10, 10),
      frame(30, 0, 10, 10),
    ],
    groups: [[0, 3, 4], [1, 2]]
  ),
  MergeCase(
    name: "overlapping and identical frames",
    frames: [frame(0, 0, 10, 10), frame(5, 5, 10, 10), frame(100, 0, 4, 4), frame(100, 0, 4, 4)],
    groups: [[0, 1], [2, 3]]
  ),
  MergeCase(
    name: "touching edges merge",
    frames: [frame(0, 0, 10, 10), frame(10, 0, 10, 10)],
    groups: [[0, 1]]
  ),
  MergeCase(
    name: "contained frame",
    frames: [frame(0, 0, 100, 100), frame(40, 40, 5, 5)],
    groups: [[0, 1]]
  ),
  MergeCase(
    name: "singletons far apart",
    frames: [frame(0, 0, 10, 10), frame(50, 0, 10, 10), frame(0, 50, 10, 10)],
    groups: [[0], [1], [2]]
  ),
  MergeCase(
    name: "mergeDistance 0 merges nothing, not even overlaps",
    frames: [frame(0, 0, 10, 10), frame(5, 5, 10, 10)],
    mergeDistance: 0,
    groups: [[0], [1]]
  ),
  MergeCase(
    name: "negative mergeDistance merges nothing",
    frames: [frame(0, 0, 10, 10), frame(0, 0, 10, 10)],
    mergeDistance: -1,
    groups: [[0], [1]]
  ),
  MergeCase(
    name: "NaN mergeDistance merges nothing",
    frames: [frame(0, 0, 10, 10), frame(0, 0, 10, 10)],
    mergeDistance: .nan,
    groups: [[0], [1]]
  ),
  MergeCase(
    name: "a frame with NaN touches nothing",
    frames: [frame(0, 0, 10, 10), frame(.nan, 0, 10, 10), frame(0, 0, 10, 10)],
    groups: [[0, 2], [1]]
  ),
  MergeCase(
    name: "a long frame bridges far-apart frames",
    frames: [frame(0, 0, 10, 10), frame(990, 0, 10, 10), frame(0, 15, 1000, 10)],
    groups: [[0, 1, 2]]
  ),
]

/// Tests of `MergeGroups`; the free helpers and tables above are file-private.
@Suite struct MergeGroupsTests {}

extension MergeGroupsTests {
  @Test(arguments: mergeCases)
  func mergeGroups(_ example: MergeCase) {
    #expect(
      MergeGroups.groups(of: example.frames, mergeDistance: example.mergeDistance) == example.groups
    )
    let hasNaN = example.frames.contains { $0.x.isNaN || $0.y.isNaN || $0.width.isNaN }
    if !example.mergeDistance.isNaN && !hasNaN {
      let expected = bruteForceGroups(example.frames, mergeDistance: example.mergeDistance)
      #expect(example.groups == expected)
    }
  }
}

extension MergeGroupsTests {
  @Test func defaultMergeDistanceIs10() {
    #expect(MergeGroups.groups(of: [frame(0, 0, 10, 10), frame(19, 0, 10, 10)]) == [[0, 1]])
    #expect(MergeGroups.groups(of: [frame(0, 0, 10, 10), frame(20, 0, 10, 10)]) == [[0], [1]])
  }
}

struct DistanceCase: Sendable {
  var a: Frame
  var b: Frame
  var distance: Double
}

extension MergeGroupsTests {
  @Test(arguments: [
    DistanceCase(a: frame(0, 0, 10, 10), b: frame(5, 5, 10, 10), distance: 0),
    DistanceCase(a: frame(0, 0, 10, 10), b: frame(10, 10, 10, 10), distance: 0),
    DistanceCase(a: frame(0, 0, 10, 10), b: frame(17, 2, 3, 3), distance: 7),
    DistanceCase(a: frame(0, 0, 10, 10), b: frame(2, -9, 3, 3), distance: 6),
    DistanceCase(a: frame(0, 0, 10, 10), b: frame(13, 14, 1, 1), distance: 5),
    DistanceCase(a: frame(13, 14, 1, 1), b: frame(0, 0, 10, 10), distance: 5),
    DistanceCase(a: frame(0, 0, 10, 10), b: frame(-8, -25, 1, 1), distance: 25),
  ])
  func distance(_ example: DistanceCase) {
    #expect(MergeGroups.distance(example.a, example.b) == example.distance)
    #expect(MergeGroups.distance(example.b, example.a) == example.distance)
  }
}

extension MergeGroupsTests {
  @Test func distanceOfNaNFrameIsNaN() {
    #expect(MergeGroups.distance(frame(.nan, 0, 1, 1), frame(0, 0, 1, 1)).isNaN)
    #expect(MergeGroups.distance(frame(0, 0, 1, 1), frame(0, 0, .nan, 1)).isNaN)
  }
}

extension MergeGroupsTests {
  @Test func squareRootOfASquareIsExact() {
    // The sweep's pruning relies on sqrt(m * m) == m for doubles that neither underflow nor overflow.
    var random = SplitMix64(seed: 7)
    var mismatches: [Double] = []
    for _ in 0..<100_000 {
      // Exponents 2^-255 ... 2^0 with random significands.
      let value = Double(bitPattern: 0x3000_0000_0000_0000 | (random.next() >> 4))
      if (value * value).squareRoot() != value { mismatches.append(value) }
    }
    #expect(mismatches.isEmpty)
  }
}

// MARK: - Randomized comparison with the brute force

/// A random rectangle on a coarse grid (many exact-boundary gaps) or with fractional coordinates.
private func randomFrame(using random: inout SplitMix64, span: Double, fractional: Bool) -> Frame {
  if fractional {
    return frame(
      Double.random(in: 0...span, using: &random),
      Double.random(in: 0...span, using: &random),
      Double.random(in: 0...40, using: &random),
      Double.random(in: 0...40, using: &random)
    )
  }
  return frame(
    Double(Int.random(in: 0...Int(span), using: &random)),
    Double(Int.random(in: 0...Int(span), using: &random)),
    Double(Int.random(in: 0...30, using: &random)),
    Double(Int.random(in: 0...30, using: &random))
  )
}

extension MergeGroupsTests {
  @Test(arguments: Array(UInt64(1)...UInt64(8)))
  func randomRectanglesMatchBruteForce(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    for round in 0..<60 {
      let count = Int.random(in: 0...150, using: &random)
      let span = [50.0, 200, 1000][round % 3]
      let fractional = round % 2 == 1
      let frames = (0..<count).map { _ in
        randomFrame(using: &random, span: span, fractional: fractional)
      }
      for mergeDistance in [10.0, 0.5, 3, 25] {
        let fast = MergeGroups.groups(of: frames, mergeDistance: mergeDistance)
        let slow = bruteForceGroups(frames, mergeDistance: mergeDistance)
        #expect(fast == slow, "seed \(seed) round \(round) distance \(mergeDistance)")
      }
    }
  }
}

extension MergeGroupsTests {
  @Test(arguments: [3.0, 10, 16, 18])
  func cloudLayoutsMatchBruteForce(spacing: Double) {
    var random = SplitMix64(seed: UInt64(spacing * 1000))
    for round in 0..<40 {
      let count = Int.random(in: 0...250, using: &random)
      let sizes = (0..<count).map { _ in
        Size(
          width: Double(Int.random(in: 20...140, using: &random)),
          height: round % 2 == 0 ? 24 : Double(Int.random(in: 16...40, using: &random))
        )
      }
      let width: Double? = round % 5 == 0 ? nil : Double(Int.random(in: 150...700, using: &random))
      let frames = FlowLayout.cloud(sizes, width: width, spacing: spacing).frames
      let fast = MergeGroups.groups(of: frames)
      #expect(fast == bruteForceGroups(frames, mergeDistance: 10), "round \(round)")
    }
  }
}

extension MergeGroupsTests {
  @Test func spacingOfExactlyTheMergeDistanceKeepsEveryTagAlone() {
    let sizes = (0..<500).map { Size(width: Double(20 + $0 % 50), height: 24) }
    let frames = FlowLayout.cloud(sizes, width: 600, spacing: 10).frames
    #expect(MergeGroups.groups(of: frames, mergeDistance: 10) == (0..<500).map { [$0] })
  }
}

/// The sweep must agree with the definition (`distance < mergeDistance`) even for input the
/// layer above rejects: negative sizes, infinities, huge or tiny distances.
extension MergeGroupsTests {
  @Test func hostileFramesAgreeWithTheDistancePredicate() {
    func definitionGroups(_ frames: [Frame], _ mergeDistance: Double) -> [[Int]] {
      var label = Array(frames.indices)
      func root(_ index: Int) -> Int {
        var index = index
        while label[index] != index { index = label[index] }
        return index
      }
      for a in frames.indices {
        for b in frames.indices where a < b {
          if MergeGroups.distance(frames[a], frames[b]) < mergeDistance {
            label[root(b)] = root(a)
          }
        }
      }
      var groups: [Int: [Int]] = [:]
      for index in frames.indices { groups[root(index), default: []].append(index) }
      return groups.values.sorted { $0[0] < $1[0] }
    }
    var random = SplitMix64(seed: 99)
    let specials: [Double] = [
      .infinity, -.infinity, -20, -0.0, 1e-200, 1e300, .greatestFiniteMagnitude,
    ]
    for round in 0..<200 {
      let frames = (0..<Int.random(in: 0...40, using: &random)).map { _ in
        let values = (0..<4).map { _ in
          Int.random(in: 0..<5, using: &random) == 0
            ? specials.randomElement(using: &random) ?? 0
            : Double(Int.random(in: -30...60, using: &random))
        }
        return frame(values[0], values[1], values[2], values[3])
      }
      for mergeDistance in [10.0, 1e-170, .infinity, .greatestFiniteMagnitude] {
        #expect(
          MergeGroups.groups(of: frames, mergeDistance: mergeDistance)
            == definitionGroups(frames, mergeDistance),
          "round \(round) distance \(mergeDistance)"
        )
      }
    }
  }
}

// MARK: - Scale

extension MergeGroupsTests {
  @Test func hundredThousandTagCloudGroups() {
    let sizes = (0..<100_000).map { Size(width: Double(30 + ($0 * 37) % 90), height: 24) }

    // Tight spacing: neighbours on a line and on adjacent lines all touch.
    let tight = FlowLayout.cloud(sizes, width: 1200, spacing: 3).frames
    #expect(MergeGroups.groups(of: tight) == [Array(0..<100_000)])

    // Loose spacing: nothing touches.
    let loose = FlowLayout.cloud(sizes, width: 1200, spacing: 18).frames
    let lone = MergeGroups.groups(of: loose)
    #expect(lone.count == 100_000)
    #expect(lone.allSatisfy { $0.count == 1 })

    // One unbounded line: the sweep must not compare every pair on it.
    let line = FlowLayout.cloud(sizes, width: nil, spacing: 3).frames
    #expect(MergeGroups.groups(of: line) == [Array(0..<100_000)])

    // Pairs: every other gap is wider than the merge distance.
    let pairs = (0..<100_000).map { index in
      frame(Double(index / 2) * 100 + Double(index % 2) * 45, 0, 40, 20)
    }
    let expected = (0..<50_000).map { [2 * $0, 2 * $0 + 1] }
    #expect(MergeGroups.groups(of: pairs) == expected)
  }
}

extension MergeGroupsTests {
  /// TagCore's libm-free square root must be bit-identical to the hardware one.
}

// MARK: - Sweep

/// The sweep (the line sweep's fallback) must agree with the definition on its own.
extension MergeGroupsTests {
  @Test(arguments: Array(UInt64(1)...UInt64(6)))
  func sweepMatchesBruteForce(seed: UInt64) {
    var random = SplitMix64(seed: seed &* 7919)
    for round in 0..<60 {
      let count = Int.random(in: 0...200, using: &random)
      let frames: [Frame]
      if round % 3 == 0 {
        let span = [50.0, 200, 1000][round % 3]
        frames = (0..<count).map { _ in
          randomFrame(using: &random, span: span, fractional: round % 2 == 1)
        }
      } else {
        let sizes = (0..<count).map { _ in
          Size(
            width: Double(Int.random(in: 20...140, using: &random)),
            height: round % 2 == 0 ? 20 : Double(Int.random(in: 16...40, using: &random))
          )
        }
        let width: Double? =
          round % 7 == 0 ? nil : Double(Int.random(in: 150...900, using: &random))
        let transition = SpacingTransition(
          from: Double(Int.random(in: 0...20, using: &random)),
          to: Double(Int.random(in: 0...20, using: &random))
        )
        let progress = Double(Int.random(in: 0...8, using: &random)) / 8
        frames = transition.frames(of: sizes, width: width, progress: progress).frames
      }
      for mergeDistance in [10.0, 0.5, 3, 25] {
        let slow = bruteForceGroups(frames, mergeDistance: mergeDistance)
        let sweep = MergeGroups.groups(of: frames, mergeDistance: mergeDistance, method: .sweep)
        #expect(sweep == slow, "sweep: seed \(seed) round \(round) distance \(mergeDistance)")
      }
    }
  }

  @Test func crowdsAndHugeCoordinates() {
    // Everything within the merge distance of everything: quadratic pairs, the sweep decides.
    let crowd = (0..<2_000).map { frame(Double($0 % 7), Double($0 % 5), 2, 2) }
    #expect(MergeGroups.groups(of: crowd) == [Array(0..<2_000)])
    let far = [frame(0, 0, 10, 10), frame(0x1p41, 0, 10, 10), frame(15, 0, 10, 10)]
    #expect(MergeGroups.groups(of: far) == [[0, 2], [1]])
  }
}

// MARK: - Line sweep

/// The line sweep (tried first) must agree with the definition wherever it runs, take flow
/// layouts and transitions between them, and hand back anything else.
extension MergeGroupsTests {
  @Test(arguments: Array(UInt64(1)...UInt64(6)))
  func lineSweepMatchesBruteForce(seed: UInt64) {
    var random = SplitMix64(seed: seed &* 104_729)
    var taken = 0
    for round in 0..<60 {
      let count = Int.random(in: 0...220, using: &random)
      let sizes = (0..<count).map { _ in
        Size(
          width: Double(Int.random(in: 0...140, using: &random)) / [1, 2, 8][round % 3],
          height: round % 2 == 0 ? 20 : Double(Int.random(in: 0...40, using: &random))
        )
      }
      let width: Double? = round % 7 == 0 ? nil : Double(Int.random(in: 100...900, using: &random))
      let frames: [Frame]
      switch round % 3 {
      case 0:
        frames = FlowLayout.cloud(sizes, width: width, spacing: Double(round % 21)).frames
      case 1:
        frames =
          FlowLayout.field(chips: sizes, fieldHeight: 20, width: width, spacing: Double(round % 13))
          .frames
      default:
        let transition = SpacingTransition(
          from: Double(Int.random(in: 0...20, using: &random)),
          to: Double(Int.random(in: 0...20, using: &random))
        )
        let progress = Double(Int.random(in: 0...1_000, using: &random)) / 1_000
        frames = transition.frames(of: sizes, width: width, progress: progress).frames
      }
      for mergeDistance in [10.0, 0.5, 3, 25, 60] {
        let slow = bruteForceGroups(frames, mergeDistance: mergeDistance)
        let lines = MergeGroups.groups(of: frames, mergeDistance: mergeDistance, method: .lines)
        if let lines {
          taken += 1
          #expect(lines == slow, "lines: seed \(seed) round \(round) distance \(mergeDistance)")
        }
        #expect(
          MergeGroups.groups(of: frames, mergeDistance: mergeDistance) == slow,
          "automatic: seed \(seed) round \(round) distance \(mergeDistance)"
        )
      }
    }
    #expect(taken > 250)
  }

  /// The line sweep takes large flow layouts and declines what is not line by line.
  ///
  /// 20,000 tags (the 100,000 that `MergeGroups` documents with `TAGD_SLOW_TESTS=1`): the line
  /// sweep's budget is linear, so at 20,000 a walk over every earlier line already exhausts it
  /// and declines.
  @Test func lineSweepTakesLargeFlowLayoutsAndHandsBackTheRest() {
    let sizes = (0..<(slowTestsRequested ? 100_000 : 20_000)).map {
      Size(width: Double(40 + ($0 * 37) % 90), height: 20)
    }
    let mid = SpacingTransition(from: 3, to: 18).frames(of: sizes, width: 800, progress: 0.5)
    let odd = SpacingTransition(from: 3, to: 18).frames(of: sizes, width: 800, progress: 0.37)
    let line = FlowLayout.cloud(sizes, width: nil, spacing: 3)
    let field = FlowLayout.field(chips: sizes, fieldHeight: 20, width: 800, spacing: 3)
    for frames in [mid.frames, odd.frames, line.frames, field.frames] {
      let lines = MergeGroups.groups(of: frames, mergeDistance: 10, method: .lines)
      #expect(lines != nil)
      #expect(lines == MergeGroups.groups(of: frames, mergeDistance: 10, method: .sweep))
    }
    // Top edges descending: not line by line.
    let upward = [frame(0, 10, 10, 10), frame(15, 0, 10, 10)]
    #expect(MergeGroups.groups(of: upward, mergeDistance: 10, method: .lines) == nil)
    #expect(MergeGroups.groups(of: upward) == [[0, 1]])
    // Each frame a run of its own, all within reach: too many run pairs; declined part way,
    // and the methods after it complete the same groups.
    let backwards = (0..<3_000).map { frame(Double(3_000 - $0) * 30, 0, 10, 10) }
    #expect(MergeGroups.groups(of: backwards, mergeDistance: 10, method: .lines) == nil)
    #expect(MergeGroups.groups(of: backwards) == (0..<3_000).map { [$0] })
    let crowd = (0..<2_000).map { frame(Double(1_999 - $0) * 0.01, Double($0) * 0.001, 2, 2) }
    #expect(MergeGroups.groups(of: crowd, mergeDistance: 10, method: .lines) == nil)
    #expect(MergeGroups.groups(of: crowd) == [Array(0..<2_000)])
  }

  @Test func partitionHoldsTheGroups() {
    var random = SplitMix64(seed: 5)
    for _ in 0..<50 {
      let frames = (0..<Int.random(in: 0...120, using: &random)).map { _ in
        randomFrame(using: &random, span: 300, fractional: false)
      }
      let partition = MergeGroups.partition(of: frames, mergeDistance: 10)
      let groups = bruteForceGroups(frames, mergeDistance: 10)
      #expect(partition.groups == groups)
      #expect(partition.count == groups.count)
      #expect(partition.members.count == frames.count)
      #expect(partition.starts.count == groups.count + 1)
    }
    #expect(MergeGroups.partition(of: []) == MergeGroups.Partition())
  }
}
