/// A message body, read through accessors that keep within its bytes: how code outside
/// JSONRPC reads message bytes without holding a pointer.
///
/// A body is lent by the framer and valid only for the call it is lent to; nothing read from
/// it (strings, values, numbers) keeps it. Its bytes are valid JSON (the envelope scan lends
/// only what it accepted), so their strings are read without being validated a second time.
public struct MessageBytes {
  // The pointer stays in this module. Inlinable, so that a matcher's byte reads are loads at
  // the call site.
  @usableFromInline let buffer: UnsafeBufferPointer<UInt8>

  /// Lends `buffer` (valid as long as the caller keeps it), which the envelope scan has
  /// validated as one JSON text.
  init(lendingValidated buffer: UnsafeBufferPointer<UInt8>) {
    self.buffer = buffer
  }

  /// The number of bytes.
  @inlinable public var count: Int { buffer.count }

  /// The bytes of `range` as text (UTF-8, repaired if invalid).
  @inlinable public func string(_ range: Range<Int>) -> String {
    String(decoding: slice(range), as: UTF8.self)
  }

  /// The value in `range` (nil if it is not one JSON value).
  public func parse(_ range: Range<Int>, maxDepth: Int) -> JSONValue? {
    try? JSONReader.parse(slice(range), maxDepth: maxDepth)
  }

  /// A scanner over `range`.
  public func scanner(_ range: Range<Int>, maxDepth: Int) -> JSONScanner {
    JSONScanner(slice(range), maxDepth: maxDepth, trusted: true)
  }

  /// The string value at `value`, escapes decoded (`isPlain`: it has none); nil when it is
  /// not a string.
  ///
  /// Decoded in one pass, without validating the bytes again: the content lies between two
  /// quote bytes of valid JSON, so it is whole UTF-8 scalars.
  public func stringValue(at value: Range<Int>, isPlain: Bool) -> String? {
    guard let content = trustedContent(of: value) else { return nil }
    FastPath.trustedString.taken()
    return JSONScanner.Key(raw: content, hasEscapes: !isPlain).string
  }

  /// Whether the string value at `value`, which has no escapes, is `text` (bytes compared).
  public func isPlainString(at value: Range<Int>, _ text: String) -> Bool {
    guard let content = trustedContent(of: value) else { return false }
    return JSONScanner.Key(raw: content, hasEscapes: false).isPlain(text)
  }

  /// The bytes between the quotes of the string value at `value` (valid JSON, so they need no
  /// validating); nil for a value that is no string.
  private func trustedContent(of value: Range<Int>) -> UnsafeBufferPointer<UInt8>? {
    guard value.count >= 2, buffer[value.lowerBound] == UInt8(ascii: "\""),
      buffer[value.upperBound - 1] == UInt8(ascii: "\"")
    else { return nil }
    return slice((value.lowerBound + 1)..<(value.upperBound - 1))
  }

  /// The string value at `value` as UTF-8, escapes decoded, with the offset after each of its
  /// line breaks when the decoder found them; nil when it is not a string.
  ///
  /// For a document's whole text: decoded in one pass that also finds the lines (every line
  /// break in a JSON string is an escape), and no `String` is made.
  public func text(at value: Range<Int>, isPlain: Bool) -> DecodedText? {
    guard FastPath.decodedLines.isOn, let content = trustedContent(of: value) else {
      // Switched off (a test), or no string.
      return stringValue(at: value, isPlain: isPlain).map {
        DecodedText(utf8: Array($0.utf8), lineStarts: nil)
      }
    }
    FastPath.decodedLines.taken()
    guard !isPlain else { return DecodedText(utf8: Array(content), lineStarts: []) }
    var lines: [Int] = []
    let utf8 = JSONScanner.decodeEscapedRun(content, lineStarts: &lines, collecting: true)
    return DecodedText(utf8: utf8, lineStarts: lines)
  }

  /// A cursor over `range`.
  @inlinable public func cursor(_ range: Range<Int>) -> Cursor {
    precondition(range.lowerBound >= 0 && range.upperBound <= buffer.count, "range out of bytes")
    return Cursor(buffer: buffer, at: range.lowerBound, end: range.upperBound)
  }

  @inlinable func slice(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
    precondition(range.lowerBound >= 0 && range.upperBound <= buffer.count, "range out of bytes")
    return UnsafeBufferPointer(rebasing: buffer[range])
  }

  /// A reading position in a range of the bytes, for matchers of fixed forms: it never reads
  /// outside the range.
  public struct Cursor {
    @usableFromInline let buffer: UnsafeBufferPointer<UInt8>
    /// The offset of the next byte.
    @inlinable public var at: Int { position }
    @usableFromInline var position: Int
    /// The end of the range.
    public let end: Int

    @inlinable init(buffer: UnsafeBufferPointer<UInt8>, at: Int, end: Int) {
      self.buffer = buffer
      self.position = at
      self.end = end
    }

    /// The next byte; nil at the end.
    @inlinable public var current: UInt8? { at < end ? buffer[at] : nil }

    /// Steps over the current byte (nothing at the end).
    @inlinable public mutating func advance() {
      if position < end { position += 1 }
    }

    /// Steps over `text` when the bytes at the cursor are it (compared eight at a time when
    /// `text` is that long, the last eight overlapping); false (not moved) otherwise.
    @inlinable @inline(__always)
    public mutating func expect(_ text: StaticString) -> Bool {
      let length = text.utf8CodeUnitCount
      guard end - at >= length, let base = buffer.baseAddress else { return length == 0 }
      let (here, there) = (UnsafeRawPointer(base + at), UnsafeRawPointer(text.utf8Start))
      if length >= 8 {
        var offset = 0
        repeat {
          offset = min(offset, length - 8)
          guard
            here.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
              == there.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          else { return false }
          offset += 8
        } while offset < length
      } else {
        for offset in 0..<length where base[at + offset] != text.utf8Start[offset] { return false }
      }
      position += length
      return true
    }

    /// The bytes from `start` up to the cursor as text; nil when `checked` and not UTF-8.
    @inlinable public func string(from start: Int, checked: Bool) -> String? {
      let bytes = UnsafeBufferPointer(rebasing: buffer[start..<at])
      return checked
        ? String(validating: bytes, as: UTF8.self) : String(decoding: bytes, as: UTF8.self)
    }
  }
}

/// A JSON string's text as UTF-8, and where its lines start when that was found while decoding.
public struct DecodedText: Sendable {
  /// The text (valid UTF-8).
  public var utf8: [UInt8]
  /// The offset in ``utf8`` after each line break (LF, CRLF or CR), in order; nil when unknown.
  public var lineStarts: [Int]?
}
