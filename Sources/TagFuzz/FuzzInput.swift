import JSONRPC
import TagServer

/// One fuzz input driven through the whole input path: framer, JSON, envelope, dispatch, sessions.
///
/// The first byte configures the run, the rest is the byte stream tagd reads from stdin:
/// - bits 0–1: framing (0 and 3 detect it, 1 forces Content-Length, 2 forces NDJSON);
/// - bits 2–4: how many bytes each `read` delivers (1, 2, 3, 7, 16, 64, 512 or all at once),
///   so that every split point of a frame is exercised;
/// - bit 5: small limits (tiny messages, headers, depth, sessions, tags), so that every limit
///   is reachable within libFuzzer's input sizes;
/// - bit 6: an `initialize` request is sent first, so that mutations reach the sessions.
///
/// Besides crashes (and, under address sanitizer, memory errors) it checks that everything the
/// server writes is a sequence of well-formed frames whose bodies are JSON objects or arrays.
struct FuzzInput {
  var framing: Framing?
  var chunkSize: Int
  var smallLimits: Bool
  var sendsInitialize: Bool
  var stream: ArraySlice<UInt8>

  private static let chunkSizes = [1, 2, 3, 7, 16, 64, 512, Int.max]
  private static let initialize = Array(
    #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"processId":null}}"#.utf8
  )

  init?(_ bytes: UnsafeRawBufferPointer) {
    guard let control = bytes.first else { return nil }
    switch control & 3 {
    case 1: framing = .contentLength
    case 2: framing = .newlineDelimited
    default: framing = nil
    }
    chunkSize = Self.chunkSizes[Int(control >> 2) & 7]
    smallLimits = control & 0x20 != 0
    sendsInitialize = control & 0x40 != 0
    stream = ArraySlice(bytes.dropFirst())
  }

  /// Runs the input; traps (a finding) when the server breaks an invariant.
  func run() {
    let config =
      smallLimits
      ? ServerConfig(
        maxDepth: 8,
        maxSessions: 3,
        maxTags: 5,
        maxTagLength: 8,
        maxMessageBytes: 300,
        maxHeaderBytes: 64
      )
      : ServerConfig()
    var connection = Connection(config: config, framing: framing)
    var outbox = Outbox()
    if sendsInitialize {
      var first: [UInt8] = []
      FrameEncoder.append(Self.initialize, as: framing ?? .contentLength, to: &first)
      connection.receive(first.span, into: &outbox)
      guard drained(&outbox, connection) else { return }
    }
    var offset = stream.startIndex
    while offset < stream.endIndex {
      let end = offset + min(chunkSize, stream.endIndex - offset)
      connection.receive(
        stream.span.extracting((offset - stream.startIndex)..<(end - stream.startIndex)),
        into: &outbox
      )
      offset = end
      guard drained(&outbox, connection) else { return }
    }
    connection.inputClosed(into: &outbox)
    check(outbox, framing: connection.framing)
  }

  /// Checks and empties what the connection wrote, as `StdioLoop` performs it; false once the
  /// server asked to exit.
  private func drained(_ outbox: inout Outbox, _ connection: Connection) -> Bool {
    check(outbox, framing: connection.framing)
    let exiting = outbox.exitCode != nil
    outbox.clear()
    return !exiting
  }

  /// The output invariant: only whole frames, each a JSON object or array.
  private func check(_ outbox: borrowing Outbox, framing: Framing) {
    var replies = FrameDecoder(framing: framing)
    outbox.withWire { replies.feed($0) }
    while let event = replies.next() {
      guard case .message(let body) = event else {
        fatalError("the server wrote a broken frame: \(event)")
      }
      switch try? JSONReader.parse(body, maxDepth: JSONReader.maxSupportedDepth) {
      case .object?, .array?: break
      default: fatalError("the server wrote a reply that is not a JSON object or array")
      }
    }
    if let error = replies.finish() { fatalError("the server wrote a partial frame: \(error)") }
  }
}
