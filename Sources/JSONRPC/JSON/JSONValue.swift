/// A JSON value as read from the wire; used for the dynamic parts of messages before typed decoding.
public enum JSONValue: Hashable, Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number written without fraction or exponent that fits in 64 bits.
  case integer(Int64)
  /// Any other number (fraction, exponent, or an integer too large for 64 bits; may be ±infinity
  /// for literals such as `1e400`). `-0` reads as `.double(-0.0)`.
  case double(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object, members in document order.
  case object(JSONObject)
}

/// A JSON object that keeps its members in document order; lookups return the last member with
/// the key (as JavaScript's `JSON.parse` does).
public struct JSONObject: Hashable, Sendable {
  /// The members in document order, duplicates included.
  public var members: [JSONMember]

  public init(_ members: [JSONMember] = []) {
    self.members = members
  }

  /// The value of the last member named `key`.
  public subscript(key: String) -> JSONValue? {
    var index = members.endIndex
    while index > members.startIndex {
      index -= 1
      if members[index].key == key { return members[index].value }
    }
    return nil
  }
}

/// One `"key": value` pair of a ``JSONObject``.
public struct JSONMember: Hashable, Sendable {
  /// The member's name.
  public var key: String
  /// The member's value.
  public var value: JSONValue

  public init(_ key: String, _ value: JSONValue) {
    self.key = key
    self.value = value
  }
}
