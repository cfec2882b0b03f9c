import TagTestSupport
import Testing

@testable import TagCore

/// `hasSameUTF8` and `hasUTF8Prefix` are byte comparisons, whichever way they are computed
/// (the word loop over spans, or `String` equality for long ASCII): checked against a plain
/// comparison of the bytes, on lengths around every word and chunk boundary.
@Test func utf8ComparisonsAreByteComparisons() {
  var random = SplitMix64(seed: 11)
  // ASCII with CR and LF (a CRLF is one Character, so a Character-wise test would differ),
  // and scalars outside ASCII, including a combining mark and a precomposed letter.
  let ascii = ["a", "b", "\r", "\n", "\r\n", "x"]
  let mixed = ascii + ["é", "e\u{301}", "中", "😀"]
  var checked = 0
  for alphabet in [ascii, mixed] {
    for _ in 0..<400 {
      let base = random.string(from: alphabet, maxLength: 160)
      let bytes = Array(base.utf8)
      // Every prefix length near the 8-byte words and the 64-byte switch, cut at a scalar.
      for cut in Set([0, 1, 7, 8, 9, 63, 64, 65, bytes.count / 2, bytes.count])
      where cut <= bytes.count {
        guard cut == bytes.count || bytes[cut] & 0xC0 != 0x80 else { continue }
        let prefix = String(decoding: bytes[..<cut], as: UTF8.self)
        #expect(base.hasUTF8Prefix(prefix), "\(base.debugDescription) / \(cut)")
        // The same prefix with its last byte changed is not one.
        if cut > 0, bytes[cut - 1] < 0x80 {
          var other = Array(bytes[..<cut])
          other[cut - 1] = other[cut - 1] == 0x61 ? 0x62 : 0x61
          let changed = String(decoding: other, as: UTF8.self)
          #expect(!base.hasUTF8Prefix(changed), "\(base.debugDescription) / \(cut)")
          #expect(base.hasSameUTF8(as: changed) == false)
        }
        #expect(base.hasSameUTF8(as: prefix) == (cut == bytes.count))
        checked += 1
      }
    }
  }
  #expect(checked > 2000)
}

/// A Character-wise comparison would say no here: the prefix ends inside a CRLF.
@Test func aPrefixMayEndInsideACharacter() {
  let long = String(repeating: "tag ", count: 20)
  #expect((long + "\r\n").hasUTF8Prefix(long + "\r"))
  #expect(("ab\r\n").hasUTF8Prefix("ab\r"))
  #expect(("e\u{301}").hasUTF8Prefix("e"))
  // Canonically equivalent but spelt differently: not the same bytes.
  #expect(!"\u{E9}".hasSameUTF8(as: "e\u{301}"))
}

/// The word-at-a-time line-break search stops exactly where a byte-by-byte search stops, with
/// tabs and other control bytes (which share its first test) in every lane.
@Test func lineBreakSearchMatchesAByteByByteSearch() {
  var random = SplitMix64(seed: 45)
  let alphabet: [UInt8] = [0x0A, 0x0D, 0x09, 0x0B, 0x0C, 0x00, 0x0E, 0x20, 0x61, 0x8A, 0xC3, 0xFF]
  for _ in 0..<5_000 {
    let count = Int.random(in: 0...40, using: &random)
    let bytes = (0..<count).map { _ in
      Int.random(in: 0..<3, using: &random) == 0
        ? alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
        : UInt8(ascii: "x")
    }
    let start = Int.random(in: 0...count, using: &random)
    let naive = bytes[start...].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? count
    #expect(bytes.span.firstLineBreak(from: start) == naive, "\(bytes) from \(start)")
  }
}

/// Where a line starts after some breaks, found in one span, is what walking the lines one by
/// one gives, with LF, CRLF (also split across words) and CR.
@Test func lineStartAfterBreaksMatchesWalkingTheLines() {
  var random = SplitMix64(seed: 47)
  let pieces: [[UInt8]] = [
    [0x0A], [0x0D], [0x0D, 0x0A], [0x09], [0x61], [0x62, 0x63], [0xC3, 0xA9],
  ]
  for _ in 0..<3_000 {
    let count = Int.random(in: 0...40, using: &random)
    let bytes = (0..<count).flatMap { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)]
    }
    let lines = Int.random(in: 0...12, using: &random)
    var walked: Int? = 0
    for _ in 0..<lines {
      guard var at = walked else { break }
      while at < bytes.count, bytes[at] != 0x0A, bytes[at] != 0x0D { at += 1 }
      guard at < bytes.count else {
        walked = nil
        break
      }
      at += bytes[at] == 0x0D && at + 1 < bytes.count && bytes[at + 1] == 0x0A ? 2 : 1
      walked = at
    }
    #expect(bytes.span.start(afterLineBreaks: lines, from: 0) == walked, "\(bytes) after \(lines)")
  }
}

/// `Span.text()` makes small strings (up to 15 bytes) and large ones two ways: both give the
/// bytes back when they are valid and repair them when not.
@Test func spanTextRoundTripsAndRepairs() {
  for length in 0...40 {
    let text = String(repeating: "é", count: length / 2) + (length % 2 == 1 ? "a" : "")
    let bytes = Array(text.utf8)
    #expect(bytes.span.text() == text)
    let broken = bytes + [0xFF]
    #expect(broken.span.text() == String(decoding: broken, as: UTF8.self))
    #expect(broken.span.text().hasSuffix("\u{FFFD}"))
  }
}
