import JSONRPC
import TagCore
import TagProtocol
import Testing

@testable import TagServer

/// The `field/change` reply written from the session in place (`FieldSession.writeState`) is
/// byte for byte the `FieldStateResult` the other requests make and write, whatever the
/// outcome holds: tags added, dropped and removed, a selection, undo and redo, flagged tags,
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
    var inPlace = JSONWriter()
    session.writeState(outcome, to: &inPlace)
    var made = JSONWriter()
    session.state(outcome).write(to: &made)
    #expect(text(inPlace) == text(made), "after \(event)")
    compared += 1
  }
  // Flagged tags: rules that the tags now break.
  var rules = FieldRules()
  rules.maxTags = 1
  let outcome = session.setOptions(FieldOptions(rules: rules), config: ServerConfig())
  var inPlace = JSONWriter()
  session.writeState(outcome, to: &inPlace)
  var made = JSONWriter()
  session.state(outcome).write(to: &made)
  #expect(text(inPlace) == text(made))
  #expect(text(made).contains("\"flagged\""))
  #expect(compared == events.count)
}

private func text(_ w: borrowing JSONWriter) -> String { String(decoding: w.bytes, as: UTF8.self) }
