public import JSONRPC
public import TagCore

/// `field/layout` (request).
///
/// Places the field's chips and text field. Result: ``LayoutResult``.
///
/// Params: `{field, width, chipSizes, fieldHeight, spacing?, fieldMinWidth?}`; `width` is a
/// number or `null` (unbounded). A terminal front end may send `cells: {padding?}` instead of
/// `chipSizes`: each chip is then measured as its display width in cells plus `padding`
/// (default 2), 1 cell high.
public struct FieldLayoutRequest: TagRequest, Hashable {
  public typealias Result = LayoutResult
  public static let method = "field/layout"
  public static let members: Members = [
    "field", "width", "chipSizes", "cells", "fieldHeight", "spacing", "fieldMinWidth", "motion",
  ]
  /// The field's id.
  public var field: String
  /// The available width; nil for unbounded.
  public var width: Double?
  /// How chips are measured.
  public var chips: ChipMeasure
  /// The text field's height.
  public var fieldHeight: Double
  /// The gap between items and lines.
  public var spacing: Double
  /// The text field's minimum width.
  public var fieldMinWidth: Double
  /// Whether to report how chips moved since the previous `field/layout` with `motion`.
  public var motion: Bool

  /// Where chip sizes come from.
  public enum ChipMeasure: Hashable, Sendable {
    /// Measured by the front end, one per tag.
    case sizes([Size])
    /// Measured by tagd in terminal cells: display width + padding, height 1.
    case cells(padding: Int)
  }

  public init(params: Params) throws(ParamsError) {
    field = try params.string("field")
    width = try readWidth(params)
    try params.exclusive("cells", "chipSizes")
    if let cells = try params.optionalObject("cells", members: ["padding"]) {
      chips = .cells(padding: try cells.optionalInteger("padding", in: 0...1000) ?? 2)
    } else {
      chips = .sizes(try params.sizes("chipSizes"))
    }
    fieldHeight = try params.length("fieldHeight")
    spacing = try params.optionalLength("spacing") ?? 8
    fieldMinWidth = try params.optionalLength("fieldMinWidth") ?? 96
    motion = try params.optionalBool("motion") ?? false
  }
}

/// The result of `field/layout` and `cloud/layout`: frames and total size (and, for clouds,
/// merge groups).
public struct LayoutResult: JSONWritable, Hashable, Sendable {
  /// One frame per item, in item order.
  public var frames: [Frame]
  /// The total size.
  public var size: Size
  /// Merge groups (clouds only).
  public var groups: [[Int]]?
  /// Chip motions since the previous layout (fields asked with `motion`, without reduced motion).
  public var motion: [ChipMotion]?

  /// Creates a result.
  public init(frames: [Frame], size: Size, groups: [[Int]]? = nil, motion: [ChipMotion]? = nil) {
    self.frames = frames
    self.size = size
    self.groups = groups
    self.motion = motion
  }

  public func write(to w: inout JSONWriter) {
    w.beginObject()
    w.key("frames")
    w.beginArray()
    for frame in frames { w.write(frame) }
    w.endArray()
    w.key("size")
    w.write(size)
    if let groups {
      w.key("groups")
      w.beginArray()
      for group in groups {
        w.beginArray()
        for index in group { w.integer(index) }
        w.endArray()
      }
      w.endArray()
    }
    if let motion {
      w.key("motion")
      w.beginArray()
      for move in motion {
        w.beginObject()
        w.key("tag")
        w.string(move.tag)
        w.key("from")
        if let from = move.from { w.write(from) } else { w.null() }
        w.key("to")
        if let to = move.to { w.write(to) } else { w.null() }
        w.endObject()
      }
      w.endArray()
    }
    w.endObject()
  }
}

extension Frame: JSONWritable {
  public func write(to w: inout JSONWriter) {
    w.beginObject()
    w.key("x")
    w.double(x)
    w.key("y")
    w.double(y)
    w.key("width")
    w.double(width)
    w.key("height")
    w.double(height)
    w.endObject()
  }
}

extension Size: JSONWritable {
  public func write(to w: inout JSONWriter) {
    w.beginObject()
    w.key("width")
    w.double(width)
    w.key("height")
    w.double(height)
    w.endObject()
  }
}

func readWidth(_ params: Params) throws(ParamsError) -> Double? {
  guard let value = params["width"] else {
    throw ParamsError(
      path: params.path("width"),
      problem: "is required: expected a number ≥ 0, or null for unbounded"
    )
  }
  if value == .null { return nil }
  return try Params.length(value, path: params.path("width"))
}

func sizes(_ items: [JSONValue], at path: String) throws(ParamsError) -> [Size] {
  var result: [Size] = []
  result.reserveCapacity(items.count)
  for (i, item) in items.enumerated() {
    // Paths are only spelled out for an error: 100,000 chips must not build 100,000 strings.
    if case .object(let size) = item, size.members.count == 2, let width = size["width"],
      let height = size["height"]
    {
      result.append(
        Size(
          width: try Params.length(width, path: "\(path)[\(i)].width"),
          height: try Params.length(height, path: "\(path)[\(i)].height")
        )
      )
    } else {
      let size = try Params.object(item, path: "\(path)[\(i)]", members: ["width", "height"])
      result.append(Size(width: try size.length("width"), height: try size.length("height")))
    }
  }
  return result
}
