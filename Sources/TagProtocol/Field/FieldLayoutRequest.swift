public import JSONRPC
public import TagCore

/// `field/layout` (request).
///
/// Places the field's chips and text field. Result: ``LayoutResult``.
///
/// Params: `{field, width, chipSizes, fieldHeight, spacing?, fieldMinWidth?}`; `width` is a
/// number or `null` (unbounded). A terminal front end may send `cells: {left?, right?, padding?}`
/// instead of `chipSizes`: each chip is then measured in cells (``CellChips``), 1 cell high, and
/// each chip frame carries the `label` to draw.
public struct FieldLayoutRequest: TagRequest, Hashable {
  public typealias Result = LayoutResult
  public static let method = "field/layout"
  public enum Member: Int, ParamsMember {
    case field, width, chipSizes, cells, fieldHeight, spacing, fieldMinWidth, motion
    public static let declared = declare()
  }
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
    /// Measured by tagd in terminal cells: decorated display width + padding, height 1.
    case cells(CellChips)
  }

  public init(params: Params<Member>) throws(ParamsError) {
    field = try params.string(.field)
    width = try readWidth(params, .width)
    try params.exclusive(.cells, .chipSizes)
    if let cells = try params.optionalObject(.cells, as: CellChips.Member.self) {
      chips = .cells(try CellChips(params: cells))
    } else {
      chips = .sizes(try params.sizes(.chipSizes))
    }
    fieldHeight = try params.length(.fieldHeight)
    spacing = try params.optionalLength(.spacing) ?? 8
    fieldMinWidth = try params.optionalLength(.fieldMinWidth) ?? 96
    motion = try params.optionalBool(.motion) ?? false
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
  public var groups: MergeGroups.Partition?
  /// Chip motions since the previous layout (fields asked with `motion`, without reduced motion).
  public var motion: [ChipMotion]?
  /// The label of each chip, for cell layouts: written into its frame.
  public var labels: [String]?

  /// Creates a result.
  public init(
    frames: [Frame],
    size: Size,
    groups: MergeGroups.Partition? = nil,
    motion: [ChipMotion]? = nil,
    labels: [String]? = nil
  ) {
    self.labels = labels
    self.frames = frames
    self.size = size
    self.groups = groups
    self.motion = motion
  }

  public func write(to w: inout JSONWriter) {
    w.beginObject()
    w.key("frames")
    if let labels {
      w.frames(frames, labels: labels)
    } else {
      writeFrames(to: &w)
    }
    w.key("size")
    size.write(to: &w)
    if let groups {
      w.key("groups")
      w.beginArray()
      var first = 0
      while first < groups.count {
        // At least one group; more while they hold at most `chunk` indices in all.
        var end = first + 1
        while end < groups.count, groups.starts[end + 1] - groups.starts[first] <= Self.chunk {
          end += 1
        }
        let indices = groups.starts[end] - groups.starts[first]
        w.value(maxLength: 3 * (end - first) + 21 * indices) { run in
          for group in first..<end {
            run.fragment(group > first ? ",[" : "[")
            let slots = groups.starts[group]..<groups.starts[group + 1]
            for slot in slots {
              if slot > slots.lowerBound { run.fragment(",") }
              run.integer(groups.members[slot])
            }
            run.fragment("]")
          }
        }
        first = end
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

extension LayoutResult {
  /// How many frames (or group indices) are written after one capacity check.
  static let chunk = 64
}

extension LayoutResult {
  /// `[frame, …]`, in chunks: one capacity check for each.
  fileprivate func writeFrames(to w: inout JSONWriter) {
    w.beginArray()
    var start = 0
    while start < frames.count {
      let chunk = frames[start..<min(start + Self.chunk, frames.count)]
      w.value(maxLength: chunk.count * (Frame.maxJSONLength + 1)) { run in
        for index in chunk.indices {
          if index > start { run.fragment(",") }
          chunk[index].write(to: &run)
        }
      }
      start = chunk.endIndex
    }
    w.endArray()
  }
}

extension JSONWriter {
  /// `[frame, …]` with `labels[i]` as frame i's `label` (the frames after the labels, such as a
  /// field's text field, have none).
  mutating func frames(_ frames: [Frame], labels: [String]) {
    beginArray()
    for (index, frame) in frames.enumerated() {
      value(maxLength: Frame.maxJSONLength) { frame.writeMembers(to: &$0) }
      if index < labels.count {
        key("label")
        string(labels[index])
      }
      endObject()
    }
    endArray()
  }
}

extension Frame: JSONWritable {
  /// The most bytes ``write(to:)-(JSONWriter.Run)`` stores.
  static let maxJSONLength = 30 + 4 * JSONWriter.maxNumberLength

  public func write(to w: inout JSONWriter) {
    w.value(maxLength: Self.maxJSONLength) { write(to: &$0) }
  }

  /// `{"x":…,"y":…,"width":…,"height":…}`: its fragments and four numbers.
  func write(to run: inout JSONWriter.Run) {
    writeMembers(to: &run)
    run.fragment("}")
  }

  /// `{"x":…,"y":…,"width":…,"height":…` without the closing brace, for more members.
  func writeMembers(to run: inout JSONWriter.Run) {
    run.fragment(#"{"x":"#)
    run.number(x)
    run.fragment(#","y":"#)
    run.number(y)
    run.fragment(#","width":"#)
    run.number(width)
    run.fragment(#","height":"#)
    run.number(height)
  }
}

extension Size: JSONWritable {
  /// `{"width":…,"height":…}` after one capacity check.
  public func write(to w: inout JSONWriter) {
    w.value(maxLength: 20 + 2 * JSONWriter.maxNumberLength) { run in
      run.fragment(#"{"width":"#)
      run.number(width)
      run.fragment(#","height":"#)
      run.number(height)
      run.fragment("}")
    }
  }
}

/// Member `key` of `params`, a width: a number ≥ 0, or `null` for unbounded.
func readWidth<M>(_ params: Params<M>, _ key: M) throws(ParamsError) -> Double? {
  guard let value = params[key] else {
    throw ParamsError(
      path: params.path(key),
      problem: "is required: expected a number ≥ 0, or null for unbounded"
    )
  }
  if value == .null { return nil }
  return try params.length(value, path: params.path(key))
}

extension CellChips {
  /// The members of `cells`.
  public enum Member: Int, ParamsMember {
    case left, right, padding
    public static let declared = declare()
  }

  /// Decodes `{left?, right?, padding?}` (see ``CellChips/init(left:right:padding:)``).
  public init(params: Params<Member>) throws(ParamsError) {
    self.init(
      left: try params.optionalString(.left) ?? "",
      right: try params.optionalString(.right) ?? "",
      padding: try params.optionalInteger(.padding, in: 0...1000)
    )
  }
}
