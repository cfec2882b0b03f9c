import JSONRPC
import TagTestSupport
import Testing

/// How a replay frames its input: each framing, forced by flag or detected from the first byte.
enum FramingMode: String, CaseIterable, Sendable {
  case contentLengthDetected, contentLengthForced, ndjsonDetected, ndjsonForced

  var framing: Framing {
    switch self {
    case .contentLengthDetected, .contentLengthForced: .contentLength
    case .ndjsonDetected, .ndjsonForced: .newlineDelimited
    }
  }

  var arguments: [String] {
    switch self {
    case .contentLengthDetected, .ndjsonDetected: ["--stdio"]
    case .contentLengthForced, .ndjsonForced: ["--framing=\(framing.rawValue)"]
    }
  }
}

/// The Protocol/ transcripts replayed against the real binary over pipes, in both framings,
/// so the documentation cannot drift from behaviour.
@Suite struct TranscriptEndToEndTests {
  static let transcripts: [Transcript] = (try? Files.transcripts()) ?? []

  @Test(arguments: transcripts.map(\.name), FramingMode.allCases)
  func replay(name: String, mode: FramingMode) throws {
    let transcript = try #require(Self.transcripts.first { $0.name == name })
    let run =
      transcript.stepwise
      ? try stepwise(transcript, framing: mode.framing, arguments: mode.arguments)
      : try session(transcript.sends, framing: mode.framing, arguments: mode.arguments)
    #expect(run.replies.count == transcript.expectedReplies.count, "reply count of \(name)")
    for (i, (got, want)) in zip(run.replies, transcript.expectedReplies).enumerated() {
      #expect(want.matches(got), "\(name) reply \(i + 1):\n got  \(got)\n want \(want)")
    }
    #expect(isOnlyFrames(run.stdout, framing: mode.framing), "stdout carries frames only")
    if let expected = transcript.expectedExit {
      #expect(run.status == expected, "exit status of \(name)")
    }
  }
}

/// Runs a transcript that serves a vault: each message is sent once the replies to the ones
/// before it have arrived (an upper bound of 10 seconds each, never asserted as a time).
func stepwise(
  _ transcript: Transcript,
  framing: Framing,
  arguments: [String]
) throws -> (replies: [String], status: Int32?, stderr: String, stdout: [UInt8]) {
  let child = try spawnTagd(arguments)
  var expected = 0
  for (body, count) in zip(transcript.sends, transcript.replyCounts) {
    child.write(frame(body, framing))
    expected += count
    _ = child.waitFor { splitFrames($0, framing: framing).count >= expected }
  }
  let status = child.finish()
  let replies = splitFrames(child.stdout, framing: framing)
  return (replies, status, String(decoding: child.stderr, as: UTF8.self), child.stdout)
}
