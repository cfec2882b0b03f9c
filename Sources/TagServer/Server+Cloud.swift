import JSONRPC
import TagCore
import TagProtocol

/// One open tag cloud: the core state and its version.
struct CloudSession: Sendable {
  /// The id the client chose.
  let id: String
  /// Tags and selection.
  var cloud: TagCloud
  /// Increments whenever tags or selection change.
  var version = 1

  func state() -> CloudStateResult {
    CloudStateResult(cloud: id, version: version, state: cloud)
  }

  /// The state after a change from selection `before`, announcing what the change selected and
  /// deselected (Protocol/announcements.md) in `language`.
  func state(
    since before: Set<String>,
    toggled: (title: String, selected: Bool)? = nil,
    language: Language
  ) -> CloudStateResult {
    let titles = cloud.tags.map(\.title)
    var result = state()
    result.toggled = toggled
    result.announcement = Announcement.cloudText(
      selected: titles.filter { cloud.isSelected($0) && !before.contains($0) },
      deselected: titles.filter { !cloud.isSelected($0) && before.contains($0) },
      in: language
    )
    return result
  }

  /// Throws when there are more `tags` than `limit`.
  static func check(_ tags: [CloudTag], limit: Int) throws(RequestError) {
    if tags.count > limit { throw .session(.tooManyCloudTags(count: tags.count, limit: limit)) }
  }

  /// The error for `tags` whose titles repeat (only computed once a repeat was found).
  static func repeatedTitle(in tags: [CloudTag]) -> RequestError {
    let (index, first) = TagCloud.firstRepeatedTitle(in: tags) ?? (0, 0)
    return .session(.duplicateTitle(tags[index].title, index: index, first: first, path: "tags"))
  }

  /// Lays the tags out at `request`'s sizes and finds the merge groups.
  func layout(
    _ request: CloudLayoutRequest,
    reducedMotion: Bool
  ) throws(RequestError) -> LayoutResult {
    guard request.sizes.count == cloud.tags.count else {
      throw .session(
        .sizeCountMismatch(sizes: request.sizes.count, tags: cloud.tags.count, cloud: id)
      )
    }
    let result: FlowResult
    if let (transition, progress) = request.transition {
      // Reduced motion: no in-between frames, the end state at once.
      result = transition.frames(
        of: request.sizes,
        width: request.width,
        progress: reducedMotion ? 1 : progress
      )
    } else {
      result = FlowLayout.cloud(request.sizes, width: request.width, spacing: request.spacing)
    }
    let groups = MergeGroups.partition(of: result.frames, mergeDistance: request.mergeDistance)
    return LayoutResult(frames: result.frames, size: result.size, groups: groups)
  }
}

extension Server {
  mutating func openCloud(_ params: CloudOpenRequest) throws(RequestError) -> CloudStateResult {
    try checkCanOpen(params.cloud, in: clouds, kind: "cloud")
    try CloudSession.check(params.tags, limit: config.maxTags)
    guard var cloud = TagCloud(tags: params.tags) else {
      throw CloudSession.repeatedTitle(in: params.tags)
    }
    if let unknown = cloud.select(params.selection) {
      throw .session(.unknownSelection(unknown))
    }
    let session = CloudSession(id: params.cloud, cloud: cloud)
    clouds[params.cloud] = session
    return session.state()
  }

  /// Runs `body` on the open cloud `id` in place: one lookup, no copy of its tags.
  mutating func withCloud<T>(
    _ id: String,
    _ body: (inout CloudSession) throws(RequestError) -> T
  ) throws(RequestError) -> T {
    guard let index = clouds.index(forKey: id) else {
      throw .session(.unknownSession(kind: "cloud", id: id))
    }
    return try body(&clouds.values[index])
  }
}
