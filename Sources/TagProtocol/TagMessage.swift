public import JSONRPC

/// A message a client sends to tagd: its method name, its params' members (``Member``) and its
/// typed params, all declared once, on the one type.
///
/// The server's list of served types (TagServer's `Server.requestTypes`) is the only map from
/// method strings to types.
public protocol TagMessage: Sendable {
  /// The JSON-RPC method name.
  static var method: String { get }
  /// The members the params may have: any other is refused with -32602 naming it.
  associatedtype Member: ParamsMember
  /// Decodes the params (missing, `null`, `[]` and `{}` read as empty).
  init(params: Params<Member>) throws(ParamsError)
}

/// A request: a message that is answered with a typed ``Result``.
public protocol TagRequest: TagMessage {
  /// What a successful response carries.
  associatedtype Result: JSONWritable
}

/// A notification: a message that is never answered.
public protocol TagNotification: TagMessage {}

/// A value that writes itself as one JSON value; every result type is one.
public protocol JSONWritable {
  /// Writes this value.
  func write(to writer: inout JSONWriter)
}

extension JSONWriter {
  /// Writes a ``JSONWritable`` value.
  public mutating func write(_ value: some JSONWritable) {
    value.write(to: &self)
  }

  /// Writes member `name` (``key(_:)``) and its value.
  mutating func member(_ name: StaticString, _ value: some JSONWritable) {
    key(name)
    value.write(to: &self)
  }

  /// Writes the tags as a JSON array, copying `encoded`'s text when it is theirs.
  public mutating func tags(_ tags: [String], encoded: EncodedTags?) {
    guard FastPath.keptTagsText.isOn, let encoded, encoded.isText(of: tags) else {
      return strings(tags)
    }
    FastPath.keptTagsText.taken()
    raw(encoded.run.span.extracting(encoded.array))
  }

  /// Writes an array of strings.
  public mutating func strings(_ values: [String]) {
    beginArray()
    for value in values { string(value) }
    endArray()
  }
}

/// A list of tags with its JSON text, written once and reused while the list is unchanged.
///
/// A session keeps one and replies write the text with one copy instead of escaping every
/// tag again. It is valid exactly while the session's array shares storage with ``tags``:
/// any change to that array copies it first (copy on write), so a shared buffer proves the
/// tags are the ones written.
public struct EncodedTags: Hashable, Sendable {
  /// The tags the text was written from.
  public let tags: [String]
  /// The array, after a FieldState's prompt and followed by `,"text":` when made for a head:
  /// a reply's whole text from its version to its draft, copied as one run.
  let run: [UInt8]
  /// Where the array is in ``run``.
  let array: Range<Int>

  /// Writes `tags` as a JSON array, after `head`'s prompt and before the name `text` when
  /// given.
  public init(_ tags: [String], after head: FieldStateHead? = nil) {
    var w = JSONWriter()
    if let head { w.fragment(head.prompt) }
    let start = w.count
    w.strings(tags)
    array = start..<w.count
    if head != nil { w.fragment(#","text":"#) }
    self.tags = tags
    self.run = w.bytes
  }

  /// Whether this is the text of `tags`: the same array storage (checked in O(1)).
  @inlinable public func isText(of tags: [String]) -> Bool {
    guard tags.count == self.tags.count else { return false }
    return tags.isEmpty || tags.span.isIdentical(to: self.tags.span)
  }

  /// Writes the last `suffix.count` tags as a JSON array, copied from this text, when `suffix`
  /// is exactly those tags of `tags` and this is `tags`' text; false (nothing written)
  /// otherwise, or when finding the tail would cost more than writing it (the tail is found by
  /// stepping over the strings before it).
  func writeTail(
    of tags: [String],
    matching suffix: [String],
    to w: inout JSONWriter
  ) -> Bool {
    let skipped = tags.count - suffix.count
    guard FastPath.keptTagsTail.isOn, suffix.count >= 8, skipped >= 0, skipped <= suffix.count,
      isText(of: tags)
    else {
      return false
    }
    for (offset, tag) in suffix.enumerated() where tag != tags[skipped + offset] { return false }
    FastPath.keptTagsTail.taken()
    // `[` then `"…"` strings separated by commas; a string ends at a quote not escaped.
    var at = array.lowerBound + 1
    for _ in 0..<skipped {
      at += 1
      while run[at] != UInt8(ascii: "\"") { at += run[at] == UInt8(ascii: "\\") ? 2 : 1 }
      at += 2  // the closing quote and the comma
    }
    // `[`, then the rest of the text: the tail's strings and the closing `]`.
    w.beginArray()
    w.raw(run.span.extracting(at..<array.upperBound))
    return true
  }

  /// Equal when the tags are (the text follows from them).
  public static func == (a: EncodedTags, b: EncodedTags) -> Bool { a.tags == b.tags }
  public func hash(into hasher: inout Hasher) { hasher.combine(tags) }
}

extension String: JSONWritable {
  public func write(to w: inout JSONWriter) { w.string(self) }
}

extension Int: JSONWritable {
  public func write(to w: inout JSONWriter) { w.integer(self) }
}

extension Bool: JSONWritable {
  public func write(to w: inout JSONWriter) { w.bool(self) }
}

/// An array of writable values: a JSON array.
extension Array: JSONWritable where Element: JSONWritable {
  public func write(to w: inout JSONWriter) {
    w.beginArray()
    for element in self { element.write(to: &w) }
    w.endArray()
  }
}

/// A missing value: `null`.
extension Optional: JSONWritable where Wrapped: JSONWritable {
  public func write(to w: inout JSONWriter) {
    guard let self else { return w.null() }
    self.write(to: &w)
  }
}

/// The `null` result of `shutdown`, `field/close` and `cloud/close`.
public struct NullResult: JSONWritable, Hashable, Sendable {
  public init() {}
  public func write(to w: inout JSONWriter) { w.null() }
}
