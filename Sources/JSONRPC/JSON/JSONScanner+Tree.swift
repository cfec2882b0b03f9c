/// The tree behind ``JSONReader``, read with the scanner's own pull methods: the tree and the
/// scanner share one container loop, one string reader and one wording of every error.
///
/// Open containers wait on explicit stacks (`open`, `values`, `keys`), so nesting costs heap,
/// never call stack, and each value is moved into its container once, when the container ends.
extension JSONScanner {
  /// A container being filled: whether it is an object, and where its values (and keys) start
  /// on the stacks.
  private struct Open {
    var isObject: Bool
    var valueStart: Int
    var keyStart: Int
  }

  /// Reads the next value whole.
  mutating func readTree() throws(JSONParseError) -> JSONValue {
    var open: [Open] = []
    var values: [JSONValue] = []
    var keys: [String] = []
    reading: while true {
      var value: JSONValue
      switch try kind() {
      case .object:
        _ = try beginObject()
        if let key = try nextKey() {
          open.append(Open(isObject: true, valueStart: values.count, keyStart: keys.count))
          keys.append(key.string)
          continue reading
        }
        value = .object(JSONObject())
      case .array:
        _ = try beginArray()
        if try nextElement() {
          open.append(Open(isObject: false, valueStart: values.count, keyStart: keys.count))
          continue reading
        }
        value = .array([])
      case .string:
        value = .string(try readString() ?? "")
      case .number:
        // The kind is a number, so the read yields one.
        guard let number = try readNumber() else { throw failure("unreadable number") }
        value = number
      case .bool:
        value = .bool(try readBool() ?? false)
      case .null:
        _ = try readNull()
        value = .null
      }
      // A value is complete: it goes into the container it is in, closing those that end.
      while let top = open.last {
        values.append(value)
        if top.isObject {
          if let key = try nextKey() {
            keys.append(key.string)
            continue reading
          }
          var members: [JSONMember] = []
          members.reserveCapacity(values.count - top.valueStart)
          for (key, member) in zip(keys[top.keyStart...], values[top.valueStart...]) {
            members.append(JSONMember(key, member))
          }
          value = .object(JSONObject(members))
          keys.removeSubrange(top.keyStart...)
        } else {
          if try nextElement() { continue reading }
          value = .array(Array(values[top.valueStart...]))
        }
        values.removeSubrange(top.valueStart...)
        open.removeLast()
      }
      return value
    }
  }
}
