/// Writes compact JSON text into a byte buffer, inserting commas itself.
///
/// Strings are escaped so the output never contains a raw newline (safe for NDJSON framing);
/// `/` is not escaped. Doubles are written in the shortest form that reads back to the same
/// value; integral doubles below 2^53 are written without a fraction. Non-finite doubles are
/// written as `null`.
///
/// ```swift
/// var w = JSONWriter()
/// w.beginObject(); w.key("a"); w.integer(1); w.key("b"); w.string("x"); w.endObject()
/// // w.bytes == Array(#"{"a":1,"b":"x"}"#.utf8)
/// ```
public struct JSONWriter: Sendable {
  /// The text written so far.
  public private(set) var bytes: [UInt8]

  /// Creates an empty writer.
  public init() {
    bytes = []
  }

  /// Writes `null`.
  public mutating func null() { fatalError("unimplemented") }
  /// Writes `true` or `false`.
  public mutating func bool(_ value: Bool) { fatalError("unimplemented") }
  /// Writes an integer.
  public mutating func integer(_ value: Int64) { fatalError("unimplemented") }
  /// Writes an integer.
  public mutating func integer(_ value: Int) { fatalError("unimplemented") }
  /// Writes a number (see the type's rules for doubles).
  public mutating func double(_ value: Double) { fatalError("unimplemented") }
  /// Writes an escaped string.
  public mutating func string(_ value: String) { fatalError("unimplemented") }
  /// Opens an object.
  public mutating func beginObject() { fatalError("unimplemented") }
  /// Closes the innermost object.
  public mutating func endObject() { fatalError("unimplemented") }
  /// Opens an array.
  public mutating func beginArray() { fatalError("unimplemented") }
  /// Closes the innermost array.
  public mutating func endArray() { fatalError("unimplemented") }
  /// Writes a member name inside an object; the next value is its value.
  public mutating func key(_ name: String) { fatalError("unimplemented") }
  /// Writes already-encoded JSON text as one value (trusted, not validated).
  public mutating func raw(_ json: [UInt8]) { fatalError("unimplemented") }
  /// Writes any value.
  public mutating func value(_ value: JSONValue) { fatalError("unimplemented") }

  /// Empties the buffer, keeping its capacity, so one writer can be reused per message.
  public mutating func reset() { fatalError("unimplemented") }
}
