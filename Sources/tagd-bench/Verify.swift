import JSONRPC

/// Checks every reply of a run: each id answered exactly once, no error, a sane result.
enum Verify {
  /// Verifies the replies `frames` of `child` to requests with ids `ids`, in any order.
  ///
  /// `check(index, result)` returns a problem with the result of request `ids.lowerBound + index`,
  /// or nil. Throws on the first problem, naming the request.
  static func replies(
    _ child: Child,
    frames: Range<Int>,
    ids: Range<Int>,
    check: (Int, JSONValue) -> String?
  ) throws(BenchError) {
    guard frames.count == ids.count else {
      throw BenchError("expected \(ids.count) replies, got \(frames.count)")
    }
    var seen = [Bool](repeating: false, count: ids.count)
    for body in child.bodies(frames) {
      let value: JSONValue
      do {
        value = try JSONReader.parse(child.received[body])
      } catch {
        throw BenchError("a reply is not JSON: \(error)")
      }
      guard value["jsonrpc"] == .string("2.0") else {
        throw BenchError("a reply lacks \"jsonrpc\":\"2.0\"")
      }
      guard case .integer(let raw)? = value["id"], ids.contains(Int(raw)) else {
        throw BenchError("a reply has an unexpected id: \(value["id"].map { "\($0)" } ?? "none")")
      }
      let index = Int(raw) - ids.lowerBound
      guard !seen[index] else { throw BenchError("id \(raw) was answered twice") }
      seen[index] = true
      if let error = value["error"] {
        throw BenchError("request \(raw) failed: \(error)")
      }
      guard let result = value["result"] else { throw BenchError("reply \(raw) has no result") }
      if let problem = check(index, result) {
        throw BenchError("reply \(raw): \(problem)")
      }
    }
    if let missing = seen.firstIndex(of: false) {
      throw BenchError("id \(ids.lowerBound + missing) was never answered")
    }
  }

  /// The number of elements of array member `key` of `value`, if it is one.
  static func count(_ value: JSONValue, _ key: String) -> Int? {
    value[key]?.arrayValue?.count
  }
}
