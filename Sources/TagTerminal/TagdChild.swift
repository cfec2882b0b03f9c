import JSONRPC
import Spawn

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tagd child process, spoken to over pipes exactly as an editor would.
///
/// NDJSON requests go to its stdin and replies come from its stdout. Its stderr goes to
/// /dev/null so it cannot scribble on the screen.
///
/// - Important: synchronous. ``request(_:_:)`` writes one request and blocks until its reply
///   (or the child's death, or a 10-second timeout); fine at human typing speed.
final class TagdChild {
  let pid: pid_t
  private var input: Int32
  private let output: Int32
  private var decoder = FrameDecoder(framing: .newlineDelimited)
  private var nextID: Int64 = 1
  private var exited = false

  /// Spawns `path` with `--framing=ndjson` and the extra `arguments`.
  init(path: String, arguments: [String] = []) throws(TryError) {
    let child: SpawnedProcess
    do throws(SpawnError) {
      child = try SpawnedProcess.spawn(path, ["--framing=ndjson"] + arguments)
    } catch {
      throw .spawn(error.errno)
    }
    pid = child.pid
    input = child.stdin
    output = child.stdout
  }

  deinit {
    if input >= 0 { close(input) }
    close(output)
    if !exited {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }
  }

  /// Sends a request and waits for its reply.
  ///
  /// - Returns: the reply's `result`.
  /// - Throws: `.response` for an error reply; `.childGone`, `.timeout` or `.badReply` when the
  ///   conversation itself failed.
  func request(_ method: String, _ params: JSONValue? = nil) throws(TryError) -> JSONValue {
    let id = nextID
    nextID += 1
    try send(method: method, id: id, params: params)
    while true {
      while let event = decoder.next() {
        guard case .message(let body) = event else { throw .badReply("a broken frame") }
        guard let reply = try? JSONReader.parse(body), let object = reply.objectValue else {
          throw .badReply(String(decoding: body, as: UTF8.self))
        }
        guard object["id"] == .integer(id) else { continue }  // a notification: not ours
        if let error = object["error"] {
          throw .response(
            code: error["code"]?.int64Value ?? 0,
            message: error["message"]?.stringValue ?? "unknown error"
          )
        }
        return object["result"] ?? .null
      }
      try readMore()
    }
  }

  /// Sends a notification.
  func notify(_ method: String, _ params: JSONValue? = nil) throws(TryError) {
    try send(method: method, id: nil, params: params)
  }

  /// Ends the conversation politely (`shutdown`, `exit`) and waits for the child.
  ///
  /// - Returns: the child's exit status, or nil if it had to be killed.
  func finish() -> Int32? {
    _ = try? request("shutdown")
    try? notify("exit")
    close(input)
    input = -1
    for _ in 0..<200 {
      var status: Int32 = 0
      if waitpid(pid, &status, WNOHANG) == pid {
        exited = true
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : nil
      }
      usleep(10_000)
    }
    return nil
  }

  private func send(method: String, id: Int64?, params: JSONValue?) throws(TryError) {
    var writer = JSONWriter()
    writer.beginObject()
    writer.key("jsonrpc")
    writer.string("2.0")
    if let id {
      writer.key("id")
      writer.integer(id)
    }
    writer.key("method")
    writer.string(method)
    if let params {
      writer.key("params")
      writer.value(params)
    }
    writer.endObject()
    var bytes: [UInt8] = []
    FrameEncoder.append(writer.bytes, as: .newlineDelimited, to: &bytes)
    var offset = 0
    while offset < bytes.count {
      guard input >= 0 else { throw .childGone }
      let written = bytes.withUnsafeBytes { raw in
        write(input, raw.baseAddress.map { $0 + offset }, raw.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        throw .childGone
      }
      offset += written
    }
  }

  private func readMore() throws(TryError) {
    var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
    let ready = poll(&descriptor, 1, 10_000)
    if ready < 0 && errno == EINTR { return }
    guard ready > 0 else { throw .timeout }
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
    if count < 0 && errno == EINTR { return }
    guard count > 0 else { throw .childGone }
    decoder.feed(Array(chunk[0..<count]))
  }
}

/// Why `tagd try` could not go on talking to its tagd child.
public enum TryError: Error, CustomStringConvertible {
  /// `pipe` or `posix_spawn` failed with this errno.
  case spawn(Int32)
  /// The child closed its pipes (it exited or crashed).
  case childGone
  /// The child did not answer within 10 seconds.
  case timeout
  /// The child sent something that is not a JSON-RPC reply.
  case badReply(String)
  /// The child answered a request with an error.
  case response(code: Int64, message: String)

  public var description: String {
    switch self {
    case .spawn(let error): "cannot start tagd: \(String(cString: strerror(error)))"
    case .childGone: "the tagd child exited"
    case .timeout: "the tagd child did not answer within 10 seconds"
    case .badReply(let text): "the tagd child sent something unexpected: \(text.prefix(200))"
    case .response(let code, let message): "error \(code): \(message)"
    }
  }
}
