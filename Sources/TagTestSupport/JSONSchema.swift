public import JSONRPC

/// A small JSON Schema validator for the subset `Protocol/schemas/tagd.schema.json` uses:
/// `type`, `properties`, `required`, `additionalProperties`, `items`, `enum`, `minimum`,
/// `maximum`, `oneOf`, `allOf` and `$ref` to `#/$defs/…`.
public struct JSONSchema: Sendable {
  /// The whole schema document (for `$ref`s).
  public let document: JSONValue

  /// Wraps a parsed schema document.
  public init(document: JSONValue) {
    self.document = document
  }

  /// The schema at a path of member names, such as `["requests", "field/open", "params"]`.
  public func schema(at path: [String]) -> JSONValue? {
    var node: JSONValue? = document
    for key in path {
      guard case .object(let object)? = node else { return nil }
      node = object[key]
    }
    return node
  }

  /// The problems with `value` against `schema`; empty when it is valid.
  public func problems(
    _ value: JSONValue,
    against schema: JSONValue,
    at path: String = "$"
  ) -> [String] {
    guard case .object(let rules) = schema else { return [] }
    var problems: [String] = []
    if case .string(let reference)? = rules["$ref"] {
      let name = String(reference.dropFirst("#/$defs/".count))
      guard let target = self.schema(at: ["$defs", name]) else {
        return ["\(path): unknown $ref \(reference)"]
      }
      problems += self.problems(value, against: target, at: path)
    }
    if let types = rules["type"] {
      let allowed: [String]
      switch types {
      case .string(let one): allowed = [one]
      case .array(let many):
        allowed = many.compactMap { if case .string(let s) = $0 { s } else { nil } }
      default: allowed = []
      }
      if !allowed.contains(where: { Self.matches(value, type: $0) }) {
        return problems + [
          "\(path): expected \(allowed.joined(separator: " or ")), got \(Self.kind(value))"
        ]
      }
    }
    if case .array(let options)? = rules["enum"], !options.contains(value) {
      problems.append("\(path): \(Self.kind(value)) is not one of the allowed values")
    }
    if let number = Self.number(value) {
      if let minimum = rules["minimum"].flatMap(Self.number), number < minimum {
        problems.append("\(path): \(number) is below \(minimum)")
      }
      if let maximum = rules["maximum"].flatMap(Self.number), number > maximum {
        problems.append("\(path): \(number) is above \(maximum)")
      }
    }
    if case .object(let object) = value {
      let properties: JSONObject
      if case .object(let declared)? = rules["properties"] {
        properties = declared
      } else {
        properties = JSONObject()
      }
      if case .array(let required)? = rules["required"] {
        for case .string(let name) in required where object[name] == nil {
          problems.append("\(path): missing required \"\(name)\"")
        }
      }
      for member in object.members {
        if let property = properties[member.key] {
          problems += self.problems(member.value, against: property, at: "\(path).\(member.key)")
        } else if let extra = rules["additionalProperties"] {
          if extra == .bool(false) {
            problems.append("\(path): unexpected member \"\(member.key)\"")
          } else {
            problems += self.problems(member.value, against: extra, at: "\(path).\(member.key)")
          }
        }
      }
    }
    if case .array(let items) = value, let itemSchema = rules["items"] {
      for (i, item) in items.enumerated() {
        problems += self.problems(item, against: itemSchema, at: "\(path)[\(i)]")
      }
    }
    if case .array(let all)? = rules["allOf"] {
      for schema in all { problems += self.problems(value, against: schema, at: path) }
    }
    if case .array(let options)? = rules["oneOf"] {
      let passing = options.filter { self.problems(value, against: $0, at: path).isEmpty }.count
      if passing != 1 {
        problems.append("\(path): matches \(passing) of the oneOf alternatives, not exactly 1")
      }
    }
    return problems
  }

  static func matches(_ value: JSONValue, type: String) -> Bool {
    switch (type, value) {
    case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array),
      ("object", .object):
      return true
    case ("integer", .integer): return true
    case ("integer", .double(let d)): return d.isFinite && d == d.rounded(.towardZero)
    case ("number", .integer), ("number", .double): return true
    default: return false
    }
  }

  static func number(_ value: JSONValue) -> Double? {
    switch value {
    case .integer(let n): Double(n)
    case .double(let d): d
    default: nil
    }
  }

  static func kind(_ value: JSONValue) -> String {
    switch value {
    case .null: "null"
    case .bool: "boolean"
    case .integer, .double: "number"
    case .string(let s): "string \"\(s.prefix(30))\""
    case .array: "array"
    case .object: "object"
    }
  }
}
