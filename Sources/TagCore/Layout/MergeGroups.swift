/// The merge groups of SPEC §3: tags whose frames are closer than a distance blend into one shape.
///
/// Two frames touch iff `distance(a, b) < mergeDistance` — strictly, and with exactly the
/// floating-point value ``distance(_:_:)`` returns, so a gap of exactly `mergeDistance` never
/// merges. Groups are the connected components of that relation.
///
/// ## Algorithm and complexity
/// Flow layouts and the frames of a transition between two of them come line by line: top edges
/// never descend from one frame to the next. Such frames are first split into *runs* of
/// consecutive frames whose left and right edges both ascend (a line, or the part of one where
/// neither end layout wraps), and one sweep in frame order compares each frame with the earlier
/// frames of its run whose right edge plus `m = max(mergeDistance, 1e-150)` reaches its left
/// edge, and with a window of each earlier run whose lowest bottom edge plus `m` reaches its top
/// edge; both ends of every window only move right, so each run pair costs the sizes of the two
/// runs plus the pairs compared: O(n + k) for flow layouts, where a frame meets a few runs on
/// its own line and the line above. The sweep gives up (keeping what it joined) when top edges
/// descend or when it would take more than `24n + 1024` steps (many runs within `m` of each
/// other); then the sweep below decides.
///
/// The sweep over the frames in order of their top edge keeps the *active* frames: those whose
/// bottom edge plus a margin `m = max(mergeDistance, 1e-150)` (capped to the largest finite
/// double) is not above the current top edge.
/// The active frames live in a max-segment tree over their rank by left edge, holding
/// `maxX + m`, so the frames whose horizontal extent grown by `m` meets the current frame's are
/// reported in O(log n) each. Every reported pair is decided with the exact predicate
/// `distance(a, b) < mergeDistance` and joined in a union–find (union by size, path halving).
///
/// Time O(n log n + k log n), memory O(n), where k is the number of pairs whose frames grown by
/// `m` on every side intersect. For flow layouts k is O(n) (each tag meets its neighbours on its
/// own line and the two lines around it), including a single unbounded line of 100,000 tags;
/// only inputs where many frames crowd within `mergeDistance` of each other approach k = n².
///
/// ## Why the pruning is exact
/// The line sweep skips a pair only when, on one axis, one frame's edge plus `m`, rounded, is
/// below the other frame's opposite edge (for a whole run, its lowest bottom edge); the argument
/// for the sweep below applies to it as it is.
///
/// The sweep skips a pair only when one frame's edge plus `m`, rounded, is below the other frame's
/// opposite edge. Rounding is monotonic and the edges are doubles, so the exact gap then exceeds
/// `m`, its rounded difference (what ``distance(_:_:)`` computes) is `>= m`, and
/// `sqrt(m * m) == m` for binary floating point when `m * m` neither underflows (the `1e-150`
/// floor) nor overflows (then it is `+infinity`). Adding the other axis' non-negative square can
/// only increase the sum, so the pair's distance is `>= mergeDistance`: it would not touch anyway.
public enum MergeGroups {
  /// The connected components of the "closer than `mergeDistance`" relation, in one flat
  /// ``Partition`` (no array per group).
  ///
  /// Frames containing NaN (or whose edges compute to NaN) touch nothing. A `mergeDistance` that
  /// is not positive (or NaN) merges nothing. Groups hold ascending indices, ordered by their
  /// first index; lone frames are groups of one.
  public static func partition(of frames: [Frame], mergeDistance: Double = 10) -> Partition {
    partition(of: frames, mergeDistance: mergeDistance, method: .automatic) ?? Partition()
  }

  /// Groups of ascending indices, ordered by their first index, in one flat array: group `g` is
  /// `members[starts[g]..<starts[g + 1]]`.
  public struct Partition: Hashable, Sendable {
    /// Every index, group after group.
    public private(set) var members: [Int]
    /// Where each group starts in `members`, then `members.count`.
    public private(set) var starts: [Int]

    /// No groups.
    public init() {
      members = []
      starts = [0]
    }

    init(members: [Int], starts: [Int]) {
      self.members = members
      self.starts = starts
    }

    /// The number of groups.
    public var count: Int { starts.count - 1 }

    /// Group `group`'s indices.
    public subscript(group: Int) -> ArraySlice<Int> {
      members[starts[group]..<starts[group + 1]]
    }
  }

  /// How candidate pairs are found.
  ///
  /// `automatic` is the line sweep, then the sweep when it declines. The tests name the other
  /// two to see that the line sweep serves flow layouts.
  enum Method {
    case automatic
    /// The line sweep only; ``partition(of:mergeDistance:method:)`` returns nil when it declines.
    case lines
    case sweep
  }

  /// The partition found by `method`; nil only when `method` is `lines` and it declined.
  static func partition(of frames: [Frame], mergeDistance: Double, method: Method) -> Partition? {
    var components = UnionFind(count: frames.count)
    if mergeDistance > 0 {
      // Finite, so `edge + margin` is never NaN (edges are not NaN); see the type's comment.
      let margin = min(max(mergeDistance, 1e-150), .greatestFiniteMagnitude)
      var boxes: [Box] = []
      var ids: [Int] = []
      boxes.reserveCapacity(frames.count)
      ids.reserveCapacity(frames.count)
      for (index, frame) in frames.enumerated() {
        if let box = Box(frame) {
          boxes.append(box)
          ids.append(index)
        }
      }
      if boxes.count > 1 {
        // A method that declines part way has joined touching pairs only: the next completes.
        var done = false
        if method == .automatic || method == .lines {
          done = lines(boxes, ids, mergeDistance: mergeDistance, margin: margin, into: &components)
          if !done && method == .lines { return nil }
        }
        if !done {
          sweep(boxes, ids, mergeDistance: mergeDistance, margin: margin, into: &components)
        }
      }
    }
    return components.partition()
  }

  /// The length of the shortest segment joining two rectangles; 0 when they overlap or touch.
  ///
  /// `dx = max(0, max(a.minX, b.minX) - min(a.maxX, b.maxX))`, `dy` likewise, and the result is
  /// `(dx * dx + dy * dy).squareRoot()`. A frame with a negative width or height is read as the
  /// rectangle between its two edges. NaN when a frame has a NaN coordinate (so it touches
  /// nothing).
  public static func distance(_ a: Frame, _ b: Frame) -> Double {
    guard let a = Box(a), let b = Box(b) else { return .nan }
    return a.distance(to: b)
  }

  /// Joins the touching pairs of frames that come line by line, as described on the type; false
  /// when they do not (top edges descending somewhere) or when it would cost more than
  /// `24n + 1024` steps (then the pairs joined so far all touch, and another method completes).
  private static func lines(
    _ boxes: [Box],
    _ ids: [Int],
    mergeDistance: Double,
    margin: Double,
    into components: inout UnionFind
  ) -> Bool {
    /// Consecutive boxes whose left and right edges both ascend.
    struct Run {
      var start: Int
      /// Its lowest bottom edge.
      var bottom: Double
      /// The window of its boxes that meets the box being placed.
      var low: Int
      var high: Int
    }
    var budget = 24 * boxes.count + 1024
    var runs: [Run] = []
    var oldest = 0  // the first run whose bottom may still come within `margin`
    var near = 0  // in the current run, the first box whose right edge may still come near
    // Read through a span: bounds kept, no copy.
    let boxes = boxes.span
    for index in boxes.indices {
      let box = boxes[index]
      let previous = boxes[index == 0 ? 0 : index - 1]
      guard box.minY >= previous.minY else { return false }
      if index == 0 || box.minX < previous.minX || box.maxX < previous.maxX {
        runs.append(Run(start: index, bottom: box.maxY, low: index, high: index))
        // Runs ending more than `margin` above this top edge meet no later box (top edges
        // ascend). The current run itself stops the loop.
        while runs[oldest].bottom + margin < box.minY { oldest += 1 }
        for run in oldest..<(runs.count - 1) {
          runs[run].low = runs[run].start
          runs[run].high = runs[run].start
        }
        near = index
      } else {
        runs[runs.count - 1].bottom = max(runs[runs.count - 1].bottom, box.maxY)
      }
      // Earlier boxes of this run: their left edges are not right of this one's.
      let first = near
      while boxes[near].maxX + margin < box.minX { near += 1 }
      for other in near..<index where boxes[other].distance(to: box) < mergeDistance {
        components.union(ids[other], ids[index])
      }
      budget -= 1 + (near - first) + (index - near)
      // Earlier runs: the boxes whose horizontal extent grown by `margin` meets this one's, a
      // window that only moves right as this run goes on.
      for run in oldest..<(runs.count - 1) {
        let end = runs[run + 1].start
        var low = runs[run].low
        var high = runs[run].high
        let before = low + high
        while low < end, boxes[low].maxX + margin < box.minX { low += 1 }
        high = max(high, low)
        while high < end, boxes[high].minX <= box.maxX + margin { high += 1 }
        for other in low..<high where boxes[other].distance(to: box) < mergeDistance {
          components.union(ids[other], ids[index])
        }
        runs[run].low = low
        runs[run].high = high
        budget -= 1 + (low + high - before) + (high - low)
      }
      guard budget >= 0 else { return false }
    }
    return true
  }

  /// Reports candidate pairs by the sweep described on the type, joining those that touch.
  private static func sweep(
    _ boxes: [Box],
    _ ids: [Int],
    mergeDistance: Double,
    margin: Double,
    into components: inout UnionFind
  ) {
    let count = boxes.count

    // Leaf rank by left edge; the tree answers "active, minX <= limit, maxX + m >= threshold".
    let byMinX = Array(0..<count).sorted { boxes[$0].minX < boxes[$1].minX }
    var leafOf = [Int](repeating: 0, count: count)
    var sortedMinX: [Double] = []
    sortedMinX.reserveCapacity(count)
    for (leaf, box) in byMinX.enumerated() {
      leafOf[box] = leaf
      sortedMinX.append(boxes[box].minX)
    }
    let byMinY = Array(0..<count).sorted { boxes[$0].minY < boxes[$1].minY }
    let byMaxY = Array(0..<count).sorted { boxes[$0].maxY < boxes[$1].maxY }

    var active = MaxTree(leafCount: count)
    var retired = 0
    var reported: [Int] = []
    for current in byMinY {
      let box = boxes[current]
      // Retire frames too far above: every later frame starts at or below `box.minY`.
      while retired < count, boxes[byMaxY[retired]].maxY + margin < box.minY {
        active.set(leafOf[byMaxY[retired]], to: -.infinity)
        retired += 1
      }
      let limit = upperBound(of: box.maxX + margin, in: sortedMinX)
      reported.removeAll(keepingCapacity: true)
      active.report(below: limit, atLeast: box.minX, into: &reported)
      for leaf in reported {
        let other = byMinX[leaf]
        if boxes[other].distance(to: box) < mergeDistance {
          components.union(ids[other], ids[current])
        }
      }
      active.set(leafOf[current], to: box.maxX + margin)
    }
  }

  /// The number of elements of ascending `values` that are `<= key`.
  private static func upperBound(of key: Double, in values: [Double]) -> Int {
    var low = 0
    var high = values.count
    while low < high {
      let middle = low + (high - low) / 2
      if values[middle] <= key {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return low
  }
}

/// A frame as the interval between its edges on each axis; nil when an edge is NaN.
private struct Box {
  var minX: Double
  var maxX: Double
  var minY: Double
  var maxY: Double

  init?(_ frame: Frame) {
    let x0 = frame.x
    let x1 = frame.maxX
    let y0 = frame.y
    let y1 = frame.maxY
    if x0.isNaN || x1.isNaN || y0.isNaN || y1.isNaN { return nil }
    minX = min(x0, x1)
    maxX = max(x0, x1)
    minY = min(y0, y1)
    maxY = max(y0, y1)
  }

  /// The length of the shortest segment joining the two boxes (NaN from infinite edges).
  func distance(to other: Box) -> Double {
    let dx = Self.positivePart(max(minX, other.minX) - min(maxX, other.maxX))
    let dy = Self.positivePart(max(minY, other.minY) - min(maxY, other.maxY))
    return (dx * dx + dy * dy).squareRoot()
  }

  /// `max(0, gap)`, keeping NaN (which `Swift.max` would turn into 0).
  private static func positivePart(_ gap: Double) -> Double {
    gap < 0 ? 0 : gap
  }
}

/// A max segment tree over leaves `0..<leafCount`, every leaf starting at `-infinity`.
private struct MaxTree {
  private var nodes: [Double]
  private let leafBase: Int
  private var stack: [(node: Int, low: Int, size: Int)] = []

  init(leafCount: Int) {
    var base = 1
    while base < leafCount { base *= 2 }
    leafBase = base
    nodes = [Double](repeating: -.infinity, count: 2 * base)
  }

  /// Sets one leaf and refreshes the maxima above it, in O(log n).
  mutating func set(_ leaf: Int, to value: Double) {
    var node = leafBase + leaf
    nodes[node] = value
    node /= 2
    while node >= 1 {
      nodes[node] = max(nodes[2 * node], nodes[2 * node + 1])
      node /= 2
    }
  }

  /// Appends every leaf below `limit` whose value is at least `threshold`.
  ///
  /// Costs O((1 + reported) log n).
  /// The stack is kept between calls, so a query allocates nothing.
  mutating func report(below limit: Int, atLeast threshold: Double, into result: inout [Int]) {
    guard limit > 0 else { return }
    stack.removeAll(keepingCapacity: true)
    stack.append((1, 0, leafBase))
    while let (node, low, size) = stack.popLast() {
      guard low < limit, nodes[node] >= threshold else { continue }
      if size == 1 {
        result.append(low)
      } else {
        let half = size / 2
        stack.append((2 * node + 1, low + half, half))
        stack.append((2 * node, low, half))
      }
    }
  }
}

/// Disjoint sets over `0..<count`: union by size, path halving.
private struct UnionFind {
  private var parent: [Int]
  private var size: [Int]

  init(count: Int) {
    parent = Array(0..<count)
    size = [Int](repeating: 1, count: count)
  }

  mutating func find(_ element: Int) -> Int {
    var element = element
    while parent[element] != element {
      parent[element] = parent[parent[element]]
      element = parent[element]
    }
    return element
  }

  mutating func union(_ a: Int, _ b: Int) {
    var rootA = find(a)
    var rootB = find(b)
    guard rootA != rootB else { return }
    if size[rootA] < size[rootB] { swap(&rootA, &rootB) }
    parent[rootB] = rootA
    size[rootA] += size[rootB]
  }

  /// The sets as ascending index lists, ordered by their smallest index: a counting sort by
  /// set, nothing allocated per set.
  mutating func partition() -> MergeGroups.Partition {
    let count = parent.count
    // Per root, then per element: its set's number in order of first index.
    var setOfRoot = [Int](repeating: -1, count: count)
    var setOf = [Int](repeating: 0, count: count)
    var starts = [0]
    for element in 0..<count {
      let root = find(element)
      if setOfRoot[root] < 0 {
        setOfRoot[root] = starts.count - 1
        starts.append(0)
      }
      setOf[element] = setOfRoot[root]
      starts[setOf[element] + 1] += 1
    }
    for set in 1..<starts.count { starts[set] += starts[set - 1] }
    var members = [Int](repeating: 0, count: count)
    var fill = starts
    for element in 0..<count {
      members[fill[setOf[element]]] = element
      fill[setOf[element]] += 1
    }
    return MergeGroups.Partition(members: members, starts: starts)
  }
}
