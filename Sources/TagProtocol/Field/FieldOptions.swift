public import JSONRPC
public import TagCore

/// The `options` of `field/open`: the field's rules, its prompt and its vocabulary.
public struct FieldOptions: Hashable, Sendable {
  /// The rules (separators, limits, case mode, transform, validation, Backspace, blur, history).
  public var rules: FieldRules
  /// The placeholder shown while the draft is empty; nil for the default prompt of SPEC §1
  /// in the connection's language ("Add a tag").
  public var prompt: String?
  /// The vocabulary for `field/suggest`, when given.
  public var suggestions: [String]?
  /// `suggestFromVault`: the vault's tags follow ``suggestions`` (SPEC §6d).
  public var suggestFromVault = false

  /// Creates options.
  public init(
    rules: FieldRules = FieldRules(),
    prompt: String? = nil,
    suggestions: [String]? = nil
  ) {
    self.rules = rules
    self.prompt = prompt
    self.suggestions = suggestions
  }

  /// The members of `options`.
  public enum Member: Int, ParamsMember {
    case separators, maxTags, maxTagLength, caseSensitive, transform, prompt, pattern, allow, deny
    case suggestions, backspace, suggestFromVault, commitOnBlur, history
    public static let declared = declare()
  }

  /// Decodes `{separators?, maxTags?, maxTagLength?, caseSensitive?, transform?, prompt?,
  /// pattern?, allow?, deny?, suggestions?, backspace?, commitOnBlur?, history?}`.
  ///
  /// Each separator is a one-character string; `"\n"`, `"\r"` and `"\r\n"` all mean "newline".
  public init(params: Params<Member>?) throws(ParamsError) {
    self.init()
    guard let params else { return }
    if let items = try params.optionalArray(.separators) {
      var separators = Set<Unicode.Scalar>()
      for (i, item) in items.enumerated() {
        let path = params.path(.separators) + "[\(i)]"
        let text = try params.string(item, path: path)
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
    rules.maxTags = try params.optionalInteger(.maxTags, in: 0...Int.max)
    rules.maxTagLength = try params.optionalInteger(.maxTagLength, in: 1...Int.max)
    rules.caseSensitive = try params.optionalBool(.caseSensitive) ?? false
    rules.transform = try params.optionalCase(.transform) ?? rules.transform
    prompt = try params.optionalString(.prompt)
    if let source = try params.optionalString(.pattern) {
      do throws(TagPatternError) {
        rules.pattern = try TagPattern(source)
      } catch {
        throw ParamsError(
          path: params.path(.pattern),
          problem: "`\(source)` does not compile: \(error.problem)"
        )
      }
    }
    rules.allow = try params.optionalStrings(.allow)
    rules.deny =
      try params.optionalStrings(.deny) ?? []
    suggestions = try params.optionalStrings(.suggestions)
    rules.backspace = try params.optionalCase(.backspace) ?? rules.backspace
    suggestFromVault = try params.optionalBool(.suggestFromVault) ?? false
    rules.commitOnBlur = try params.optionalBool(.commitOnBlur) ?? false
    rules.historyLimit = try params.optionalInteger(.history, in: 0...100_000) ?? 100
  }
}

extension Params {
  /// An optional member naming a case of `E` by its raw value (absent or `null` → nil); any
  /// other string is refused, listing the cases.
  fileprivate func optionalCase<E: RawRepresentable<String> & CaseIterable>(
    _ key: M
  ) throws(ParamsError) -> E? {
    guard let name = try optionalString(key) else { return nil }
    if let value = E(rawValue: name) { return value }
    let names = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
    throw ParamsError(path: path(key), problem: "must be one of \(names), got \"\(name)\"")
  }
}
