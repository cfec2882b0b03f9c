/// The search form of text: case- and accent-insensitive, as UTF-8 bytes, with the character
/// each byte came from.
///
/// Each character is folded on its own: whitespace becomes one space; ASCII letters are
/// lowercased; anything else loses its combining marks (`é` → `e`, `e` + U+0301 → `e`, and a few
/// letters with strokes such as `ł` → `l`, from ``accentTable``) and is then case-folded as
/// ``CaselessKey`` folds (`ß` → `ss`). A character can therefore fold to several bytes (or none,
/// for a lone combining mark); ``Folded/origins`` maps every byte back to its character.
enum SearchFold {
  /// Folded text and where each byte came from.
  struct Folded {
    /// The folded UTF-8 bytes.
    var bytes: [UInt8] = []
    /// For each byte, the offset (in characters) of the character of the original text it folds.
    var origins: [Int32] = []
    /// The byte offsets where a word starts: a letter or digit after a character that is neither
    /// (or at the start).
    var wordStarts: [Int32] = []
  }

  /// Folds `text`.
  static func fold(_ text: String) -> Folded {
    var folded = Folded()
    folded.bytes.reserveCapacity(text.utf8.count)
    folded.origins.reserveCapacity(text.utf8.count)
    var offset: Int32 = 0
    var previousIsWord = false
    for character in text {
      let isWord = character.isLetter || character.isNumber
      if isWord && !previousIsWord { folded.wordStarts.append(Int32(folded.bytes.count)) }
      previousIsWord = isWord
      if let ascii = character.asciiValue, character.unicodeScalars.count == 1 {
        let byte: UInt8 =
          switch ascii {
          case 0x41...0x5A: ascii | 0x20
          case 0x09...0x0D: 0x20
          default: ascii
          }
        folded.bytes.append(byte)
        folded.origins.append(offset)
      } else if character.isWhitespace {
        folded.bytes.append(0x20)
        folded.origins.append(offset)
      } else {
        for byte in foldUnicode(character).utf8 {
          folded.bytes.append(byte)
          folded.origins.append(offset)
        }
      }
      offset += 1
    }
    return folded
  }

  /// The fold of one character that is not a plain ASCII one.
  private static func foldUnicode(_ character: Character) -> String {
    var stripped = String.UnicodeScalarView()
    for scalar in character.unicodeScalars {
      switch scalar.properties.generalCategory {
      case .nonspacingMark, .enclosingMark:
        continue
      default:
        stripped.append(accentBase(of: scalar))
      }
    }
    return CaselessKey.fold(String(stripped))
  }

  /// The base letter of a precomposed scalar (`é` → `e`), or the scalar itself.
  static func accentBase(of scalar: Unicode.Scalar) -> Unicode.Scalar {
    let value = scalar.value
    guard value >= 0xC0 else { return scalar }
    var low = 0
    var high = accentTable.count / 2
    while low < high {
      let middle = (low + high) / 2
      let key = accentTable[2 * middle]
      if key == value { return Unicode.Scalar(accentTable[2 * middle + 1]) ?? scalar }
      if key < value { low = middle + 1 } else { high = middle }
    }
    return scalar
  }
}
