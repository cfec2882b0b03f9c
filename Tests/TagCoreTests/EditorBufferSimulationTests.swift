import TagCore
import TagTestSupport
import Testing

/// The sync guarantee with the SPEC §6 operations, checked on the core alone: a model client
/// types while the server edits the draft (edit a tag, undo, redo, Backspace modes), messages in
/// both directions are delayed at random, and the end state must equal slow typing.
///
/// (Tests/TagServerTests/SyncSimulationTests checks the same over the real server and JSON.)
///
/// `field/select` is left out: which chip is selected is state the user sees, like the draft, but
/// it does not live in the buffer, so a key pressed before the update that shows a selection
/// arrives acts on the text (Protocol/sync.md, "Selection"). Backspace mode `select` is covered:
/// its selection only arises, and is only used, on an empty buffer.
@Suite struct EditorBufferSimulationTests {
  enum Key: Hashable, CustomStringConvertible {
    case type(String)
    case backspace
    case enter
    case undo
    case redo
    case edit(Int)
    case move(Int, Int)
    case remove(Int)
    case select(Int?)

    var description: String {
      switch self {
      case .type(let text): "type(\(text.debugDescription))"
      case .backspace: "bs"
      case .enter: "enter"
      case .undo: "undo"
      case .redo: "redo"
      case .edit(let i): "edit(\(i))"
      case .move(let a, let b): "move(\(a),\(b))"
      case .remove(let i): "remove(\(i))"
      case .select(let i): "select(\(i.map(String.init) ?? "nil"))"
      }
    }
  }

  /// The field event a request key means, given the field as it is when the request arrives.
  static func event(_ key: Key, _ field: TagField) -> FieldEvent? {
    switch key {
    case .type, .backspace: nil
    case .enter: .submitted
    case .undo: .undo
    case .redo: .redo
    case .edit(let i): field.tags.indices.contains(i) ? .tagEdited(at: i) : nil
    case .move(let a, let b): .tagMoved(from: a, to: b)
    case .remove(let i): .tagRemoved(at: i)
    case .select(let i): .selected(i)
    }
  }

  /// Slow typing: every key reaches a buffer that holds exactly the draft.
  static func slow(_ keys: [Key], _ rules: FieldRules) -> TagField {
    var field = TagField(rules: rules)
    for key in keys {
      switch key {
      case .type(let text): _ = field.apply(.draftChanged(field.draft + text))
      case .backspace:
        if field.draft.isEmpty || field.selected != nil {
          _ = field.apply(.deletedBackward)
        } else {
          _ = field.apply(.draftChanged(String(field.draft.dropLast())))
        }
      default:
        if let event = event(key, field) { _ = field.apply(event) }
      }
    }
    return field
  }

  enum ToServer {
    case change(version: Int, edits: [TextEdit], applied: Int?)
    case request(Key)
  }

  struct Update {
    var version: Int
    var edits: [TextEdit]
  }

  struct Run {
    var field: TagField
    var mirror = EditorBuffer(text: "", version: 0)
    var buffer = ""
    var version = 0
    var toServer: [ToServer] = []
    var toClient: [Update] = []
    var problems: [String] = []

    /// How the model editor reports its typing: ranged edits, or its whole text (Protocol/sync.md,
    /// "Range-less changes"), with or without the caret.
    var reporting = Reporting.ranges

    enum Reporting: CaseIterable {
      case ranges
      case wholeTextWithCaret
      case wholeText
    }

    init(rules: FieldRules) { field = TagField(rules: rules) }

    /// The change that took the buffer to its current text, as ``reporting`` says.
    func whole(_ edit: TextEdit) -> [TextEdit] {
      switch reporting {
      case .ranges: return [edit]
      case .wholeText: return [TextEdit(range: nil, newText: buffer)]
      case .wholeTextWithCaret:
        let caret = TextOffsets.position(of: buffer.endIndex, in: buffer, encoding: .utf16)
        return [TextEdit(range: nil, newText: buffer, caret: caret)]
      }
    }

    mutating func press(_ key: Key) {
      switch key {
      case .type(let text) where reporting != .ranges:
        buffer += text
        version += 1
        toServer.append(
          .change(version: version, edits: whole(TextEdit(range: nil, newText: "")), applied: nil)
        )
      case .backspace where reporting != .ranges && !buffer.isEmpty:
        buffer.removeLast()
        version += 1
        toServer.append(
          .change(version: version, edits: whole(TextEdit(range: nil, newText: "")), applied: nil)
        )
      case .type(let text):
        let end = TextOffsets.position(of: buffer.endIndex, in: buffer, encoding: .utf16)
        buffer += text
        version += 1
        toServer.append(
          .change(
            version: version,
            edits: [TextEdit(range: TextRange(start: end, end: end), newText: text)],
            applied: nil
          )
        )
      case .backspace:
        guard let last = buffer.indices.last else {
          toServer.append(.request(.backspace))
          return
        }
        let range = TextRange(
          start: TextOffsets.position(of: last, in: buffer, encoding: .utf16),
          end: TextOffsets.position(of: buffer.endIndex, in: buffer, encoding: .utf16)
        )
        buffer.removeLast()
        version += 1
        toServer.append(
          .change(version: version, edits: [TextEdit(range: range, newText: "")], applied: nil)
        )
      default:
        toServer.append(.request(key))
      }
    }

    mutating func serve() {
      let message = toServer.removeFirst()
      let outcome: FieldOutcome
      switch message {
      case .change(let version, let edits, let applied):
        do {
          outcome = try mirror.clientChanged(
            version: version,
            edits: TextEdits(edits),
            encoding: .utf16,
            applied: applied != nil,
            field: &field
          )
        } catch {
          problems.append("change \(version) refused: \(error)")
          return
        }
      case .request(let key):
        let event: FieldEvent? =
          key == .backspace ? .deletedBackward : EditorBufferSimulationTests.event(key, field)
        guard let event else { return }
        outcome = mirror.apply(event, to: &field)
      }
      if !outcome.isEmpty || mirror.hasPendingEdits {
        toClient.append(
          Update(version: mirror.version, edits: mirror.pendingEdits(encoding: .utf16))
        )
      }
    }

    mutating func receive() {
      let update = toClient.removeFirst()
      guard update.version == version, !update.edits.isEmpty else { return }
      do {
        buffer = try TextOffsets.apply(update.edits, to: buffer, encoding: .utf16)
      } catch {
        problems.append("update does not fit: \(error)")
        return
      }
      version += 1
      toServer.append(.change(version: version, edits: update.edits, applied: update.version))
    }
  }

  static func randomKeys(_ random: inout SplitMix64) -> [Key] {
    let letters = ["a", "b", "R", "é", "e\u{301}", "漢", "😀", " ", "ss", "ß"]
    let pastes = ["red, green,blue", "a,,b\n c", "x\ny,", " , ", "😀,😀\n"]
    return (0..<Int.random(in: 1...40, using: &random)).map { _ in
      switch Int.random(in: 0..<100, using: &random) {
      case 0..<40: .type(letters[Int.random(in: 0..<letters.count, using: &random)])
      case 40..<50: .type(",")
      case 50..<55: .type(pastes[Int.random(in: 0..<pastes.count, using: &random)])
      case 55..<70: .backspace
      case 70..<75: .enter
      case 75..<82: .undo
      case 82..<86: .redo
      case 86..<92: .edit(Int.random(in: 0..<4, using: &random))
      case 92..<95:
        .move(Int.random(in: 0..<4, using: &random), Int.random(in: 0..<4, using: &random))
      default: .remove(Int.random(in: 0..<4, using: &random))
      }
    }
  }

  /// nil when the run matches slow typing, else a description.
  static func simulate(seed: UInt64) -> String? {
    var random = SplitMix64(seed: seed)
    let keys = randomKeys(&random)
    guard let failure = simulate(keys, seed: seed) else { return nil }
    // Shrink: drop keys while the run still fails, for a readable report.
    var shrunk = keys
    var index = 0
    while index < shrunk.count {
      var fewer = shrunk
      fewer.remove(at: index)
      if simulate(fewer, seed: seed) != nil { shrunk = fewer } else { index += 1 }
    }
    return failure + "\n  shrunk: " + (simulate(shrunk, seed: seed) ?? "")
  }

  static func simulate(_ keys: [Key], seed: UInt64) -> String? {
    var random = SplitMix64(seed: seed &* 31)
    let modes = BackspaceMode.allCases
    let rules = FieldRules(backspace: modes[Int(seed % 3)])
    var run = Run(rules: rules)
    run.reporting = Run.Reporting.allCases[Int(seed / 3 % 3)]
    var next = 0
    while next < keys.count || !run.toServer.isEmpty || !run.toClient.isEmpty {
      switch Int.random(in: 0..<3, using: &random) {
      case 0 where next < keys.count:
        run.press(keys[next])
        next += 1
      case 1 where !run.toServer.isEmpty: run.serve()
      case 2 where !run.toClient.isEmpty: run.receive()
      default:
        if !run.toServer.isEmpty {
          run.serve()
        } else if !run.toClient.isEmpty {
          run.receive()
        } else if next < keys.count {
          run.press(keys[next])
          next += 1
        }
      }
    }
    let expected = slow(keys, rules)
    let same =
      run.field.tags == expected.tags && run.field.draft == expected.draft
      && run.buffer == expected.draft && run.field.selected == expected.selected
      && run.problems.isEmpty
    return same
      ? nil
      : """
      seed \(seed) mode \(rules.backspace) reporting \(run.reporting) keys \(keys)
        got tags \(run.field.tags) draft \(run.field.draft.debugDescription) buffer \(run.buffer.debugDescription) problems \(run.problems)
        want tags \(expected.tags) draft \(expected.draft.debugDescription)
      """
  }

  @Test func randomRunsMatchSlowTyping() {
    var failures: [String] = []
    for seed in 1...UInt64(simulationRuns) {
      if let failure = Self.simulate(seed: seed) {
        failures.append(failure)
        if failures.count >= 3 { break }
      }
    }
    for failure in failures { print(failure) }
    #expect(failures.isEmpty)
  }
}
