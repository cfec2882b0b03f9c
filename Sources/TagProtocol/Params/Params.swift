public import JSONRPC
public import TagCore

/// The members one params object may have, declared once: an enum whose cases are the member
/// names, in the order an unknown member's error lists them.
///
/// `enum Member: Int, ParamsMember { case field, text; static let declared = declare() }`.
public protocol ParamsMember: CaseIterable, Sendable {
  /// The cases' names as ``DeclaredMembers`` (made once, by ``declare(acceptingAnyMember:)``).
  static var declared: DeclaredMembers { get }
  /// The member's slot: its place among the cases.
  var slot: Int { get }
}

extension ParamsMember where Self: RawRepresentable, RawValue == Int {
  public var slot: Int { rawValue }

  /// The cases' names in order; `acceptingAnyMember` for LSP's open objects, which grow with
  /// every LSP version.
  public static func declare(acceptingAnyMember: Bool = false) -> DeclaredMembers {
    DeclaredMembers(cases: allCases, acceptsAnyMember: acceptingAnyMember)
  }
}

/// Params without members.
public enum NoMembers: ParamsMember {
  public static let declared = DeclaredMembers([])
  public var slot: Int { switch self {} }
}

/// A typed view of one JSON object inside a request's params, remembering its path for errors.
///
/// Missing, `null`, `[]` and `{}` params all read as an empty object (CLIENTS.md: Neovim sends
/// `[]`, Emacs and jsonrpc-glib send `null`).
///
/// Its members were matched into `M`'s slots when the object was walked (``MemberSlots``): a
/// member `M` does not declare is refused when the object is opened, with -32602 naming it and
/// the nearest declared one. The object is the message body (values read from their bytes when
/// asked: strings, numbers, Booleans, sizes and content changes in their usual shapes, without
/// building a ``JSONValue``), or, for params that arrived as a tree (batches), that tree's
/// object, read in place through the same accessors; every error and unusual shape goes
/// through the ``JSONValue``-based code.
public struct Params<M: ParamsMember> {
  let object: ParamsObject
  private(set) var slots: MemberSlots
  /// Where this object is, spelt out only when read (an error message): nested objects and
  /// array elements would otherwise build a path string each on the fast path.
  private let at: ParamsPath

  /// The path of this object from the params root, such as `options`.
  ///
  /// Empty at the root.
  public var path: String { at.text }

  /// The object with its members in `slots`; throws for a member `M` does not declare.
  @inline(__always)
  init(_ object: ParamsObject, slots: consuming MemberSlots, at: ParamsPath) throws(ParamsError) {
    self.object = object
    self.slots = slots
    self.at = at
    try refuseUnknown()
  }

  /// Throws for the first member `M` does not declare, unless `M` accepts any.
  @inline(__always)
  private func refuseUnknown() throws(ParamsError) {
    guard let unknown = slots.unknown, !M.declared.acceptsAnyMember else { return }
    let key = object.key(unknown.key, hasEscapes: unknown.hasEscapes)
    throw unknownMember(key, at: at.text, known: M.declared.names)
  }

  /// The root object of `body`, its members (`ranges`) matched into `M`'s slots in place.
  @inline(__always)
  init(root body: MessageBytes, _ ranges: JSONObjectRanges) throws(ParamsError) {
    (object, slots, at) = (.bytes(body), MemberSlots(), .root)
    body.match(ranges, M.declared, into: &slots)
    try refuseUnknown()
  }

  /// The members of `object`, a tree's, matched into `M`'s slots.
  init(tree object: JSONObject, at: ParamsPath) throws(ParamsError) {
    var slots = MemberSlots()
    for (index, member) in object.members.enumerated() {
      slots.found(
        M.declared.slot(of: member.key),
        key: index..<(index + 1),
        value: index..<(index + 1)
      )
    }
    try self.init(.tree(object), slots: slots, at: at)
  }

  /// The value of member `key` where it lies; nil when absent.
  @inline(__always)
  private func member(_ key: M) -> Range<Int>? { slots.value(key.slot) }

  /// Whether member `key` is present (`null` included).
  @inline(__always)
  public func has(_ key: M) -> Bool { member(key) != nil }

  /// Throws when both `a` and `b` are present: they are alternatives, and one must be chosen.
  public func exclusive(_ a: M, _ b: M) throws(ParamsError) {
    guard has(a), has(b) else { return }
    throw alternatives(a, b)
  }

  /// The error for alternatives `a` and `b` both sent.
  public func alternatives(_ a: M, _ b: M) -> ParamsError {
    ParamsError(
      path: path,
      problem: "`\(name(a))` and `\(name(b))` are alternatives: send one of them, not both"
    )
  }

  /// The name of member `key`.
  func name(_ key: M) -> String { M.declared.names[key.slot] }

  /// The path of member `key`.
  public func path(_ key: M) -> String { path.isEmpty ? name(key) : "\(path).\(name(key))" }

  /// The member's value.
  ///
  /// Nil when absent. `null` is returned as `.null`.
  public subscript(key: M) -> JSONValue? {
    member(key).map(object.value)
  }

  /// A required string member.
  @inline(__always)
  public func string(_ key: M) throws(ParamsError) -> String {
    guard let value = member(key) else { throw missing(key, "a string") }
    if let text = object.string(value, isPlain: slots.isPlainString(key.slot)) { return text }
    throw mismatch(key, "a string", object.value(value))
  }

  /// A required string member as a document's text: decoded once, straight to bytes, with its
  /// lines found on the way when the body is valid JSON (SPEC §6b's megabyte documents).
  public func text(_ key: M) throws(ParamsError) -> DocumentText {
    guard let value = member(key) else { throw missing(key, "a string") }
    if let text = object.text(value, isPlain: slots.isPlainString(key.slot)) { return text }
    throw mismatch(key, "a string", object.value(value))
  }

  /// An optional string member (absent or `null` → nil).
  public func optionalString(_ key: M) throws(ParamsError) -> String? {
    guard let value = member(key) else { return nil }
    if let text = object.string(value, isPlain: slots.isPlainString(key.slot)) { return text }
    let found = object.value(value)
    guard found != .null else { return nil }
    throw mismatch(key, "a string", found)
  }

  /// An optional Boolean member (absent or `null` → nil).
  public func optionalBool(_ key: M) throws(ParamsError) -> Bool? {
    guard let value = member(key) else { return nil }
    if let flag = object.bool(value) { return flag }
    let found = object.value(value)
    guard found != .null else { return nil }
    throw mismatch(key, "true or false", found)
  }

  /// Member `key` as a number when it is one, else as a ``JSONValue``; nil when absent.
  @inline(__always)
  private func numeric(_ key: M) -> JSONValue? {
    guard let value = member(key) else { return nil }
    return object.number(value) ?? object.value(value)
  }

  /// A required integer member within `range`.
  @inline(__always)
  public func integer(_ key: M, in range: ClosedRange<Int> = 0...Int.max) throws(ParamsError) -> Int
  {
    if let value = member(key), let number = object.plainInteger(value), range.contains(number) {
      return number
    }
    guard let value = numeric(key), value != .null else { throw missing(key, "an integer") }
    return try integer(value, path: path(key), in: range)
  }

  /// An optional integer member within `range` (absent or `null` → nil).
  @inline(__always)
  public func optionalInteger(
    _ key: M,
    in range: ClosedRange<Int> = 0...Int.max
  ) throws(ParamsError) -> Int? {
    guard let value = numeric(key), value != .null else { return nil }
    return try integer(value, path: path(key), in: range)
  }

  /// A required finite number ≥ 0.
  public func length(_ key: M) throws(ParamsError) -> Double {
    guard let value = numeric(key), value != .null else {
      throw missing(key, "a finite number ≥ 0")
    }
    return try length(value, path: path(key))
  }

  /// An optional finite number ≥ 0 (absent or `null` → nil).
  public func optionalLength(_ key: M) throws(ParamsError) -> Double? {
    guard let value = numeric(key), value != .null else { return nil }
    return try length(value, path: path(key))
  }

  /// A required array member (an empty object `{}` also reads as an empty array, for Lua clients).
  public func array(_ key: M) throws(ParamsError) -> [JSONValue] {
    guard let value = self[key], value != .null else { throw missing(key, "an array") }
    return try array(value, path: path(key))
  }

  /// An optional array member (absent or `null` → nil).
  public func optionalArray(_ key: M) throws(ParamsError) -> [JSONValue]? {
    guard let value = self[key], value != .null else { return nil }
    return try array(value, path: path(key))
  }

  /// A required array of strings.
  public func strings(_ key: M) throws(ParamsError) -> [String] {
    try strings(array(key), at: path(key))
  }

  /// An optional array of strings (absent or `null` → nil).
  public func optionalStrings(_ key: M) throws(ParamsError) -> [String]? {
    guard let items = try optionalArray(key) else { return nil }
    return try strings(items, at: path(key))
  }

  /// `items`, found at `path`, as strings.
  func strings(_ items: [JSONValue], at path: String) throws(ParamsError) -> [String] {
    var result: [String] = []
    result.reserveCapacity(items.count)
    for (i, item) in items.enumerated() {
      result.append(try string(item, path: "\(path)[\(i)]"))
    }
    return result
  }

  /// A required array of sizes (`{width, height}`, finite numbers ≥ 0), read straight from the
  /// bytes when it can be; the errors are those of the element-by-element reading.
  public func sizes(_ key: M) throws(ParamsError) -> [Size] {
    if let value = member(key), let sizes = object.sizes(value) { return sizes }
    let items = try array(key)
    let path = path(key)
    var sizes: [Size] = []
    sizes.reserveCapacity(items.count)
    for (i, item) in items.enumerated() {
      // Paths are only spelled out for an error: 100,000 chips must not build 100,000 strings.
      let size = try Params<SizeMember>.element(item, path: "\(path)[\(i)]")
      sizes.append(Size(width: try size.length(.width), height: try size.length(.height)))
    }
    return sizes
  }

  /// A required array of LSP content changes, read straight from the bytes when it can be; the
  /// errors are those of the element-by-element reading.
  @inline(__always)
  public func textEdits(_ key: M) throws(ParamsError) -> TextEdits {
    if let edits = plainTextEdits(key) { return edits }
    return try textEdits(array(key), at: path(key))
  }

  /// Member `key` of a body as LSP content changes when written as editors write them
  /// (``MessageBytes/Cursor/contentChanges(into:)``); nil otherwise, for the caller to read it
  /// element by element (in its tree, so every spelling reads alike and errors are exact).
  @inline(__always)
  public func plainTextEdits(_ key: M) -> TextEdits? {
    guard case .bytes(let body) = object, let value = member(key) else { return nil }
    var cursor = body.cursor(value)
    var edits = TextEdits()
    guard cursor.contentChanges(into: &edits), cursor.at == cursor.end else { return nil }
    return edits
  }

  /// `items`, found at `path`, as LSP content changes.
  func textEdits(_ items: [JSONValue], at path: String) throws(ParamsError) -> TextEdits {
    var edits = TextEdits()
    for (i, item) in items.enumerated() {
      let change = try Params<ContentChangeMember>.element(item, path: "\(path)[\(i)]")
      let text = try change.string(.text)
      let range = try change.optionalObject(.range).map(textRange)
      // `rangeLength` (deprecated in LSP, still sent by some clients) is checked but not used:
      // the range says what is replaced.
      _ = try change.optionalInteger(.rangeLength)
      // Where the caret is in a whole-text change's text (Protocol/sync.md, "Range-less changes").
      let caret = try change.optionalObject(.caret).map(position)
      if caret != nil, range != nil {
        throw ParamsError(
          path: change.path(.caret),
          problem:
            "belongs to a change without `range` (the whole text); a ranged change says where it is"
        )
      }
      edits.append(TextEdit(range: range, newText: text, caret: caret))
    }
    return edits
  }

  /// An optional object member (absent or `null` → nil; `[]` reads as `{}`).
  @inline(__always)
  public func optionalObject<N>(_ key: M, as _: N.Type = N.self) throws(ParamsError) -> Params<N>? {
    guard let value = member(key) else { return nil }
    if let nested = try object.object(value, N.self, at: .member(at, name(key))) { return nested }
    let found = object.value(value)
    guard found != .null else { return nil }
    return try Params<N>.object(found, at: .member(at, name(key)))
  }

  /// A required object member (`[]` reads as `{}`).
  public func requiredObject<N>(_ key: M, as _: N.Type = N.self) throws(ParamsError) -> Params<N> {
    guard let nested = try optionalObject(key, as: N.self) else {
      throw missing(key, "an object")
    }
    return nested
  }

  func missing(_ key: M, _ expected: String) -> ParamsError {
    ParamsError(path: path(key), problem: "is required: expected \(expected)")
  }

  func mismatch(_ key: M, _ expected: String, _ value: JSONValue) -> ParamsError {
    ParamsError(path: path(key), problem: "must be \(expected), got \(value.kindName)")
  }
}

extension Params {
  /// Reads `value` at `path` as an integer within `range` (integral doubles such as `3.0`
  /// count).
  public func integer(
    _ value: JSONValue,
    path: @autoclosure () -> String,
    in range: ClosedRange<Int>
  ) throws(ParamsError) -> Int {
    let number: Int
    switch value {
    case .integer(let n) where n >= Int64(Int.min) && n <= Int64(Int.max):
      number = Int(n)
    case .double(let d) where d.isFinite && d.rounded() == d && abs(d) < 9.0e15:
      number = Int(d)
    case .integer, .double:
      throw ParamsError(
        path: path(),
        problem: "must be an integer in \(range.describe), got \(value.kindName)"
      )
    default:
      throw ParamsError(path: path(), problem: "must be an integer, got \(value.kindName)")
    }
    guard range.contains(number) else {
      throw ParamsError(path: path(), problem: "must be in \(range.describe), got \(number)")
    }
    return number
  }

  /// Reads `value` at `path` as a finite number ≥ 0.
  public func length(
    _ value: JSONValue,
    path: @autoclosure () -> String
  ) throws(ParamsError)
    -> Double
  {
    let number: Double
    switch value {
    case .integer(let n): number = Double(n)
    case .double(let d): number = d
    default: number = -1
    }
    guard number.isFinite, number >= 0 else {
      throw ParamsError(path: path(), problem: "must be a finite number ≥ 0, got \(value.kindName)")
    }
    return number
  }

  /// Reads `value` at `path` as an array (`{}` reads as `[]`).
  public func array(
    _ value: JSONValue,
    path: @autoclosure () -> String
  ) throws(ParamsError) -> [JSONValue] {
    switch value {
    case .array(let items): return items
    case .object(let object) where object.members.isEmpty: return []
    default:
      throw ParamsError(path: path(), problem: "must be an array, got \(value.kindName)")
    }
  }

  /// Reads `value` (an array's element) at `path` as an object (`[]` reads as `{}`).
  static func element(
    _ value: JSONValue,
    path: @autoclosure @escaping @Sendable () -> String
  ) throws(ParamsError) -> Params {
    try object(value, at: .lazy(path))
  }

  fileprivate static func object(_ value: JSONValue, at: ParamsPath) throws(ParamsError) -> Params {
    switch value {
    case .object(let object):
      return try Params(tree: object, at: at)
    case .array(let items) where items.isEmpty:
      return try Params(tree: JSONObject(), at: at)
    default:
      throw ParamsError(path: at.text, problem: "must be an object, got \(value.kindName)")
    }
  }

  /// Reads `value` at `path` as a string.
  public func string(
    _ value: JSONValue,
    path: @autoclosure () -> String
  ) throws(ParamsError) -> String {
    guard case .string(let text) = value else {
      throw ParamsError(path: path(), problem: "must be a string, got \(value.kindName)")
    }
    return text
  }
}

/// A size's members, `{width, height}`.
public enum SizeMember: Int, ParamsMember {
  case width, height
  public static let declared = declare()
}

/// An LSP content change's members.
public enum ContentChangeMember: Int, ParamsMember {
  case range, rangeLength, text, caret
  public static let declared = declare()
}

/// An LSP `Range`'s members.
public enum RangeMember: Int, ParamsMember {
  case start, end
  public static let declared = declare()
}

/// An LSP `Position`'s members.
public enum PositionMember: Int, ParamsMember {
  case line, character
  public static let declared = declare()
}

/// An LSP `Range`: `{start, end}`.
func textRange(_ range: Params<RangeMember>) throws(ParamsError) -> TextRange {
  TextRange(
    start: try position(range.requiredObject(.start)),
    end: try position(range.requiredObject(.end))
  )
}

/// An LSP `Position`: `{line, character}`.
func position(_ params: Params<PositionMember>) throws(ParamsError) -> TextPosition {
  TextPosition(line: try params.integer(.line), character: try params.integer(.character))
}

/// Where a params object is, from the root: kept as its parts, spelt out only for an error.
enum ParamsPath: Sendable {
  case root
  indirect case member(ParamsPath, String)
  /// An array element's path, made by the caller when read.
  case lazy(@Sendable () -> String)

  /// The path as text, such as `options` or `changes[0].range` (empty at the root).
  var text: String {
    switch self {
    case .root: return ""
    case .member(let parent, let key):
      let path = parent.text
      return path.isEmpty ? key : "\(path).\(key)"
    case .lazy(let text): return text()
    }
  }
}

extension ClosedRange<Int> {
  var describe: String {
    upperBound == Int.max ? "\(lowerBound)…" : "\(lowerBound)…\(upperBound)"
  }
}

extension JSONValue {
  /// A short description of the value for error messages: its kind, and small scalars verbatim.
  public var kindName: String {
    switch self {
    case .null: "null"
    case .bool(let flag): "\(flag)"
    case .integer(let n): "\(n)"
    case .double(let d): d.isFinite ? "\(d)" : "a number out of range (\(d))"
    case .string(let s): s.unicodeScalars.count <= 40 ? "the string \"\(s)\"" : "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}
