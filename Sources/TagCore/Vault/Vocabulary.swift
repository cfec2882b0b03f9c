/// A vault's vocabulary, from the `.tagd.toml` at its root (SPEC §6d).
///
/// ```toml
/// allow = ["work", "home", "machine-learning"]   # when present, only these tags
/// deny = ["misc"]
///
/// [aliases]
/// ml = "machine-learning"                         # `ml` is written `machine-learning`
/// ```
///
/// Every comparison is caseless (``CaselessKey``). `a/b` is its own tag: allowing `a` does not
/// allow `a/b`.
public struct Vocabulary: Hashable, Sendable {
  /// The file's name, at the vault's root.
  public static let fileName = ".tagd.toml"

  /// The only tags allowed, when the file has `allow`; nil when it has none.
  public var allow: [String]?
  /// The tags denied.
  public var deny: [String]
  /// Each alias and the tag it stands for, in the file's order.
  public var aliases: [(alias: String, tag: String)] {
    get { aliasPairs.map { ($0.alias, $0.tag) } }
    set { aliasPairs = newValue.map { AliasPair(alias: $0.alias, tag: $0.tag) } }
  }

  struct AliasPair: Hashable, Sendable {
    var alias: String
    var tag: String
  }

  private var aliasPairs: [AliasPair]
  private var allowKeys: Set<CaselessKey>?
  private var denyKeys: Set<CaselessKey>
  private var aliasTags: [CaselessKey: String]

  /// A vocabulary with these lists.
  public init(allow: [String]? = nil, deny: [String] = [], aliases: [(String, String)] = []) {
    self.allow = allow
    self.deny = deny
    aliasPairs = aliases.map { AliasPair(alias: $0.0, tag: $0.1) }
    allowKeys = allow.map { Set($0.map(CaselessKey.init)) }
    denyKeys = Set(deny.map(CaselessKey.init))
    var tags: [CaselessKey: String] = [:]
    for pair in aliasPairs where tags[CaselessKey(pair.alias)] == nil {
      tags[CaselessKey(pair.alias)] = pair.tag
    }
    aliasTags = tags
  }

  public static func == (a: Vocabulary, b: Vocabulary) -> Bool {
    a.allow == b.allow && a.deny == b.deny && a.aliasPairs == b.aliasPairs
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(allow)
    hasher.combine(deny)
    hasher.combine(aliasPairs)
  }

  /// The tag `alias` stands for (caseless), nil when it is no alias.
  public func tag(forAlias alias: String) -> String? { aliasTags[CaselessKey(alias)] }

  /// Why `tag` is not allowed (`allow` lacks it, or `deny` has it); nil when it is allowed.
  public func refusal(of tag: String) -> Refusal? {
    let key = CaselessKey(tag)
    if denyKeys.contains(key) { return .denied }
    if let allowKeys, !allowKeys.contains(key) { return .notInAllow }
    return nil
  }

  /// Why the vocabulary refuses a tag.
  public enum Refusal: Hashable, Sendable {
    /// The vocabulary has `allow` and it does not list the tag.
    case notInAllow
    /// `deny` lists the tag.
    case denied
  }

  /// The vocabulary `text` (a `.tagd.toml` file's content) writes.
  ///
  /// The file is TOML: top-level `allow` and `deny` (arrays of strings, on one line or several)
  /// and an `[aliases]` table of `alias = "tag"` strings. Anything else is an error naming it.
  public static func parse(_ text: String) throws(VocabularyError) -> Vocabulary {
    let doc = DocumentText(text)
    var allow: [String]?
    var deny: [String]?
    var aliases: [(String, String)] = []
    var seen: [String: Int] = [:]
    var table: String?
    var line = doc.bodyStart
    var number = 0
    func fail(_ message: String) -> VocabularyError {
      VocabularyError(line: number, message: message)
    }
    while line < doc.count {
      let end = doc.lineEnd(line)
      let first = doc.skipBlanks(line, to: end)
      var next = doc.afterBreak(end)
      defer {
        number += InlineTags.lineBreaks(doc.bytes.span, line..<next)
        line = next
      }
      guard first < end, doc.bytes[first] != UInt8(ascii: "#") else { continue }
      if doc.bytes[first] == UInt8(ascii: "[") {
        guard let close = doc.bytes[first..<end].firstIndex(of: UInt8(ascii: "]")) else {
          throw fail("a table header needs its closing `]`")
        }
        let name = doc.string((first + 1)..<close).trimmingBlanks
        guard name == "aliases" else {
          throw fail(
            "unknown table `[\(name)]`: a .tagd.toml has `allow`, `deny` and `[aliases]`"
          )
        }
        do throws(DocumentError) {
          try TOMLFrontMatter.expectLineEnd(doc, after: close + 1)
        } catch {
          throw fail(error.problem)
        }
        table = name
        if let earlier = seen["[aliases]"] {
          throw fail("`[aliases]` appears twice (first on line \(earlier + 1))")
        }
        seen["[aliases]"] = number
        continue
      }
      guard let (key, valueStart) = TOMLFrontMatter.keyOfLine(doc, first, end) else {
        throw fail("expected `key = value`")
      }
      guard table != nil || key == "allow" || key == "deny" else {
        throw fail("unknown key `\(key)`: a .tagd.toml has `allow`, `deny` and `[aliases]`")
      }
      let qualified = table.map { "\($0).\(key)" } ?? key
      if let earlier = seen[qualified] {
        throw fail("`\(key)` appears twice (first on line \(earlier + 1))")
      }
      seen[qualified] = number
      let list: TagList
      do throws(DocumentError) {
        list = try TOMLFrontMatter.value(doc, at: valueStart, limit: doc.count)
      } catch {
        if case .malformed(let at, let problem) = error {
          throw VocabularyError(line: at, message: problem)
        }
        throw fail(error.problem)
      }
      let range = list.valueRange ?? valueStart..<valueStart
      next = doc.nextLine(doc.lineStart(max(range.lowerBound, range.upperBound - 1)))
      let isArray = doc.bytes[valueStart] == UInt8(ascii: "[")
      let stringsOnly = list.spans.allSatisfy { span in
        doc.bytes[span.lowerBound] == UInt8(ascii: "\"")
          || doc.bytes[span.lowerBound] == UInt8(ascii: "'")
      }
      if table == "aliases" {
        guard !isArray, stringsOnly, let tag = list.tags.first else {
          throw fail("the alias `\(key)` must name its tag as a string: \(key) = \"tag\"")
        }
        guard !tag.isEmpty, !key.isEmpty else { throw fail("an alias or its tag is empty") }
        guard CaselessKey(tag) != CaselessKey(key) else {
          throw fail("the alias `\(key)` stands for itself")
        }
        aliases.append((key, tag))
        continue
      }
      guard isArray, stringsOnly else {
        throw fail("`\(key)` must be an array of strings: \(key) = [\"a\", \"b\"]")
      }
      if list.tags.contains(where: \.isEmpty) { throw fail("`\(key)` holds an empty tag") }
      if key == "allow" { allow = list.tags } else { deny = list.tags }
    }
    let vocabulary = Vocabulary(allow: allow, deny: deny ?? [], aliases: aliases)
    // Contradictions, named on the line of the later entry.
    if let allow {
      let denied = Set((deny ?? []).map(CaselessKey.init))
      if let both = allow.first(where: { denied.contains(CaselessKey($0)) }) {
        throw VocabularyError(
          line: seen["deny"] ?? 0,
          message: "`\(both)` is both allowed and denied"
        )
      }
    }
    var aliasKeys: [CaselessKey: String] = [:]
    for (alias, _) in aliases {
      if let earlier = aliasKeys[CaselessKey(alias)] {
        throw VocabularyError(
          line: seen["aliases.\(alias)"] ?? 0,
          message: "`\(alias)` is the same alias as `\(earlier)`"
        )
      }
      aliasKeys[CaselessKey(alias)] = alias
    }
    for (alias, tag) in aliases where aliasKeys[CaselessKey(tag)] != nil {
      throw VocabularyError(
        line: seen["aliases.\(alias)"] ?? 0,
        message: "the alias `\(alias)` stands for `\(tag)`, which is itself an alias"
      )
    }
    return vocabulary
  }
}

/// Why a `.tagd.toml` could not be read: its line and what is wrong there.
public struct VocabularyError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The 0-based line (as LSP counts them; people count from 1, as ``description`` does).
  public var line: Int
  /// What is wrong, in English.
  public var message: String

  /// Creates an error.
  public init(line: Int, message: String) {
    self.line = line
    self.message = message
  }

  /// `line N: message`, N counted from 1.
  public var description: String { "line \(line + 1): \(message)" }
}

extension DocumentError {
  /// The error's words, without its line.
  var problem: String {
    switch self {
    case .malformed(_, let problem): problem
    case .lineOutOfRange(let line, let count): "line \(line) is past the last (\(count) lines)"
    case .notAHeading: "the line is not an Org heading"
    case .notAnOrgTag(let tag, _): "`\(tag)` cannot be an Org tag"
    case .otherFrontMatter(let found, _): "the front matter is \(found.rawValue)"
    case .keyWithoutFrontMatter: "a key was given for Org"
    }
  }
}

extension String {
  /// The string without leading and trailing spaces and tabs.
  fileprivate var trimmingBlanks: String {
    var scalars = Substring(self).unicodeScalars
    while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
    while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
    return String(scalars)
  }
}
