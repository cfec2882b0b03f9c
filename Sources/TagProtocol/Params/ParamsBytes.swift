public import JSONRPC
import TagCore

/// Where a request's params come from: a parsed ``JSONValue`` (nil when absent), or the
/// message body with the ranges ``Envelope/scanCall(_:maxDepth:reusing:)`` found in it.
///
/// The body is lent for the call that decodes the params (the framer's buffer): nothing
/// decoded from it keeps it.
public enum ParamsSource {
  case tree(JSONValue?)
  case bytes(MessageBytes, ScannedParams)
}

extension TagMessage {
  /// Decodes params from either source, refusing every member ``Member`` does not declare.
  ///
  /// Inlinable, so that each type's decoding is compiled for that type: ``init(params:)`` is
  /// called directly.
  @inlinable
  public static func decode(_ source: ParamsSource) throws(ParamsError) -> Self {
    try Self(params: Params.root(source))
  }

  /// Decodes parsed params (nil when absent).
  public static func decode(_ params: JSONValue?) throws(ParamsError) -> Self {
    try decode(.tree(params))
  }
}

extension Params {
  /// The root object of request params: nil, `null`, `[]` and `{}` are all "no params".
  @usableFromInline @inline(__always)
  static func root(_ source: ParamsSource) throws(ParamsError) -> Params {
    switch source {
    case .bytes(_, .absent): return try Params(tree: JSONObject(), at: .root)
    case .bytes(let body, .object(let ranges)):
      return try Params(root: body, ranges)
    case .bytes(let body, .other(let range)):
      return try root(.tree(ParamsObject.parse(body, range)))
    case .tree(nil), .tree(.null): return try Params(tree: JSONObject(), at: .root)
    case .tree(.object(let object)): return try Params(tree: object, at: .root)
    case .tree(.array(let items)) where items.isEmpty:
      return try Params(tree: JSONObject(), at: .root)
    case .tree(.array):
      throw ParamsError(path: "", problem: "must be an object with named members, not an array")
    case .tree(let other?):
      throw ParamsError(path: "", problem: "must be an object, got \(other.kindName)")
    }
  }
}

/// One params object, read through the same accessors whichever way it came: the (already
/// validated) body, its members' values as byte ranges, or a parsed tree (batches, and the
/// calls ``Envelope/scanCall(_:maxDepth:reusing:)`` declines), its members by index, read in
/// place.
enum ParamsObject {
  case bytes(MessageBytes)
  case tree(JSONObject)

  /// The whole value at `range` of `body` as a ``JSONValue``.
  static func parse(_ body: MessageBytes, _ range: Range<Int>) -> JSONValue {
    // The body was validated with the configured depth, so this cannot fail.
    body.parse(range, maxDepth: JSONReader.maxSupportedDepth) ?? .null
  }

  /// The name of the member whose key is `key` (its bytes, or its index in a tree).
  func key(_ key: Range<Int>, hasEscapes: Bool) -> String {
    switch self {
    case .bytes(let body): body.key(key, hasEscapes: hasEscapes)
    case .tree(let object): object.members[key.lowerBound].key
    }
  }

  /// The value at `value` as a ``JSONValue``.
  func value(_ value: Range<Int>) -> JSONValue {
    switch self {
    case .bytes(let body): Self.parse(body, value)
    case .tree(let object): object.members[value.lowerBound].value
    }
  }

  /// The value at `value` if it is a string (`isPlain`: without escapes).
  func string(_ value: Range<Int>, isPlain: Bool) -> String? {
    switch self {
    case .bytes(let body):
      let text = body.stringValue(at: value, isPlain: isPlain)
      if text != nil { (isPlain ? FastPath.plainStringMember : .scannedStringMember).taken() }
      return text
    case .tree(let object):
      guard case .string(let text) = object.members[value.lowerBound].value else { return nil }
      return text
    }
  }

  /// The value at `value` if it is a string, as a document's text.
  func text(_ value: Range<Int>, isPlain: Bool) -> DocumentText? {
    switch self {
    case .bytes(let body):
      return body.text(at: value, isPlain: isPlain).map {
        DocumentText(utf8: $0.utf8, lineStarts: $0.lineStarts)
      }
    case .tree: return string(value, isPlain: false).map(DocumentText.init)
    }
  }

  /// The value at `value` if it is a number (``JSONReader``'s meaning).
  func number(_ value: Range<Int>) -> JSONValue? {
    switch self {
    case .bytes(let body):
      if let count = plainInteger(value) { return .integer(Int64(count)) }
      var scanner = body.scanner(value, maxDepth: JSONReader.maxSupportedDepth)
      let number = (try? scanner.readNumber()) ?? nil
      if number != nil { FastPath.numberMember.taken() }
      return number
    case .tree(let object):
      let found = object.members[value.lowerBound].value
      switch found {
      case .integer, .double: return found
      default: return nil
      }
    }
  }

  /// The value at `value` as an `Int` (no ``JSONValue``) when it is at most 18 digits alone.
  @inline(__always)
  func plainInteger(_ value: Range<Int>) -> Int? {
    guard case .bytes(let body) = self else { return nil }
    var cursor = body.cursor(value)
    guard let count = cursor.count(), cursor.at == cursor.end else { return nil }
    FastPath.numberMember.taken()
    return count
  }

  /// The value at `value` if it is a Boolean.
  func bool(_ value: Range<Int>) -> Bool? {
    switch self {
    case .bytes(let body):
      var scanner = body.scanner(value, maxDepth: JSONReader.maxSupportedDepth)
      let flag = (try? scanner.readBool()) ?? nil
      if flag != nil { FastPath.boolMember.taken() }
      return flag
    case .tree(let object):
      guard case .bool(let flag) = object.members[value.lowerBound].value else { return nil }
      return flag
    }
  }

  /// The value at `value` if it is an object, its members matched into `N`'s slots as it is
  /// walked; throws for a member `N` does not declare.
  func object<N>(_ value: Range<Int>, _: N.Type, at: ParamsPath) throws(ParamsError) -> Params<N>? {
    switch self {
    case .bytes(let body):
      guard let slots = body.slots(ofObjectAt: value, N.declared) else { return nil }
      FastPath.objectMember.taken()
      return try Params<N>(self, slots: slots, at: at)
    case .tree(let object):
      guard case .object(let nested) = object.members[value.lowerBound].value else { return nil }
      return try Params<N>(tree: nested, at: at)
    }
  }

  /// The array of sizes at `range` when it is written the way JSON writers write them; nil
  /// for anything else, which the caller reads element by element (in its tree, so every
  /// spelling reads alike and errors are exact).
  ///
  /// That is: no whitespace, `{"width":W,"height":H}` in either order, each number a plain decimal of at
  /// most 15 significant digits and 22 fraction digits, none negative.
  ///
  /// The body is valid JSON (the envelope scan checked it), so only the shape is checked here.
  /// A number `m / 10^k` with `m < 2^53` and `k ≤ 22` is one correctly rounded division of two
  /// exact doubles, the value any correct reader gives.
  func sizes(_ range: Range<Int>) -> [Size]? {
    guard case .bytes(let body) = self else { return nil }
    var cursor = body.cursor(range)
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
    guard cursor.expect("[") else { return nil }
    var sizes: [Size] = []
    sizes.reserveCapacity(range.count / 28)
    if !cursor.expect("]") {
      repeat {
        var width: Double?
        var height: Double?
        if cursor.expect(#"{"width":"#) {
          width = number()
          guard cursor.expect(#","height":"#) else { return nil }
          height = number()
        } else if cursor.expect(#"{"height":"#) {
          height = number()
          guard cursor.expect(#","width":"#) else { return nil }
          width = number()
        }
        guard let width, let height, cursor.expect("}") else { return nil }
        sizes.append(Size(width: width, height: height))
      } while cursor.expect(",")
      guard cursor.expect("]") else { return nil }
    }
    guard cursor.at == cursor.end else { return nil }
    FastPath.compactSizes.taken()
    return sizes
  }

  /// 10^0 through 10^22, each exact as a double.
  private static let powersOfTen: [Double] = (0...22).reduce(into: []) { powers, k in
    powers.append(k == 0 ? 1 : powers[k - 1] * 10)
  }

}

extension MessageBytes.Cursor {
  /// LSP content changes, `[` to `]`, as editors write them; nil for anything else.
  ///
  /// That is: no whitespace, each change `{"range":{"start":{"line":L,"character":C},"end":
  /// {"line":L,"character":C}}[,"rangeLength":N],"text":"…"}` or `{"text":"…"[,"range":…]}` or
  /// `{"text":"…","caret":{"line":L,"character":C}}`, numbers plain decimals of at most 18
  /// digits, text without escapes or control characters, in UTF-8: valid JSON, 4 levels deep.
  /// They are appended to `edits` (a `TextEdits?` returned through the scanner's generic
  /// reader was copied through its metadata).
  @inline(__always)
  mutating func contentChanges(into edits: inout TextEdits) -> Bool {
    guard expect("[") else { return false }
    if !expect("]") {
      repeat {
        guard let edit = contentChange() else { return false }
        edits.append(edit)
      } while expect(",")
      guard expect("]") else { return false }
    }
    FastPath.compactContentChanges.taken()
    return true
  }

  /// One content change in one of the forms ``contentChanges(into:)`` reads.
  @inline(__always)
  fileprivate mutating func contentChange() -> TextEdit? {
    var range: TextRange?
    var caret: TextPosition?
    let newText: String?
    if expect(#"{"range":{"start":{"line":"#) {
      guard let found = rangeAfterLine() else { return nil }
      range = found
      if expect(#","rangeLength":"#) { guard count() != nil else { return nil } }
      guard expect(#","text":""#) else { return nil }
      newText = text()
    } else if expect(#"{"text":""#) {
      newText = text()
      if expect(#","range":{"start":{"line":"#) {
        guard let found = rangeAfterLine() else { return nil }
        range = found
      } else if expect(#","caret":{"line":"#) {
        // A range-less change with its caret, as the Emacs front end sends it.
        guard let found = positionAfterLine() else { return nil }
        caret = found
      }
    } else {
      return nil
    }
    guard let newText, expect("}") else { return nil }
    return TextEdit(range: range, newText: newText, caret: caret)
  }

  /// A plain decimal of at most 18 digits, without a leading zero.
  @inline(__always)
  fileprivate mutating func count() -> Int? {
    var value = 0
    let (start, leadingZero) = (at, current == UInt8(ascii: "0"))
    while let byte = current, byte &- UInt8(ascii: "0") < 10, at - start < 18 {
      value = value * 10 + Int(byte &- UInt8(ascii: "0"))
      advance()
    }
    return at > start && (!leadingZero || at == start + 1) ? value : nil
  }

  /// The rest of `{"line":L,"character":C}` after `{"line":`.
  @inline(__always)
  fileprivate mutating func positionAfterLine() -> TextPosition? {
    guard let line = count(), expect(#","character":"#), let character = count(), expect("}")
    else { return nil }
    return TextPosition(line: line, character: character)
  }

  /// The rest of `{"start":{"line":…},"end":{"line":…}}` after `{"start":{"line":`.
  @inline(__always)
  fileprivate mutating func rangeAfterLine() -> TextRange? {
    guard let start = positionAfterLine(), expect(#","end":{"line":"#),
      let end = positionAfterLine(), expect("}")
    else { return nil }
    return TextRange(start: start, end: end)
  }

  /// A string's text without escapes, after its opening quote; nil (for the general reading)
  /// at a backslash, a control character or bytes that are not UTF-8 (so it validates).
  @inline(__always)
  fileprivate mutating func text() -> String? {
    let start = at
    var ascii = true
    while let byte = current, byte != UInt8(ascii: "\"") {
      guard byte != UInt8(ascii: "\\"), byte >= 0x20 else { return nil }
      ascii = ascii && byte < 0x80
      advance()
    }
    guard current != nil else { return nil }
    defer { advance() }
    return string(from: start, checked: !ascii)
  }
}
