import Testing

@testable import TagServer

/// `TagCompletionSpot.canHold`'s ASCII shortcut answers as the Unicode properties do.
@Suite struct CompletionSpotTests {
  /// Every ASCII scalar: the shortcut's letters and digits are exactly the alphabetic ones and
  /// the decimal digits.
  @Test func asciiLettersAndDigitsAreThePropertiesOnes() {
    for value in UInt8(0)...0x7F {
      let scalar = Unicode.Scalar(value)
      let properties = scalar.properties
      #expect(
        TagCompletionSpot.isASCIILetterOrDigit(scalar)
          == (properties.isAlphabetic || properties.numericType == .decimal),
        "U+\(String(value, radix: 16))"
      )
      #expect(properties.generalCategory != .nonspacingMark)
    }
  }

  /// Tags with and without non-ASCII letters, marks, digits and punctuation, in an Org group and
  /// after `#`.
  @Test(arguments: [
    ("work", true, true), ("Work_2", true, true), ("a-b", false, true), ("a/b", false, true),
    ("a@b", true, false), ("a%b", true, false), ("a b", false, false), ("a.b", false, false),
    ("café", true, true), ("cafe\u{301}", false, true), ("١٢", false, true), ("x:y", false, false),
  ])
  func canHold(tag: String, org: Bool, inline: Bool) {
    #expect(TagCompletionSpot(start: 0, flavor: .org).canHold(tag) == org)
    #expect(TagCompletionSpot(start: 0, flavor: .inline).canHold(tag) == inline)
  }
}
