import TagCore
import Testing

@Suite struct CaselessKeyTests {
  /// SPEC §1 equality examples and a few more: full case folding plus canonical equivalence.
  @Test(arguments: [
    ("Straße", "STRASSE"),
    ("straße", "strasse"),
    ("é", "e\u{301}"),
    ("É", "e\u{301}"),
    ("ﬁ", "FI"),
    ("ﬁ", "fi"),
    ("Σ", "ς"),
    ("Σ", "σ"),
    ("ς", "σ"),
    ("RED", "red"),
    ("Red Green", "rED gREEN"),
    ("ſ", "s"),
    ("\u{212A}", "k"),  // Kelvin sign
    ("ẞ", "ß"),  // capital sharp s
    ("ẞ", "SS"),
    ("ıI", "ıi"),  // dotless i is kept, the rest still folds
    ("Iı", "iı"),
    ("ǅ", "ǆ"),
    ("ꭰ", "Ꭰ"),  // Cherokee
    ("\u{1FB3}", "ΑΙ"),  // alpha with ypogegrammeni
    ("", ""),
  ])
  func equalKeys(lhs: String, rhs: String) {
    #expect(CaselessKey(lhs) == CaselessKey(rhs))
    #expect(CaselessKey(lhs).hashValue == CaselessKey(rhs).hashValue)
  }

  @Test(arguments: [
    ("İ", "i"),  // Turkish dotted capital I is not plain i (locale-independent)
    ("ı", "i"),  // Turkish dotless i has no case folding: not plain i
    ("ı", "I"),
    ("ıı", "ii"),
    ("é", "e"),
    ("red", "red "),
    ("a", "b"),
    ("ss", "s"),
  ])
  func differentKeys(lhs: String, rhs: String) {
    #expect(CaselessKey(lhs) != CaselessKey(rhs))
  }

  /// Outside ASCII the fold is the standard mappings, except that `ı` is left alone.
  @Test(arguments: ["é", "Straße", "ΟΔΟΣ", "ﬁ", "İ", "日本", "😀A"])
  func unicodeFoldMatchesTheMappings(text: String) {
    #expect(CaselessKey(text).folded == text.lowercased().uppercased().lowercased())
  }

  @Test func dotlessIIsKept() {
    #expect(Array(CaselessKey("ıA\u{131}").folded.unicodeScalars) == ["\u{131}", "a", "\u{131}"])
  }

  /// Checks that the ASCII fast path agrees with the general fold.
  @Test(arguments: [
    "", "a", "Z", "Hello, World!", "@[`{", "MiXeD-case_123", "\t\n\r ~",
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
  ])
  func asciiFastPathMatchesGeneralFold(text: String) {
    #expect(CaselessKey(text).folded == text.uppercased().lowercased())
  }

  @Test func everyASCIIByteFoldsLikeTheGeneralFold() {
    for byte in UInt8(0)..<0x80 {
      let text = String(decoding: [byte, 0x41, byte], as: UTF8.self)
      #expect(CaselessKey(text).folded == text.uppercased().lowercased())
    }
  }
}
