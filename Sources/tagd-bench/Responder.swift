#if canImport(Glibc)
import Glibc
#endif

/// The floor: a do-nothing JSON-RPC responder with tagd's framing and I/O design.
///
/// `tagd-bench --responder` reads stdin 64 KiB at a time, finds each `Content-Length` frame,
/// and answers every message that has an `"id"` with `{"jsonrpc":"2.0","id":<id>,"result":null}`
/// (the id's bytes copied as they came), one `write(2)` per read. Raw buffers only: no JSON
/// parsing, no allocation per message. Whatever tagd costs above this is tagd's own work.
enum Responder {
  static func run() -> Never {
    let inputCapacity = 64 << 20
    let input = UnsafeMutablePointer<UInt8>.allocate(capacity: inputCapacity)
    let output = UnsafeMutablePointer<UInt8>.allocate(capacity: 4 << 20)
    var filled = 0
    while true {
      if filled == inputCapacity { exit(2) }
      let count = read(0, input + filled, min(64 << 10, inputCapacity - filled))
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { exit(0) }
      filled += count
      var cursor = 0
      var written = 0
      while let (start, length) = frame(input, from: cursor, to: filled) {
        cursor = start + length
        guard let id = idRange(input + start, length) else { continue }
        written = reply(id: input + start + id.lowerBound, id.count, into: output, at: written)
        if written > (4 << 20) - 1024 {
          writeAll(output, written)
          written = 0
        }
      }
      if written > 0 { writeAll(output, written) }
      // Keep the partial frame at the start of the buffer.
      if cursor > 0 {
        memmove(input, input + cursor, filled - cursor)
        filled -= cursor
      }
    }
  }

  /// The body start and length of the complete frame at `from`, if there is one.
  private static func frame(
    _ bytes: UnsafeMutablePointer<UInt8>,
    from: Int,
    to end: Int
  ) -> (Int, Int)? {
    var position = from
    while position < end, bytes[position] != 58 { position += 1 }  // ':'
    position += 1
    while position < end, bytes[position] == 32 { position += 1 }
    var length = 0
    while position < end, bytes[position] &- 48 < 10 {
      length = length * 10 + Int(bytes[position] &- 48)
      position += 1
    }
    guard end - position >= 4 else { return nil }
    let start = position + 4
    guard end - start >= length else { return nil }
    return (start, length)
  }

  /// The byte range of the value of the top-level `"id":` member, if any.
  private static func idRange(_ body: UnsafeMutablePointer<UInt8>, _ length: Int) -> Range<Int>? {
    var index = 0
    while index + 5 < length {
      if body[index] == 34, body[index + 1] == 105, body[index + 2] == 100,
        body[index + 3] == 34, body[index + 4] == 58
      {
        let start = index + 5
        var end = start
        while end < length, body[end] != 44, body[end] != 125 { end += 1 }  // ',' '}'
        return start..<end
      }
      index += 1
    }
    return nil
  }

  /// Appends one framed reply; returns the new output length.
  private static func reply(
    id: UnsafeMutablePointer<UInt8>,
    _ idLength: Int,
    into output: UnsafeMutablePointer<UInt8>,
    at offset: Int
  ) -> Int {
    // {"jsonrpc":"2.0","id": + id + ,"result":null}
    let head: StaticString = #"{"jsonrpc":"2.0","id":"#
    let tail: StaticString = #","result":null}"#
    let bodyLength = head.utf8CodeUnitCount + idLength + tail.utf8CodeUnitCount
    var position = offset
    func put(_ text: StaticString) {
      memcpy(output + position, text.utf8Start, text.utf8CodeUnitCount)
      position += text.utf8CodeUnitCount
    }
    put("Content-Length: ")
    var digits: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
    var value = bodyLength
    var count = 0
    withUnsafeMutableBytes(of: &digits) { d in
      repeat {
        d[count] = UInt8(value % 10) + 48
        value /= 10
        count += 1
      } while value > 0
      for i in 0..<count { output[position + i] = d[count - 1 - i] }
    }
    position += count
    put("\r\n\r\n")
    put(head)
    memcpy(output + position, id, idLength)
    position += idLength
    put(tail)
    return position
  }

  private static func writeAll(_ bytes: UnsafeMutablePointer<UInt8>, _ count: Int) {
    var offset = 0
    while offset < count {
      let written = write(1, bytes + offset, count - offset)
      if written < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        exit(1)
      }
      offset += written
    }
  }
}
