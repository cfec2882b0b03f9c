import JSONRPC
import Testing

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

private func message(_ text: String) -> FrameEvent { .message(bytes(text)) }

/// Feeds `chunks` one at a time, draining events after each, then `finish()`.
private func decode(
  _ chunks: [[UInt8]],
  framing: Framing? = nil,
  limits: FrameLimits = FrameLimits(),
  reading: Bool = false
) -> (events: [FrameEvent], finish: FrameError?, framing: Framing?) {
  var decoder = FrameDecoder(framing: framing, limits: limits)
  var events: [FrameEvent] = []
  for chunk in chunks {
    if reading {
      // As tagd reads its input: into room larger than what the read then writes.
      decoder.feed(reading: chunk.count + 5) { room in
        for byte in chunk { room.append(byte) }
      }
    } else {
      decoder.feed(chunk)
    }
    while let event = decoder.next() { events.append(event) }
  }
  let detected = decoder.framing
  return (events, decoder.finish(), detected)
}

private func decode(
  _ text: String,
  framing: Framing? = nil,
  limits: FrameLimits = FrameLimits()
)
  -> (events: [FrameEvent], finish: FrameError?, framing: Framing?)
{
  decode([bytes(text)], framing: framing, limits: limits)
}

private let body = #"{"jsonrpc":"2.0","method":"x"}"#
private let framed = "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"

@Test(
  arguments: [
    ("basic", framed, [message(body)]),
    ("empty body", "Content-Length: 0\r\n\r\n", [message("")]),
    ("casing", "CoNtEnT-LeNgTh: 2\r\n\r\n{}", [message("{}")]),
    ("no space after colon", "Content-Length:2\r\n\r\n{}", [message("{}")]),
    ("tabs and trailing spaces", "Content-Length:\t2 \t\r\n\r\n{}", [message("{}")]),
    ("bare newlines", "Content-Length: 2\n\n{}", [message("{}")]),
    ("extra header before", "X-Test: 1\r\nContent-Length: 2\r\n\r\n{}", [message("{}")]),
    (
      "vim content type after",
      "Content-Length: 2\r\nContent-Type: application/vim-jsonrpc; charset=utf-8\r\n\r\n{}",
      [message("{}")]
    ),
    (
      "duplicate length, last wins", "Content-Length: 10\r\nContent-Length: 2\r\n\r\n{}",
      [message("{}")]
    ),
    (
      "two messages", "Content-Length: 1\r\n\r\n1Content-Length: 1\r\n\r\n2",
      [message("1"), message("2")]
    ),
    (
      "blank lines between messages",
      "Content-Length: 1\r\n\r\n1\r\n\r\nContent-Length: 1\r\n\r\n2",
      [
        message("1"), message("2"),
      ]
    ),
    ("multi-byte UTF-8 counted in bytes", "Content-Length: 7\r\n\r\n\"é€\"", [message("\"é€\"")]),
    ("missing length", "X-Test: 1\r\n\r\n{}", [.error(.missingContentLength)]),
    (
      "negative length", "Content-Length: -1\r\n\r\n{}Content-Length: 1\r\n\r\n1",
      [.error(.invalidContentLength("-1")), message("1")]
    ),
    ("non-numeric length", "Content-Length: abc\r\n\r\n", [.error(.invalidContentLength("abc"))]),
    (
      "overflowing length", "Content-Length: 99999999999999999999\r\n\r\n",
      [.error(.invalidContentLength("99999999999999999999"))]
    ),
    ("empty length", "Content-Length:\r\n\r\n", [.error(.invalidContentLength(""))]),
    (
      "garbage before a header", "hello world\nmore junk\nContent-Length: 2\r\n\r\n{}",
      [.error(.malformedHeader("hello world")), message("{}")]
    ),
    (
      "garbage glued to a header", "Content-Length 2\r\n\r\n{}xxContent-Length: 1\r\n\r\n1",
      [.error(.malformedHeader("Content-Length 2")), message("1")]
    ),
    // A Content-Length counted in characters is too short: the body runs on past it, and the
    // next header, glued to the rest, is still found.
    (
      "length counted in characters", "Content-Length: 5\r\n\r\n\"é€\"Content-Length: 2\r\n\r\n{}",
      [.error(.lengthMismatch(declared: 5, valueEnd: nil)), message("{}")]
    ),
    // One too long swallows the start of the next header, which is read from where the JSON
    // value ended.
    (
      "length too long", "Content-Length: 4\r\n\r\n{}Content-Length: 2\r\n\r\n[]",
      [.error(.lengthMismatch(declared: 4, valueEnd: 2)), message("[]")]
    ),
    // A value followed by garbage inside a right length is a body that is not JSON (the
    // server answers it), not a length too long.
    (
      "value then garbage", "Content-Length: 4\r\n\r\n[1],Content-Length: 2\r\n\r\n{}",
      [message("[1],"), message("{}")]
    ),
    // A right length around text that is not JSON is the server's to answer, not a mismatch.
    (
      "right length, not JSON", "Content-Length: 3\r\n\r\n{x}Content-Length: 2\r\n\r\n{}",
      [message("{x}"), message("{}")]
    ),
    (
      "garbage after a right length",
      "Content-Length: 2\r\n\r\n{}]]Content-Length: 2\r\n\r\n{}",
      [message("{}"), .error(.malformedHeader("]]Content-Length: 2")), message("{}")]
    ),
  ] as [(String, String, [FrameEvent])]
)
func contentLength(_ name: String, _ input: String, _ expected: [FrameEvent]) {
  let result = decode(input, framing: .contentLength)
  #expect(result.events == expected, "\(name)")
  // Auto-detection agrees whenever the stream starts with the header.
  if input.first == "C" {
    #expect(decode(input).events == expected, "\(name), detected")
  }
}

@Test func dripFeedAndMassFeed() {
  let stream =
    framed + "content-length:2\n\n{}" + "Content-Length: 7\r\nContent-Type: x\r\n\r\n\"é€\""
  let expected = [message(body), message("{}"), message("\"é€\"")]
  let drip = decode(bytes(stream).map { [$0] })
  #expect(drip.events == expected)
  #expect(drip.finish == nil)
  let mass = decode(stream + stream + stream)
  #expect(mass.events == expected + expected + expected)
}

@Test func overLimitBodyIsSkippedAndTheNextMessageDecoded() {
  let limits = FrameLimits(maxMessageBytes: 8, maxHeaderBytes: 100)
  let big = String(repeating: "x", count: 20)
  let stream = "Content-Length: 20\r\n\r\n\(big)Content-Length: 2\r\n\r\n{}"
  let expected: [FrameEvent] = [.error(.messageTooLarge(size: 20, limit: 8)), message("{}")]
  #expect(decode(stream, limits: limits).events == expected)
  #expect(decode(bytes(stream).map { [$0] }, limits: limits).events == expected)
  // The header alone reports the error at once, before any body byte arrives.
  #expect(decode("Content-Length: 20\r\n\r\n", limits: limits).events == [expected[0]])
}

@Test func headerTooLongThenResynchronises() {
  let limits = FrameLimits(maxMessageBytes: 100, maxHeaderBytes: 32)
  let longLine = "X-Long: " + String(repeating: "a", count: 10_000)
  let stream = longLine + "\r\nContent-Length: 2\r\n\r\n{}"
  let expected: [FrameEvent] = [.error(.headerTooLong(limit: 32)), message("{}")]
  #expect(decode(stream, framing: .contentLength, limits: limits).events == expected)
  let chunks = stride(from: 0, to: stream.utf8.count, by: 7).map {
    Array(bytes(stream)[$0..<min($0 + 7, stream.utf8.count)])
  }
  #expect(decode(chunks, framing: .contentLength, limits: limits).events == expected)
}

@Test func endOfStreamLeftovers() {
  #expect(decode("Content-Length: 10\r\n\r\n{}").finish == .truncated(expected: 10, received: 2))
  #expect(
    decode("Content-Length: 10\r\n").finish
      == .malformedHeader("stream ended inside a header block")
  )
  #expect(decode(framed + "\r\n").finish == nil)
  #expect(decode("  \n").finish == nil)
  #expect(decode("{\"a\":1}").finish == .truncated(expected: 8, received: 7))
  #expect(decode("{}\n").finish == nil)
}

@Test(
  arguments: [
    ("lines", "{}\n[1]\n", [message("{}"), message("[1]")]),
    ("CRLF", "{}\r\n[1]\r\n", [message("{}"), message("[1]")]),
    ("blank lines", "\n\r\n  \n{}\n\t\n[1]\n", [message("{}"), message("[1]")]),
    ("multi-byte", "\"é€\"\n", [message("\"é€\"")]),
  ] as [(String, String, [FrameEvent])]
)
func newlineDelimited(_ name: String, _ input: String, _ expected: [FrameEvent]) {
  let result = decode(input)
  #expect(result.framing == .newlineDelimited)
  #expect(result.events == expected, "\(name)")
  #expect(decode(bytes(input).map { [$0] }).events == expected, "\(name), drip-fed")
}

@Test func overLongLinesAreSkipped() {
  let limits = FrameLimits(maxMessageBytes: 8, maxHeaderBytes: 100)
  let long = "[" + String(repeating: "1,", count: 50) + "1]"
  let stream = "{}\n\(long)\n[2]\n"
  let expected: [FrameEvent] = [
    message("{}"), .error(.messageTooLarge(size: nil, limit: 8)), message("[2]"),
  ]
  #expect(decode(stream, limits: limits).events == expected)
  #expect(decode(bytes(stream).map { [$0] }, limits: limits).events == expected)
}

@Test func autoDetection() {
  #expect(decode("  \r\n" + framed).framing == .contentLength)
  #expect(decode("  \r\n" + framed).events == [message(body)])
  #expect(decode("content-length: 2\r\n\r\n{}").framing == .contentLength)
  #expect(decode("[1]\n").framing == .newlineDelimited)
  #expect(decode("  ").framing == nil)
  #expect(decode("x").framing == .newlineDelimited)
}

@Test func encoderWritesCanonicalFrames() {
  var output: [UInt8] = []
  FrameEncoder.append(bytes("\"é\""), as: .contentLength, to: &output)
  FrameEncoder.append(bytes("{}"), as: .newlineDelimited, to: &output)
  #expect(output == bytes("Content-Length: 4\r\n\r\n\"é\"{}\n"))
  // And the decoder reads its own output back.
  var framedOutput: [UInt8] = []
  FrameEncoder.append(bytes(body), as: .contentLength, to: &framedOutput)
  #expect(decode([framedOutput]).events == [message(body)])
}

/// Bytes read straight into the buffer (``FrameDecoder/feed(reading:_:)``, how tagd reads
/// stdin) frame as bytes fed do: messages split anywhere, a body skipped over the limit, a
/// resynchronisation.
@Test func readFeed() {
  let limits = FrameLimits(maxMessageBytes: 40, maxHeaderBytes: 64)
  let stream = bytes(
    framed + "Content-Length: 50\r\n\r\n" + String(repeating: "x", count: 50) + framed
      + "X-Long: " + String(repeating: "a", count: 100) + "\r\n" + framed
  )
  for size in [1, 7, 64, stream.count] {
    let chunks = stride(from: 0, to: stream.count, by: size).map {
      Array(stream[$0..<min($0 + size, stream.count)])
    }
    let fed = decode(chunks, framing: .contentLength, limits: limits)
    let read = decode(chunks, framing: .contentLength, limits: limits, reading: true)
    #expect(read.events == fed.events)
    #expect(read.events.filter { $0 == message(body) }.count == 3)
  }
}

@Test func spanFeed() {
  var decoder = FrameDecoder()
  decoder.feed(bytes("{}\n").span)
  #expect(decoder.next() == message("{}"))
  #expect(decoder.next() == nil)
}

/// The header name matches in any case, and only letters fold: `-` and `:` must be themselves,
/// not the bytes that differ from them in bit 5 only (`\r` and `0x1A`), in every position.
@Test func headerNameFoldsLettersOnly() {
  let name = Array("content-length:".utf8)
  for index in name.indices {
    var bent = name
    bent[index] ^= 0x20
    let text = String(decoding: bent, as: UTF8.self) + " \(body.utf8.count)\r\n\r\n" + body
    let events = decode(text, framing: .contentLength).events
    let isLetter = name[index] >= UInt8(ascii: "a") && name[index] <= UInt8(ascii: "z")
    if isLetter {
      #expect(events == [message(body)], "\(text.debugDescription)")
    } else {
      #expect(!events.contains(message(body)), "\(text.debugDescription)")
    }
  }
}
