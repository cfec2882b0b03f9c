/// The members of one JSON object as byte ranges of the text it was scanned from (keys between
/// their quotes, values whole), in document order, duplicates included.
public struct JSONObjectRanges: Sendable {
  /// One member: where its key and its value are.
  public struct Member: Sendable {
    /// The key's raw bytes (between the quotes).
    public var key: Range<Int>
    /// Whether the key holds an escape (then compare it decoded).
    public var keyHasEscapes: Bool
    /// The value's bytes.
    public var value: Range<Int>
    /// Whether the value is a string without escapes (its text is the bytes between the
    /// quotes, already validated).
    public var isPlainString: Bool
  }

  /// The members in document order.
  public var members: [Member]
}

extension JSONScanner {
  /// Reads the object that comes next as ranges (each value skipped, so validated, but for an
  /// array ending a call's params and body, `…]}}`, taken unread when what its reader accepts
  /// cannot nest past the limit, and `unread` set), into `storage`'s buffer
  /// (emptied first: a caller that keeps one array and lets each result go before the next read
  /// allocates nothing per object); nil (nothing consumed) when the next value is not an object.
  public mutating func readObjectRanges(
    reusing storage: inout [JSONObjectRanges.Member],
    unread: inout Int?
  ) throws(JSONParseError) -> JSONObjectRanges? {
    guard try beginObject() else { return nil }
    var members = storage
    storage = []
    // Emptied by popLast: `removeAll(keepingCapacity:)` is a generic, costlier replaceSubrange.
    while members.popLast() != nil {}
    members.reserveCapacity(4)
    defer { storage = members }
    guard let base = input.baseAddress else { return JSONObjectRanges(members: []) }
    while let key = try nextKey() {
      let keyStart = key.raw.baseAddress.map { $0 - base } ?? position
      skipWhitespace()
      let valueStart = position
      var isPlainString = false
      if position < input.count, input[position] == UInt8(ascii: "\"") {
        isPlainString = try !scanString().1
      } else if depth == 2, maxDepth >= 6, input[position] == UInt8(ascii: "["),
        let end = unreadArrayEnd(after: position)
      {
        (unread, position) = (members.count, end)
      } else {
        try skipValue()
      }
      members.append(
        JSONObjectRanges.Member(
          key: keyStart..<(keyStart + key.raw.count),
          keyHasEscapes: key.hasEscapes,
          value: valueStart..<position,
          isPlainString: isPlainString
        )
      )
    }
    return JSONObjectRanges(members: members)
  }

  /// Where an array at `start` would end if it is the last params member and the body ends
  /// right after it (`…]}}`), or after one plain member more, `…],"name":<digits>}}` (the
  /// `applied` a sync message may carry after its changes; were `name` the array's own, that
  /// number would stand for it, which its reader refuses): the position after its `]`, found
  /// from the body's end without walking it; nil when the body ends otherwise.
  @inline(__always)
  private func unreadArrayEnd(after start: Int) -> Int? {
    var end = input.count - 3
    guard end - start > 1, input[end + 1] == UInt8(ascii: "}"), input[end + 2] == UInt8(ascii: "}")
    else { return nil }
    if input[end] != UInt8(ascii: "]") {
      while end > start, input[end] &- UInt8(ascii: "0") < 10 { end -= 1 }
      guard end < input.count - 3, input[end] == UInt8(ascii: ":"),
        input[end - 1] == UInt8(ascii: "\"")
      else { return nil }
      end -= 2
      while end > start, input[end] | 0x20 &- UInt8(ascii: "a") < 26 { end -= 1 }
      guard end - start > 2, input[end] == UInt8(ascii: "\""), input[end - 1] == UInt8(ascii: ",")
      else { return nil }
      end -= 2
      guard input[end] == UInt8(ascii: "]") else { return nil }
    }
    return end + 1
  }
}

/// A request or notification classified straight from its bytes by ``Envelope/scanCall(_:maxDepth:reusing:)``.
///
/// Valid while the body it was scanned from is: the method name is lent from it.
public struct ScannedCall {
  /// The request id; nil for a notification.
  public var id: RequestID?
  /// Where the method name's UTF-8 is in the body (between its quotes; it has no escapes).
  public var method: Range<Int>
  /// The params as given.
  public var params: ScannedParams
  /// The body the ranges of ``params`` are in (lent, like it).
  public var body: MessageBytes
  /// Which params member the scan took unread, if one (``validatesUnread(maxDepth:)``;
  /// ``JSONScanner/readObjectRanges(reusing:unread:)``).
  public var unread: Int?

  /// Whether the call is `method` and its params member taken unread (``unread``) `member`.
  public func reads(_ method: StaticString, unread member: StaticString) -> Bool {
    guard let unread, case .object(let r) = params else { return false }
    let taken = r.members[unread]
    return JSONScanner.Key(raw: body.slice(self.method), hasEscapes: false) == method
      && JSONScanner.Key(raw: body.slice(taken.key), hasEscapes: taken.keyHasEscapes) == member
  }

  /// Whether the member the scan took unread, if any, is valid JSON (2 levels in): when it is
  /// not, ``Envelope/decode(_:maxDepth:)-(Span<UInt8>,_)`` answers the body.
  public func validatesUnread(maxDepth: Int) -> Bool {
    guard let unread, case .object(let r) = params else { return true }
    let depth = min(maxDepth, JSONReader.maxSupportedDepth) - 2
    var scanner = JSONScanner(body.slice(r.members[unread].value), maxDepth: depth)
    return (try? scanner.scanDocument()) != nil
  }
}

/// A call's `params` as found in the bytes.
public enum ScannedParams: Sendable {
  /// No `params` member.
  case absent
  /// An object, member by member.
  case object(JSONObjectRanges)
  /// `null` or an array: the value's bytes.
  case other(Range<Int>)
}

extension Envelope {
  // The envelope's member names as `DeclaredMembers.words` gives their first word (first byte
  // lowest; a longer key's first word has no zero byte, so it equals none of these),
  // spelt as literals so matching them costs no lazy initialisation (a test checks them).
  static let jsonrpcKey: UInt64 = 0x0063_7072_6e6f_736a  // "jsonrpc"
  static let idKey: UInt64 = 0x6469  // "id"
  static let methodKey: UInt64 = 0x646f_6874_656d  // "method"
  static let paramsKey: UInt64 = 0x736d_6172_6170  // "params"
  /// `{"jsonrpc":"2.0"`, how clients start a body, as two words (first byte lowest).
  static let versionPrefix: (UInt64, UInt64) = (0x7072_6e6f_736a_227b, 0x2230_2e32_223a_2263)

  /// Classifies a body that is one well-formed request or notification without building a
  /// ``JSONValue``: the same ``Message`` ``decode(_:maxDepth:)`` would give, with the params
  /// left as byte ranges.
  ///
  /// Nil for everything else, which ``decode(_:maxDepth:)`` then answers with its exact
  /// errors: invalid JSON, batches, responses, a missing or wrong `jsonrpc`, `method` or `id`,
  /// `params` of the wrong kind, a repeated envelope member, or escapes in `jsonrpc` or
  /// `method` (rare, and kept on one path). The whole body is validated either way.
  ///
  /// The params' member list is kept in `storage`'s buffer (see
  /// ``JSONScanner/readObjectRanges(reusing:unread:)``): a caller that keeps one array allocates
  /// nothing per message. Except: an array that ends the body is taken unread, for its reader
  /// to validate (``ScannedCall/validatesUnread(maxDepth:)``).
  public static func scanCall(
    _ body: Span<UInt8>,
    maxDepth: Int = JSONReader.defaultMaxDepth,
    reusing storage: inout [JSONObjectRanges.Member]
  ) -> ScannedCall? {
    body.withUnsafeBufferPointer { scanCall($0, maxDepth: maxDepth, reusing: &storage) }
  }

  private static func scanCall(
    _ body: UnsafeBufferPointer<UInt8>,
    maxDepth: Int,
    reusing storage: inout [JSONObjectRanges.Member]
  ) -> ScannedCall? {
    var scanner = JSONScanner(body, maxDepth: maxDepth)
    do throws(JSONParseError) {
      var sawVersion = false
      if FastPath.versionPrefix.isOn, scanner.beginObject(startingWith: Self.versionPrefix) {
        FastPath.versionPrefix.taken()
        sawVersion = true
      } else {
        guard try scanner.beginObject() else { return nil }
      }
      var sawID = false
      var id: RequestID?
      var method: Range<Int>?
      var params = ScannedParams.absent
      var (sawParams, unread) = (false, Int?.none)
      while let key = try scanner.nextKey() {
        guard !key.hasEscapes, let start = key.raw.baseAddress, let base = body.baseAddress else {
          return nil
        }
        switch DeclaredMembers.words(key.raw, readable: body.count - (start - base)).0 {
        case Self.jsonrpcKey:
          guard !sawVersion, let version = try scanner.readStringBytes(), version == "2.0" else {
            return nil
          }
          sawVersion = true
        case Self.idKey:
          guard !sawID else { return nil }
          sawID = true
          // Each reader asks the value's kind and consumes nothing when it is another.
          switch try scanner.readNumber() {
          case .integer(let value): id = .integer(value)
          case .double(let value) where value.isFinite: id = .double(value)
          case nil:
            guard let text = try scanner.readString() else { return nil }
            id = .string(text)
          default: return nil
          }
        case Self.methodKey:
          guard method == nil, let name = try scanner.readStringBytes(), !name.hasEscapes else {
            return nil
          }
          // The scanner stands after the closing quote.
          let end = scanner.position - 1
          method = (end - name.raw.count)..<end
        case Self.paramsKey:
          guard !sawParams else { return nil }
          sawParams = true
          switch try scanner.kind() {
          case .object:
            guard let ranges = try scanner.readObjectRanges(reusing: &storage, unread: &unread)
            else { return nil }
            params = .object(ranges)
          case .array, .null:
            let start = scanner.position
            try scanner.skipValue()
            params = .other(start..<scanner.position)
          default: return nil
          }
        default:
          // Any other member is ignored by the classification too, but must be valid JSON.
          try scanner.skipValue()
        }
      }
      try scanner.finish()
      guard sawVersion, let method else { return nil }
      let bytes = MessageBytes(lendingValidated: body)
      return ScannedCall(id: id, method: method, params: params, body: bytes, unread: unread)
    } catch {
      return nil
    }
  }
}
