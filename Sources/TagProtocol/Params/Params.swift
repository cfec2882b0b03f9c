public import JSONRPC
public import TagCore

/// A typed view of one JSON object inside a request's params, remembering its path for errors.
///
/// Missing, `null`, `[]` and `{}` params all read as an empty object (CLIENTS.md: Neovim sends
/// `[]`, Emacs and jsonrpc-glib send `null`).
///
/// The object is either a ``JSONObject`` or, on the fast path, the byte ranges of its members
/// in the message body (``ParamsSource/bytes(_:_:)``): a member's value is then read from its
/// bytes when asked (strings, numbers and Booleans without building a ``JSONValue``), and every
/// error goes through the same ``JSONValue``-based code, so messages do not depend on the path.
public struct Params: Sendable {
  private enum Storage: Sendable {
    case tree(JSONObject)
    case bytes(ParamsBytes)
  }

  private let storage: Storage
  /// Builds the path only when it is read (an error message): nested objects and array
  /// elements would otherwise build a path string each on the fast path.
  private let pathText: @Sendable () -> String

  /// The path of this object from the params root, such as `options`.
  ///
  /// Empty at the root.
  public var path: String { pathText() }

  /// The members of this object (built from the bytes when the object is byte-backed).
  public var object: JSONObject {
    switch storage {
    case .tree(let object): return object
    case .bytes(let bytes): return bytes.object()
    }
  }

  /// Reads request params: nil, `null`, `[]` and `{}` are all "no params".
  ///
  /// Throws when a member is not one of `members`.
  public init(_ params: JSONValue?, members: Members) throws(ParamsError) {
    switch params {
    case nil, .null: self.init(object: JSONObject(), path: "")
    case .object(let object): try self.init(object: object, path: "", members: members)
    case .array(let items) where items.isEmpty: self.init(object: JSONObject(), path: "")
    case .array:
      throw ParamsError(path: "", problem: "must be an object with named members, not an array")
    case .some(let other):
      throw ParamsError(path: "", problem: "must be an object, got \(other.kindName)")
    }
  }

  /// Reads request params from either source, with the rules of ``init(_:members:)``.
  public init(_ source: ParamsSource, members: Members) throws(ParamsError) {
    switch source {
    case .tree(let value): try self.init(value, members: members)
    case .bytes(_, .absent): try self.init(nil, members: members)
    case .bytes(let body, .other(let range)):
      try self.init(ParamsBytes.parse(body, range), members: members)
    case .bytes(let body, .object(let ranges)):
      let bytes = ParamsBytes(body: body, ranges: ranges)
      try bytes.check(members, at: "")
      self.init(storage: .bytes(bytes), path: { "" })
    }
  }

  /// Wraps an object found at `path` whose members are all among `members`.
  public init(object: JSONObject, path: String, members: Members) throws(ParamsError) {
    try self.init(object: object, lazyPath: { path }, members: members)
  }

  private init(
    object: JSONObject,
    lazyPath: @escaping @Sendable () -> String,
    members: Members
  ) throws(ParamsError) {
    try members.check(object, at: lazyPath())
    self.init(storage: .tree(object), path: lazyPath)
  }

  private init(object: JSONObject, path: String) {
    self.init(storage: .tree(object), path: { path })
  }

  private init(storage: Storage, path: @escaping @Sendable () -> String) {
    self.storage = storage
    self.pathText = path
  }

  /// The path of member `key`, built when read.
  private func lazyPath(_ key: String) -> @Sendable () -> String {
    let parent = pathText
    return {
      let path = parent()
      return path.isEmpty ? key : "\(path).\(key)"
    }
  }

  /// Whether member `key` is present (`null` included).
  public func has(_ key: String) -> Bool {
    switch storage {
    case .tree(let object): return object.contains(key)
    case .bytes(let bytes): return bytes.index(of: key) != nil
    }
  }

  /// Throws when both `a` and `b` are present: they are alternatives, and one must be chosen.
  public func exclusive(_ a: String, _ b: String) throws(ParamsError) {
    guard has(a), has(b) else { return }
    throw ParamsError(
      path: path,
      problem: "`\(a)` and `\(b)` are alternatives: send one of them, not both"
    )
  }

  /// The path of member `key`.
  public func path(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

  /// The member's value.
  ///
  /// Nil when absent. `null` is returned as `.null`.
  public subscript(key: String) -> JSONValue? {
    switch storage {
    case .tree(let object): return object[key]
    case .bytes(let bytes): return bytes.index(of: key).map { bytes.value(at: $0) }
    }
  }

  /// A required string member.
  public func string(_ key: String) throws(ParamsError) -> String {
    if case .bytes(let bytes) = storage, let index = bytes.index(of: key),
      let text = bytes.string(at: index)
    {
      return text
    }
    guard let value = self[key] else { throw missing(key, "a string") }
    guard case .string(let text) = value else { throw mismatch(key, "a string", value) }
    return text
  }

  /// An optional string member (absent or `null` → nil).
  public func optionalString(_ key: String) throws(ParamsError) -> String? {
    if case .bytes(let bytes) = storage {
      guard let index = bytes.index(of: key) else { return nil }
      if let text = bytes.string(at: index) { return text }
    }
    guard let value = self[key], value != .null else { return nil }
    guard case .string(let text) = value else { throw mismatch(key, "a string", value) }
    return text
  }

  /// An optional Boolean member (absent or `null` → nil).
  public func optionalBool(_ key: String) throws(ParamsError) -> Bool? {
    if case .bytes(let bytes) = storage {
      guard let index = bytes.index(of: key) else { return nil }
      if let flag = bytes.bool(at: index) { return flag }
    }
    guard let value = self[key], value != .null else { return nil }
    guard case .bool(let flag) = value else { throw mismatch(key, "true or false", value) }
    return flag
  }

  /// A required integer member within `range`.
  public func integer(
    _ key: String,
    in range: ClosedRange<Int> = 0...Int.max
  ) throws(ParamsError) -> Int {
    guard let value = number(key) ?? self[key], value != .null else {
      throw missing(key, "an integer")
    }
    return try Params.integer(value, path: path(key), in: range)
  }

  /// An optional integer member within `range` (absent or `null` → nil).
  public func optionalInteger(
    _ key: String,
    in range: ClosedRange<Int> = 0...Int.max
  ) throws(ParamsError) -> Int? {
    guard let value = number(key) ?? self[key], value != .null else { return nil }
    return try Params.integer(value, path: path(key), in: range)
  }

  /// A required finite number ≥ 0.
  public func length(_ key: String) throws(ParamsError) -> Double {
    guard let value = number(key) ?? self[key], value != .null else {
      throw missing(key, "a finite number ≥ 0")
    }
    return try Params.length(value, path: path(key))
  }

  /// An optional finite number ≥ 0 (absent or `null` → nil).
  public func optionalLength(_ key: String) throws(ParamsError) -> Double? {
    guard let value = number(key) ?? self[key], value != .null else { return nil }
    return try Params.length(value, path: path(key))
  }

  /// A required array member (an empty object `{}` also reads as an empty array, for Lua clients).
  public func array(_ key: String) throws(ParamsError) -> [JSONValue] {
    guard let value = self[key], value != .null else { throw missing(key, "an array") }
    return try Params.array(value, path: path(key))
  }

  /// A required array of sizes (`{width, height}`, finite numbers ≥ 0), read straight from the
  /// bytes when it can be; the errors are those of the element-by-element reading.
  public func sizes(_ key: String) throws(ParamsError) -> [Size] {
    if case .bytes(let bytes) = storage, let index = bytes.index(of: key),
      let sizes = bytes.sizes(at: index)
    {
      return sizes
    }
    return try TagProtocol.sizes(array(key), at: path(key))
  }

  /// A required array of LSP content changes, read straight from the bytes when it can be; the
  /// errors are those of the element-by-element reading.
  public func textEdits(_ key: String) throws(ParamsError) -> [TextEdit] {
    if let edits = plainTextEdits(key) { return edits }
    return try TagProtocol.textEdits(array(key), at: path(key))
  }

  /// Member `key` as LSP content changes when it is byte-backed and in their usual form (see
  /// ``textEdits(_:)``); nil otherwise, for the caller to read it element by element.
  public func plainTextEdits(_ key: String) -> [TextEdit]? {
    guard case .bytes(let bytes) = storage, let index = bytes.index(of: key) else { return nil }
    return bytes.textEdits(at: index)
  }

  /// An optional array member (absent or `null` → nil).
  public func optionalArray(_ key: String) throws(ParamsError) -> [JSONValue]? {
    guard let value = self[key], value != .null else { return nil }
    return try Params.array(value, path: path(key))
  }

  /// An optional object member with the given `members` (absent or `null` → nil; `[]` reads
  /// as `{}`).
  public func optionalObject(_ key: String, members: Members) throws(ParamsError) -> Params? {
    if case .bytes(let bytes) = storage {
      guard let index = bytes.index(of: key) else { return nil }
      if let nested = bytes.object(at: index) {
        try nested.check(members, at: path(key))
        return Params(storage: .bytes(nested), path: lazyPath(key))
      }
    }
    guard let value = self[key], value != .null else { return nil }
    return try Params.object(value, lazyPath: lazyPath(key), members: members)
  }

  /// A required object member with the given `members` (`[]` reads as `{}`).
  public func requiredObject(_ key: String, members: Members) throws(ParamsError) -> Params {
    if case .bytes(let bytes) = storage, let index = bytes.index(of: key),
      let nested = bytes.object(at: index)
    {
      try nested.check(members, at: path(key))
      return Params(storage: .bytes(nested), path: lazyPath(key))
    }
    guard let value = self[key], value != .null else { throw missing(key, "an object") }
    return try Params.object(value, lazyPath: lazyPath(key), members: members)
  }

  /// Member `key` when the object is byte-backed and the member is a number, read from its
  /// bytes; nil otherwise (the caller then looks the member up as a ``JSONValue``).
  private func number(_ key: String) -> JSONValue? {
    guard case .bytes(let bytes) = storage, let index = bytes.index(of: key) else { return nil }
    return bytes.number(at: index)
  }

  func missing(_ key: String, _ expected: String) -> ParamsError {
    ParamsError(path: path(key), problem: "is required: expected \(expected)")
  }

  func mismatch(_ key: String, _ expected: String, _ value: JSONValue) -> ParamsError {
    ParamsError(path: path(key), problem: "must be \(expected), got \(value.kindName)")
  }
}

extension Params {
  /// Reads `value` at `path` as an integer within `range` (integral doubles such as `3.0` count).
  public static func integer(
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
  public static func length(
    _ value: JSONValue,
    path: @autoclosure () -> String
  ) throws(ParamsError) -> Double {
    let number: Double
    switch value {
    case .integer(let n): number = Double(n)
    case .double(let d): number = d
    default:
      throw ParamsError(path: path(), problem: "must be a finite number ≥ 0, got \(value.kindName)")
    }
    guard number.isFinite, number >= 0 else {
      throw ParamsError(path: path(), problem: "must be a finite number ≥ 0, got \(value.kindName)")
    }
    return number
  }

  /// Reads `value` at `path` as an array (`{}` reads as `[]`).
  public static func array(
    _ value: JSONValue,
    path: @autoclosure () -> String
  ) throws(ParamsError) -> [JSONValue] {
    switch value {
    case .array(let items): return items
    case .object(let object) where object.members.isEmpty: return []
    default: throw ParamsError(path: path(), problem: "must be an array, got \(value.kindName)")
    }
  }

  /// Reads `value` at `path` as an object with the given `members` (`[]` reads as `{}`).
  public static func object(
    _ value: JSONValue,
    path: @autoclosure @escaping @Sendable () -> String,
    members: Members
  ) throws(ParamsError) -> Params {
    try object(value, lazyPath: path, members: members)
  }

  private static func object(
    _ value: JSONValue,
    lazyPath: @escaping @Sendable () -> String,
    members: Members
  ) throws(ParamsError) -> Params {
    switch value {
    case .object(let object):
      return try Params(object: object, lazyPath: lazyPath, members: members)
    case .array(let items) where items.isEmpty:
      return Params(storage: .tree(JSONObject()), path: lazyPath)
    default:
      throw ParamsError(path: lazyPath(), problem: "must be an object, got \(value.kindName)")
    }
  }

  /// Reads `value` at `path` as a string.
  public static func string(
    _ value: JSONValue,
    path: @autoclosure () -> String
  ) throws(ParamsError) -> String {
    guard case .string(let text) = value else {
      throw ParamsError(path: path(), problem: "must be a string, got \(value.kindName)")
    }
    return text
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
