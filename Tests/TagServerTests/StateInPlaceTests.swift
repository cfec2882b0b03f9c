import JSONRPC
import TagCore
import TagProtocol
import Testing

@testable import TagServer

/// The `field/change` response written from the session in place (`FieldSession.writeReply`)
/// is byte for byte the response carrying the `FieldStateResult` the other requests make and
/// write, whatever the outcome holds: tags added, dropped and removed, a selection, undo and redo, flagged tags,
/// a kept tags text or a fresh one.
@Test func stateWrittenInPlaceMatchesTheResultWritten() {
  var session = FieldSession(
    id: "f\"1",
    options: FieldOptions(prompt: "Add a \"tag\""),
    config: ServerConfig(),
    language: .de
  )
  let events: [FieldEvent] = [
    .draftChanged("a"), .draftChanged("alpha,"), .tagsAdded(["b", "b", "", "c\u{1}", "😀"]),
    .selected(1), .draftChanged("x"), .deletedBackward, .undo, .redo, .tagRemoved(at: 0),
    .tagMoved(from: 0, to: 2), .tagReplaced(at: 0, with: "z"), .tagEdited(at: 1), .submitted,
    .draftChanged("alpha, beta,"), .blurred,
  ]
  var compared = 0
  for event in events {
    guard let outcome = try? session.change(.event(event), limit: .max, encoding: .utf16) else {
      continue
    }
    #expect(inPlace(&session, outcome) == made(&session, outcome), "after \(event)")
    compared += 1
  }
  // Flagged tags: rules that the tags now break.
  var rules = FieldRules()
  rules.maxTags = 1
  let outcome = session.setOptions(FieldOptions(rules: rules), config: ServerConfig())
  #expect(inPlace(&session, outcome) == made(&session, outcome))
  #expect(made(&session, outcome).contains("\"flagged\""))
  #expect(compared == events.count)
}

/// The response written in place.
private func inPlace(_ session: inout FieldSession, _ outcome: FieldOutcome) -> String {
  var w = JSONWriter()
  session.writeReply(id: .integer(12), outcome, to: &w)
  return String(decoding: w.bytes, as: UTF8.self)
}

/// The response written from the result made.
private func made(_ session: inout FieldSession, _ outcome: FieldOutcome) -> String {
  var w = JSONWriter()
  let result = session.state(outcome)
  w.response(id: .integer(12)) { result.write(to: &$0) }
  return String(decoding: w.bytes, as: UTF8.self)
}

/// A `field/setOptions` that changes the prompt shows it in the next reply, though the tags did
/// not change: the prompt is written with the tags' kept text (`EncodedTags` after the head),
/// and that text is forgotten with the old prompt.
@Test func aNewPromptIsInTheNextReply() throws {
  var session = FieldSession(
    id: "f",
    options: FieldOptions(prompt: "Old prompt"),
    config: ServerConfig(),
    language: .en
  )
  var outcome = try session.change(.event(.draftChanged("a,")), limit: .max, encoding: .utf16)
  #expect(inPlace(&session, outcome).contains(#""prompt":"Old prompt""#))
  _ = session.setOptions(FieldOptions(prompt: "New prompt"), config: ServerConfig())
  outcome = try session.change(.event(.draftChanged("b")), limit: .max, encoding: .utf16)
  let reply = inPlace(&session, outcome)
  #expect(reply.contains(#""prompt":"New prompt""#) && !reply.contains("Old prompt"), "\(reply)")
}
