public import JSONRPC
public import TagCore

// SPEC §6b: the tags a document carries in its text (front matter, Org), read and written by
// tagd so that no front end parses them. No session: each request carries the whole text.

/// The params `document/tags` and `document/setTags` share: the text and where its tags are.
public struct DocumentTarget: Hashable, Sendable {
  /// The document's whole text.
  public var text: DocumentText
  /// The format asked for; nil to detect it from the text.
  public var format: DocumentFormat?
  /// The front-matter key; nil for the default, `tags`.
  public var key: String?
  /// The Org heading's 0-based line.
  public var line: Int?

  /// The key to read.
  public var keyOrDefault: String { key ?? "tags" }

  init(params: Params<some DocumentTargetMember>) throws(ParamsError) {
    text = try params.text(.text)
    let name = try params.optionalString(.format)
    format = name.flatMap(DocumentFormat.init(rawValue:))
    if let name, format == nil {
      let known = DocumentFormat.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
      throw ParamsError(
        path: params.path(.format),
        problem: "must be one of \(known), got \(JSONValue.string(name).kindName)"
      )
    }
    key = try params.optionalString(.key)
    if key?.isEmpty == true {
      throw ParamsError(path: params.path(.key), problem: "must not be empty")
    }
    line = try params.optionalInteger(.line)
    if let format, line != nil, format != .orgHeading {
      throw ParamsError(
        path: params.path(.line),
        problem: "applies only to format \"org-heading\", not \"\(format.rawValue)\""
      )
    }
    if format == .orgHeading, line == nil {
      throw ParamsError(
        path: params.path(.line),
        problem: "is required for format \"org-heading\""
      )
    }
    if let format, key != nil, format == .orgHeading || format == .orgFiletags {
      throw ParamsError(
        path: params.path(.key),
        problem: "applies only to front matter (\"yaml\", \"toml\"), not \"\(format.rawValue)\""
      )
    }
  }
}

/// The members of params that hold a ``DocumentTarget``.
protocol DocumentTargetMember: ParamsMember {
  static var text: Self { get }
  static var format: Self { get }
  static var key: Self { get }
  static var line: Self { get }
}

/// `document/tags` (request).
///
/// The tags a document carries and the range they occupy. Result: ``DocumentTagsResult``.
public struct DocumentTagsRequest: TagRequest, Hashable {
  public typealias Result = DocumentTagsResult
  public static let method = "document/tags"
  public enum Member: Int, DocumentTargetMember {
    case text, format, key, line
    public static let declared = declare()
  }
  /// The document and where its tags are.
  public var target: DocumentTarget

  public init(params: Params<Member>) throws(ParamsError) {
    target = try DocumentTarget(params: params)
  }
}

/// `document/setTags` (request).
///
/// The edits that make a document carry exactly `tags`. Result: ``DocumentEditsResult``.
public struct DocumentSetTagsRequest: TagRequest, Hashable {
  public typealias Result = DocumentEditsResult
  public static let method = "document/setTags"
  public enum Member: Int, DocumentTargetMember {
    case text, tags, format, key, line
    public static let declared = declare()
  }
  /// The document and where its tags are.
  public var target: DocumentTarget
  /// The tags it should carry.
  public var tags: [String]

  public init(params: Params<Member>) throws(ParamsError) {
    // Named in this order in messages (the docs' order); read after the target.
    target = try DocumentTarget(params: params)
    tags = try params.strings(.tags)
  }
}

/// `{format, tags, range}`: `range` is null when the document carries no tags' value.
public struct DocumentTagsResult: JSONWritable, Hashable, Sendable {
  /// The format read (given or detected).
  public var format: DocumentFormat
  /// The tags.
  public var tags: [String]
  /// The tags' value in the negotiated encoding.
  public var range: TextRange?

  /// The result for `found` in `text`, positions counted in `encoding` (see
  /// `Document.positions` for `allOnLine`).
  public init(
    _ found: DocumentTags,
    in text: DocumentText,
    encoding: PositionEncoding,
    allOnLine line: Int? = nil
  ) {
    format = found.format
    tags = found.tags
    range = found.range.map { range in
      let ends = Document.positions(
        of: [range.lowerBound, range.upperBound],
        in: text,
        encoding: encoding,
        allOnLine: line
      )
      return TextRange(start: ends[0], end: ends[1])
    }
  }

  public func write(to w: inout JSONWriter) {
    w.beginObject()
    w.member("format", format.rawValue)
    w.member("tags", tags)
    w.member("range", range)
    w.endObject()
  }
}

/// `{edits}`: LSP `TextEdit`s against the text as sent, last first.
public struct DocumentEditsResult: JSONWritable, Hashable, Sendable {
  /// The edits.
  public var edits: [TextEdit]

  /// The result for `edits` of `text`, positions counted in `encoding` (see
  /// `Document.positions` for `allOnLine`).
  public init(
    _ edits: [DocumentEdit],
    in text: DocumentText,
    encoding: PositionEncoding,
    allOnLine line: Int? = nil
  ) {
    let offsets = edits.flatMap { [$0.range.lowerBound, $0.range.upperBound] }
    let positions = Document.positions(of: offsets, in: text, encoding: encoding, allOnLine: line)
    self.edits = edits.indices.map { i in
      TextEdit(
        range: TextRange(start: positions[2 * i], end: positions[2 * i + 1]),
        newText: edits[i].newText
      )
    }
  }

  public func write(to w: inout JSONWriter) {
    w.beginObject()
    w.member("edits", edits)
    w.endObject()
  }
}
