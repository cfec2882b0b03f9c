/// One thing the user did at the keyboard: a keystroke, a burst of typed text, or a paste.
public enum TerminalKey: Hashable, Sendable {
  /// Printable characters typed (a fast burst may hold several).
  case text(String)
  /// The contents of one bracketed paste (`ESC [200~` … `ESC [201~`), separators included.
  case paste(String)
  /// Return or Enter.
  case enter
  /// Backspace (DEL or Ctrl-H).
  case backspace
  /// The forward Delete key (`ESC [3~`).
  case delete
  /// The left arrow.
  case left
  /// The right arrow.
  case right
  /// The up arrow.
  case up
  /// The down arrow.
  case down
  /// Alt-Left (`ESC [1;3D`).
  case altLeft
  /// Alt-Right (`ESC [1;3C`).
  case altRight
  /// Tab.
  case tab
  /// Ctrl-Z (raw mode turns it into a byte instead of SIGTSTP).
  case undo
  /// Ctrl-Y.
  case redo
  /// A lone Escape.
  case escape
  /// Ctrl-C (raw mode turns it into a byte instead of SIGINT).
  case interrupt
  /// Ctrl-D.
  case endOfInput
}

/// Turns the bytes a terminal sends into ``TerminalKey``s; a pure state machine.
///
/// Escape sequences and UTF-8 characters may arrive split across reads: an incomplete tail stays
/// buffered until more bytes come, or until ``flush()`` (called when the input pauses or ends)
/// decides that a lone `ESC` was the Escape key.
public struct KeyDecoder: Sendable {
  private var buffer: [UInt8] = []
  private var pasting = false

  private static let pasteStart: [UInt8] = Array("\u{1B}[200~".utf8)
  private static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

  /// Creates a decoder with nothing buffered.
  public init() {}

  /// Whether bytes are buffered that do not make a whole key yet.
  public var hasPending: Bool { !buffer.isEmpty || pasting }

  /// Appends bytes read from the terminal.
  public mutating func feed(_ bytes: some Sequence<UInt8>) {
    buffer.append(contentsOf: bytes)
  }

  /// The next complete key, or nil when the buffer is empty or ends inside a sequence.
  public mutating func next() -> TerminalKey? {
    while true {
      if pasting { return nextPaste() }
      guard let first = buffer.first else { return nil }
      switch first {
      case 0x1B:
        guard let step = escapeSequence() else { return nil }
        if let key = step { return key }
      case 0x0D:
        buffer.removeFirst(buffer.count > 1 && buffer[1] == 0x0A ? 2 : 1)
        return .enter
      case 0x0A:
        buffer.removeFirst()
        return .enter
      case 0x7F, 0x08:
        buffer.removeFirst()
        return .backspace
      case 0x03:
        buffer.removeFirst()
        return .interrupt
      case 0x04:
        buffer.removeFirst()
        return .endOfInput
      case 0x09:
        buffer.removeFirst()
        return .tab
      case 0x1A:
        buffer.removeFirst()
        return .undo
      case 0x19:
        buffer.removeFirst()
        return .redo
      case 0..<0x20:
        buffer.removeFirst()  // other control keys do nothing here
      default:
        return printableRun(final: false)
      }
    }
  }

  /// Decides what buffered bytes mean now that no more are coming soon: a lone `ESC` is Escape,
  /// an unfinished paste is pasted as it stands, a truncated UTF-8 tail becomes U+FFFD.
  public mutating func flush() -> [TerminalKey] {
    var keys: [TerminalKey] = []
    while let key = next() { keys.append(key) }
    if pasting {
      pasting = false
      keys.append(.paste(String(decoding: buffer, as: UTF8.self)))
      buffer.removeAll()
    }
    while let first = buffer.first {
      if first == 0x1B {
        buffer.removeFirst()
        if buffer.first == 0x5B || buffer.first == 0x4F {
          buffer.removeAll()  // an escape sequence cut short: drop it
        } else {
          keys.append(.escape)
        }
      } else if let key = printableRun(final: true) {
        keys.append(key)
      } else {
        buffer.removeFirst()
      }
      while let key = next() { keys.append(key) }
    }
    return keys
  }

  // MARK: Private

  /// Decodes the escape sequence at the start of the buffer.
  ///
  /// Returns nil when it is incomplete, `.some(nil)` when it was consumed without a key
  /// (unknown sequences, the start of a paste), `.some(key)` otherwise.
  private mutating func escapeSequence() -> TerminalKey?? {
    guard buffer.count >= 2 else { return nil }
    switch buffer[1] {
    case 0x5B:  // CSI: parameters, then one final byte in 0x40...0x7E
      guard let end = buffer.dropFirst(2).firstIndex(where: { (0x40...0x7E).contains($0) }) else {
        return nil
      }
      let body = Array(buffer[2...end])
      buffer.removeFirst(end + 1)
      switch String(decoding: body, as: UTF8.self) {
      case "D": return .some(.left)
      case "C": return .some(.right)
      case "A": return .some(.up)
      case "B": return .some(.down)
      case "1;3D": return .some(.altLeft)
      case "1;3C": return .some(.altRight)
      case "3~": return .some(.delete)
      case "200~":
        pasting = true
        return .some(nil)
      default: return .some(nil)
      }
    case 0x4F:  // SS3: application-mode arrows
      guard buffer.count >= 3 else { return nil }
      let final = buffer[2]
      buffer.removeFirst(3)
      switch final {
      case 0x44: return .some(.left)
      case 0x43: return .some(.right)
      case 0x41: return .some(.up)
      case 0x42: return .some(.down)
      default: return .some(nil)
      }
    default:
      buffer.removeFirst()
      return .some(.escape)
    }
  }

  /// The paste if its end marker has arrived.
  private mutating func nextPaste() -> TerminalKey? {
    guard let end = find(Self.pasteEnd) else { return nil }
    let text = String(decoding: buffer[..<end], as: UTF8.self)
    buffer.removeFirst(end + Self.pasteEnd.count)
    pasting = false
    return .paste(text)
  }

  /// A run of printable bytes, cut before a UTF-8 character that has not fully arrived
  /// (unless `final`).
  private mutating func printableRun(final: Bool) -> TerminalKey? {
    var end = buffer.firstIndex(where: { $0 < 0x20 || $0 == 0x7F }) ?? buffer.count
    if !final, end == buffer.count, let lead = buffer.lastIndex(where: { $0 & 0xC0 != 0x80 }) {
      let byte = buffer[lead]
      let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
      if lead + length > buffer.count { end = lead }
    }
    guard end > 0 else { return nil }
    let text = String(decoding: buffer[..<end], as: UTF8.self)
    buffer.removeFirst(end)
    return .text(text)
  }

  private func find(_ needle: [UInt8]) -> Int? {
    guard buffer.count >= needle.count else { return nil }
    for start in 0...(buffer.count - needle.count)
    where buffer[start..<start + needle.count].elementsEqual(needle) {
      return start
    }
    return nil
  }
}
