import JSONRPC
import TagProtocol
import TagTestSupport
import Testing

/// Protocol/errors.md lists exactly the codes the code can send, with the same names.
@Test func errorTableMatchesTheCode() throws {
  let text = String(
    decoding: try #require(Files.read(packageRoot() + "/Protocol/errors.md")),
    as: UTF8.self
  )
  var documented: [(Int, String)] = []
  for line in text.split(separator: "\n") where line.hasPrefix("| -") {
    let cells = line.split(separator: "|").map { $0.trimmingSpaces }
    if cells.count >= 2, let code = Int(cells[0]) { documented.append((code, cells[1])) }
  }
  let inCode = documentedCodes.map { ($0.code.rawValue, $0.name) }
  #expect(documented.map(\.0) == inCode.map(\.0))
  #expect(documented.map(\.1) == inCode.map(\.1))
}

/// The codes of Protocol/errors.md's table, in its order, with their names: every code tagd
/// sends, plus the reserved -32603 and -32800 that it never sends.
let documentedCodes: [(code: ErrorCode, name: String)] = [
  (.parseError, "ParseError"),
  (.invalidRequest, "InvalidRequest"),
  (.methodNotFound, "MethodNotFound"),
  (.invalidParams, "InvalidParams"),
  (.internalError, "InternalError"),
  (.serverNotInitialized, "ServerNotInitialized"),
  (.requestCancelled, "RequestCancelled"),
  (.contentModified, "ContentModified"),
  (.unknownSession, "UnknownSession"),
  (.sessionAlreadyOpen, "SessionAlreadyOpen"),
  (.limitExceeded, "LimitExceeded"),
  (.unknownTag, "UnknownTag"),
]

extension Substring {
  var trimmingSpaces: String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}
