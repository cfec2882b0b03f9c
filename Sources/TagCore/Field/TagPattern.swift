/// A compiled `pattern` option: a regular expression a whole tag must match.
///
/// The syntax is the standard library's `Regex` (Perl/ICU-like; see Swift's Regex documentation),
/// matched with grapheme-cluster semantics against the trimmed, transformed candidate. Two patterns
/// are equal when their sources are.
///
/// ```swift
/// let pattern = try TagPattern("[a-z]+(-[a-z]+)*")
/// pattern.matches("ice-cream")  // true
/// pattern.matches("ice cream")  // false: the whole tag must match
/// ```
// Regex is not marked Sendable, but a compiled Regex is immutable once built (the standard
// library caches its lowered program thread-safely), so sharing one across tasks is safe.
public struct TagPattern: Hashable, @unchecked Sendable, CustomStringConvertible {
  /// The expression as given.
  public let source: String
  private let compiled: Compiled

  /// The compiled expression, boxed: `Regex` comes from a resilient module, so holding one
  /// inline would give `TagPattern`, `FieldRules` and `TagField` a layout known only at run
  /// time, and every access to a field's members would go through type metadata.
  private final class Compiled: @unchecked Sendable {
    let regex: Regex<AnyRegexOutput>
    init(_ regex: Regex<AnyRegexOutput>) { self.regex = regex }
  }

  /// Compiles `source`.
  ///
  /// - Throws: ``TagPatternError`` saying why the expression does not compile.
  public init(_ source: String) throws(TagPatternError) {
    do {
      compiled = Compiled(try Regex(source))
    } catch {
      throw TagPatternError(source: source, problem: "\(error)")
    }
    self.source = source
  }

  /// Whether the whole of `text` matches.
  public func matches(_ text: String) -> Bool {
    // wholeMatch throws only from custom regex components, which a parsed pattern has none of.
    (try? compiled.regex.wholeMatch(in: text)) != nil
  }

  /// The source.
  public var description: String { source }

  /// Patterns are equal when their sources are.
  public static func == (lhs: TagPattern, rhs: TagPattern) -> Bool { lhs.source == rhs.source }

  /// Hashes the source.
  public func hash(into hasher: inout Hasher) { hasher.combine(source) }
}

/// A `pattern` that does not compile.
public struct TagPatternError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The expression as given.
  public var source: String
  /// What the parser said (for example `expected ']'`).
  public var problem: String

  /// Creates an error.
  public init(source: String, problem: String) {
    self.source = source
    self.problem = problem
  }

  /// "`[a-` does not compile: expected ']'".
  public var description: String { "\(source) does not compile: \(problem)" }
}
