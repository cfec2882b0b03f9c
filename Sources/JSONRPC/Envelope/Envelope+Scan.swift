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
  /// Reads the object that comes next as ranges (each value skipped, so validated) into
  /// `storage`'s buffer (emptied first: a caller that keeps one array and lets each result go
  /// before the next read allocates nothing per object); nil (nothing consumed) when the next
  /// value is not an object.
  public mutating func readObjectRanges(
    reusing storage: inout [JSONObjectRanges.Member]
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

  /// The value that comes next as `read` (a matcher of fixed forms that accepts only valid
  /// JSON, opening at most `levels` containers) reads it; nil (where the scanner then stands is
  /// unspecified) when `read` gives nil or those levels would pass the nesting limit.
  @inline(__always)
  public mutating func read<T>(nesting levels: Int, _ read: (inout MessageBytes.Cursor) -> T?) -> T?
  {
    skipWhitespace()
    guard depth + levels <= maxDepth else { return nil }
    var cursor = MessageBytes.Cursor(buffer: input, at: position, end: input.count)
    guard let value = read(&cursor) else { return nil }
    (position, afterOpen) = (cursor.at, false)
    return value
  }

  /// The first word of `key` (``DeclaredMembers/words(_:readable:)``), a key this scanner read;
  /// nil when it holds escapes.
  @inline(__always)
  func head(of key: Key) -> UInt64? {
    guard !key.hasEscapes, let start = key.raw.baseAddress, let base = input.baseAddress else {
      return nil
    }
    return DeclaredMembers.words(key.raw, readable: input.count - (start - base)).0
  }

  /// The slot `declared` gives `key`, a key this scanner read (slot `expected` tried first); nil
  /// when it holds escapes or is not declared.
  @inline(__always)
  public func slot(of key: Key, in declared: DeclaredMembers, expected: Int) -> Int? {
    guard !key.hasEscapes, let start = key.raw.baseAddress, let base = input.baseAddress else {
      return nil
    }
    return declared.slot(of: key.raw, readable: input.count &- (start - base), expected: expected)
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
  /// ``JSONScanner/readObjectRanges(reusing:)``): a caller that keeps one array allocates
  /// nothing per message.
  public static func scanCall(
    _ body: Span<UInt8>,
    maxDepth: Int = JSONReader.defaultMaxDepth,
    reusing storage: inout [JSONObjectRanges.Member]
  ) -> ScannedCall? {
    body.withUnsafeBufferPointer { body in
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
        var sawParams = false
        while let key = try scanner.nextKey() {
          guard let head = scanner.head(of: key) else { return nil }
          switch head {
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
              guard let ranges = try scanner.readObjectRanges(reusing: &storage)
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
        return ScannedCall(id: id, method: method, params: params, body: bytes)
      } catch {
        return nil
      }
    }
  }
}

extension Envelope {
  /// Whether `body` starts `{"jsonrpc":"2.0","method":` as notifications do (a request's `id`
  /// comes there): a few instructions that turn other bodies away before anything is made.
  @inlinable
  public static func startsNotification(_ body: Span<UInt8>) -> Bool {
    // `,"method":` as a word and a half (first byte lowest): ``methodKey`` after `,"`.
    body.count > 32
      && body.bytes.unsafeLoadUnaligned(fromByteOffset: 16, as: UInt64.self)
        == 0x646f_6874_656d_222c
      && body.bytes.unsafeLoadUnaligned(fromByteOffset: 24, as: UInt16.self)
        == 0x3a22
  }

  /// Whether `body` is a notification `method` with only `params` after it (no `id`), read
  /// into `params` by `read` in the one pass that validates the body; false for any other body
  /// (and when `read` gives false), which ``scanCall(_:maxDepth:reusing:)`` answers as always.
  public static func scanNotification<T>(
    _ body: Span<UInt8>,
    maxDepth: Int,
    method: String,
    into params: inout T,
    read: (inout T, inout JSONScanner) throws(JSONParseError) -> Bool
  ) -> Bool {
    guard startsNotification(body) else { return false }
    return body.withUnsafeBufferPointer { body in
      var scanner = JSONScanner(body, maxDepth: maxDepth)
      do throws(JSONParseError) {
        guard scanner.beginObject(startingWith: Self.versionPrefix) else { return false }
        scanner.position = 26  // after `,"method":`
        guard let name = try scanner.readStringBytes(), name.isPlain(method),
          let key = try scanner.nextKey(), scanner.head(of: key) == Self.paramsKey,
          try read(&params, &scanner), try scanner.nextKey() == nil
        else { return false }
        try scanner.finish()
        return true
      } catch {
        return false
      }
    }
  }
}
