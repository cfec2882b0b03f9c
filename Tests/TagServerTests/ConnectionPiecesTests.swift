import JSONRPC
import Testing

@testable import TagServer

/// A pipelined stream's replies can be taken in pieces (the executable writes each piece while
/// the rest are made): `receive(_:into:upTo:)` stops once the outbox holds the limit, the
/// next call goes on where it stopped, and the pieces together are exactly what one `receive`
/// gives.
@Suite struct ConnectionPiecesTests {
  static let stream: [UInt8] = {
    var bodies = [
      #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"processId":null,"capabilities":{}}}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"field/open","params":{"field":"f"}}"#,
    ]
    var draft = ""
    for index in 0..<200 {
      draft += index % 7 == 6 ? "," : "a"
      bodies.append(
        #"{"jsonrpc":"2.0","id":\#(index + 2),"method":"field/change","params":{"field":"f","text":"\#(draft)"}}"#
      )
    }
    var bytes: [UInt8] = []
    for body in bodies { FrameEncoder.append(Array(body.utf8), as: .contentLength, to: &bytes) }
    return bytes
  }()

  @Test func piecesAddUpToOneReceive() {
    var whole = Connection()
    var all = Outbox()
    whole.receive(Self.stream.span, into: &all)
    let expected = all.withWire { Array($0.bytes.withUnsafeBytes { $0 }) }

    let limit = 1_000
    let largestFrame = (all.messages.map(\.count).max() ?? 0) + 24
    var pieces = Connection()
    var outbox = Outbox()
    var written: [UInt8] = []
    var stops = 0
    var fed = Self.stream[...]
    while pieces.receive(fed.span, into: &outbox, upTo: limit) {
      fed = []
      stops += 1
      // Stopped at the limit, having gone past it by one message's replies at most.
      #expect(outbox.withWire { $0.count } >= limit)
      #expect(outbox.withWire { $0.count } < limit + largestFrame)
      written += outbox.withWire { Array($0.bytes.withUnsafeBytes { $0 }) }
      outbox.clear()
    }
    written += outbox.withWire { Array($0.bytes.withUnsafeBytes { $0 }) }
    #expect(stops >= expected.count / (limit + largestFrame))
    #expect(written == expected)
    #expect(all.messages.count == 202)
  }

  @Test func noLimitHandlesEverything() {
    var connection = Connection()
    var outbox = Outbox()
    #expect(!connection.receive(Self.stream.span, into: &outbox))
    #expect(outbox.messages.count == 202)
  }
}
