import TagTestSupport
import Testing

@testable import TagCore

/// `FieldText.Pieces.bound`, the count a large paste makes room by, counts every byte that may
/// end a piece: eight bytes a step for the default separators, byte by byte otherwise.
@Suite struct SeparatorCountTests {
  @Test(arguments: [
    Set<Unicode.Scalar>([",", "\n"]), [",", ";", "\t", "|"], [",", "、"], ["\r"],
  ])
  func theBoundCountsEveryByteThatMayEndAPiece(_ separators: Set<Unicode.Scalar>) {
    let table = FieldText.Separators(separators)
    var ends = Set(separators.filter(\.isASCII).map { UInt8($0.value) })
    if separators.contains("\n") { ends.insert(0x0D) }
    let leads = Set(separators.filter { !$0.isASCII }.compactMap(\.utf8.first))
    let alphabet = [
      "a", "Z", ",", "\n", "\r", "\r\n", ";", "\t", "|", " ", "é", "、", "😀", "\u{7F}",
    ]
    var random = SplitMix64(seed: 33)
    for length in 0..<80 {
      let text = (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
        .joined()
      let expected = text.utf8.count { ends.contains($0) || leads.contains($0) }
      #expect(FieldText.Pieces.bound(text.utf8.span, table) == expected, "\(text.debugDescription)")
    }
  }
}
