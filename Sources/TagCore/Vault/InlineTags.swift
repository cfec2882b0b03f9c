/// Inline `#tags` in a Markdown note's body (SPEC §6d).
///
/// A tag is `#` at the start of a line or after whitespace, followed by a run of letters, marks,
/// decimal digits, `_`, `-` and `/` that holds at least one character that is not a digit; the
/// tag is the run. Not tags: `#` followed by anything else (`# Heading`, `#` alone), a run of
/// digits (`#123`), `#` after any other character (`a#b`, `&#123;`, `\#`, a URL's fragment,
/// `(#anchor)`), and everything inside fenced code blocks and inline code spans.
///
/// Fenced code: a line whose first non-blank characters are three or more backticks or tildes
/// (a backtick fence's line holds no other backtick), closed by a line of at least as many of
/// the same character and nothing else but blanks, or by the end of the note; indentation is not
/// limited (fences inside list items count). Inline code: a run of backticks (not preceded by a
/// backslash) up to the next run of exactly as many, within its paragraph (a blank line or a
/// fence ends the search); a run without such a closer is text. The scan reads bytes, jumping
/// eight at a time to the next `#`, backtick or line break: linear in the body's length.
public enum InlineTags {
  /// Whether `tag` can be written as an inline tag (`#tag` reads back as exactly `tag`).
  public static func canHold(_ tag: String) -> Bool {
    var nonDigit = false
    for scalar in tag.unicodeScalars {
      switch kind(of: scalar) {
      case .digit: continue
      case .other: return false
      case .nonDigit: nonDigit = true
      }
    }
    return nonDigit
  }

  /// Why `tag` cannot be an inline tag, in words; nil when it can.
  static func whyNot(_ tag: String) -> String? {
    if tag.isEmpty { return "it is empty" }
    for scalar in tag.unicodeScalars where kind(of: scalar) == .other {
      let name = scalar == " " ? "a space" : "`\(scalar)`"
      return "it holds \(name): an inline tag is letters, marks, digits, `_`, `-` and `/`"
    }
    if !canHold(tag) { return "it is all digits" }
    return nil
  }

  enum Kind { case digit, nonDigit, other }

  @inline(__always)
  static func kind(of scalar: Unicode.Scalar) -> Kind {
    let value = scalar.value
    if value < 0x80 {
      let b = UInt8(value)
      if b &- 0x30 < 10 { return .digit }
      if (b | 0x20) &- 0x61 < 26 || b == 0x5F || b == 0x2D || b == 0x2F { return .nonDigit }
      return .other
    }
    switch scalar.properties.generalCategory {
    case .decimalNumber: return .digit
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
      .nonspacingMark, .spacingMark, .enclosingMark:
      return .nonDigit
    default: return .other
    }
  }

  /// Appends the inline tags of `doc` from `start` (a line's start, on 0-based `line`).
  static func scan(
    _ doc: DocumentText,
    from start: Int,
    line firstLine: Int,
    into tags: inout [NoteTag]
  ) {
    let bytes = doc.bytes.span
    let n = bytes.count
    var at = start
    var line = firstLine
    var spans = CodeSpans()
    while at < n {
      // `at` starts a line.
      let first = skipBlanks(bytes, at)
      if let fence = Fence(bytes, at: first) {
        spans.reset()
        at = fence.skipBlock(bytes, from: first, line: &line)
        continue
      }
      if first == n || bytes[first] == 0x0A || bytes[first] == 0x0D {
        spans.reset()
      }
      var i = at
      while true {
        i = nextMarked(bytes, from: i)
        guard i < n else { break }
        let b = bytes[i]
        if b == 0x0A || b == 0x0D { break }
        if b == UInt8(ascii: "#") {
          if i == start || isWhitespace(before: i, bytes),
            let end = tagEnd(bytes, from: i + 1)
          {
            tags.append(
              NoteTag(
                text: doc.string((i + 1)..<end),
                range: (i + 1)..<end,
                line: line,
                place: .inline,
                list: nil
              )
            )
            i = end
          } else {
            i += 1
          }
          continue
        }
        // A run of backticks.
        var runEnd = i + 1
        while runEnd < n, bytes[runEnd] == 0x60 { runEnd += 1 }
        let open = isEscaped(i, bytes) ? i + 1 : i
        if open < runEnd, let close = spans.closer(bytes, opener: open..<runEnd) {
          line += lineBreaks(bytes, runEnd..<close)
          i = close + (runEnd - open)
        } else {
          i = runEnd
        }
      }
      at = i < n ? afterBreak(bytes, i) : n
      line += 1
    }
  }

  /// Where the tag's run starting at `start` (after a `#`) ends; nil when there is none (empty,
  /// or all digits).
  static func tagEnd(_ bytes: Span<UInt8>, from start: Int) -> Int? {
    var at = start
    var nonDigit = false
    while at < bytes.count {
      let b = bytes[at]
      if b < 0x80 {
        if b &- 0x30 < 10 {
          at += 1
        } else if (b | 0x20) &- 0x61 < 26 || b == 0x5F || b == 0x2D || b == 0x2F {
          nonDigit = true
          at += 1
        } else {
          break
        }
        continue
      }
      let (scalar, length) = decode(bytes, at)
      switch kind(of: scalar) {
      case .digit: break
      case .nonDigit: nonDigit = true
      case .other: return nonDigit ? at : nil
      }
      at += length
    }
    return nonDigit ? at : nil
  }

  /// The scalar whose UTF-8 starts at `at` and its length (U+FFFD, 1 for a stray byte).
  static func decode(_ bytes: Span<UInt8>, _ at: Int) -> (Unicode.Scalar, Int) {
    let lead = bytes[at]
    let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
    guard length > 1, at + length <= bytes.count else { return ("\u{FFFD}", 1) }
    var value = UInt32(lead) & (0xFF >> UInt32(length + 1))
    for k in 1..<length {
      let b = bytes[at + k]
      guard b & 0xC0 == 0x80 else { return ("\u{FFFD}", 1) }
      value = value << 6 | UInt32(b & 0x3F)
    }
    return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
  }

  /// Whether the character before `at` is whitespace (a line break counts).
  static func isWhitespace(before at: Int, _ bytes: Span<UInt8>) -> Bool {
    guard at > 0 else { return true }
    let b = bytes[at - 1]
    if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { return true }
    guard b >= 0x80 else { return false }
    var lead = at - 1
    while lead > 0, at - lead < 4, bytes[lead] & 0xC0 == 0x80 { lead -= 1 }
    return decode(bytes, lead).0.properties.isWhitespace
  }

  /// Whether the byte at `at` follows an odd number of backslashes.
  static func isEscaped(_ at: Int, _ bytes: Span<UInt8>) -> Bool {
    var before = at
    while before > 0, bytes[before - 1] == UInt8(ascii: "\\") { before -= 1 }
    return (at - before) % 2 == 1
  }

  static func skipBlanks(_ bytes: Span<UInt8>, _ at: Int) -> Int {
    var at = at
    while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x09 { at += 1 }
    return at
  }

  /// The offset after the line break at `at`.
  static func afterBreak(_ bytes: Span<UInt8>, _ at: Int) -> Int {
    bytes[at] == 0x0D && at + 1 < bytes.count && bytes[at + 1] == 0x0A ? at + 2 : at + 1
  }

  /// The line breaks (LF, CRLF, CR) in `range`.
  static func lineBreaks(_ bytes: Span<UInt8>, _ range: Range<Int>) -> Int {
    var count = 0
    for at in range {
      let b = bytes[at]
      if b == 0x0A || (b == 0x0D && !(at + 1 < bytes.count && bytes[at + 1] == 0x0A)) {
        count += 1
      }
    }
    return count
  }

  /// Whether the line at `at` is blank or opens a fence: where a paragraph ends.
  static func endsParagraph(_ bytes: Span<UInt8>, _ at: Int) -> Bool {
    let first = skipBlanks(bytes, at)
    if first == bytes.count || bytes[first] == 0x0A || bytes[first] == 0x0D { return true }
    return Fence(bytes, at: first) != nil
  }

  /// The first offset from `start` holding `#`, a backtick, LF or CR, or the end: eight bytes
  /// at a time.
  @inline(__always)
  static func nextMarked(_ bytes: Span<UInt8>, from start: Int) -> Int {
    var at = start
    while at + 8 <= bytes.count {
      let flags = marked(bytes.word(at: at))
      if flags != 0 { return at + flags.trailingZeroBitCount / 8 }
      at += 8
    }
    while at < bytes.count {
      let b = bytes[at]
      if b == 0x23 || b == 0x60 || b == 0x0A || b == 0x0D { return at }
      at += 1
    }
    return at
  }

  /// The high bit of each byte of `word` that is `#`, a backtick, LF or CR; the lowest is exact
  /// (a borrow may flag bytes above a match).
  @inline(__always)
  static func marked(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let high: UInt64 = 0x8080_8080_8080_8080
    @inline(__always) func zero(_ v: UInt64) -> UInt64 { (v &- ones) & ~v & high }
    return zero(word ^ (ones &* 0x23)) | zero(word ^ (ones &* 0x60))
      | zero(word ^ (ones &* 0x0A)) | zero(word ^ (ones &* 0x0D))
  }
}

/// A code fence: three or more backticks or tildes starting a line's text.
struct Fence {
  var character: UInt8
  var length: Int

  /// The fence whose first character is at `first` (a line's first non-blank), if any.
  init?(_ bytes: Span<UInt8>, at first: Int) {
    guard first < bytes.count else { return nil }
    let c = bytes[first]
    guard c == 0x60 || c == UInt8(ascii: "~") else { return nil }
    var end = first
    while end < bytes.count, bytes[end] == c { end += 1 }
    guard end - first >= 3 else { return nil }
    if c == 0x60 {
      // A backtick fence's info string holds no backtick (else it is inline code).
      var at = end
      while at < bytes.count, bytes[at] != 0x0A, bytes[at] != 0x0D {
        if bytes[at] == 0x60 { return nil }
        at += 1
      }
    }
    character = c
    length = end - first
  }

  /// Skips the block this fence (at `first`) opens; returns the start of the line after its
  /// closing fence (or the end), counting the lines passed.
  func skipBlock(_ bytes: Span<UInt8>, from first: Int, line: inout Int) -> Int {
    var at = bytes.firstLineBreak(from: first)
    while at < bytes.count {
      at = InlineTags.afterBreak(bytes, at)
      line += 1
      let start = InlineTags.skipBlanks(bytes, at)
      var end = start
      while end < bytes.count, bytes[end] == character { end += 1 }
      let lineEnd = bytes.firstLineBreak(from: end)
      at = lineEnd
      if end - start >= length, InlineTags.skipBlanks(bytes, end) == lineEnd {
        break
      }
    }
    guard at < bytes.count else { return at }
    line += 1
    return InlineTags.afterBreak(bytes, at)
  }
}

/// The closers of inline code spans in one paragraph, found by one forward scan that records
/// every backtick run it passes, so that each byte is read at most once however many openers
/// look for a closer.
struct CodeSpans {
  /// The runs recorded so far, by length: their starts, ascending.
  private var runs: [Int: [Int]] = [:]
  /// Per length, how many of its runs are known to start before the latest opener.
  private var passed: [Int: Int] = [:]
  /// Where the recording scan stopped.
  private var scanned = 0
  /// Whether the scan reached the paragraph's end.
  private var ended = false

  /// Forgets the paragraph (the main scan passed its end).
  mutating func reset() {
    guard scanned != 0 else { return }
    runs = [:]
    passed = [:]
    scanned = 0
    ended = false
  }

  /// The start of the run closing the code span opened by the run `opener`; nil when the
  /// paragraph has none.
  mutating func closer(_ bytes: Span<UInt8>, opener: Range<Int>) -> Int? {
    let length = opener.count
    if scanned < opener.upperBound {
      scanned = opener.upperBound
    }
    if let starts = runs[length] {
      var index = passed[length] ?? 0
      while index < starts.count, starts[index] < opener.upperBound { index += 1 }
      passed[length] = index
      if index < starts.count { return starts[index] }
    }
    guard !ended else { return nil }
    var at = scanned
    while at < bytes.count {
      let b = bytes[at]
      if b == 0x60 {
        let start = at
        while at < bytes.count, bytes[at] == 0x60 { at += 1 }
        if at - start == length {
          // Not recorded: the main scan continues after it, so no later opener needs it.
          scanned = at
          return start
        }
        runs[at - start, default: []].append(start)
        continue
      }
      if b == 0x0A || b == 0x0D {
        at = InlineTags.afterBreak(bytes, at)
        if InlineTags.endsParagraph(bytes, at) { break }
        continue
      }
      at += 1
    }
    scanned = at
    ended = true
    return nil
  }
}
