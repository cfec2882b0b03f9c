public import JSONRPC
public import TagCore

/// `cloud/open` (request).
///
/// Opens a tag cloud session. Result: ``CloudStateResult``.
public struct CloudOpenRequest: TagRequest, Hashable {
  public typealias Result = CloudStateResult
  public static let method = "cloud/open"
  public enum Member: Int, ParamsMember {
    case cloud, tags, selection
    public static let declared = declare()
  }
  /// The client-chosen id of the cloud.
  public var cloud: String
  /// The tags; titles must be unique.
  public var tags: [CloudTag]
  /// The initially selected titles.
  public var selection: [String]

  public init(params: Params<Member>) throws(ParamsError) {
    cloud = try params.string(.cloud)
    tags = try cloudTags(params.array(.tags), at: params.path(.tags))
    selection =
      try params.optionalStrings(.selection) ?? []
  }
}

/// `cloud/toggle` (request).
///
/// Selects or deselects one tag. Result: ``CloudStateResult``.
public struct CloudToggleRequest: TagRequest, Hashable {
  public typealias Result = CloudStateResult
  public static let method = "cloud/toggle"
  public enum Member: Int, ParamsMember {
    case cloud, title
    public static let declared = declare()
  }
  /// The cloud's id.
  public var cloud: String
  /// The tag's title.
  public var title: String

  public init(params: Params<Member>) throws(ParamsError) {
    cloud = try params.string(.cloud)
    title = try params.string(.title)
  }
}

/// `cloud/select` (request).
///
/// Replaces the whole selection. Result: ``CloudStateResult``.
public struct CloudSelectRequest: TagRequest, Hashable {
  public typealias Result = CloudStateResult
  public static let method = "cloud/select"
  public enum Member: Int, ParamsMember {
    case cloud, selection
    public static let declared = declare()
  }
  /// The cloud's id.
  public var cloud: String
  /// The titles to select; every other tag is deselected.
  public var selection: [String]

  public init(params: Params<Member>) throws(ParamsError) {
    cloud = try params.string(.cloud)
    selection = try params.strings(.selection)
  }
}

/// `cloud/setTags` (request).
///
/// Replaces the tags, keeping the selection of titles that remain. Result: ``CloudStateResult``.
public struct CloudSetTagsRequest: TagRequest, Hashable {
  public typealias Result = CloudStateResult
  public static let method = "cloud/setTags"
  public enum Member: Int, ParamsMember {
    case cloud, tags
    public static let declared = declare()
  }
  /// The cloud's id.
  public var cloud: String
  /// The new tags.
  public var tags: [CloudTag]

  public init(params: Params<Member>) throws(ParamsError) {
    cloud = try params.string(.cloud)
    tags = try cloudTags(params.array(.tags), at: params.path(.tags))
  }
}

/// `cloud/state` (request).
///
/// The cloud's current state. Result: ``CloudStateResult``.
public struct CloudStateRequest: TagRequest, Hashable {
  public typealias Result = CloudStateResult
  public static let method = "cloud/state"
  public typealias Member = CloudMember
  /// The cloud's id.
  public var cloud: String
  public init(params: Params<Member>) throws(ParamsError) { cloud = try params.string(.cloud) }
}

/// `cloud/close` (request).
///
/// Ends the session. Result: `null`.
public struct CloudCloseRequest: TagRequest, Hashable {
  public typealias Result = NullResult
  public static let method = "cloud/close"
  public typealias Member = CloudMember
  /// The cloud's id.
  public var cloud: String
  public init(params: Params<Member>) throws(ParamsError) { cloud = try params.string(.cloud) }
}

/// `cloud/layout` (request).
///
/// Places the cloud's tags and finds merge groups. Result: ``LayoutResult`` with `groups`.
///
/// Params: `{cloud, width, sizes, spacing?, mergeDistance?, transition?}`; `transition` is
/// `{from, to, progress}` for an animated spacing change and replaces `spacing`.
public struct CloudLayoutRequest: TagRequest {
  public typealias Result = LayoutResult
  public static let method = "cloud/layout"
  public enum Member: Int, ParamsMember {
    case cloud, width, sizes, spacing, mergeDistance, transition
    public static let declared = declare()
  }
  /// The cloud's id.
  public var cloud: String
  /// The available width; nil for unbounded.
  public var width: Double?
  /// One measured size per tag, in tag order.
  public var sizes: [Size]
  /// Spacing between items and lines.
  public var spacing: Double
  /// Frames closer than this merge.
  public var mergeDistance: Double
  /// An animated spacing change and the progress to sample it at.
  public var transition: (SpacingTransition, progress: Double)?

  public init(params: Params<Member>) throws(ParamsError) {
    cloud = try params.string(.cloud)
    width = try readWidth(params, .width)
    sizes = try params.sizes(.sizes)
    spacing = try params.optionalLength(.spacing) ?? 16
    mergeDistance = try params.optionalLength(.mergeDistance) ?? 10
    try params.exclusive(.transition, .spacing)
    if let t = try params.optionalObject(.transition, as: TransitionMember.self) {
      let progress = try t.length(.progress)
      if progress > 1 {
        throw ParamsError(
          path: t.path(.progress),
          problem: "must be between 0 and 1, got \(progress)"
        )
      }
      transition = (SpacingTransition(from: try t.length(.from), to: try t.length(.to)), progress)
    }
  }
}

/// The members of a `cloud/layout` transition, in the docs' order (`progress` is checked first).
enum TransitionMember: Int, ParamsMember {
  case from, to, progress
  static let declared = declare()
}

/// The members of a cloud's tag, `{title, tint?}`.
enum CloudTagMember: Int, ParamsMember {
  case title, tint
  static let declared = declare()
}

/// The members of a request that names only its cloud.
public enum CloudMember: Int, ParamsMember {
  case cloud
  public static let declared = declare()
}

func cloudTags(_ items: [JSONValue], at path: String) throws(ParamsError) -> [CloudTag] {
  try items.enumerated().map { (i, item) throws(ParamsError) in
    let tag: Params<CloudTagMember> = try Params.element(item, path: "\(path)[\(i)]")
    return CloudTag(title: try tag.string(.title), tint: try tag.optionalString(.tint))
  }
}
