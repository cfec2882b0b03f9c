import TagTerminal
import Testing

/// Terminal bytes to keys, including sequences and characters split across reads.
@Suite struct KeyDecoderTests {
  /// Feeds `chunks` one at a time, collecting keys after each, then flushes.
  func keys(_ chunks: [String]) -> [TerminalKey] {
    var decoder = KeyDecoder()
    var keys: [TerminalKey] = []
    for chunk in chunks {
      decoder.feed(Array(chunk.utf8))
      while let key = decoder.next() { keys.append(key) }
    }
    return keys + decoder.flush()
  }

  @Test(arguments: [
    ("red", [TerminalKey.text("red")]),
    ("a\rb\n", [.text("a"), .enter, .text("b"), .enter]),
    ("\r\n", [.enter]),
    ("ab\u{7F}\u{8}", [.text("ab"), .backspace, .backspace]),
    ("\u{1B}[D\u{1B}[C\u{1B}OD\u{1B}[3~", [.left, .right, .left, .delete]),
    ("\u{1B}[1;5C\u{1B}[1;5Dz", [.text("z")]),
    ("\u{1B}[200~red, green\nblue\u{1B}[201~x", [.paste("red, green\nblue"), .text("x")]),
    ("\u{1B}\u{1B}", [.escape, .escape]),
    ("\u{3}\u{4}\t", [.interrupt, .endOfInput, .tab]),
    ("\u{1A}\u{19}\u{1B}[A\u{1B}[B\u{1B}OB", [.undo, .redo, .up, .down, .down]),
    ("\u{1B}[1;3D\u{1B}[1;3C", [.altLeft, .altRight]),
  ])
  func wholeInput(input: String, expected: [TerminalKey]) {
    #expect(keys([input]) == expected)
  }

  @Test func sequencesSplitAcrossReadsWait() {
    #expect(keys(["\u{1B}", "[", "D"]) == [.left])
    #expect(keys(["\u{1B}[20", "0~re", "d\u{1B}[2", "01~"]) == [.paste("red")])
  }

  @Test func utf8SplitAcrossReadsWaits() {
    let bytes = Array("é東".utf8)
    var decoder = KeyDecoder()
    decoder.feed(bytes[0..<1])
    #expect(decoder.next() == nil)
    decoder.feed(bytes[1..<3])
    #expect(decoder.next() == .text("é"))
    decoder.feed(bytes[3...])
    #expect(decoder.next() == .text("東"))
  }

  @Test func flushDecidesALoneEscapeAndAnUnfinishedPaste() {
    var decoder = KeyDecoder()
    decoder.feed(Array("\u{1B}".utf8))
    #expect(decoder.next() == nil)
    #expect(decoder.hasPending)
    #expect(decoder.flush() == [.escape])
    decoder.feed(Array("\u{1B}[200~abc".utf8))
    #expect(decoder.flush() == [.paste("abc")])
    #expect(!decoder.hasPending)
  }
}
