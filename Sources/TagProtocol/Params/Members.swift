import JSONRPC

/// The member names one object of params may have, declared once beside the type that reads them.
///
/// Any other member is refused with -32602 naming it and, when one is close, the known name it
/// was probably meant to be (`did you mean "tags"?`): a typo never becomes a silent default.
/// ``open`` accepts anything (LSP's `initialize` and its `capabilities`, which grow with every
/// LSP version).
public struct Members: Sendable, ExpressibleByArrayLiteral {
  /// The known names, in declaration order; nil for an open object.
  public let names: [String]?

  /// An object whose members are exactly some of `names`.
  public init(arrayLiteral names: String...) {
    self.names = names
  }

  private init(open: Void) {
    names = nil
  }

  /// Any member is accepted.
  public static let open = Members(open: ())

  /// Throws for the first member of `object` that is not a known name.
  func check(_ object: JSONObject, at path: @autoclosure () -> String) throws(ParamsError) {
    guard let names else { return }
    for member in object.members where !names.contains(member.key) {
      throw unknown(member.key, at: path())
    }
  }

  /// The error for an unknown member `key` of the object at `path`.
  public func unknown(_ key: String, at path: String) -> ParamsError {
    let full = path.isEmpty ? key : "\(path).\(key)"
    let known = (names ?? []).map { "`\($0)`" }.joined(separator: ", ")
    var problem = "is not a known member"
    if let near = nearest(to: key) {
      problem += "; did you mean \"\(near)\"?"
    } else if !known.isEmpty {
      problem += " (known: \(known))"
    }
    return ParamsError(path: full, problem: problem)
  }

  /// The known name closest to `key`: equal ignoring ASCII case, or at most two edits away
  /// (one for short names).
  func nearest(to key: String) -> String? {
    guard let names else { return nil }
    let folded = key.lowercased()
    if let same = names.first(where: { $0.lowercased() == folded }) { return same }
    var best: (name: String, distance: Int)?
    for name in names {
      let distance = editDistance(
        Array(folded.unicodeScalars),
        Array(name.lowercased().unicodeScalars)
      )
      let allowed = name.count <= 4 ? 1 : 2
      if distance <= allowed, distance < (best?.distance ?? .max) { best = (name, distance) }
    }
    return best?.name
  }
}

/// Levenshtein distance (insertions, deletions, substitutions and adjacent transpositions).
func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var previous2 = [Int](repeating: 0, count: b.count + 1)
  var previous = Array(0...b.count)
  var current = [Int](repeating: 0, count: b.count + 1)
  for i in 1...a.count {
    current[0] = i
    for j in 1...b.count {
      let cost = a[i - 1] == b[j - 1] ? 0 : 1
      current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
        current[j] = min(current[j], previous2[j - 2] + 1)
      }
    }
    (previous2, previous, current) = (previous, current, previous2)
  }
  return previous[b.count]
}
