// Convenience accessors for the dynamic parts of messages; each returns nil on a type mismatch.

extension JSONValue {
  /// The string, if this is `.string`.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The integer, if this is `.integer`, or a `.double` with an integral value that fits Int64.
  public var int64Value: Int64? {
    switch self {
    case .integer(let value): return value
    case .double(let value):
      // Avoids Int64(exactly:), which needs libm; ±2^63 bounds keep Int64(_:) from trapping.
      guard value >= -9_223_372_036_854_775_808.0, value < 9_223_372_036_854_775_808.0 else {
        return nil
      }
      return Double(Int64(value)) == value ? Int64(value) : nil
    default: return nil
    }
  }

  /// The number as a `Double`, if this is `.integer` or `.double`.
  public var doubleValue: Double? {
    switch self {
    case .integer(let value): return Double(value)
    case .double(let value): return value
    default: return nil
    }
  }

  /// The elements, if this is `.array`.
  public var arrayValue: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The object, if this is `.object`.
  public var objectValue: JSONObject? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// The value of the last member named `key`, if this is an object that has one.
  public subscript(key: String) -> JSONValue? {
    objectValue?[key]
  }
}

extension JSONValue: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(integerLiteral value: Int64) { self = .integer(value) }
  public init(floatLiteral value: Double) { self = .double(value) }
  public init(stringLiteral value: String) { self = .string(value) }
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  /// `.object`, members in literal order.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(JSONObject(elements.map { JSONMember($0.0, $0.1) }))
  }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
  /// Creates an object, members in literal order.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self.init(elements.map { JSONMember($0.0, $0.1) })
  }
}
