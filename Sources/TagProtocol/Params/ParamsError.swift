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
