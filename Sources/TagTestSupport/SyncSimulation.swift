import JSONRPC
public import TagCore

/// One thing the simulated user does in an editor buffer whose cursor stays at the end.
public enum Keystroke: Hashable, Sendable, CustomStringConvertible {
  /// Types or pastes text (letters, separators, several at once).
  case type(String)
  /// Backspace.
  case backspace
  /// Return.
  case enter
  /// Ctrl-Z: `field/undo`.
  case undo
  /// Ctrl-Y: `field/redo`.
  case redo
  /// Edit the chip at this index back into the draft: `field/editTag`.
  case editTag(Int)
  /// Move a chip: `field/moveTag`.
  case moveTag(Int, Int)
  /// A chip's remove button: `field/removeTag`.
  case removeTag(Int)

  public var description: String {
    switch self {
    case .type(let text): "type(\(text.debugDescription))"
    case .backspace: "backspace"
    case .enter: "enter"
    case .undo: "undo"
    case .redo: "redo"
    case .editTag(let index): "editTag(\(index))"
    case .moveTag(let from, let to): "moveTag(\(from), \(to))"
    case .removeTag(let index): "removeTag(\(index))"
    }
  }

  /// The field event a request keystroke is, or nil when its index is out of range (the server
  /// then answers an error and changes nothing).
  func event(for field: TagField) -> FieldEvent? {
    let indices = field.tags.indices
    switch self {
    case .type, .backspace: return nil
    case .enter: return .submitted
    case .undo: return .undo
    case .redo: return .redo
    case .editTag(let index): return indices.contains(index) ? .tagEdited(at: index) : nil
    case .moveTag(let from, let to):
      return indices.contains(from) && indices.contains(to) ? .tagMoved(from: from, to: to) : nil
    case .removeTag(let index): return indices.contains(index) ? .tagRemoved(at: index) : nil
    }
  }
}

/// The reference: the same keystrokes applied one at a time, each seeing the settled draft
/// (what a slow typist gets).
public func slowTypingResult(
  _ keys: [Keystroke],
  backspace: BackspaceMode = .remove
) -> (tags: [String], draft: String) {
  var field = TagField(rules: FieldRules(backspace: backspace))
  for key in keys {
    switch key {
    case .type(let text): _ = field.apply(.draftChanged(field.draft + text))
    case .backspace:
      if field.draft.isEmpty || field.selected != nil {
        _ = field.apply(.deletedBackward)
      } else {
        _ = field.apply(.draftChanged(String(field.draft.dropLast())))
      }
    default:
      if let event = key.event(for: field) { _ = field.apply(event) }
    }
  }
  return (field.tags, field.draft)
}

/// A model editor client that follows Protocol/sync.md exactly: it owns a buffer, reports every
/// change with `field/didChange`, and applies `field/didUpdate` edits only at their version.
public struct ModelEditor: Sendable {
  /// The buffer.
  public private(set) var buffer = ""
  /// The buffer's version.
  public private(set) var version = 0
  /// The latest tags the server reported.
  public private(set) var tags: [String] = []
  /// The field id.
  public let field: String
  /// The field's Backspace mode.
  public let backspace: BackspaceMode
  private var nextID = 100
  /// Requests whose out-of-range errors are expected (an index the user's stale view offered).
  private var mayFail: Set<Int> = []
  /// Messages the client has produced and not yet handed to the transport.
  public var outgoing: [String] = []
  /// Problems seen (error responses, unparsable messages).
  public private(set) var problems: [String] = []

  /// How the editor reports its user's changes: ranged edits, or its whole text (which tagd
  /// compares with its mirror), with or without the caret.
  public enum Reporting: Hashable, Sendable, CaseIterable {
    case ranges
    case wholeTextWithCaret
    case wholeText
  }

  /// How this editor reports its user's changes.
  public let reporting: Reporting

  /// Creates an editor for `field`; the caller sends ``openMessage``.
  public init(field: String, backspace: BackspaceMode = .remove, reporting: Reporting = .ranges) {
    self.field = field
    self.backspace = backspace
    self.reporting = reporting
  }

  /// The change the user just made, `edit` as a ranged editor reports it, as ``reporting``
  /// says.
  private func reported(_ edit: TextEdit) -> [TextEdit] {
    switch reporting {
    case .ranges: [edit]
    case .wholeText: [TextEdit(range: nil, newText: buffer)]
    case .wholeTextWithCaret:
      [TextEdit(range: nil, newText: buffer, caret: position(of: buffer.endIndex))]
    }
  }

  /// The `field/open` request for this field, synced at version 0.
  public var openMessage: String {
    let options = backspace == .remove ? "" : #","options":{"backspace":"\#(backspace.rawValue)"}"#
    return
      #"{"jsonrpc":"2.0","id":2,"method":"field/open","params":{"field":"\#(field)","sync":{"version":0}\#(options)}}"#
  }

  /// Performs a keystroke: edits the buffer and queues the messages it causes.
  public mutating func press(_ key: Keystroke) {
    switch key {
    case .type(let text):
      let end = position(of: buffer.endIndex)
      buffer += text
      version += 1
      queueChange(
        reported(TextEdit(range: TextRange(start: end, end: end), newText: text)),
        applied: nil
      )
    case .backspace:
      guard let last = buffer.indices.last else {
        queueRequest("field/deleteBackward")
        return
      }
      let range = TextRange(start: position(of: last), end: position(of: buffer.endIndex))
      buffer.removeLast()
      version += 1
      queueChange(reported(TextEdit(range: range, newText: "")), applied: nil)
    case .enter: queueRequest("field/submit")
    case .undo: queueRequest("field/undo")
    case .redo: queueRequest("field/redo")
    case .editTag(let index): queueRequest("field/editTag", #","index":\#(index)"#, mayFail: true)
    case .moveTag(let from, let to):
      queueRequest("field/moveTag", #","from":\#(from),"to":\#(to)"#, mayFail: true)
    case .removeTag(let index):
      queueRequest("field/removeTag", #","index":\#(index)"#, mayFail: true)
    }
  }

  /// Handles one message from the server.
  public mutating func receive(_ body: String) {
    guard case .object(let message)? = try? JSONReader.parse(Array(body.utf8)) else {
      problems.append("unparsable: \(body)")
      return
    }
    if message["error"] != nil {
      let id = if case .integer(let id)? = message["id"] { Int(id) } else { -1 }
      if !mayFail.contains(id) { problems.append("error: \(body)") }
    }
    guard case .string("field/didUpdate")? = message["method"],
      case .object(let update)? = message["params"]
    else {
      return
    }
    if case .array(let items)? = update["tags"] {
      tags = items.compactMap { if case .string(let s) = $0 { s } else { nil } }
    }
    guard case .integer(let at)? = update["version"], Int(at) == version,
      case .array(let edits)? = update["edits"]
    else { return }
    var applied: [TextEdit] = []
    for item in edits {
      guard let edit = Self.edit(item) else {
        problems.append("bad edit: \(body)")
        return
      }
      do {
        buffer = try TextOffsets.apply([edit], to: buffer, encoding: .utf16)
      } catch {
        problems.append("edit does not fit the buffer: \(body)")
        return
      }
      applied.append(edit)
    }
    guard !applied.isEmpty else { return }
    version += 1
    queueChange(applied, applied: Int(at))
  }

  private func position(of index: String.Index) -> TextPosition {
    TextOffsets.position(of: index, in: buffer, encoding: .utf16)
  }

  private mutating func queueChange(_ edits: [TextEdit], applied: Int?) {
    var w = JSONWriter()
    w.notification(method: "field/didChange") { w in
      w.beginObject()
      w.key("field")
      w.string(field)
      w.key("version")
      w.integer(version)
      if let applied {
        w.key("applied")
        w.integer(applied)
      }
      w.key("contentChanges")
      w.beginArray()
      for edit in edits {
        w.beginObject()
        if let range = edit.range {
          w.key("range")
          w.beginObject()
          for (name, p) in [("start", range.start), ("end", range.end)] {
            w.key(named: name)
            w.beginObject()
            w.key("line")
            w.integer(p.line)
            w.key("character")
            w.integer(p.character)
            w.endObject()
          }
          w.endObject()
        }
        w.key("text")
        w.string(edit.newText)
        if let caret = edit.caret {
          w.key("caret")
          w.beginObject()
          w.key("line")
          w.integer(caret.line)
          w.key("character")
          w.integer(caret.character)
          w.endObject()
        }
        w.endObject()
      }
      w.endArray()
      w.endObject()
    }
    outgoing.append(String(decoding: w.bytes, as: UTF8.self))
  }

  private mutating func queueRequest(
    _ method: String,
    _ members: String = "",
    mayFail: Bool = false
  ) {
    nextID += 1
    if mayFail { self.mayFail.insert(nextID) }
    outgoing.append(
      #"{"jsonrpc":"2.0","id":\#(nextID),"method":"\#(method)","params":{"field":"\#(field)"\#(members)}}"#
    )
  }

  private static func edit(_ value: JSONValue) -> TextEdit? {
    guard case .object(let edit) = value, case .string(let text)? = edit["newText"],
      case .object(let range)? = edit["range"], let start = position(range["start"]),
      let end = position(range["end"])
    else { return nil }
    return TextEdit(range: TextRange(start: start, end: end), newText: text)
  }

  private static func position(_ value: JSONValue?) -> TextPosition? {
    guard case .object(let p)? = value, case .integer(let line)? = p["line"],
      case .integer(let c)? = p["character"]
    else { return nil }
    return TextPosition(line: Int(line), character: Int(c))
  }
}

/// Random keystrokes for the simulation.
///
/// Letters (with accents, CJK, emoji), separators,
/// pastes with several separators, Backspace and Return; with `features`, also undo, redo and
/// chip edits, moves and removals (SPEC §6).
public func randomKeystrokes(
  count: Int,
  features: Bool = false,
  using random: inout some RandomNumberGenerator
) -> [Keystroke] {
  if features {
    return (0..<count).map { _ in
      switch Int.random(in: 0..<100, using: &random) {
      case 0..<75: randomKeystrokes(count: 1, using: &random)[0]
      case 75..<83: .undo
      case 83..<88: .redo
      case 88..<94: .editTag(Int.random(in: 0..<4, using: &random))
      case 94..<97:
        .moveTag(Int.random(in: 0..<4, using: &random), Int.random(in: 0..<4, using: &random))
      default: .removeTag(Int.random(in: 0..<4, using: &random))
      }
    }
  }
  let letters = ["a", "b", "R", "é", "e\u{301}", "漢", "😀", " ", "Ab", "ss", "ß"]
  let pastes = ["red, green,blue", "a,,b\n c", "x\ny,", " , ", "ß,SS,straße,", "😀,😀\n"]
  return (0..<count).map { _ in
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<50: .type(letters[Int.random(in: 0..<letters.count, using: &random)])
    case 50..<62: .type(",")
    case 62..<67: .type("\n")
    case 67..<75: .type(pastes[Int.random(in: 0..<pastes.count, using: &random)])
    case 75..<92: .backspace
    default: .enter
    }
  }
}
