/// A request's params did not have the shape a method needs; the message names the path.
///
/// Becomes a -32602 Invalid params response whose message reads, e.g.,
/// "Invalid params: `chipSizes[3].width` must be a finite number ≥ 0, got -1".
public struct ParamsError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Where in the params the problem is, for example `chipSizes[3].width`.
  ///
  /// Empty for the params as a whole.
  public var path: String
  /// What is wrong there.
  public var problem: String

  /// Creates an error.
  public init(path: String, problem: String) {
    self.path = path
    self.problem = problem
  }

  /// "Invalid params: `path` problem".
  public var description: String {
    path.isEmpty ? "Invalid params: \(problem)" : "Invalid params: `\(path)` \(problem)"
  }
}

/// The error for an unknown member `key` of the object at `path` whose known members are
/// `known`.
func unknownMember(_ key: String, at path: String, known: [String]) -> ParamsError {
  let full = path.isEmpty ? key : "\(path).\(key)"
  var problem = "is not a known member"
  if let near = nearest(to: key, among: known) {
    problem += "; did you mean \"\(near)\"?"
  } else if !known.isEmpty {
    problem += " (known: \(known.map { "`\($0)`" }.joined(separator: ", ")))"
  }
  return ParamsError(path: full, problem: problem)
}

/// The known name closest to `key`: equal ignoring ASCII case, or at most two edits away
/// (one for short names).
func nearest(to key: String, among names: [String]) -> String? {
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
