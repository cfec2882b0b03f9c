/// Finds `Content-Length: N\r\n\r\n` frames in a growing byte buffer, exactly as tagd writes them.
///
/// Strict on purpose: tagd promises exactly this header and nothing else, so any other byte is a
/// failure of the run.
struct FrameScanner {
  /// Where the body of each complete frame lies in the buffer.
  private(set) var bodies: [Range<Int>] = []
  /// The first byte not yet part of a complete frame.
  private var cursor = 0
  private static let header = Array("Content-Length: ".utf8)

  /// The number of complete frames.
  var count: Int { bodies.count }

  /// Scans new bytes of `buffer` (which only grows); returns a problem, or nil.
  mutating func scan(_ buffer: [UInt8]) -> String? {
    buffer.withUnsafeBufferPointer { bytes in
      while true {
        let header = Self.header
        guard bytes.count - cursor >= header.count + 5 else { return nil }
        for index in 0..<header.count where bytes[cursor + index] != header[index] {
          return "reply \(bodies.count) does not start with \"Content-Length: \""
        }
        var position = cursor + header.count
        var length = 0
        while position < bytes.count, bytes[position] &- 48 < 10 {
          length = length * 10 + Int(bytes[position] &- 48)
          position += 1
        }
        guard bytes.count - position >= 4 else { return nil }
        guard bytes[position] == 13, bytes[position + 1] == 10, bytes[position + 2] == 13,
          bytes[position + 3] == 10
        else { return "reply \(bodies.count) has a malformed header" }
        let start = position + 4
        guard bytes.count - start >= length else { return nil }
        bodies.append(start..<(start + length))
        cursor = start + length
      }
    }
  }
}

/// Appends JSON-RPC messages, Content-Length framed, to a byte buffer.
struct FrameWriter {
  /// The framed bytes.
  var bytes: [UInt8] = []
  /// Where each message's frame ends in `bytes`.
  var ends: [Int] = []

  /// The frame of message `index`.
  func frame(_ index: Int) -> ArraySlice<UInt8> {
    bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
  }

  /// Appends one framed message.
  mutating func append(_ json: String) {
    var json = json
    json.withUTF8 { body in
      bytes.append(contentsOf: "Content-Length: \(body.count)\r\n\r\n".utf8)
      bytes.append(contentsOf: body)
    }
    ends.append(bytes.count)
  }

  /// Appends one framed request.
  mutating func request(id: Int, method: String, params: String) {
    append(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#)
  }
}
