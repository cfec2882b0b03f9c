/// A pure, incremental frame decoder for both framings; knows nothing about file descriptors.
///
/// Feed it bytes as they arrive, then call ``next()`` until it returns nil. With no forced
/// framing it picks one from the first non-whitespace byte: `C`/`c` means Content-Length,
/// anything else newline-delimited.
///
/// - Important: Content-Length counts bytes. Header names match case-insensitively; unknown
///   headers (such as Vim's `Content-Type`) are ignored; the last `Content-Length` wins; the
///   space after the colon is optional; bare `\n` line ends are accepted.
///
/// Error handling and resynchronisation (Content-Length):
/// - A body over `maxMessageBytes` is reported at once as `messageTooLarge(size:limit:)`; its
///   bytes are then skipped as they arrive, never stored, and decoding continues after it.
/// - A malformed header line (no colon, or a name that is not an HTTP token), a header block
///   without `Content-Length`, an invalid length value, or a header block over
///   `maxHeaderBytes` is reported once; the decoder then discards bytes until the next
///   occurrence of `content-length` (any case, anywhere — a body without a trailing newline
///   runs straight into the next header) and parses a header block from there.
/// - Blank lines between messages are skipped silently.
///
/// Newline-delimited: lines are split on `\n`, one trailing `\r` is stripped, whitespace-only
/// lines are skipped; a line over `maxMessageBytes` is reported once as
/// `messageTooLarge(size: nil, limit:)` and skipped up to its newline without being stored.
public struct FrameDecoder: Sendable {
  /// The framing in use; nil until detected.
  public private(set) var framing: Framing?
  /// The limits in force.
  public let limits: FrameLimits

  private enum State: Sendable {
    case detecting
    /// Reading a header block; `consumed` counts its header bytes so far.
    case headers(length: Int?, consumed: Int)
    case body(length: Int)
    case skippingBody(remaining: Int)
    case resynchronizing
    case line
    case skippingLine
  }

  private var state: State
  private var buffer: [UInt8] = []
  /// The first unconsumed byte of `buffer`.
  private var readIndex = 0
  /// No `\n` lies in `readIndex..<searchIndex`: a search for a line end resumes here.
  private var searchIndex = 0

  private static let contentLengthName = Array("content-length".utf8)

  /// Creates a decoder; `framing` nil means detect from the first non-whitespace byte.
  public init(framing: Framing? = nil, limits: FrameLimits = FrameLimits()) {
    self.framing = framing
    self.limits = limits
    self.state = Self.initialState(for: framing)
  }

  private static func initialState(for framing: Framing?) -> State {
    switch framing {
    case nil: .detecting
    case .contentLength?: .headers(length: nil, consumed: 0)
    case .newlineDelimited?: .line
    }
  }

  /// Appends bytes read from the stream.
  public mutating func feed(_ bytes: Span<UInt8>) {
    bytes.withUnsafeBytes { feed($0) }
  }

  /// ``feed(_:)-(Span<UInt8>)`` for bytes lent by a pointer.
  mutating func feed(_ bytes: UnsafeRawBufferPointer) {
    compact()
    var start = 0
    if readIndex == buffer.count {
      // Bytes that are being skipped are dropped here, without ever entering the buffer.
      switch state {
      case .skippingBody(let remaining):
        start = min(remaining, bytes.count)
        state =
          remaining == start
          ? .headers(length: nil, consumed: 0) : .skippingBody(remaining: remaining - start)
      case .skippingLine:
        if let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) {
          start = newline + 1
          state = .line
        } else {
          start = bytes.count
        }
      default:
        break
      }
    }
    buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start...]))
  }

  /// Appends what `fill` writes (a stream's bytes, read with no copy between) into room for
  /// `capacity` bytes at the buffer's end; bytes being skipped are dropped when read past.
  public mutating func feed(reading capacity: Int, _ fill: (inout OutputSpan<UInt8>) -> Void) {
    compact()
    buffer.append(addingCapacity: capacity, initializingWith: fill)
  }

  /// Appends bytes read from the stream.
  public mutating func feed(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { feed($0) }
  }

  /// The next event, the message copied out of the buffer (``nextBorrowed(_:)`` lends it).
  public mutating func next() -> FrameEvent? {
    switch nextFound() {
    case nil: return nil
    case .message(let range)?: return .message(Array(buffer[range]))
    case .error(let error)?: return .error(error)
    }
  }

  /// Hands the next message, lent from the decoder's buffer, or stream error to `message` or
  /// `error`, with the stream's framing; false, calling neither, when more bytes are needed.
  public mutating func nextBorrowed(
    message: (Span<UInt8>, Framing) -> Void,
    error: (FrameError, Framing) -> Void
  ) -> Bool {
    guard let found = nextFound() else { return false }
    let framing = framing ?? .contentLength
    switch found {
    case .message(let range): message(buffer.span.extracting(range), framing)
    case .error(let problem): error(problem, framing)
    }
    return true
  }

  /// What the decoder found next: a message (where it lies in ``buffer``) or an error.
  private enum Found {
    case message(Range<Int>)
    case error(FrameError)
  }

  /// The next complete message or stream error, or nil when more bytes are needed.
  private mutating func nextFound() -> Found? {
    while true {
      switch state {
      case .detecting:
        while readIndex < buffer.count, isWhitespace(buffer[readIndex]) { readIndex += 1 }
        guard readIndex < buffer.count else { return nil }
        framing = buffer[readIndex] | 0x20 == UInt8(ascii: "c") ? .contentLength : .newlineDelimited
        state = Self.initialState(for: framing)
      case .headers(let length, let consumed):
        if FastPath.plainHeader.isOn, length == nil, consumed == 0,
          let (headerBytes, bodyLength) = plainHeader()
        {
          FastPath.plainHeader.taken()
          readIndex += headerBytes
          state = .body(length: bodyLength)
          continue
        }
        switch nextHeaderLine(length: length, consumed: consumed) {
        case .needMoreBytes: return nil
        case .report(let error): return .error(error)
        case .continue: continue
        }
      case .body(let length):
        guard buffer.count - readIndex >= length else {
          // Room for a large body at once, rather than doubling (and copying) as it comes.
          if length >= 1 << 16, buffer.capacity < readIndex + length {
            buffer.reserveCapacity(readIndex + length)
          }
          return nil
        }
        let body = readIndex..<(readIndex + length)
        readIndex += length
        state = .headers(length: nil, consumed: 0)
        if let mismatch = lengthMismatch(body) { return .error(mismatch) }
        return .message(body)
      case .skippingBody(let remaining):
        let available = min(remaining, buffer.count - readIndex)
        readIndex += available
        guard available == remaining else {
          state = .skippingBody(remaining: remaining - available)
          return nil
        }
        state = .headers(length: nil, consumed: 0)
      case .resynchronizing:
        guard let found = findContentLengthName() else {
          readIndex = max(readIndex, buffer.count - (Self.contentLengthName.count - 1))
          return nil
        }
        readIndex = found
        state = .headers(length: nil, consumed: 0)
      case .line:
        guard let newline = findNewline() else {
          guard buffer.count - readIndex > limits.maxMessageBytes + 1 else { return nil }
          readIndex = buffer.count
          state = .skippingLine
          return .error(.messageTooLarge(size: nil, limit: limits.maxMessageBytes))
        }
        let start = readIndex
        let end =
          newline > start && buffer[newline - 1] == UInt8(ascii: "\r") ? newline - 1 : newline
        readIndex = newline + 1
        if isBlank(start..<end) { continue }
        guard end - start <= limits.maxMessageBytes else {
          return .error(.messageTooLarge(size: nil, limit: limits.maxMessageBytes))
        }
        return .message(start..<end)
      case .skippingLine:
        guard let newline = findNewline() else {
          readIndex = buffer.count
          return nil
        }
        readIndex = newline + 1
        state = .line
      }
    }
  }

  /// Ends the stream: returns the error for a partial message left in the buffer, if any.
  ///
  /// - A partial Content-Length body gives `truncated(expected: N, received: bytesSoFar)`.
  /// - A partial header block gives `malformedHeader` ("stream ended inside a header block").
  /// - A final newline-delimited line without its `\n` is not delivered: it gives
  ///   `truncated(expected: n + 1, received: n)` — the frame lacks its terminating byte, just
  ///   as a short Content-Length body lacks its last bytes.
  /// - Bytes already reported (a body or line being skipped, garbage being discarded) and
  ///   whitespace give nil.
  ///
  /// The decoder is empty afterwards, keeping its framing.
  public mutating func finish() -> FrameError? {
    defer {
      buffer = []
      readIndex = 0
      searchIndex = 0
      state = Self.initialState(for: framing)
    }
    let pending = buffer.count - readIndex
    switch state {
    case .detecting, .skippingBody, .resynchronizing, .skippingLine:
      return nil
    case .headers(_, let consumed):
      guard consumed > 0 || !isBlank(readIndex..<buffer.count) else { return nil }
      return .malformedHeader("stream ended inside a header block")
    case .body(let length):
      return .truncated(expected: length, received: pending)
    case .line:
      guard !isBlank(readIndex..<buffer.count) else { return nil }
      return .truncated(expected: pending + 1, received: pending)
    }
  }

  // MARK: Content-Length headers

  /// What consuming one header line led to.
  private enum HeaderStep {
    case needMoreBytes
    case report(FrameError)
    case `continue`
  }

  /// Consumes one header line if a whole one is buffered.
  private mutating func nextHeaderLine(length: Int?, consumed: Int) -> HeaderStep {
    guard let newline = findNewline() else {
      if consumed + (buffer.count - readIndex) > limits.maxHeaderBytes {
        readIndex = buffer.count
        state = .resynchronizing
        return .report((.headerTooLong(limit: limits.maxHeaderBytes)))
      }
      return .needMoreBytes
    }
    let start = readIndex
    let end = newline > start && buffer[newline - 1] == UInt8(ascii: "\r") ? newline - 1 : newline
    let lineBytes = newline + 1 - start
    readIndex = newline + 1
    guard consumed + lineBytes <= limits.maxHeaderBytes else {
      state = .resynchronizing
      return .report((.headerTooLong(limit: limits.maxHeaderBytes)))
    }
    if isBlank(start..<end) {
      // Blank lines before a header block are tolerated; after one, a blank line ends it.
      guard consumed > 0 else { return .continue }
      return endOfHeaders(length: length)
    }
    guard let colon = headerNameEnd(start..<end) else {
      // The next header may be glued to the garbage (a body that ran on past its
      // Content-Length): look for it from inside this line, not after it.
      readIndex = start + 1
      state = .resynchronizing
      return .report((.malformedHeader(text(start..<end))))
    }
    guard colon - start == Self.contentLengthName.count, matchesContentLengthName(at: start) else {
      state = .headers(length: length, consumed: consumed + lineBytes)
      return .continue
    }
    var valueStart = colon + 1
    var valueEnd = end
    while valueStart < valueEnd, isSpaceOrTab(buffer[valueStart]) { valueStart += 1 }
    while valueEnd > valueStart, isSpaceOrTab(buffer[valueEnd - 1]) { valueEnd -= 1 }
    guard let value = decimal(valueStart..<valueEnd) else {
      state = .resynchronizing
      return .report((.invalidContentLength(text(valueStart..<valueEnd))))
    }
    state = .headers(length: value, consumed: consumed + lineBytes)
    return .continue
  }

  /// Whether the Content-Length body at `body` (already consumed) is not what its length says,
  /// and where reading goes on; nil for a body to hand on (also one that is not JSON but
  /// whose length is right: the server answers that).
  ///
  /// A body that ends like a JSON-RPC message (`}` or `]`) and is followed by nothing yet or by
  /// what can start a header costs two byte checks. Otherwise the body's JSON value is found:
  /// a value that ends before the body does means too long a length, and the rest is read as
  /// the next header; a value that does not end inside the body, followed by bytes that cannot
  /// start a header, means too short a length, and the decoder resynchronises.
  @inline(__always)
  private mutating func lengthMismatch(_ body: Range<Int>) -> FrameError? {
    // In line (a call cost more than the checks): a `}` last, then a header's `C` or nothing.
    let end = body.upperBound
    if FastPath.messageBodyEnd.isOn, end > body.lowerBound, buffer[end - 1] == UInt8(ascii: "}"),
      end == buffer.count || buffer[end] | 0x20 == UInt8(ascii: "c")
    {
      FastPath.messageBodyEnd.taken()
      return nil
    }
    return valueMismatch(body)
  }

  /// ``lengthMismatch(_:)`` for any other body.
  private mutating func valueMismatch(_ body: Range<Int>) -> FrameError? {
    var last = body.upperBound
    while last > body.lowerBound, isWhitespace(buffer[last - 1]) { last -= 1 }
    let next = body.upperBound < buffer.count ? buffer[body.upperBound] : nil
    let nextStartsHeader = next.map { isWhitespace($0) || isTokenByte($0) } ?? true
    // `]` (0x5D) and `}` (0x7D) are the two bytes that give `}` with bit 5 set.
    if last > body.lowerBound, buffer[last - 1] | 0x20 == UInt8(ascii: "}"), nextStartsHeader {
      return nil
    }
    let valueEnd: Int? = buffer.withUnsafeBufferPointer { bytes in
      var scanner = JSONScanner(UnsafeBufferPointer(rebasing: bytes[body]))
      guard (try? scanner.skipValue()) != nil else { return nil }
      return scanner.position
    }
    if let valueEnd {
      var rest = body.lowerBound + valueEnd
      while rest < body.upperBound, isWhitespace(buffer[rest]) { rest += 1 }
      // Too long only when what follows the value is the start of the next header (a body with
      // other trailing text and a right length is the server's parse error).
      let name = Self.contentLengthName
      let swallowed = min(body.upperBound - rest, name.count)
      guard swallowed > 0,
        (0..<swallowed).allSatisfy({ lowercased(buffer[rest + $0]) == name[$0] })
      else { return nil }
      readIndex = rest
      return .lengthMismatch(declared: body.count, valueEnd: valueEnd)
    }
    guard !nextStartsHeader else { return nil }
    state = .resynchronizing
    return .lengthMismatch(declared: body.count, valueEnd: nil)
  }

  /// The common header block `Content-Length: N\r\n\r\n`, found in one pass: its size and N.
  ///
  /// The name may be in any case, with spaces or tabs around N. Nil for anything else
  /// (other headers, bare LFs, a block not yet complete, N over the limit, a block over the
  /// header limit), which the line-by-line path then reads with its exact errors.
  private func plainHeader() -> (headerBytes: Int, length: Int)? {
    buffer.withUnsafeBufferPointer { bytes in
      guard let base = bytes.baseAddress else { return nil }
      let start = base + readIndex
      let available = bytes.count - readIndex
      // Two overlapping words, bit 5 set in the letters' lanes only (`-` and `:` are exact).
      let name: StaticString = "content-length:"
      let nameCount = name.utf8CodeUnitCount
      guard available >= nameCount + 5 else { return nil }
      let raw = UnsafeRawPointer(start)
      let expected = UnsafeRawPointer(name.utf8Start)
      let head = raw.loadUnaligned(as: UInt64.self) | 0x0020_2020_2020_2020
      let tail = raw.loadUnaligned(fromByteOffset: 7, as: UInt64.self) | 0x0020_2020_2020_2000
      guard head == expected.loadUnaligned(as: UInt64.self),
        tail == expected.loadUnaligned(fromByteOffset: 7, as: UInt64.self)
      else { return nil }
      var index = nameCount
      while index < available, start[index] == 0x20 || start[index] == 0x09 { index += 1 }
      var value = 0
      var digits = 0
      while index < available, start[index] &- UInt8(ascii: "0") < 10, digits < 15 {
        value = value * 10 + Int(start[index] &- UInt8(ascii: "0"))
        digits += 1
        index += 1
      }
      guard digits > 0 else { return nil }
      while index < available, start[index] == 0x20 || start[index] == 0x09 { index += 1 }
      guard available - index >= 4, start[index] == 0x0D, start[index + 1] == 0x0A,
        start[index + 2] == 0x0D, start[index + 3] == 0x0A
      else { return nil }
      let headerBytes = index + 4
      guard headerBytes <= limits.maxHeaderBytes, value <= limits.maxMessageBytes else {
        return nil
      }
      return (headerBytes, value)
    }
  }

  private mutating func endOfHeaders(length: Int?) -> HeaderStep {
    guard let length else {
      state = .resynchronizing
      return .report((.missingContentLength))
    }
    guard length <= limits.maxMessageBytes else {
      state = .skippingBody(remaining: length)
      return .report((.messageTooLarge(size: length, limit: limits.maxMessageBytes)))
    }
    state = .body(length: length)
    return .continue
  }

  /// The index of the colon ending a valid header name (an HTTP token), or nil.
  private func headerNameEnd(_ range: Range<Int>) -> Int? {
    for index in range {
      let byte = buffer[index]
      if byte == UInt8(ascii: ":") { return index > range.lowerBound ? index : nil }
      guard isTokenByte(byte) else { return nil }
    }
    return nil
  }

  private func matchesContentLengthName(at start: Int) -> Bool {
    for (offset, expected) in Self.contentLengthName.enumerated()
    where lowercased(buffer[start + offset]) != expected {
      return false
    }
    return true
  }

  /// The start of the next `content-length` (any case) at or after `readIndex`, or nil.
  private func findContentLengthName() -> Int? {
    let length = Self.contentLengthName.count
    guard buffer.count - readIndex >= length else { return nil }
    for start in readIndex...(buffer.count - length)
    where buffer[start] | 0x20 == UInt8(ascii: "c") && matchesContentLengthName(at: start) {
      return start
    }
    return nil
  }

  /// Parses non-negative decimal digits; nil for anything else or on overflow.
  private func decimal(_ range: Range<Int>) -> Int? {
    guard !range.isEmpty else { return nil }
    var value = 0
    for index in range {
      let digit = buffer[index] &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      let (scaled, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = scaled.addingReportingOverflow(Int(digit))
      guard !overflow1, !overflow2 else { return nil }
      value = sum
    }
    return value
  }

  // MARK: Buffer

  private mutating func findNewline() -> Int? {
    let from = max(searchIndex, readIndex)
    let found = buffer.withUnsafeBufferPointer { bytes in
      UnsafeBufferPointer(rebasing: bytes[from...]).firstIndex(of: UInt8(ascii: "\n"))
    }
    guard let found else {
      searchIndex = buffer.count
      return nil
    }
    return from + found
  }

  /// Drops consumed bytes when that is cheap (all consumed) or worthwhile (over half).
  private mutating func compact() {
    if readIndex == buffer.count {
      buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
      readIndex = 0
      searchIndex = 0
    } else if readIndex >= 4096, readIndex * 2 >= buffer.count {
      buffer.removeSubrange(..<readIndex)
      searchIndex = max(0, searchIndex - readIndex)
      readIndex = 0
    }
  }

  private func isBlank(_ range: Range<Int>) -> Bool {
    range.allSatisfy { isWhitespace(buffer[$0]) }
  }

  /// Up to 64 bytes of the buffer as text, for error messages.
  private func text(_ range: Range<Int>) -> String {
    let end = min(range.upperBound, range.lowerBound + 64)
    return String(decoding: buffer[range.lowerBound..<end], as: UTF8.self)
  }
}

private func isWhitespace(_ byte: UInt8) -> Bool {
  byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
}

private func isSpaceOrTab(_ byte: UInt8) -> Bool {
  byte == 0x20 || byte == 0x09
}

private func lowercased(_ byte: UInt8) -> UInt8 {
  (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
}

/// RFC 9110 `tchar`: the bytes allowed in a header name.
private func isTokenByte(_ byte: UInt8) -> Bool {
  switch byte {
  case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
    UInt8(ascii: "0")...UInt8(ascii: "9"):
    return true
  case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"),
    UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"),
    UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"),
    UInt8(ascii: "~"):
    return true
  default:
    return false
  }
}
