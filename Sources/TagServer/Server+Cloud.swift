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

  func state(toggled: (title: String, selected: Bool)? = nil) -> CloudStateResult {
    CloudStateResult(cloud: id, version: version, state: cloud, toggled: toggled)
  }
}

extension Server {
  mutating func openCloud(_ params: CloudOpenRequest) throws(RequestError) -> CloudStateResult {
    guard clouds[params.cloud] == nil else {
      throw .session(.alreadyOpen(kind: "cloud", id: params.cloud))
    }
    guard sessionCount < config.maxSessions else {
      throw .session(.tooManySessions(limit: config.maxSessions))
    }
    try checkTags(params.tags)
    guard var cloud = TagCloud(tags: params.tags) else {
      throw .session(.unknownSession(kind: "cloud", id: params.cloud))
    }
    if let unknown = cloud.select(params.selection) {
      throw .params(
        ParamsError(
          path: "selection",
          problem: "names \"\(unknown)\", which is not a title of the cloud"
        )
      )
    }
    let session = CloudSession(id: params.cloud, cloud: cloud)
    clouds[params.cloud] = session
    return session.state()
  }

  mutating func toggleCloud(_ params: CloudToggleRequest) throws(RequestError) -> CloudStateResult {
    var session = try cloud(params.cloud)
    guard let selected = session.cloud.toggle(params.title) else {
      throw .session(.unknownTitle(params.title, cloud: params.cloud))
    }
    session.version += 1
    clouds[params.cloud] = session
    return session.state(toggled: (params.title, selected))
  }

  mutating func selectInCloud(_ params: CloudSelectRequest) throws(RequestError) -> CloudStateResult
  {
    var session = try cloud(params.cloud)
    if let unknown = session.cloud.select(params.selection) {
      throw .session(.unknownTitle(unknown, cloud: params.cloud))
    }
    session.version += 1
    clouds[params.cloud] = session
    return session.state()
  }

  mutating func setCloudTags(_ params: CloudSetTagsRequest) throws(RequestError) -> CloudStateResult
  {
    var session = try cloud(params.cloud)
    try checkTags(params.tags)
    _ = session.cloud.replaceTags(params.tags)
    session.version += 1
    clouds[params.cloud] = session
    return session.state()
  }

  func cloudState(_ id: String) throws(RequestError) -> CloudStateResult {
    try cloud(id).state()
  }

  func layoutCloud(_ params: CloudLayoutRequest) throws(RequestError) -> LayoutResult {
    let session = try cloud(params.cloud)
    guard params.sizes.count == session.cloud.tags.count else {
      throw .params(
        ParamsError(
          path: "sizes",
          problem:
            "has \(params.sizes.count) entries but cloud \"\(params.cloud)\" has \(session.cloud.tags.count) tags"
        )
      )
    }
    let result: FlowResult
    if let (transition, progress) = params.transition {
      // Reduced motion: no in-between frames, the end state at once.
      result = transition.frames(
        of: params.sizes,
        width: params.width,
        progress: reducedMotion ? 1 : progress
      )
    } else {
      result = FlowLayout.cloud(params.sizes, width: params.width, spacing: params.spacing)
    }
    let groups = MergeGroups.groups(of: result.frames, mergeDistance: params.mergeDistance)
    return LayoutResult(frames: result.frames, size: result.size, groups: groups)
  }

  mutating func closeCloud(_ id: String) throws(RequestError) -> NullResult {
    guard clouds.removeValue(forKey: id) != nil else {
      throw .session(.unknownSession(kind: "cloud", id: id))
    }
    shrinkIfSparse(&clouds)
    return NullResult()
  }

  func cloud(_ id: String) throws(RequestError) -> CloudSession {
    guard let session = clouds[id] else { throw .session(.unknownSession(kind: "cloud", id: id)) }
    return session
  }

  private func checkTags(_ tags: [CloudTag]) throws(RequestError) {
    if let (index, first) = TagCloud.firstRepeatedTitle(in: tags) {
      throw .session(.duplicateTitle(tags[index].title, index: index, first: first, path: "tags"))
    }
    if tags.count > config.maxTags {
      throw .params(
        ParamsError(
          path: "tags",
          problem: "has \(tags.count) tags; the limit is \(config.maxTags) (--max-tags)"
        )
      )
    }
  }
}
