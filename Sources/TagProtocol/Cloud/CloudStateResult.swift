public import JSONRPC
public import TagCore

/// CloudState: the answer to `cloud/open`, `cloud/toggle`, `cloud/select`, `cloud/setTags` and
/// `cloud/state`.
///
/// `{cloud, version, tags: [{title, tint?, selected}], selection, accessibility, toggled?}` —
/// `selection` lists the selected titles in tag order; `accessibility` gives each tag's
/// announcement (`label`, `role` "button", `selected`); `toggled` reports what `cloud/toggle`
/// did.
public struct CloudStateResult: JSONWritable, Sendable {
  /// The cloud's id.
  public var cloud: String
  /// Increments on every change of tags or selection.
  public var version: Int
  /// The tags and selection.
  public var state: TagCloud
  /// The title toggled by this request and its new state.
  public var toggled: (title: String, selected: Bool)?
  /// What a screen reader should say about the change, when the selection changed.
  public var announcement: String?

  public init(cloud: String, version: Int, state: TagCloud) {
    self.cloud = cloud
    self.version = version
    self.state = state
  }

  public func write(to w: inout JSONWriter) {
    w.beginObject()
    w.member("cloud", cloud)
    w.member("version", version)
    w.key("tags")
    w.beginArray()
    for tag in state.tags {
      w.beginObject()
      w.member("title", tag.title)
      if let tint = tag.tint { w.member("tint", tint) }
      w.member("selected", state.isSelected(tag.title))
      w.endObject()
    }
    w.endArray()
    w.member("selection", state.selectedTitles)
    w.key("accessibility")
    w.beginArray()
    for tag in state.tags {
      w.beginObject()
      w.member("label", tag.title)
      w.member("role", "button")
      w.member("selected", state.isSelected(tag.title))
      w.endObject()
    }
    w.endArray()
    if let toggled {
      w.key("toggled")
      w.beginObject()
      w.member("title", toggled.title)
      w.member("selected", toggled.selected)
      w.endObject()
    }
    if let announcement { w.member("announcement", announcement) }
    w.endObject()
  }
}
