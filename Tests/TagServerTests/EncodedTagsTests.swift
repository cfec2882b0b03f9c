import JSONRPC
import TagCore
import TagTestSupport
import Testing

@testable import TagProtocol

/// A FieldState written with the session's kept tags text (whole, and its tail reused for
/// `added`) is byte for byte what writing every tag gives, for tags that need escapes too.
@Test func statesWrittenFromKeptTagsTextMatchPlainWriting() {
  var random = SplitMix64(seed: 42)
  let pieces = ["a", "tag", "\"q\"", "back\\slash", "é", "😀", "\\\"", "x,y", "new\nline", "\u{01}"]
  for _ in 0..<300 {
    let count = Int(random.next() % 40)
    let tags = (0..<count).map { index in
      pieces[Int(random.next() % UInt64(pieces.count))] + "\(index)"
    }
    // Added: a tail of the tags (of every length), or tags that are not the tail.
    let split = count == 0 ? 0 : Int(random.next() % UInt64(count + 1))
    var added = Array(tags[split...])
    if random.next() % 4 == 0, !added.isEmpty { added[0] += "!" }
    let outcome = FieldOutcome(added: added, removed: [], dropped: [])
    func written(_ encoded: EncodedTags?) -> String {
      var w = JSONWriter()
      FieldStateResult(
        field: "f",
        version: 3,
        tags: tags,
        text: "t",
        prompt: "p",
        outcome: outcome,
        encodedTags: encoded
      ).write(to: &w)
      return String(decoding: w.bytes, as: UTF8.self)
    }
    let plain = written(nil)
    #expect(written(EncodedTags(tags)) == plain, "\(tags) \(added)")
    // Text kept for other tags (another array) is never used.
    #expect(written(EncodedTags(tags.map { $0 + "?" })) == plain)
    #expect((try? JSONReader.parse(Array(plain.utf8))) != nil)
  }
}
