import JSONRPC
import TagTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The built `tagd` next to the test bundle (`TAGD_BINARY` overrides).
func tagdPath() -> String {
  if let override = getenv("TAGD_BINARY") { return String(cString: override) }
  let runner = CommandLine.arguments.first ?? ""
  var parts = runner.split(separator: "/", omittingEmptySubsequences: false)
  while let last = parts.last,
    !last.hasSuffix("debug") && !last.hasSuffix("release") && parts.count > 1
  {
    parts.removeLast()
  }
  let candidate = parts.joined(separator: "/") + "/tagd"
  if access(candidate, X_OK) == 0 { return candidate }
  return packageRoot() + "/.build/debug/tagd"
}

/// Whether the soak sizes were asked for (`TAGD_SLOW_TESTS=1`).
let slowTests = slowTestsRequested

/// Spawns tagd with `arguments`.
func spawnTagd(_ arguments: [String] = []) throws -> ChildProcess {
  try ChildProcess(path: tagdPath(), arguments: arguments)
}

let initialize =
  #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"processId":null,"capabilities":{}}}"#

/// Runs a whole session: sends `bodies` framed, closes stdin, returns replies and exit status.
func session(
  _ bodies: [String],
  framing: Framing = .contentLength,
  arguments: [String] = []
) throws -> (replies: [String], status: Int32?, stderr: String, stdout: [UInt8]) {
  let child = try spawnTagd(arguments)
  for body in bodies { child.write(frame(body, framing)) }
  let status = child.finish()
  let replies = splitFrames(child.stdout, framing: framing)
  return (replies, status, String(decoding: child.stderr, as: UTF8.self), child.stdout)
}

/// Whether `stdout` is exactly a sequence of well-formed frames with nothing left over.
func isOnlyFrames(_ stdout: [UInt8], framing: Framing) -> Bool {
  var decoder = FrameDecoder(framing: framing)
  decoder.feed(stdout)
  while let event = decoder.next() {
    guard case .message(let body) = event, (try? JSONReader.parse(body)) != nil else {
      return false
    }
  }
  return decoder.finish() == nil
}

/// The reply with integer id `id`, parsed.
func reply(_ replies: [String], id: Int64) -> JSONObject? {
  for text in replies {
    if case .object(let object)? = JSONCompare.parse(text), object["id"] == .integer(id) {
      return object
    }
  }
  return nil
}

/// The error code of a reply object.
func errorCode(_ reply: JSONObject?) -> Int64? {
  guard case .object(let error)? = reply?["error"], case .integer(let code)? = error["code"] else {
    return nil
  }
  return code
}
