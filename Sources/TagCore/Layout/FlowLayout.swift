/// The flow layout of SPEC §2: items left to right, wrapping onto new lines.
///
/// One engine with two policies: the tag field (chips narrowed to the width, a stretching text
/// field last) and the tag cloud (no narrowing, no field).
///
/// The rules, applied in exactly the seed's arithmetic order so that frames are reproducible to
/// the last bit (floating-point addition is not associative, so the brackets matter):
/// - the first item of a line is at `x = 0`; every other item at
///   `x = previous.x + (previous.width + spacing)` (the seed's `x += width + spacing`);
/// - an item that is not first on its line fits iff `x + width <= availableWidth`; otherwise it
///   starts a new line at `x = 0` and, with `h` the tallest height of the line it leaves,
///   `y = lineY + (h + spacing)` in the field (the seed's `y += lineHeight + spacing`) but
///   `y = (lineY + h) + spacing` in the cloud (the seed's `y + rowHeight + spacing`);
/// - items are top-aligned on their line; with an unbounded width (`nil`) nothing wraps.
///
/// Both layouts are O(n) in time and allocate the result once. Inputs are not validated (NaN or
/// negative sizes are rejected by the layer above); they never trap, they only give meaningless
/// frames.
public enum FlowLayout {
  /// Lays out a tag field: chips in tag order, then the text field.
  ///
  /// - Parameters:
  ///   - chips: the measured size of each chip, in tag order.
  ///   - fieldHeight: the height of the text field.
  ///   - width: the available width, or nil for unbounded.
  ///   - spacing: the gap between items and between lines.
  ///   - fieldMinWidth: the text field's minimum width.
  /// - Returns: one frame per chip, then the field's frame; the size is the available width (or
  ///   the right-most edge when unbounded) by the lowest bottom edge.
  public static func field(
    chips: [Size],
    fieldHeight: Double,
    width: Double?,
    spacing: Double = 8,
    fieldMinWidth: Double = 96
  ) -> FlowResult {
    var engine = FlowEngine(policy: .field, availableWidth: width, spacing: spacing)
    var frames: [Frame] = []
    frames.reserveCapacity(chips.count + 1)
    for chip in chips {
      frames.append(engine.place(.box(chip)))
    }
    frames.append(engine.place(.stretching(minWidth: fieldMinWidth, height: fieldHeight)))
    return FlowResult(frames: frames, size: engine.totalSize)
  }

  /// Lays out a tag cloud: the same flow without narrowing and without a text field.
  ///
  /// Any spacing may be asked for, so a front end animating a spacing change (the reference demo
  /// toggles between 3 and 18) can ask for every intermediate step; each step is the exact layout
  /// at that spacing, and the two ends are exactly the layouts at the two end spacings.
  ///
  /// - Returns: one frame per item; the size is the right-most edge used by the lowest bottom edge.
  public static func cloud(_ sizes: [Size], width: Double?, spacing: Double = 16) -> FlowResult {
    var engine = FlowEngine(policy: .cloud, availableWidth: width, spacing: spacing)
    var frames: [Frame] = []
    frames.reserveCapacity(sizes.count)
    for size in sizes {
      frames.append(engine.place(.box(size)))
    }
    return FlowResult(frames: frames, size: engine.totalSize)
  }
}

/// The one flow engine behind both layouts: places items one at a time, wrapping lines.
struct FlowEngine {
  /// What differs between the tag field and the tag cloud.
  enum Policy {
    /// Boxes wider than the available width are narrowed to it; the total width is the available
    /// width (the right-most edge when unbounded); a new line at `y + (height + spacing)`.
    case field
    /// No narrowing; the total width is the right-most edge used; a new line at
    /// `(y + height) + spacing`.
    case cloud

    /// The top of the line after one at `y` whose tallest item is `height` high, in the seed's
    /// order for this policy.
    func nextLineY(after y: Double, height: Double, spacing: Double) -> Double {
      switch self {
      case .field: y + (height + spacing)
      case .cloud: (y + height) + spacing
      }
    }
  }

  /// One item to place.
  enum Item {
    /// A chip or cloud tag of a measured size.
    case box(Size)
    /// The text field: fits as `minWidth`, then stretches to the end of its line.
    case stretching(minWidth: Double, height: Double)
  }

  let policy: Policy
  let availableWidth: Double?
  let spacing: Double

  /// Top edge of the current line.
  private var lineY = 0.0
  /// Tallest item on the current line (0 while it is empty).
  private var lineHeight = 0.0
  /// Where the next item goes if it fits on the current line (`x + (width + spacing)` of the
  /// last one), nil while the line is empty.
  private var nextX: Double?
  /// Right-most edge of every item placed so far (0 when none).
  private var rightEdge = 0.0
  /// Lowest bottom edge of every item placed so far (0 when none).
  private var bottomEdge = 0.0

  init(policy: Policy, availableWidth: Double?, spacing: Double) {
    self.policy = policy
    self.availableWidth = availableWidth
    self.spacing = spacing
  }

  /// The total size of what was placed so far, as the policy defines it.
  var totalSize: Size {
    switch policy {
    case .field: Size(width: availableWidth ?? rightEdge, height: bottomEdge)
    case .cloud: Size(width: rightEdge, height: bottomEdge)
    }
  }

  /// Places `item` after the items placed so far and returns its frame.
  mutating func place(_ item: Item) -> Frame {
    let fitWidth: Double
    let height: Double
    switch item {
    case .box(let size):
      fitWidth = narrowed(size.width)
      height = size.height
    case .stretching(let minWidth, let itemHeight):
      fitWidth = minWidth
      height = itemHeight
    }

    let x = originX(fitting: fitWidth)

    let width: Double
    switch item {
    case .box:
      width = fitWidth
    case .stretching(let minWidth, _):
      if let available = availableWidth {
        width = max(minWidth, available - x)
      } else {
        width = minWidth
      }
    }

    let frame = Frame(x: x, y: lineY, width: width, height: height)
    nextX = x + (width + spacing)
    lineHeight = max(lineHeight, height)
    rightEdge = max(rightEdge, frame.maxX)
    bottomEdge = max(bottomEdge, frame.maxY)
    return frame
  }

  /// A box's width under the policy: the field narrows boxes to the available width.
  private func narrowed(_ width: Double) -> Double {
    switch policy {
    case .field:
      if let available = availableWidth { min(width, available) } else { width }
    case .cloud:
      width
    }
  }

  /// The x of an item that counts as `fitWidth` wide, starting a new line when it does not fit
  /// in what remains of a non-empty line.
  private mutating func originX(fitting fitWidth: Double) -> Double {
    guard let x = nextX else { return 0 }
    if let available = availableWidth, x + fitWidth > available {
      lineY = policy.nextLineY(after: lineY, height: lineHeight, spacing: spacing)
      lineHeight = 0
      nextX = nil
      return 0
    }
    return x
  }
}
