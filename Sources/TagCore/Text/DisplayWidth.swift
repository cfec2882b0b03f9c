import Shortcuts

/// Terminal display width of text in character cells, for front ends that lay out in cells.
///
/// Wide and fullwidth East Asian characters and emoji take 2 cells, combining marks and other
/// zero-width characters 0, everything else 1. Counted per grapheme cluster.
///
/// The rules for one grapheme cluster (`Character`), in this order:
/// 1. **0** when every scalar is zero-width: general category Mn (nonspacing mark), Me
///    (enclosing mark), Cf (format: ZWJ, ZWSP U+200B, soft hyphen, bidi controls, U+FE0F alone…)
///    or Cc (controls, including tab, CR, LF and CRLF). Controls count 0 because a terminal
///    front end never draws them as a cell (it either interprets or escapes them; escaping is
///    its business), so a tag containing one is not made wider by it.
/// 2. **2** when the first scalar is East Asian Wide or Fullwidth (the table below), or has
///    `Emoji_Presentation` (😀, and each regional indicator, so a flag 🇫🇷 is 2), or is an emoji
///    followed somewhere in its cluster by U+FE0F VARIATION SELECTOR-16 (❤️, ©️, the keycap 1️⃣).
///    An emoji ZWJ sequence (👩‍💻) is one cluster whose first scalar is an emoji: 2.
/// 3. **1** otherwise (`e` + U+0301 is one cluster: 1).
///
/// Text made only of printable ASCII (U+0020…U+007E) takes a fast path: one cell per byte.
public enum DisplayWidth {
  /// The number of terminal cells `text` occupies.
  public static func cells(_ text: String) -> Int {
    if FastPath.printableASCIIWidth.isOn, isPrintableASCII(text.utf8.span) {
      FastPath.printableASCIIWidth.taken()
      return text.utf8.count
    }
    var total = 0
    for character in text {
      total += cells(of: character)
    }
    return total
  }

  /// Whether every byte is printable ASCII (U+0020…U+007E), read off the span (a generic
  /// `allSatisfy` over the UTF-8 view cost ten times as much, once per chip of every layout).
  private static func isPrintableASCII(_ bytes: Span<UInt8>) -> Bool {
    var index = 0
    while index < bytes.count {
      guard bytes[index] &- 0x20 < 0x5F else { return false }
      index += 1
    }
    return true
  }

  /// `text` cut to at most `cells` cells, ending with `…` (one cell) when it had to be cut;
  /// whole grapheme clusters only, so a wide character that would straddle the edge goes too,
  /// and no space is left before the `…`.
  public static func truncated(_ text: String, toCells cells: Int) -> String {
    guard self.cells(text) > cells else { return text }
    guard cells > 0 else { return "" }
    var used = 0
    var result = ""
    for character in text {
      used += self.cells(of: character)
      if used > cells - 1 { break }
      result.append(character)
    }
    while result.last?.isWhitespace == true { result.removeLast() }
    return result + "…"
  }

  /// The number of terminal cells one grapheme cluster occupies: 0, 1 or 2.
  public static func cells(of character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    if scalars.allSatisfy(isZeroWidth) { return 0 }
    if isWide(first) || first.properties.isEmojiPresentation { return 2 }
    if first.properties.isEmoji, scalars.dropFirst().contains(emojiPresentationSelector) {
      return 2
    }
    return 1
  }

  /// U+FE0F VARIATION SELECTOR-16: asks for the emoji presentation of the scalar before it.
  private static let emojiPresentationSelector: Unicode.Scalar = "\u{FE0F}"

  /// Whether a scalar takes no cell of its own (see the rules on the type).
  private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format, .control: true
    default: false
    }
  }

  /// Whether a scalar is East Asian Wide (W) or Fullwidth (F), by binary search of `wideRanges`.
  static func isWide(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < wideRanges[0].lowerBound { return false }
    var low = 0
    var high = wideRanges.count
    // Invariant: the range that could contain `value` is in `low..<high`.
    while low < high {
      let middle = low + (high - low) / 2
      let range = wideRanges[middle]
      if value < range.lowerBound {
        high = middle
      } else if value > range.upperBound {
        low = middle + 1
      } else {
        return true
      }
    }
    return false
  }

  /// East Asian Width W and F ranges (EastAsianWidth.txt, Unicode 15.1), sorted and disjoint.
  ///
  /// Emoji ranges are left out: every emoji that is W also has `Emoji_Presentation`, which the
  /// rules check separately. Unassigned code points inside blocks are included where the block is
  /// reserved for wide characters (as EastAsianWidth.txt itself defaults them to W).
  static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F,  // Hangul Jamo initial consonants
    0x2329...0x232A,  // angle brackets
    0x2E80...0x2E99,  // CJK Radicals Supplement
    0x2E9B...0x2EF3,
    0x2F00...0x2FD5,  // Kangxi Radicals
    0x2FF0...0x2FFF,  // Ideographic Description Characters
    0x3000...0x303E,  // ideographic space (F), CJK Symbols and Punctuation
    0x3041...0x3096,  // Hiragana
    0x3099...0x30FF,  // Hiragana marks, Katakana
    0x3105...0x312F,  // Bopomofo
    0x3131...0x318E,  // Hangul Compatibility Jamo
    0x3190...0x31E3,  // Kanbun, Bopomofo Extended, CJK Strokes
    0x31EF...0x321E,  // Katakana Phonetic Extensions, Enclosed CJK
    0x3220...0x3247,
    0x3250...0x4DBF,  // Enclosed CJK, CJK Compatibility, CJK Extension A
    0x4E00...0xA48C,  // CJK Unified Ideographs, Yi Syllables
    0xA490...0xA4C6,  // Yi Radicals
    0xA960...0xA97C,  // Hangul Jamo Extended-A
    0xAC00...0xD7A3,  // Hangul Syllables
    0xF900...0xFAFF,  // CJK Compatibility Ideographs
    0xFE10...0xFE19,  // Vertical Forms
    0xFE30...0xFE52,  // CJK Compatibility Forms, Small Form Variants
    0xFE54...0xFE66,
    0xFE68...0xFE6B,
    0xFF00...0xFF60,  // Fullwidth ASCII variants (F)
    0xFFE0...0xFFE6,  // Fullwidth signs (F)
    0x16FE0...0x16FE4,  // Ideographic symbols and punctuation
    0x16FF0...0x16FF1,
    0x17000...0x187F7,  // Tangut
    0x18800...0x18CD5,  // Tangut Components, Khitan Small Script
    0x18D00...0x18D08,  // Tangut Supplement
    0x1AFF0...0x1AFF3,  // Kana Extended-B
    0x1AFF5...0x1AFFB,
    0x1AFFD...0x1AFFE,
    0x1B000...0x1B122,  // Kana Supplement, Kana Extended-A
    0x1B132...0x1B132,
    0x1B150...0x1B152,  // Small Kana Extension
    0x1B155...0x1B155,
    0x1B164...0x1B167,
    0x1B170...0x1B2FB,  // Nushu
    0x1F200...0x1F202,  // Enclosed Ideographic Supplement
    0x1F210...0x1F23B,
    0x1F240...0x1F248,
    0x1F250...0x1F251,
    0x1F260...0x1F265,
    0x20000...0x2FFFD,  // Supplementary Ideographic Plane
    0x30000...0x3FFFD,  // Tertiary Ideographic Plane
  ]
}
