/// A width and a height, in the front end's units (points, pixels or cells).
public struct Size: Hashable, Sendable {
  /// Horizontal extent.
  public var width: Double
  /// Vertical extent.
  public var height: Double

  /// Creates a size.
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }
}

/// A rectangle placed by the layout: origin top-left, y grows downward.
public struct Frame: Hashable, Sendable {
  /// Left edge.
  public var x: Double
  /// Top edge.
  public var y: Double
  /// Horizontal extent.
  public var width: Double
  /// Vertical extent.
  public var height: Double

  /// Creates a frame.
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// Right edge.
  public var maxX: Double { x + width }
  /// Bottom edge.
  public var maxY: Double { y + height }
}

/// The result of a flow layout: one frame per item, and the total size.
public struct FlowResult: Hashable, Sendable {
  /// One frame per input item, in input order.
  public var frames: [Frame]
  /// The total size of the laid-out content.
  public var size: Size

  /// Creates a result.
  public init(frames: [Frame], size: Size) {
    self.frames = frames
    self.size = size
  }
}
