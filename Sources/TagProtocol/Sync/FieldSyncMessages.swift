public import JSONRPC
public import TagCore

/// `field/didChange` (notification): the editor buffer holding a field's draft changed.
///
/// LSP-style: `{field, version, contentChanges, composing?, applied?}`. See Protocol/sync.md.
public struct FieldDidChangeNotification: TagNotification, Hashable {
  public static let method = "field/didChange"
  public enum Member: Int, ParamsMember {
    case field, version, contentChanges, composing, applied
    public static let declared = declare()
  }
  /// The field's id.
  public var field = ""
  /// The buffer version after the changes.
  public var version = 0
  /// The changes, in order.
  public var changes = TextEdits()
  /// Whether an input-method composition is open after the changes.
  public var composing = false
  /// The `field/didUpdate` version whose edits these changes apply, if they do.
  public var applied: Int?

  /// An empty change, for ``scan(_:maxDepth:into:)`` to fill in place.
  @inlinable public init() {}

  public init(params: Params<Member>) throws(ParamsError) {
    field = try params.string(.field)
    version = try params.integer(.version, in: Int.min...Int.max)
    changes = try params.textEdits(.contentChanges)
    if let range = try params.optionalObject(.composing, as: RangeMember.self) {
      _ = try textRange(range)
      composing = true
    } else {
      composing = false
    }
    applied = try params.optionalInteger(.applied, in: Int.min...Int.max)
  }

  /// Whether `body` is a `field/didChange` decoded into `change` in the pass that validates it.
  ///
  /// ``FastPath/pulledDidChange``: members in any order, `field` a plain string, `version` and
  /// `applied` plain integers, `contentChanges` in the compact forms. Filled in place: a
  /// returned `Self?` was copied at each hop (~270 a message).
  public static func scan(_ body: Span<UInt8>, maxDepth: Int, into change: inout Self) -> Bool {
    guard FastPath.pulledDidChange.isOn else { return false }
    let taken = Envelope.scanNotification(body, maxDepth: maxDepth, method: method, into: &change) {
      (change: inout Self, scanner: inout JSONScanner) throws(JSONParseError) in
      try change.read(&scanner)
    }
    if taken { FastPath.pulledDidChange.taken() }
    return taken
  }

  private mutating func read(_ scanner: inout JSONScanner) throws(JSONParseError) -> Bool {
    guard try scanner.beginObject() else { return false }
    (composing, applied) = (false, nil)  // the last message's, kept to be filled in place
    changes.removeAll()
    var (hasField, hasVersion, hasChanges) = (false, false, false)
    var (order, declared) = (0, Member.declared)
    while let key = try scanner.nextKey() {
      switch scanner.slot(of: key, in: declared, expected: order).flatMap(Member.init) {
      case .field? where !hasField:
        guard let name = try scanner.readStringBytes(), !name.hasEscapes else { return false }
        let kept = FastPath.lastFieldID.isOn && name.isPlain(field)  // the last message's id
        if kept { FastPath.lastFieldID.taken() } else { field = name.string }
        hasField = true
      case .version? where !hasVersion:
        guard let value = scanner.readShortInteger() else { return false }
        (version, hasVersion) = (value, true)
      case .contentChanges? where !hasChanges:
        guard scanner.read(nesting: 4, { $0.contentChanges(into: &changes) ? true : nil }) != nil
        else { return false }
        hasChanges = true
      case .applied? where applied == nil:
        guard let value = scanner.readShortInteger() else { return false }
        applied = value
      default: return false
      }
      order += 1
    }
    return hasField && hasVersion && hasChanges
  }

  /// The `field` of params that do not decode as a whole, when it is a string: the field the
  /// client meant, to be told that its change was not taken.
  public static func field(in source: ParamsSource) -> String? {
    try? Params<Named>.root(source).string(.field)
  }

  /// The one member ``field(in:)`` reads, among any others.
  private enum Named: Int, ParamsMember {
    case field
    static let declared = declare(acceptingAnyMember: true)
  }
}

/// The `sync` member of `field/open`: the client's buffer version and an optional cell layout
/// to push with every update.
public struct FieldSyncOptions: Hashable, Sendable {
  /// The version of the client's buffer holding `text`.
  public var version: Int
  /// The layout to compute for every update, measured in cells.
  public var layout: CellLayout?

  /// The members of `sync`.
  public enum Member: Int, ParamsMember {
    case version, layout
    public static let declared = declare()
  }

  /// Decodes `{version?, layout?}`.
  public init(params: Params<Member>) throws(ParamsError) {
    version = try params.optionalInteger(.version, in: Int.min...Int.max) ?? 0
    layout = try params.optionalObject(.layout).map(CellLayout.init(params:))
  }
}

/// A field layout measured in terminal cells: everything `field/layout` needs but the field.
public struct CellLayout: Hashable, Sendable {
  /// The available width in cells; nil for unbounded.
  public var width: Double?
  /// How chips are measured and labelled.
  public var chips: CellChips
  /// The text field's height.
  public var fieldHeight: Double
  /// Gap between items and lines.
  public var spacing: Double
  /// The text field's minimum width.
  public var fieldMinWidth: Double

  /// Creates a layout spec.
  public init(
    width: Double?,
    chips: CellChips,
    fieldHeight: Double,
    spacing: Double,
    fieldMinWidth: Double
  ) {
    self.width = width
    self.chips = chips
    self.fieldHeight = fieldHeight
    self.spacing = spacing
    self.fieldMinWidth = fieldMinWidth
  }

  /// The members of `layout`.
  public enum Member: Int, ParamsMember {
    case width, cells, fieldHeight, spacing, fieldMinWidth
    public static let declared = declare()
  }

  /// Decodes `{width, cells: {left?, right?, padding?}, fieldHeight?, spacing?, fieldMinWidth?}`
  /// (defaults for terminals: height 1, spacing 1, minimum width 10).
  public init(params: Params<Member>) throws(ParamsError) {
    width = try readWidth(params, .width)
    chips =
      try params.optionalObject(.cells).map(CellChips.init(params:)) ?? CellChips()
    fieldHeight = try params.optionalLength(.fieldHeight) ?? 1
    spacing = try params.optionalLength(.spacing) ?? 1
    fieldMinWidth = try params.optionalLength(.fieldMinWidth) ?? 10
  }

  /// Lays out `tags` measured in cells: the frames and each chip's label.
  public func layout(for tags: [String]) -> (flow: FlowResult, labels: [String]) {
    let widths = tags.map(chips.width(of:))
    let flow = FlowLayout.field(
      chips: widths.map { Size(width: Double($0), height: 1) },
      fieldHeight: fieldHeight,
      width: width,
      spacing: spacing,
      fieldMinWidth: fieldMinWidth
    )
    return (flow, chips.labels(for: tags, widths: widths, frames: flow.frames))
  }
}

extension JSONWriter {
  /// Writes a `field/didUpdate`'s params: the client buffer version `edits` apply to, the
  /// mirror's pending edits in `encoding` (often none, last to first; none for a resync),
  /// the FieldState version, the members FieldState shares (``fieldChange(tags:encodedTags:text:outcome:selected:canUndo:canRedo:language:flagged:)``),
  /// `resync` when the client must send its whole text, `error` saying why its last
  /// `field/didChange` was not taken, and the pushed layout with chip labels when asked for.
  public mutating func fieldUpdate(
    head: FieldStateHead,
    version: Int,
    edits buffer: EditorBuffer?,
    encoding: PositionEncoding,
    stateVersion: Int,
    tags: [String],
    encodedTags: EncodedTags?,
    text: String,
    outcome: FieldOutcome,
    resync: Bool,
    error: ResponseError?,
    layout: FlowResult?,
    labels: [String],
    selected: Int?,
    canUndo: Bool,
    canRedo: Bool,
    language: Language,
    flagged: [FlaggedTag]
  ) {
    // `{"field":…,"version":` as a FieldState starts (the field's kept text).
    fragment(head.field, from: FieldStateHead.resultName)
    integer(version)
    fragment(#","edits":["#)
    buffer?.forEachPendingEdit(encoding: encoding) { write($0) }
    endArray()
    fragment(#","stateVersion":"#)
    integer(stateVersion)
    fragment(#","tags":"#)
    fieldChange(
      tags: tags,
      encodedTags: encodedTags,
      text: text,
      outcome: outcome,
      selected: selected,
      canUndo: canUndo,
      canRedo: canRedo,
      language: language,
      flagged: flagged
    )
    if resync {
      key("resync")
      bool(true)
    }
    if let error {
      key("error")
      self.error(error)
    }
    if let layout {
      key("frames")
      frames(layout.frames, labels: labels)
      key("size")
      write(layout.size)
    }
    endObject()
  }
}

extension TextEdit: JSONWritable {
  /// `{range: {start, end}, newText}` (or `{newText}` for a whole-text edit); line 0 as runs.
  public func write(to w: inout JSONWriter) {
    w.beginObject()
    if let range, range.start.line == 0, range.end.line == 0, FastPath.lineZeroEdit.isOn {
      FastPath.lineZeroEdit.taken()
      w.fragment(#""range":{"start":{"line":0,"character":"#)
      w.integer(range.start.character)
      w.fragment(#"},"end":{"line":0,"character":"#)
      w.integer(range.end.character)
    } else if let range {
      range.write(to: &w, from: #""range":{"start":{"line":"#)
    }
    w.fragment(range == nil ? #""newText":"# : #"}},"newText":"#)
    w.string(newText)
    w.endObject()
  }
}

extension TextPosition: JSONWritable {
  /// `{line, character}`.
  public func write(to w: inout JSONWriter) {
    w.beginObject()
    w.fragment(#""line":"#)
    w.integer(line)
    w.fragment(#","character":"#)
    w.integer(character)
    w.endObject()
  }
}
