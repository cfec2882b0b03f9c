import Shortcuts

/// Splitting and trimming of field text, on UTF-8 bytes: a separator is a Unicode scalar, so a
/// CRLF (one `Character`) is seen as its two scalars.
enum FieldText {
  /// A field's ``FieldRules/separators`` as a table looked up per byte, built once per field.
  ///
  /// `"\n"` among the separators makes LF, CR and CRLF separators, a CRLF pair counting once.
  struct Separators: Sendable {
    /// What each byte may start: 0 nothing, 1 a separator, 2 a CR that a LF may join, 3 a
    /// scalar outside ASCII that may be a separator (the lead bytes of `others`).
    fileprivate let kinds: [UInt8]
    /// The separators outside ASCII (none by default).
    fileprivate let others: Set<Unicode.Scalar>
    /// Each byte that may end a piece, repeated eight times, when all are ASCII and at most four.
    ///
    /// The first is repeated where there are fewer than four; the default is `,`, LF and CR.
    /// ``Pieces/bound(_:_:)`` then counts eight bytes a step. Nil otherwise.
    fileprivate let broadcast: (UInt64, UInt64, UInt64, UInt64)?

    init(_ separators: Set<Unicode.Scalar>) {
      var kinds = [UInt8](repeating: 0, count: 256)
      for separator in separators {
        if separator.isASCII {
          kinds[Int(separator.value)] = 1
        } else {
          kinds[Int(separator.utf8.first ?? 0)] = 3
        }
      }
      if separators.contains("\n") { kinds[0x0D] = 2 }
      self.kinds = kinds
      others = separators.filter { !$0.isASCII }
      let ends = kinds.indices.filter { kinds[$0] != 0 }.map { UInt64($0) &* 0x0101_0101_0101_0101 }
      if let first = ends.first, ends.count <= 4, others.isEmpty {
        let all = ends + Array(repeating: first, count: 4 - ends.count)
        broadcast = (all[0], all[1], all[2], all[3])
      } else {
        broadcast = nil
      }
    }
  }

  /// The pieces of valid UTF-8 text that end at a separator, as byte ranges, in order.
  ///
  /// Every call is given the same `utf8`, the text's bytes. Once `next(_:_:)` returns nil,
  /// ``draftStart`` is where the new draft starts: after the last separator and its following
  /// U+0020 spaces (nil when the text holds no separator).
  struct Pieces {
    /// Where the piece being scanned starts.
    private var start = 0
    /// How far the text has been scanned.
    private var position = 0
    /// The lanes of the word read at `endsStart` whose byte may end a piece (``ends(_:_:)``),
    /// each cleared as it is passed: the word search reads each word once.
    private var ends: UInt64 = 0
    private var endsStart = 0

    /// Moves to the next byte that may end a piece, eight bytes a step.
    ///
    /// Taken when `separators` are at most four ASCII bytes: from the lanes left of the word
    /// last read, then from the next words. ``next(_:_:)`` then takes that byte, or scans the
    /// last bytes (under a word).
    ///
    /// Apart from `next`, which stays small (the typing path calls it too): a large paste's
    /// loop calls this first, inlined.
    @inline(__always)
    mutating func skipToEnd(_ utf8: Span<UInt8>, _ separators: Separators) {
      guard FastPath.wordSeparatorSearch.isOn, let broadcast = separators.broadcast else { return }
      while true {
        if ends == 0 {
          guard position &+ 8 <= utf8.count else { return }
          endsStart = position
          ends = Self.ends(utf8.word(at: position), broadcast)
          if ends == 0 {
            position &+= 8
            continue
          }
        }
        let end = endsStart &+ ends.trailingZeroBitCount &>> 3
        ends &= ends &- 1
        if end >= position {
          FastPath.wordSeparatorSearch.taken()
          position = end
          return
        }
      }
    }

    /// The next piece of `utf8`, split by `separators` (the same on every call).
    mutating func next(_ utf8: Span<UInt8>, _ separators: Separators) -> Range<Int>? {
      let count = utf8.count
      while position < count {
        let kind = separators.kinds[Int(utf8[position])]
        if kind == 0 {
          position += 1
          continue
        }
        let end = position
        var length = 1
        if kind == 2, position + 1 < count, utf8[position + 1] == 0x0A {
          length = 2
        } else if kind == 3 {
          let scalar: Unicode.Scalar
          (scalar, length) = Self.scalar(at: position, in: utf8)
          if !separators.others.contains(scalar) {
            position += length
            continue
          }
        }
        position += length
        defer { start = position }
        return start..<end
      }
      return nil
    }

    /// At least as many as the pieces in all (it counts the bytes that may end one, a CRLF
    /// twice): one quick pass, to make room for a large paste up front.
    static func bound(_ utf8: Span<UInt8>, _ separators: Separators) -> Int {
      var count = 0
      var position = 0
      if FastPath.wordSeparatorCount.isOn, let broadcast = separators.broadcast {
        FastPath.wordSeparatorCount.taken()
        while position + 8 <= utf8.count {
          let ends = Self.ends(utf8.word(at: position), broadcast)
          // One top bit per separator: moved to the lanes' low bits and summed into the top
          // lane by one multiply (at most 8, no carry), cheaper than a population count, which
          // the baseline x86-64 target computes in software.
          count &+= Int(truncatingIfNeeded: ((ends >> 7) &* 0x0101_0101_0101_0101) >> 56)
          position += 8
        }
      }
      while position < utf8.count {
        count &+= separators.kinds[Int(utf8[position])] != 0 ? 1 : 0
        position += 1
      }
      return count
    }

    /// The top bit of each lane of `word` that holds one of the bytes `broadcast` repeats.
    ///
    /// A lane of `word ^ pattern` is zero where the byte is that separator; the top bit of each
    /// lane of `~(((x & low7) + low7) | x | low7)` is set exactly for the zero lanes (no lane
    /// carries into the next).
    @inline(__always)
    private static func ends(
      _ word: UInt64,
      _ broadcast: (UInt64, UInt64, UInt64, UInt64)
    )
      -> UInt64
    {
      let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
      let (a, b, c, d) = broadcast
      let (x, y, z, w) = (word ^ a, word ^ b, word ^ c, word ^ d)
      return ~(((x & low7) &+ low7) | x | low7) | ~(((y & low7) &+ low7) | y | low7)
        | ~(((z & low7) &+ low7) | z | low7) | ~(((w & low7) &+ low7) | w | low7)
    }

    /// Where the new draft starts in `utf8`, once all pieces are out: nil when there was no
    /// separator.
    func draftStart(_ utf8: Span<UInt8>) -> Int? {
      guard start > 0 else { return nil }
      var first = start
      while first < utf8.count, utf8[first] == 0x20 { first += 1 }
      return first
    }

    /// The scalar starting with the lead byte at `position` of valid UTF-8, and its length.
    private static func scalar(at position: Int, in utf8: Span<UInt8>) -> (Unicode.Scalar, Int) {
      let lead = UInt32(utf8[position])
      let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
      var value = lead & (0x7F >> UInt32(length))
      for offset in 1..<length {
        value = value << 6 | UInt32(utf8[position + offset] & 0x3F)
      }
      return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
    }
  }

  /// A piece (a range of `utf8`) as a candidate — trimmed of whitespace and newlines at both ends, transformed,
  /// keyed (caselessly when `caseless`) and hashed — straight from its bytes when it is ASCII;
  /// nil when the trim needs Unicode's rules (the caller then takes the `String` path).
  ///
  /// ASCII whitespace bytes are trimmed one by one, and the ends left must be ASCII and not
  /// whitespace. Then each byte trimmed was a whole `Character` (two ASCII scalars are always
  /// two characters, but for CR LF, which is whitespace too), and no `Character` at either end
  /// is whitespace: a `Character` is whitespace when its first scalar is, and one that ends
  /// with an ASCII scalar is that scalar alone or starts with a scalar outside ASCII that
  /// prepends (none of which is whitespace).
  ///
  /// Inlined into the paste's loop: with ``KeyIndex/append(_:at:)``, its call cost a pasted tag
  /// ~50 instructions.
  @inline(__always)
  static func candidate(
    _ piece: Range<Int>,
    of utf8: Span<UInt8>,
    transform: TagTransform,
    caseless: Bool,
    seed: UInt64
  ) -> Candidate? {
    var first = piece.lowerBound
    var end = piece.upperBound
    while first < end, isASCIIWhitespace(utf8[first]) { first += 1 }
    while end > first, isASCIIWhitespace(utf8[end - 1]) { end -= 1 }
    guard first < end else { return Candidate(text: "", key: "", hash: 0) }
    let (head, tail) = (utf8[first], utf8[end - 1])
    guard FastPath.asciiCandidate.isOn, head < 0x80, tail < 0x80 else { return nil }
    FastPath.asciiCandidate.taken()
    let scan = KeyIndex.scan(utf8, first..<end, seed: seed)
    let trimmed = utf8.extracting(first..<end).text()
    guard scan.isASCII else {
      // Not ASCII: the standard library's case mappings and the full fold.
      switch transform {
      case .none: return Candidate(trimmed, caseless: caseless)
      case .lowercase: return Candidate(trimmed.lowercased(), caseless: caseless)
      case .uppercase: return Candidate(trimmed.uppercased(), caseless: caseless)
      }
    }
    switch transform {
    case .none: break
    case .lowercase:
      if scan.hasCapitals { return Candidate(trimmed.lowercased(), caseless: caseless) }
    case .uppercase:
      if scan.hasSmalls { return Candidate(trimmed.uppercased(), caseless: caseless) }
    }
    // The text is the bytes as they are, and so is its key unless capitals fold.
    guard caseless, scan.hasCapitals else {
      return Candidate(text: trimmed, key: trimmed, hash: scan.hash)
    }
    return Candidate(trimmed, caseless: true)
  }

  /// `text` without the whitespace and newline characters at either end.
  static func trimmed(_ text: String) -> Substring {
    // Fast path: ASCII ends that are not whitespace need no Unicode properties.
    let utf8 = text.utf8
    if FastPath.asciiTrimmedEnds.isOn, let head = utf8.first, let tail = utf8.last, head < 0x80,
      tail < 0x80, !isASCIIWhitespace(head), !isASCIIWhitespace(tail)
    {
      FastPath.asciiTrimmedEnds.taken()
      return text[...]
    }
    guard let first = text.firstIndex(where: { !$0.isWhitespace }),
      let last = text.lastIndex(where: { !$0.isWhitespace })
    else { return text[text.endIndex...] }
    return text[first...last]
  }

  private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
  }
}

/// A candidate tag, trimmed and transformed, with its duplicate-detection key (a
/// ``CaselessKey`` fold, or the text itself when case-sensitive) and that key's
/// ``KeyIndex/hash(_:)``.
struct Candidate {
  var text: String
  var key: String
  var hash: Int

  init(text: String, key: String, hash: Int) {
    self.text = text
    self.key = key
    self.hash = hash
  }

  /// Keys and hashes `text`.
  init(_ text: String, caseless: Bool) {
    self.text = text
    key = caseless ? CaselessKey.fold(text) : text
    hash = KeyIndex.hash(key)
  }
}
