public import TagCore

/// The `options` of `field/open`: the field's rules and its prompt.
public struct FieldOptions: Hashable, Sendable {
  /// The rules (separators, limits, case mode, transform).
  public var rules: FieldRules
  /// The placeholder shown while the draft is empty.
  public var prompt: String

  /// The default prompt of SPEC §1.
  public static let defaultPrompt = "Add a tag"

  /// Creates options.
  public init(rules: FieldRules = FieldRules(), prompt: String = FieldOptions.defaultPrompt) {
    self.rules = rules
    self.prompt = prompt
  }

  /// The members of `options`.
  public static let members: Members = [
    "separators", "maxTags", "maxTagLength", "caseSensitive", "transform", "prompt",
  ]

  /// Decodes `{separators?, maxTags?, maxTagLength?, caseSensitive?, transform?, prompt?}`.
  ///
  /// Each separator is a one-character string; `"\n"`, `"\r"` and `"\r\n"` all mean "newline".
  public init(params: Params?) throws(ParamsError) {
    self.init()
    guard let params else { return }
    if let items = try params.optionalArray("separators") {
      var separators = Set<Unicode.Scalar>()
      for (i, item) in items.enumerated() {
        let path = params.path("separators") + "[\(i)]"
        let text = try Params.string(item, path: path)
        if text == "\r\n" || text == "\r" {
          separators.insert("\n")
          continue
        }
        let scalars = text.unicodeScalars
        guard scalars.count == 1, let scalar = scalars.first else {
          throw ParamsError(path: path, problem: "must be a single character, got \(item.kindName)")
        }
        separators.insert(scalar)
      }
      rules.separators = separators
    }
    rules.maxTags = try params.optionalInteger("maxTags", in: 0...Int.max)
    rules.maxTagLength = try params.optionalInteger("maxTagLength", in: 1...Int.max)
    rules.caseSensitive = try params.optionalBool("caseSensitive") ?? false
    if let name = try params.optionalString("transform") {
      guard let transform = TagTransform(rawValue: name) else {
        let names = TagTransform.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        throw ParamsError(
          path: params.path("transform"),
          problem: "must be one of \(names), got \"\(name)\""
        )
      }
      rules.transform = transform
    }
    prompt = try params.optionalString("prompt") ?? FieldOptions.defaultPrompt
  }
}
