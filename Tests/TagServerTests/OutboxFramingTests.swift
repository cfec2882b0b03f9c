import JSONRPC
import Testing

@testable import TagServer

/// The outbox frames each body in place: the Content-Length header is reserved before the body
/// with a guessed digit count and corrected after, so bodies whose lengths have more or fewer
/// digits than the one before must still come out exactly.
@Test(arguments: [Framing.contentLength, .newlineDelimited])
func bodiesOfEveryLengthAreFramedExactly(framing: Framing) {
  let lengths = [1, 9, 10, 99, 100, 999, 1000, 3, 10_000, 12, 100_000, 7, 0, 250, 250]
  var outbox = Outbox()
  outbox.framing = framing
  var expected: [[UInt8]] = []
  for (index, length) in lengths.enumerated() {
    // A JSON string of `length` bytes with its quotes (nothing for 0: no message is sent).
    let text = length < 2 ? "" : String(repeating: Character(String(index % 10)), count: length - 2)
    outbox.write { w in
      if length >= 2 { w.string(text) } else if length == 1 { w.integer(index % 10) }
    }
    if length >= 2 {
      expected.append(Array("\"\(text)\"".utf8))
    } else if length == 1 {
      expected.append(Array("\(index % 10)".utf8))
    }
  }
  #expect(outbox.messages.map(Array.init) == expected)
  var decoder = FrameDecoder(framing: framing)
  outbox.withWire { decoder.feed($0) }
  var framed: [[UInt8]] = []
  while let event = decoder.next() {
    guard case .message(let body) = event else {
      Issue.record("a broken frame: \(event)")
      return
    }
    framed.append(body)
  }
  #expect(decoder.finish() == nil)
  #expect(framed == expected)
}
