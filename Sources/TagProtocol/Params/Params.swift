public import JSONRPC
public import TagCore

/// A typed view of one JSON object inside a request's params, remembering its path for errors.
///
/// Missing, `null`, `[]` and `{}` params all read as an empty object (CLIENTS.md: Neovim sends
/// `[]`, Emacs and jsonrpc-glib send `null`).
///
/// The object is the byte ranges of its members in the message body, or, for params that
/// arrived as a tree (batches), that tree's object, read in place through the same accessors
/// (``ParamsObject``): a member's value is read from its bytes when asked (strings, numbers,
/// Booleans, sizes and content changes in their usual shapes, without building a
/// ``JSONValue``); every error and unusual shape goes through the ``JSONValue``-based code.
/// Every member asked for is noted (``ParamsUse``): the names a type's
/// `init(params:)` asks for are its members, and any other is refused.
public struct Params {
  let members: ParamsObject
  private let use: ParamsUse
  private let slot: Int
  /// Where this object is, spelt out only when read (an error message): nested objects and
  /// array elements would otherwise build a path string each on the fast path.
  private let at: ParamsPath

  /// The path of this object from the params root, such as `options`.
  ///
  /// Empty at the root.
  public var path: String { at.text }

  init(_ members: ParamsObject, use: ParamsUse, at: ParamsPath = .root) {
    self.members = members
    self.use = use
    self.at = at
    slot = use.open(members, at: at)
  }

  /// The index of member `key`, noted as read.
  private func member(_ key: StaticString) -> Int? {
    let index = members.index(of: key)
    if let index { use.read(index, of: slot) }
    if use.diagnosing { use.asked(key.description, of: slot) }
    return index
  }

  /// Throws `error` (or, on the diagnosing pass, notes it and returns for the caller to go on
  /// with a neutral value).
  public func refuse(_ error: ParamsError) throws(ParamsError) {
    try use.refuse(error)
  }

  /// Accepts any member in this object besides the ones read (LSP's open objects).
  public func acceptAnyMember() {
    use.acceptAnyMember(slot)
  }

  /// Accepts member `key` without reading it (a member the protocol allows and tagd ignores).
  public func accept(_ key: StaticString) {
    _ = member(key)
  }

  /// Whether member `key` is present (`null` included).
  public func has(_ key: StaticString) -> Bool { member(key) != nil }

  /// Throws when both `a` and `b` are present: they are alternatives, and one must be chosen.
  public func exclusive(_ a: StaticString, _ b: StaticString) throws(ParamsError) {
    guard has(a), has(b) else { return }
    try refuse(alternatives(a, b))
  }

  /// The error for alternatives `a` and `b` both sent.
  public func alternatives(_ a: StaticString, _ b: StaticString) -> ParamsError {
    ParamsError(
      path: path,
      problem: "`\(a)` and `\(b)` are alternatives: send one of them, not both"
    )
  }

  /// The path of member `key`.
  public func path(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

  /// The path of member `key`.
  public func path(_ key: StaticString) -> String { path(key.description) }

  /// The member's value.
  ///
  /// Nil when absent. `null` is returned as `.null`.
  public subscript(key: StaticString) -> JSONValue? {
    member(key).map { members.value(at: $0) }
  }

  /// A required string member.
  public func string(_ key: StaticString) throws(ParamsError) -> String {
    guard let index = member(key) else {
      try refuse(missing(key, "a string"))
      return ""
    }
    if let text = members.string(at: index) { return text }
    try refuse(mismatch(key, "a string", members.value(at: index)))
    return ""
  }

  /// A required string member as a document's text: decoded once, straight to bytes, with its
  /// lines found on the way when the body is valid JSON (SPEC §6b's megabyte documents).
  public func text(_ key: StaticString) throws(ParamsError) -> DocumentText {
    guard let index = member(key) else {
      try refuse(missing(key, "a string"))
      return DocumentText("")
    }
    if let text = members.text(at: index) { return text }
    try refuse(mismatch(key, "a string", members.value(at: index)))
    return DocumentText("")
  }

  /// An optional string member (absent or `null` → nil).
  public func optionalString(_ key: StaticString) throws(ParamsError) -> String? {
    guard let index = member(key) else { return nil }
    if let text = members.string(at: index) { return text }
    let value = members.value(at: index)
    guard value != .null else { return nil }
    try refuse(mismatch(key, "a string", value))
    return nil
  }

  /// An optional Boolean member (absent or `null` → nil).
  public func optionalBool(_ key: StaticString) throws(ParamsError) -> Bool? {
    guard let index = member(key) else { return nil }
    if let flag = members.bool(at: index) { return flag }
    let value = members.value(at: index)
    guard value != .null else { return nil }
    try refuse(mismatch(key, "true or false", value))
    return nil
  }

  /// Member `key` as a number when it is one, else as a ``JSONValue``; nil when absent.
  private func numeric(_ key: StaticString) -> JSONValue? {
    guard let index = member(key) else { return nil }
    return members.number(at: index) ?? members.value(at: index)
  }

  /// A required integer member within `range`.
  public func integer(
    _ key: StaticString,
    in range: ClosedRange<Int> = 0...Int.max
  ) throws(ParamsError) -> Int {
    guard let value = numeric(key), value != .null else {
      try refuse(missing(key, "an integer"))
      return range.lowerBound
    }
    return try integer(value, path: path(key), in: range) ?? range.lowerBound
  }

  /// An optional integer member within `range` (absent or `null` → nil).
  public func optionalInteger(
    _ key: StaticString,
    in range: ClosedRange<Int> = 0...Int.max
  ) throws(ParamsError) -> Int? {
    guard let value = numeric(key), value != .null else { return nil }
    return try integer(value, path: path(key), in: range)
  }

  /// A required finite number ≥ 0.
  public func length(_ key: StaticString) throws(ParamsError) -> Double {
    guard let value = numeric(key), value != .null else {
      try refuse(missing(key, "a finite number ≥ 0"))
      return 0
    }
    return try length(value, path: path(key)) ?? 0
  }

  /// An optional finite number ≥ 0 (absent or `null` → nil).
  public func optionalLength(_ key: StaticString) throws(ParamsError) -> Double? {
    guard let value = numeric(key), value != .null else { return nil }
    return try length(value, path: path(key))
  }

  /// A required array member (an empty object `{}` also reads as an empty array, for Lua clients).
  public func array(_ key: StaticString) throws(ParamsError) -> [JSONValue] {
    guard let value = self[key], value != .null else {
      try refuse(missing(key, "an array"))
      return []
    }
    return try array(value, path: path(key))
  }

  /// An optional array member (absent or `null` → nil).
  public func optionalArray(_ key: StaticString) throws(ParamsError) -> [JSONValue]? {
    guard let value = self[key], value != .null else { return nil }
    return try array(value, path: path(key))
  }

  /// A required array of strings.
  public func strings(_ key: StaticString) throws(ParamsError) -> [String] {
    try strings(array(key), at: path(key))
  }

  /// An optional array of strings (absent or `null` → nil).
  public func optionalStrings(_ key: StaticString) throws(ParamsError) -> [String]? {
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
  public func sizes(_ key: StaticString) throws(ParamsError) -> [Size] {
    if let index = member(key), let sizes = members.sizes(at: index) { return sizes }
    let items = try array(key)
    let path = path(key)
    var sizes: [Size] = []
    sizes.reserveCapacity(items.count)
    for (i, item) in items.enumerated() {
      // Paths are only spelled out for an error: 100,000 chips must not build 100,000 strings.
      if case .object(let size) = item, size.members.count == 2, let width = size["width"],
        let height = size["height"]
      {
        sizes.append(
          Size(
            width: try length(width, path: "\(path)[\(i)].width") ?? 0,
            height: try length(height, path: "\(path)[\(i)].height") ?? 0
          )
        )
      } else {
        let size = try object(item, path: "\(path)[\(i)]")
        sizes.append(Size(width: try size.length("width"), height: try size.length("height")))
      }
    }
    return sizes
  }

  /// A required array of LSP content changes, read straight from the bytes when it can be; the
  /// errors are those of the element-by-element reading.
  public func textEdits(_ key: StaticString) throws(ParamsError) -> [TextEdit] {
    if let edits = plainTextEdits(key) { return edits }
    return try textEdits(array(key), at: path(key))
  }

  /// Member `key` as LSP content changes when it is in their usual form (see
  /// ``textEdits(_:)``); nil otherwise, for the caller to read it element by element.
  public func plainTextEdits(_ key: StaticString) -> [TextEdit]? {
    guard let index = member(key) else { return nil }
    return members.textEdits(at: index)
  }

  /// `items`, found at `path`, as LSP content changes.
  func textEdits(_ items: [JSONValue], at path: String) throws(ParamsError) -> [TextEdit] {
    var edits: [TextEdit] = []
    for (i, item) in items.enumerated() {
      let change = try object(item, path: "\(path)[\(i)]")
      change.accept("range")  // named in LSP's order in messages
      change.accept("rangeLength")
      let text = try change.string("text")
      let range = try change.optionalObject("range").map { r throws(ParamsError) in
        try textRange(r)
      }
      // `rangeLength` (deprecated in LSP, still sent by some clients) is checked but not used:
      // the range says what is replaced.
      _ = try change.optionalInteger("rangeLength")
      // Where the caret is in a whole-text change's text (Protocol/sync.md, "Range-less changes").
      let caret = try change.optionalObject("caret").map { p throws(ParamsError) in
        try position(p)
      }
      if caret != nil, range != nil {
        try change.refuse(
          ParamsError(
            path: change.path("caret"),
            problem:
              "belongs to a change without `range` (the whole text); a ranged change says where it is"
          )
        )
      }
      edits.append(TextEdit(range: range, newText: text, caret: caret))
    }
    return edits
  }

  /// An optional object member (absent or `null` → nil; `[]` reads as `{}`).
  public func optionalObject(_ key: StaticString) throws(ParamsError) -> Params? {
    guard let index = member(key) else { return nil }
    if let nested = members.object(at: index) {
      return Params(nested, use: use, at: .member(at, key))
    }
    let value = members.value(at: index)
    guard value != .null else { return nil }
    return try object(value, at: .member(at, key))
  }

  /// A required object member (`[]` reads as `{}`).
  public func requiredObject(_ key: StaticString) throws(ParamsError) -> Params {
    guard let index = member(key) else {
      try refuse(missing(key, "an object"))
      return Params(.empty, use: use, at: .member(at, key))
    }
    if let nested = members.object(at: index) {
      return Params(nested, use: use, at: .member(at, key))
    }
    let value = members.value(at: index)
    guard value != .null else {
      try refuse(missing(key, "an object"))
      return Params(.empty, use: use, at: .member(at, key))
    }
    return try object(value, at: .member(at, key))
  }

  func missing(_ key: StaticString, _ expected: String) -> ParamsError {
    ParamsError(path: path(key), problem: "is required: expected \(expected)")
  }

  func mismatch(_ key: StaticString, _ expected: String, _ value: JSONValue) -> ParamsError {
    ParamsError(path: path(key), problem: "must be \(expected), got \(value.kindName)")
  }
}

extension Params {
  /// Reads `value` at `path` as an integer within `range` (integral doubles such as `3.0`
  /// count); nil only on the diagnosing pass.
  public func integer(
    _ value: JSONValue,
    path: @autoclosure () -> String,
    in range: ClosedRange<Int>
  ) throws(ParamsError) -> Int? {
    let number: Int
    switch value {
    case .integer(let n) where n >= Int64(Int.min) && n <= Int64(Int.max):
      number = Int(n)
    case .double(let d) where d.isFinite && d.rounded() == d && abs(d) < 9.0e15:
      number = Int(d)
    case .integer, .double:
      try refuse(
        ParamsError(
          path: path(),
          problem: "must be an integer in \(range.describe), got \(value.kindName)"
        )
      )
      return nil
    default:
      try refuse(ParamsError(path: path(), problem: "must be an integer, got \(value.kindName)"))
      return nil
    }
    guard range.contains(number) else {
      try refuse(ParamsError(path: path(), problem: "must be in \(range.describe), got \(number)"))
      return nil
    }
    return number
  }

  /// Reads `value` at `path` as a finite number ≥ 0; nil only on the diagnosing pass.
  public func length(
    _ value: JSONValue,
    path: @autoclosure () -> String
  ) throws(ParamsError) -> Double? {
    let number: Double
    switch value {
    case .integer(let n): number = Double(n)
    case .double(let d): number = d
    default: number = -1
    }
    guard number.isFinite, number >= 0 else {
      try refuse(
        ParamsError(path: path(), problem: "must be a finite number ≥ 0, got \(value.kindName)")
      )
      return nil
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
      try refuse(ParamsError(path: path(), problem: "must be an array, got \(value.kindName)"))
      return []
    }
  }

  /// Reads `value` (an element of an array of this object) at `path` as an object (`[]` reads
  /// as `{}`).
  public func object(
    _ value: JSONValue,
    path: @autoclosure @escaping @Sendable () -> String
  ) throws(ParamsError) -> Params {
    try object(value, at: .lazy(path))
  }

  private func object(_ value: JSONValue, at: ParamsPath) throws(ParamsError) -> Params {
    switch value {
    case .object(let object):
      return Params(.tree(object), use: use, at: at)
    case .array(let items) where items.isEmpty:
      return Params(.empty, use: use, at: at)
    default:
      try refuse(ParamsError(path: at.text, problem: "must be an object, got \(value.kindName)"))
      return Params(.empty, use: use, at: at)
    }
  }

  /// Reads `value` at `path` as a string.
  public func string(
    _ value: JSONValue,
    path: @autoclosure () -> String
  ) throws(ParamsError) -> String {
    guard case .string(let text) = value else {
      try refuse(ParamsError(path: path(), problem: "must be a string, got \(value.kindName)"))
      return ""
    }
    return text
  }
}

/// Where a params object is, from the root: kept as its parts, spelt out only for an error.
enum ParamsPath: Sendable {
  case root
  indirect case member(ParamsPath, StaticString)
  /// An array element's path, made by the caller when read.
  case lazy(@Sendable () -> String)

  /// The path as text, such as `options` or `changes[0].range` (empty at the root).
  var text: String {
    switch self {
    case .root: return ""
    case .member(let parent, let key):
      let path = parent.text
      return path.isEmpty ? key.description : "\(path).\(key)"
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
