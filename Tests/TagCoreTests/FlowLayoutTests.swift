import TagCore
import TagTestSupport
import Testing

extension FlowLayout {
  /// The lines of a flow layout made with `spacing`, as ranges of consecutive frame indices.
  ///
  /// A frame continues the line of the frame before it iff it has the same `y` and its `x` is
  /// exactly `previous.x + (previous.width + spacing)` — which is how the engine places every
  /// item that is not first on its line; any other frame starts a new line. For frames produced by `field` or
  /// `cloud` with the same spacing this recovers the engine's lines, except in the degenerate
  /// case where a wrapped item lands exactly where it would have been placed without wrapping
  /// (zero line height, spacing and widths), which is then reported as one line. O(n).
  ///
  /// - Returns: non-empty, adjacent ranges covering `frames.indices`; empty for no frames.
  fileprivate static func lines(of frames: [Frame], spacing: Double) -> [Range<Int>] {
    var lines: [Range<Int>] = []
    guard var previous = frames.first else { return lines }
    var start = 0
    for index in frames.indices.dropFirst() {
      let frame = frames[index]
      if frame.y != previous.y || frame.x != previous.x + (previous.width + spacing) {
        lines.append(start..<index)
        start = index
      }
      previous = frame
    }
    lines.append(start..<frames.count)
    return lines
  }
}

// MARK: - Helpers

private func size(_ width: Double, _ height: Double) -> Size {
  Size(width: width, height: height)
}

private func frame(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> Frame {
  Frame(x: x, y: y, width: width, height: height)
}

/// One hand-computed layout: inputs and the exact expected result.
struct FieldLayoutCase: CustomTestStringConvertible, Sendable {
  var name: String
  var chips: [Size]
  var fieldHeight: Double = 24
  var width: Double?
  var spacing: Double = 8
  var fieldMinWidth: Double = 96
  var frames: [Frame]
  var size: Size

  var testDescription: String { name }
}

struct CloudCase: CustomTestStringConvertible, Sendable {
  var name: String
  var sizes: [Size]
  var width: Double?
  var spacing: Double = 16
  var frames: [Frame]
  var size: Size

  var testDescription: String { name }
}

// MARK: - Field tables

private let fieldCases: [FieldLayoutCase] = [
  FieldLayoutCase(
    name: "field wraps to its own line when less than its minimum remains",
    chips: [size(60, 24), size(80, 24), size(50, 24)],
    width: 300,
    frames: [
      frame(0, 0, 60, 24), frame(68, 0, 80, 24), frame(156, 0, 50, 24), frame(0, 32, 300, 24),
    ],
    size: size(300, 56)
  ),
  FieldLayoutCase(
    name: "field stretches to the end of its line",
    chips: [size(60, 24), size(80, 24), size(50, 24)],
    width: 400,
    frames: [
      frame(0, 0, 60, 24), frame(68, 0, 80, 24), frame(156, 0, 50, 24), frame(214, 0, 186, 24),
    ],
    size: size(400, 24)
  ),
  FieldLayoutCase(
    name: "field fits exactly at its minimum width",
    chips: [size(100, 20)],
    fieldHeight: 20,
    width: 204,
    frames: [frame(0, 0, 100, 20), frame(108, 0, 96, 20)],
    size: size(204, 20)
  ),
  FieldLayoutCase(
    name: "field one unit short of its minimum wraps",
    chips: [size(100, 20)],
    fieldHeight: 20,
    width: 203,
    frames: [frame(0, 0, 100, 20), frame(0, 28, 203, 20)],
    size: size(203, 48)
  ),
  FieldLayoutCase(
    name: "chip wider than the line is narrowed",
    chips: [size(500, 30)],
    width: 200,
    frames: [frame(0, 0, 200, 30), frame(0, 38, 200, 24)],
    size: size(200, 62)
  ),
  FieldLayoutCase(
    name: "narrowed chip after another chip goes to its own line",
    chips: [size(40, 20), size(999, 20), size(30, 20)],
    fieldHeight: 20,
    width: 150,
    frames: [
      frame(0, 0, 40, 20), frame(0, 28, 150, 20), frame(0, 56, 30, 20), frame(38, 56, 112, 20),
    ],
    size: size(150, 76)
  ),
  FieldLayoutCase(
    name: "exact fit stays on the line",
    chips: [size(100, 20), size(92, 20)],
    fieldHeight: 20,
    width: 200,
    frames: [frame(0, 0, 100, 20), frame(108, 0, 92, 20), frame(0, 28, 200, 20)],
    size: size(200, 48)
  ),
  FieldLayoutCase(
    name: "one unit more than exact fit wraps",
    chips: [size(100, 20), size(93, 20)],
    fieldHeight: 20,
    width: 200,
    frames: [frame(0, 0, 100, 20), frame(0, 28, 93, 20), frame(101, 28, 99, 20)],
    size: size(200, 48)
  ),
  FieldLayoutCase(
    name: "unbounded width keeps one line and the minimum field width",
    chips: [size(60, 24), size(80, 24), size(5000, 24)],
    width: nil,
    frames: [
      frame(0, 0, 60, 24), frame(68, 0, 80, 24), frame(156, 0, 5000, 24), frame(5164, 0, 96, 24),
    ],
    size: size(5260, 24)
  ),
  FieldLayoutCase(
    name: "unbounded width, no chips",
    chips: [],
    width: nil,
    frames: [frame(0, 0, 96, 24)],
    size: size(96, 24)
  ),
  FieldLayoutCase(
    name: "no chips: the field fills the line",
    chips: [],
    width: 300,
    frames: [frame(0, 0, 300, 24)],
    size: size(300, 24)
  ),
  FieldLayoutCase(
    name: "available width below the field minimum, no chips",
    chips: [],
    width: 50,
    frames: [frame(0, 0, 96, 24)],
    size: size(50, 24)
  ),
  FieldLayoutCase(
    name: "available width below the field minimum, after a chip",
    chips: [size(40, 24)],
    width: 50,
    frames: [frame(0, 0, 40, 24), frame(0, 32, 96, 24)],
    size: size(50, 56)
  ),
  FieldLayoutCase(
    name: "spacing 0",
    chips: [size(10, 10), size(20, 10)],
    fieldHeight: 10,
    width: 100,
    spacing: 0,
    fieldMinWidth: 30,
    frames: [frame(0, 0, 10, 10), frame(10, 0, 20, 10), frame(30, 0, 70, 10)],
    size: size(100, 10)
  ),
  FieldLayoutCase(
    name: "mixed heights: the next line starts below the tallest",
    chips: [size(50, 20), size(50, 40), size(50, 30)],
    width: 120,
    spacing: 10,
    frames: [
      frame(0, 0, 50, 20), frame(60, 0, 50, 40), frame(0, 50, 50, 30), frame(0, 90, 120, 24),
    ],
    size: size(120, 114)
  ),
  FieldLayoutCase(
    name: "a tall field sets the total height",
    chips: [size(50, 20)],
    fieldHeight: 60,
    width: 300,
    frames: [frame(0, 0, 50, 20), frame(58, 0, 242, 60)],
    size: size(300, 60)
  ),
  FieldLayoutCase(
    name: "fractional sizes use the rule's exact arithmetic",
    chips: [size(0.1, 1), size(0.2, 1), size(0.3, 1)],
    fieldHeight: 1,
    width: 1.5,
    spacing: 0.1,
    fieldMinWidth: 0.3,
    frames: [
      frame(0, 0, 0.1, 1), frame(0.1 + 0.1, 0, 0.2, 1),
      frame((0.1 + 0.1) + 0.2 + 0.1, 0, 0.3, 1),
      frame(
        (((0.1 + 0.1) + 0.2 + 0.1) + 0.3) + 0.1,
        0,
        1.5 - ((((0.1 + 0.1) + 0.2 + 0.1) + 0.3) + 0.1),
        1
      ),
    ],
    size: size(1.5, 1)
  ),
  // Fractional sizes, worked out by hand in the seed's order: along a line
  // x' = x + (width + spacing); a new line at y + (tallest + spacing). Doubles are printed as
  // their shortest round-trip decimals.
  FieldLayoutCase(
    name: "fractional: x accumulates as x + (width + spacing)",
    chips: [size(0.1, 0.1), size(0.3, 0.1)],
    fieldHeight: 0.1,
    width: nil,
    spacing: 0.1,
    fieldMinWidth: 0.1,
    // x1 = 0 + (0.1 + 0.1) = 0 + 0.2 = 0.2
    // field x = 0.2 + (0.3 + 0.1) = 0.2 + 0.4 = 0.6000000000000001
    //   (the other order, (0.2 + 0.3) + 0.1 = 0.5 + 0.1, gives 0.6)
    // unbounded: the field keeps its minimum 0.1; size width = 0.6000000000000001 + 0.1
    //   = 0.7000000000000001, height 0.1
    frames: [
      frame(0, 0, 0.1, 0.1), frame(0.2, 0, 0.3, 0.1), frame(0.6000000000000001, 0, 0.1, 0.1),
    ],
    size: size(0.7000000000000001, 0.1)
  ),
  FieldLayoutCase(
    name: "fractional: a new line at y + (tallest + spacing)",
    chips: [size(0.7, 0.2), size(0.7, 0.2)],
    fieldHeight: 0.2,
    width: 1,
    spacing: 0.1,
    fieldMinWidth: 0.7,
    // every item wraps: 0 + (0.7 + 0.1) = 0.7999999999999999, + 0.7 = 1.5 > 1
    // y1 = 0 + (0.2 + 0.1) = 0 + 0.30000000000000004 = 0.30000000000000004
    // y2 = 0.30000000000000004 + (0.2 + 0.1) = 0.30000000000000004 + 0.30000000000000004
    //    = 0.6000000000000001
    //   (the cloud's order, (0.30000000000000004 + 0.2) + 0.1 = 0.5 + 0.1, gives 0.6)
    // the field stretches to max(0.7, 1 - 0) = 1; size: 1 by 0.6000000000000001 + 0.2 = 0.8
    frames: [
      frame(0, 0, 0.7, 0.2), frame(0, 0.30000000000000004, 0.7, 0.2),
      frame(0, 0.6000000000000001, 1, 0.2),
    ],
    size: size(1, 0.8)
  ),
  FieldLayoutCase(
    name: "fractional: the field's y step in the other direction",
    chips: [size(0.7, 0.3), size(0.7, 0.3)],
    fieldHeight: 0.3,
    width: 1,
    spacing: 0.1,
    fieldMinWidth: 0.7,
    // y1 = 0 + (0.3 + 0.1) = 0.4
    // y2 = 0.4 + (0.3 + 0.1) = 0.4 + 0.4 = 0.8
    //   (the cloud's order, (0.4 + 0.3) + 0.1 = 0.7 + 0.1, gives 0.7999999999999999)
    // size: 1 by 0.8 + 0.3 = 1.1
    frames: [frame(0, 0, 0.7, 0.3), frame(0, 0.4, 0.7, 0.3), frame(0, 0.8, 1, 0.3)],
    size: size(1, 1.1)
  ),
]

/// Tests of `FlowLayout`; the free helpers and tables above are file-private.
@Suite struct FlowLayoutTests {}

extension FlowLayoutTests {
  @Test(arguments: fieldCases)
  func fieldLayout(_ example: FieldLayoutCase) {
    let result = FlowLayout.field(
      chips: example.chips,
      fieldHeight: example.fieldHeight,
      width: example.width,
      spacing: example.spacing,
      fieldMinWidth: example.fieldMinWidth
    )
    #expect(result.frames == example.frames)
    #expect(result.size == example.size)
  }
}

extension FlowLayoutTests {
  @Test func fieldDefaultsAreSpacing8AndMinimum96() {
    let result = FlowLayout.field(chips: [size(10, 10)], fieldHeight: 10, width: nil)
    #expect(result.frames == [frame(0, 0, 10, 10), frame(18, 0, 96, 10)])
  }
}

// MARK: - Cloud tables

private let cloudCases: [CloudCase] = [
  CloudCase(name: "empty", sizes: [], width: 200, frames: [], size: size(0, 0)),
  CloudCase(name: "empty, unbounded", sizes: [], width: nil, frames: [], size: size(0, 0)),
  CloudCase(
    name: "tight spacing 3",
    sizes: [size(60, 30), size(80, 30), size(70, 30)],
    width: 200,
    spacing: 3,
    frames: [frame(0, 0, 60, 30), frame(63, 0, 80, 30), frame(0, 33, 70, 30)],
    size: size(143, 63)
  ),
  CloudCase(
    name: "loose spacing 18",
    sizes: [size(60, 30), size(80, 30), size(70, 30)],
    width: 200,
    spacing: 18,
    frames: [frame(0, 0, 60, 30), frame(78, 0, 80, 30), frame(0, 48, 70, 30)],
    size: size(158, 78)
  ),
  CloudCase(
    name: "tight spacing 3 keeps more on a line than loose spacing 18",
    sizes: [size(50, 20), size(50, 20), size(50, 20), size(50, 20)],
    width: 160,
    spacing: 3,
    frames: [
      frame(0, 0, 50, 20), frame(53, 0, 50, 20), frame(106, 0, 50, 20), frame(0, 23, 50, 20),
    ],
    size: size(156, 43)
  ),
  CloudCase(
    name: "same tags at spacing 18",
    sizes: [size(50, 20), size(50, 20), size(50, 20), size(50, 20)],
    width: 160,
    spacing: 18,
    frames: [
      frame(0, 0, 50, 20), frame(68, 0, 50, 20), frame(0, 38, 50, 20), frame(68, 38, 50, 20),
    ],
    size: size(118, 58)
  ),
  CloudCase(
    name: "exact fit stays on the line",
    sizes: [size(100, 10), size(95, 10)],
    width: 200,
    spacing: 5,
    frames: [frame(0, 0, 100, 10), frame(105, 0, 95, 10)],
    size: size(200, 10)
  ),
  CloudCase(
    name: "one unit more wraps",
    sizes: [size(100, 10), size(96, 10)],
    width: 200,
    spacing: 5,
    frames: [frame(0, 0, 100, 10), frame(0, 15, 96, 10)],
    size: size(100, 25)
  ),
  CloudCase(
    name: "no narrowing: a wide tag overflows its own line",
    sizes: [size(300, 10), size(10, 10)],
    width: 200,
    frames: [frame(0, 0, 300, 10), frame(0, 26, 10, 10)],
    size: size(300, 36)
  ),
  CloudCase(
    name: "unbounded never wraps",
    sizes: [size(10, 5), size(20, 8), size(1000, 5)],
    width: nil,
    frames: [frame(0, 0, 10, 5), frame(26, 0, 20, 8), frame(62, 0, 1000, 5)],
    size: size(1062, 8)
  ),
  CloudCase(
    name: "mixed heights, top-aligned",
    sizes: [size(40, 10), size(40, 30), size(40, 20)],
    width: 100,
    spacing: 4,
    frames: [frame(0, 0, 40, 10), frame(44, 0, 40, 30), frame(0, 34, 40, 20)],
    size: size(84, 54)
  ),
  // Fractional sizes, worked out by hand in the seed's order: along a line
  // x' = x + (width + spacing); a new line at (y + tallest) + spacing. Doubles are printed as
  // their shortest round-trip decimals.
  CloudCase(
    name: "fractional: x accumulates as x + (width + spacing)",
    sizes: [size(0.1, 0.1), size(0.3, 0.1), size(0.1, 0.1)],
    width: nil,
    spacing: 0.1,
    // x1 = 0 + (0.1 + 0.1) = 0 + 0.2 = 0.2
    // x2 = 0.2 + (0.3 + 0.1) = 0.2 + 0.4 = 0.6000000000000001
    //   (the other order, (0.2 + 0.3) + 0.1 = 0.5 + 0.1, gives 0.6)
    // size: width = x2 + 0.1 = 0.7000000000000001, height = 0 + 0.1 = 0.1
    frames: [
      frame(0, 0, 0.1, 0.1), frame(0.2, 0, 0.3, 0.1), frame(0.6000000000000001, 0, 0.1, 0.1),
    ],
    size: size(0.7000000000000001, 0.1)
  ),
  CloudCase(
    name: "fractional: the seed's x decides the wrap",
    sizes: [size(0.1, 0.1), size(0.3, 0.1), size(0.1, 0.1)],
    width: 0.7,
    spacing: 0.1,
    // x2 = 0.6000000000000001 as above; fits iff x2 + 0.1 <= 0.7:
    //   0.6000000000000001 + 0.1 = 0.7000000000000001 > 0.7, so item 2 wraps
    //   (with x2 = 0.6 it would fit: 0.6 + 0.1 = 0.7)
    // y = (0 + 0.1) + 0.1 = 0.1 + 0.1 = 0.2
    // size: width = max(0.1, 0.2 + 0.3 = 0.5, 0.1) = 0.5, height = 0.2 + 0.1 = 0.30000000000000004
    frames: [frame(0, 0, 0.1, 0.1), frame(0.2, 0, 0.3, 0.1), frame(0, 0.2, 0.1, 0.1)],
    size: size(0.5, 0.30000000000000004)
  ),
  CloudCase(
    name: "fractional: a new line at (y + tallest) + spacing",
    sizes: [size(0.7, 0.2), size(0.7, 0.2), size(0.7, 0.2)],
    width: 1,
    spacing: 0.1,
    // every item wraps: 0 + (0.7 + 0.1) = 0.7999999999999999, + 0.7 = 1.5 > 1
    // y1 = (0 + 0.2) + 0.1 = 0.2 + 0.1 = 0.30000000000000004
    // y2 = (0.30000000000000004 + 0.2) + 0.1 = 0.5 + 0.1 = 0.6
    //   (the field's order, 0.30000000000000004 + (0.2 + 0.1), gives 0.6000000000000001)
    // size: width 0.7, height = 0.6 + 0.2 = 0.8
    frames: [
      frame(0, 0, 0.7, 0.2), frame(0, 0.30000000000000004, 0.7, 0.2), frame(0, 0.6, 0.7, 0.2),
    ],
    size: size(0.7, 0.8)
  ),
]

extension FlowLayoutTests {
  @Test(arguments: cloudCases)
  func cloudLayout(_ example: CloudCase) {
    let result = FlowLayout.cloud(example.sizes, width: example.width, spacing: example.spacing)
    #expect(result.frames == example.frames)
    #expect(result.size == example.size)
  }
}

extension FlowLayoutTests {
  @Test func cloudDefaultSpacingIs16() {
    let result = FlowLayout.cloud([size(10, 10), size(10, 10)], width: nil)
    #expect(result.frames == [frame(0, 0, 10, 10), frame(26, 0, 10, 10)])
  }
}

// MARK: - Lines

extension FlowLayoutTests {
  @Test func linesOfFieldAndCloudLayouts() {
    let field = FlowLayout.field(
      chips: [size(50, 20), size(50, 40), size(50, 30)],
      fieldHeight: 24,
      width: 120,
      spacing: 10
    )
    #expect(FlowLayout.lines(of: field.frames, spacing: 10) == [0..<2, 2..<3, 3..<4])
    let cloud = FlowLayout.cloud(
      [size(50, 20), size(50, 20), size(50, 20)],
      width: 160,
      spacing: 18
    )
    #expect(FlowLayout.lines(of: cloud.frames, spacing: 18) == [0..<2, 2..<3])
    #expect(FlowLayout.lines(of: [], spacing: 8) == [])
  }
}

// MARK: - Exhaustive small cases (withEvery style)

/// Calls `body` with every sequence of `count` elements drawn from `values`.
private func withEvery<T>(
  _ count: Int,
  of values: [T],
  _ body: ([T]) -> Void
) {
  var indices = [Int](repeating: 0, count: count)
  while true {
    body(indices.map { values[$0] })
    var position = count - 1
    while position >= 0 {
      indices[position] += 1
      if indices[position] < values.count { break }
      indices[position] = 0
      position -= 1
    }
    if position < 0 { return }
  }
}

private let exhaustiveChipWidths: [Double] = [10, 47, 90, 130]
private let exhaustiveWidths: [Double?] = [nil, 0, 40, 50, 95, 96, 104, 120, 137, 200]
private let exhaustiveSpacings: [Double] = [0, 3, 8]

/// The layout-independent checks shared by field and cloud: frames in order on lines, lines
/// stacked below their tallest item, wrapping only when needed, no overlap, total size.
///
/// `fitWidths` is what each item counted as when deciding whether it fits; `nextLineY` is the
/// policy's line step, `(lineY, tallest, spacing) -> y`, in the seed's order.
private func flowViolations(
  frames: [Frame],
  fitWidths: [Double],
  width: Double?,
  spacing: Double,
  nextLineY: (Double, Double, Double) -> Double
) -> [String] {
  var problems: [String] = []
  let lines = FlowLayout.lines(of: frames, spacing: spacing)
  var lineY = 0.0
  for (number, line) in lines.enumerated() {
    let first = frames[line.lowerBound]
    if first.x != 0 { problems.append("line \(number) does not start at x 0") }
    if number == 0 && first.y != 0 { problems.append("first line not at y 0") }
    if number > 0 {
      let previous = lines[number - 1]
      let tallest = frames[previous].map(\.height).max() ?? 0
      let expectedY = nextLineY(lineY, tallest, spacing)
      if first.y != expectedY {
        problems.append("line \(number) at y \(first.y), not \(expectedY)")
      }
      let last = frames[previous.upperBound - 1]
      let wouldBeX = last.x + (last.width + spacing)
      if let width, !(wouldBeX + fitWidths[line.lowerBound] > width) {
        problems.append("item \(line.lowerBound) wrapped although it fit")
      }
      if width == nil { problems.append("unbounded layout wrapped") }
    }
    lineY = first.y
    for index in line {
      if frames[index].y != lineY { problems.append("item \(index) not top-aligned") }
      if index > line.lowerBound {
        let x = frames[index - 1].x + (frames[index - 1].width + spacing)
        if frames[index].x != x { problems.append("item \(index) not after its predecessor") }
        if let width, x + fitWidths[index] > width {
          problems.append("item \(index) stayed on a line it does not fit")
        }
      }
    }
  }
  for a in frames.indices {
    for b in frames.indices where a < b {
      let (p, q) = (frames[a], frames[b])
      let apart = p.maxX <= q.x || q.maxX <= p.x || p.maxY <= q.y || q.maxY <= p.y
      if !apart { problems.append("items \(a) and \(b) overlap") }
    }
  }
  return problems
}

extension FlowLayoutTests {
  @Test(arguments: 0...6)
  func fieldInvariantsForEverySmallLayout(chipCount: Int) {
    var failures: [String] = []
    var layouts = 0
    withEvery(chipCount, of: exhaustiveChipWidths) { widths in
      let chips = widths.enumerated().map { index, width in
        size(width, Double(10 + (index * 7) % 13))
      }
      for width in exhaustiveWidths {
        for spacing in exhaustiveSpacings {
          for fieldMinWidth in [30.0, 96] {
            layouts += 1
            let result = FlowLayout.field(
              chips: chips,
              fieldHeight: 16,
              width: width,
              spacing: spacing,
              fieldMinWidth: fieldMinWidth
            )
            var problems: [String] = []
            let frames = result.frames
            if frames.count != chips.count + 1 { problems.append("frame count") }
            guard let field = frames.last else { continue }
            var fitWidths = chips.map { chip in width.map { min(chip.width, $0) } ?? chip.width }
            fitWidths.append(fieldMinWidth)
            for (chip, frame) in zip(chips, frames) {
              let expected = width.map { min(chip.width, $0) } ?? chip.width
              if frame.width != expected { problems.append("chip width \(frame.width)") }
              if frame.height != chip.height { problems.append("chip height") }
            }
            problems += flowViolations(
              frames: frames,
              fitWidths: fitWidths,
              width: width,
              spacing: spacing,
              nextLineY: { y, tallest, spacing in y + (tallest + spacing) }
            )
            if field.height != 16 { problems.append("field height") }
            if let width {
              for frame in frames.dropLast() where frame.x < 0 || frame.maxX > width {
                problems.append("chip outside [0, \(width)]")
              }
              if fieldMinWidth <= width {
                if field.x < 0 || field.maxX != width { problems.append("field misses line end") }
              } else if field.x != 0 || field.width != fieldMinWidth {
                problems.append("oversized field not alone at its minimum")
              }
              if field.width < fieldMinWidth { problems.append("field below its minimum") }
              if result.size.width != width { problems.append("total width") }
            } else {
              if field.width != fieldMinWidth { problems.append("unbounded field width") }
              if frames.contains(where: { $0.y != 0 }) { problems.append("unbounded wrapped") }
              if result.size.width != field.maxX { problems.append("unbounded total width") }
            }
            let bottom = frames.map(\.maxY).max() ?? 0
            if result.size.height != bottom { problems.append("total height") }
            if !problems.isEmpty {
              failures.append(
                "chips \(widths) width \(String(describing: width)) "
                  + "spacing \(spacing) min \(fieldMinWidth): \(problems)"
              )
            }
          }
        }
      }
    }
    #expect(layouts > 0)
    #expect(failures.isEmpty, "\(failures.count) failures, e.g. \(failures.prefix(3))")
  }
}

extension FlowLayoutTests {
  @Test(arguments: 0...6)
  func cloudInvariantsForEverySmallLayout(count: Int) {
    var failures: [String] = []
    withEvery(count, of: exhaustiveChipWidths) { widths in
      let sizes = widths.enumerated().map { index, width in
        size(width, Double(10 + (index * 5) % 11))
      }
      for width in exhaustiveWidths {
        for spacing in exhaustiveSpacings + [18] {
          let result = FlowLayout.cloud(sizes, width: width, spacing: spacing)
          let frames = result.frames
          var problems: [String] = []
          if frames.map({ size($0.width, $0.height) }) != sizes { problems.append("sizes changed") }
          problems += flowViolations(
            frames: frames,
            fitWidths: sizes.map(\.width),
            width: width,
            spacing: spacing,
            nextLineY: { y, tallest, spacing in (y + tallest) + spacing }
          )
          if let width {
            for frame in frames where frame.x < 0 || (frame.x > 0 && frame.maxX > width) {
              problems.append("tag outside [0, \(width)] without being alone")
            }
          }
          let right = frames.map(\.maxX).max() ?? 0
          let bottom = frames.map(\.maxY).max() ?? 0
          if result.size != size(right, bottom) { problems.append("total size \(result.size)") }
          if !problems.isEmpty {
            failures.append(
              "sizes \(widths) width \(String(describing: width)) spacing \(spacing): \(problems)"
            )
          }
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.count) failures, e.g. \(failures.prefix(3))")
  }
}

// MARK: - Exactness against an independent reference

/// A straightforward re-implementation of the seed's cloud rule, line by line, for comparison:
/// `x + (width + spacing)` along a line, `(y + tallest) + spacing` for the next line.
private func referenceCloud(_ sizes: [Size], width: Double?, spacing: Double) -> [Frame] {
  var frames: [Frame] = []
  var lineStart = 0
  var lineY = 0.0
  for (index, item) in sizes.enumerated() {
    if index == lineStart {
      frames.append(Frame(x: 0, y: lineY, width: item.width, height: item.height))
      continue
    }
    let x = frames[index - 1].x + (frames[index - 1].width + spacing)
    if let width, x + item.width > width {
      let tallest = sizes[lineStart..<index].map(\.height).max() ?? 0
      lineY = (lineY + tallest) + spacing
      lineStart = index
      frames.append(Frame(x: 0, y: lineY, width: item.width, height: item.height))
    } else {
      frames.append(Frame(x: x, y: lineY, width: item.width, height: item.height))
    }
  }
  return frames
}

extension FlowLayoutTests {
  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func cloudMatchesReferenceBitForBitOnFractionalSizes(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    for _ in 0..<200 {
      let count = Int.random(in: 0...60, using: &random)
      let sizes = (0..<count).map { _ in
        size(
          Double.random(in: 0.1...90, using: &random),
          Double.random(in: 0.1...40, using: &random)
        )
      }
      let width = Double.random(in: 50...400, using: &random)
      let spacing = Double.random(in: 0...20, using: &random)
      let result = FlowLayout.cloud(sizes, width: width, spacing: spacing)
      #expect(result.frames == referenceCloud(sizes, width: width, spacing: spacing))
    }
  }
}

extension FlowLayoutTests {
  @Test func intermediateSpacingLiesBetweenTheEnds() {
    // Line breaks only move earlier as spacing grows: each tag's line index is monotonic.
    var random = SplitMix64(seed: 42)
    let sizes = (0..<300).map { _ in
      size(Double(Int.random(in: 20...120, using: &random)), 24)
    }
    func lineIndex(spacing: Double) -> [Int] {
      let frames = FlowLayout.cloud(sizes, width: 500, spacing: spacing).frames
      var result: [Int] = []
      for (number, line) in FlowLayout.lines(of: frames, spacing: spacing).enumerated() {
        result += line.map { _ in number }
      }
      return result
    }
    var previous = lineIndex(spacing: 3)
    for step in 1...15 {
      let current = lineIndex(spacing: 3 + Double(step))
      #expect(zip(previous, current).allSatisfy { $0 <= $1 })
      previous = current
    }
  }
}

// MARK: - Scale and hostile input

extension FlowLayoutTests {
  @Test func hundredThousandChipsLayOutOnLinesInOrder() {
    let chips = (0..<100_000).map { size(Double(30 + $0 % 70), 24) }
    let field = FlowLayout.field(chips: chips, fieldHeight: 24, width: 800)
    #expect(field.frames.count == 100_001)
    let lines = FlowLayout.lines(of: field.frames, spacing: 8)
    #expect(lines.first?.lowerBound == 0 && lines.last?.upperBound == 100_001)
    #expect(field.frames.allSatisfy { $0.maxX <= 800 })
    let cloud = FlowLayout.cloud(chips, width: nil, spacing: 3)
    #expect(cloud.size.height == 24)
  }
}

extension FlowLayoutTests {
  @Test func nonFiniteAndNegativeInputsDoNotTrap() {
    let odd: [Double] = [.nan, .infinity, -.infinity, -5, 0, -0.0, .greatestFiniteMagnitude]
    for value in odd {
      let sizes = [size(value, 10), size(10, value), size(value, value), size(10, 10)]
      for width in [nil, value, 100] as [Double?] {
        for spacing in [value, 8] {
          _ = FlowLayout.cloud(sizes, width: width, spacing: spacing)
          _ = FlowLayout.field(
            chips: sizes,
            fieldHeight: value,
            width: width,
            spacing: spacing,
            fieldMinWidth: value
          )
          _ = FlowLayout.lines(of: FlowLayout.cloud(sizes, width: width).frames, spacing: spacing)
        }
      }
    }
  }
}
