public import JSONRPC
import TagCore

/// Where a request's params come from: a parsed ``JSONValue`` (nil when absent), or the
/// message body with the ranges ``Envelope/scanCall(_:maxDepth:reusing:)`` found in it.
///
/// The body is lent for the call that decodes the params (the framer's buffer): nothing
/// decoded from it keeps it. `reusing` lends the record of which members were read (see
/// ``ParamsUse``).
public enum ParamsSource {
  case tree(JSONValue?)
  case bytes(MessageBytes, ScannedParams, reusing: ParamsUse? = nil)
}

extension TagMessage {
  /// Decodes params from either source, refusing every member ``init(params:)`` does not read.
  ///
  /// Inlinable, so that each type's decoding is compiled for that type: ``init(params:)`` is
  /// called directly and its value kept in place, not passed through a generic function.
  @inlinable
  public static func decode(_ source: ParamsSource) throws(ParamsError) -> Self {
    var decoded: Self?
    try Params.decode(source) { params throws(ParamsError) in
      let value = try Self(params: params)
      // The first pass's value; a diagnosing pass (run after it) only looks for an error.
      if decoded == nil { decoded = value }
    }
    // `Params.decode` returns only when the first pass succeeded, so this never traps.
    guard let decoded else { preconditionFailure("params decoded without a value") }
    return decoded
  }

  /// Decodes parsed params (nil when absent).
  public static func decode(_ params: JSONValue?) throws(ParamsError) -> Self {
    try decode(.tree(params))
  }
}

/// One params object, read through the same accessors whichever way it came: the byte ranges
/// of its members in the (already validated) body, or the members of a parsed tree (batches,
/// and the calls ``Envelope/scanCall(_:maxDepth:reusing:)`` declines), read in place.
enum ParamsObject {
  case bytes(ParamsBytes)
  case tree(JSONObject)

  /// An object without members.
  static var empty: ParamsObject { .tree(JSONObject()) }

  /// The root object of request params: nil, `null`, `[]` and `{}` are all "no params".
  static func root(_ source: ParamsSource) throws(ParamsError) -> ParamsObject {
    switch source {
    case .bytes(_, .absent, _): return .empty
    case .bytes(let body, .object(let ranges), _):
      return .bytes(ParamsBytes(body: body, ranges: ranges))
    case .bytes(let body, .other(let range), _):
      return try root(.tree(ParamsBytes.parse(body, range)))
    case .tree(nil), .tree(.null): return .empty
    case .tree(.object(let object)): return .tree(object)
    case .tree(.array(let items)) where items.isEmpty: return .empty
    case .tree(.array):
      throw ParamsError(path: "", problem: "must be an object with named members, not an array")
    case .tree(let other?):
      throw ParamsError(path: "", problem: "must be an object, got \(other.kindName)")
    }
  }

  /// The number of members, duplicates included.
  var count: Int {
    switch self {
    case .bytes(let bytes): bytes.ranges.members.count
    case .tree(let object): object.members.count
    }
  }

  /// The index of the last member named `key` (the one a ``JSONObject`` lookup returns).
  func index(of key: StaticString) -> Int? {
    switch self {
    case .bytes(let bytes): return bytes.body.lastIndex(of: key, in: bytes.ranges)
    case .tree(let object):
      let name = key.description
      return object.members.lastIndex { $0.key == name }
    }
  }

  /// The name of member `index`.
  func key(at index: Int) -> String {
    switch self {
    case .bytes(let bytes): bytes.body.key(of: bytes.ranges.members[index])
    case .tree(let object): object.members[index].key
    }
  }

  /// The value of member `index` as a ``JSONValue``.
  func value(at index: Int) -> JSONValue {
    switch self {
    case .bytes(let bytes): bytes.value(at: index)
    case .tree(let object): object.members[index].value
    }
  }

  /// The value of member `index` if it is a string.
  func string(at index: Int) -> String? {
    switch self {
    case .bytes(let bytes): return bytes.string(at: index)
    case .tree(let object):
      guard case .string(let text) = object.members[index].value else { return nil }
      return text
    }
  }

  /// The value of member `index` if it is a string, as a document's text.
  func text(at index: Int) -> DocumentText? {
    switch self {
    case .bytes(let bytes):
      return bytes.body.text(of: bytes.ranges.members[index]).map {
        DocumentText(utf8: $0.utf8, lineStarts: $0.lineStarts)
      }
    case .tree: return string(at: index).map(DocumentText.init)
    }
  }

  /// The value of member `index` if it is a number (``JSONReader``'s meaning).
  func number(at index: Int) -> JSONValue? {
    switch self {
    case .bytes(let bytes): return bytes.number(at: index)
    case .tree(let object):
      let value = object.members[index].value
      switch value {
      case .integer, .double: return value
      default: return nil
      }
    }
  }

  /// The value of member `index` if it is a Boolean.
  func bool(at index: Int) -> Bool? {
    switch self {
    case .bytes(let bytes): return bytes.bool(at: index)
    case .tree(let object):
      guard case .bool(let flag) = object.members[index].value else { return nil }
      return flag
    }
  }

  /// The value of member `index` if it is an object.
  func object(at index: Int) -> ParamsObject? {
    switch self {
    case .bytes(let bytes): return bytes.object(at: index).map(ParamsObject.bytes)
    case .tree(let object):
      guard case .object(let nested) = object.members[index].value else { return nil }
      return .tree(nested)
    }
  }

  /// Member `index` as sizes read straight from the bytes (see ``ParamsBytes/sizes(at:)``);
  /// nil for a tree, which the caller reads element by element.
  func sizes(at index: Int) -> [Size]? {
    guard case .bytes(let bytes) = self else { return nil }
    return bytes.sizes(at: index)
  }

  /// Member `index` as content changes read straight from the bytes (see
  /// ``ParamsBytes/textEdits(at:)``); nil for a tree, which the caller reads element by element.
  func textEdits(at index: Int) -> [TextEdit]? {
    guard case .bytes(let bytes) = self else { return nil }
    return bytes.textEdits(at: index)
  }
}

/// A params object as the byte ranges of its members in the (already validated) body.
struct ParamsBytes {
  let body: MessageBytes
  let ranges: JSONObjectRanges

  /// The whole value at `range` of `body` as a ``JSONValue``.
  static func parse(_ body: MessageBytes, _ range: Range<Int>) -> JSONValue {
    // The body was validated with the configured depth, so this cannot fail.
    body.parse(range, maxDepth: JSONReader.maxSupportedDepth) ?? .null
  }

  /// The value of member `index` as a ``JSONValue``.
  func value(at index: Int) -> JSONValue {
    Self.parse(body, ranges.members[index].value)
  }

  /// The value of member `index` if it is a string.
  func string(at index: Int) -> String? {
    let member = ranges.members[index]
    let text = body.stringValue(of: member)
    if text != nil {
      (member.isPlainString ? FastPath.plainStringMember : .scannedStringMember).taken()
    }
    return text
  }

  /// The value of member `index` if it is a number (``JSONReader``'s meaning).
  func number(at index: Int) -> JSONValue? {
    let number = scan(index) { scanner throws(JSONParseError) in try scanner.readNumber() } ?? nil
    if number != nil { FastPath.numberMember.taken() }
    return number
  }

  /// The value of member `index` if it is a Boolean.
  func bool(at index: Int) -> Bool? {
    let flag = scan(index) { scanner throws(JSONParseError) in try scanner.readBool() } ?? nil
    if flag != nil { FastPath.boolMember.taken() }
    return flag
  }

  /// The value of member `index` if it is an object, as ranges of the same body.
  func object(at index: Int) -> ParamsBytes? {
    let start = ranges.members[index].value.lowerBound
    guard
      let nested = scan(index, { scanner throws(JSONParseError) in try scanner.readObjectRanges() })
        ?? nil
    else { return nil }
    FastPath.objectMember.taken()
    return ParamsBytes(body: body, ranges: nested.offset(by: start))
  }

  /// The value of member `index` if it is an array of sizes written as JSON writers write
  /// them (see ``compactSizes(_:estimate:)``); nil for anything else, which the caller reads
  /// element by element (in its tree, so every spelling reads alike and errors are exact).
  func sizes(at index: Int) -> [Size]? {
    let value = ranges.members[index].value
    guard let sizes = compactSizes(value, estimate: value.count / 28) else { return nil }
    FastPath.compactSizes.taken()
    return sizes
  }

  /// The sizes in `range` when they are written the way JSON writers write them.
  ///
  /// That is: no whitespace, `{"width":W,"height":H}` in either order, each number a plain decimal of at
  /// most 15 significant digits and 22 fraction digits, none negative. Nil (for the general
  /// reader) on anything else.
  ///
  /// The body is valid JSON (the envelope scan checked it), so only the shape is checked here.
  /// A number `m / 10^k` with `m < 2^53` and `k ≤ 22` is one correctly rounded division of two
  /// exact doubles, the value any correct reader gives.
  private func compactSizes(_ range: Range<Int>, estimate: Int) -> [Size]? {
    var cursor = body.cursor(range)
    func expect(_ text: StaticString) -> Bool { cursor.expect(text) }
    func number() -> Double? {
      var mantissa: UInt64 = 0
      var digits = 0
      var fraction = -1
      while let byte = cursor.current {
        if byte &- UInt8(ascii: "0") < 10 {
          mantissa = mantissa &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
          digits += 1
          if fraction >= 0 { fraction += 1 }
        } else if byte == UInt8(ascii: "."), fraction < 0 {
          fraction = 0
        } else {
          break
        }
        cursor.advance()
      }
      // Too many digits, a sign or an exponent: left to the general reader.
      guard digits > 0, digits <= 15, fraction != 0, fraction <= 22 else { return nil }
      return fraction > 0 ? Double(mantissa) / Self.powersOfTen[fraction] : Double(mantissa)
    }
    guard expect("[") else { return nil }
    var sizes: [Size] = []
    sizes.reserveCapacity(estimate)
    if expect("]") { return cursor.at == cursor.end ? sizes : nil }
    while true {
      var width: Double?
      var height: Double?
      if expect(#"{"width":"#) {
        width = number()
        guard expect(#","height":"#) else { return nil }
        height = number()
      } else if expect(#"{"height":"#) {
        height = number()
        guard expect(#","width":"#) else { return nil }
        width = number()
      }
      guard let width, let height, expect("}") else { return nil }
      sizes.append(Size(width: width, height: height))
      if expect(",") { continue }
      guard expect("]"), cursor.at == cursor.end else { return nil }
      return sizes
    }
  }

  /// 10^0 through 10^22, each exact as a double.
  private static let powersOfTen: [Double] = (0...22).reduce(into: []) { powers, k in
    powers.append(k == 0 ? 1 : powers[k - 1] * 10)
  }

  /// The value of member `index` if it is an array of LSP content changes written as editors
  /// write them (see ``compactTextEdits(_:)``); nil for anything else, which the caller reads
  /// element by element (in its tree, so every spelling reads alike and errors are exact).
  func textEdits(at index: Int) -> [TextEdit]? {
    guard let edits = compactTextEdits(ranges.members[index].value) else { return nil }
    FastPath.compactContentChanges.taken()
    return edits
  }

  /// The content changes in `range` when they are written the way editors write them.
  ///
  /// That is: no whitespace, each change `{"range":{"start":{"line":L,"character":C},"end":
  /// {"line":L,"character":C}}[,"rangeLength":N],"text":"…"}` or `{"text":"…"[,"range":…]}`,
  /// numbers plain decimals of at most 18 digits, text without escapes. Nil (for the scanner's
  /// reading) on anything else. The body is valid JSON, so only the shape is checked.
  private func compactTextEdits(_ range: Range<Int>) -> [TextEdit]? {
    var cursor = body.cursor(range)
    func expect(_ text: StaticString) -> Bool { cursor.expect(text) }
    func count() -> Int? {
      var value = 0
      let start = cursor.at
      while let byte = cursor.current, byte &- UInt8(ascii: "0") < 10, cursor.at - start < 18 {
        value = value * 10 + Int(byte &- UInt8(ascii: "0"))
        cursor.advance()
      }
      return cursor.at > start ? value : nil
    }
    func position() -> TextPosition? {
      guard expect(#"{"line":"#), let line = count(), expect(#","character":"#),
        let character = count(), expect("}")
      else { return nil }
      return TextPosition(line: line, character: character)
    }
    func textRange() -> TextRange? {
      guard let start = position(), expect(#","end":"#), let end = position(), expect("}") else {
        return nil
      }
      return TextRange(start: start, end: end)
    }
    func text() -> String? {
      let start = cursor.at
      while let byte = cursor.current, byte != UInt8(ascii: "\"") {
        guard byte != UInt8(ascii: "\\") else { return nil }
        cursor.advance()
      }
      guard cursor.current != nil else { return nil }
      defer { cursor.advance() }
      return cursor.string(from: start)
    }
    guard expect("[") else { return nil }
    var edits: [TextEdit] = []
    if expect("]") { return cursor.at == cursor.end ? edits : nil }
    while true {
      var range: TextRange?
      let newText: String?
      if expect(#"{"range":{"start":"#) {
        guard let found = textRange() else { return nil }
        range = found
        if expect(#","rangeLength":"#) { guard count() != nil else { return nil } }
        guard expect(#","text":""#) else { return nil }
        newText = text()
      } else if expect(#"{"text":""#) {
        newText = text()
        if expect(#","range":{"start":"#) {
          guard let found = textRange() else { return nil }
          range = found
        }
      } else {
        return nil
      }
      guard let newText, expect("}") else { return nil }
      edits.append(TextEdit(range: range, newText: newText))
      if expect(",") { continue }
      guard expect("]"), cursor.at == cursor.end else { return nil }
      return edits
    }
  }

  /// Runs `read` on a scanner over member `index`'s value; nil if it throws (it cannot, the
  /// body being valid).
  private func scan<T>(
    _ index: Int,
    _ read: (inout JSONScanner) throws(JSONParseError) -> T
  ) -> T? {
    let range = ranges.members[index].value
    var scanner = body.scanner(range, maxDepth: JSONReader.maxSupportedDepth)
    return try? read(&scanner)
  }
}
