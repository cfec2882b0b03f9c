/// `file://` URIs as LSP sends them, and the absolute paths they name.
///
/// Written as LSP clients write them: every byte of the path but the unreserved ones
/// (`A-Z a-z 0-9 - . _ ~`) and `/` is percent-encoded. Read leniently: any `%XX` is decoded, an
/// empty or `localhost` authority is accepted, and nothing else is.
public enum FileURI {
  /// The URI of absolute `path`.
  public static func uri(ofPath path: String) -> String {
    var out: [UInt8] = Array("file://".utf8)
    let hex = Array("0123456789ABCDEF".utf8)
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
        out.append(byte)
      default:
        out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The absolute path `uri` names; nil when it is not a `file:` URI of a local absolute path
  /// (or its percent-encoding is not valid UTF-8).
  public static func path(ofURI uri: String) -> String? {
    // On the bytes: every request names its note by URI, and the parts looked for are ASCII.
    var input = Array(uri.utf8)[...]
    guard startsCaseless(input, "file://") else { return nil }
    input = input.dropFirst(7)
    if startsCaseless(input, "localhost/") { input = input.dropFirst(9) }
    guard input.first == UInt8(ascii: "/") else { return nil }
    if let query = input.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
      input = input[..<query]
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(input.count)
    while let byte = input.popFirst() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard input.count >= 2, let high = hexValue(input[input.startIndex]),
        let low = hexValue(input[input.startIndex + 1])
      else { return nil }
      bytes.append(high << 4 | low)
      input = input.dropFirst(2)
    }
    // Windows-style `/C:/...` paths are not local paths on the systems tagd serves.
    guard let path = String(validating: bytes, as: UTF8.self), !path.contains("\0") else {
      return nil
    }
    return normalized(path)
  }

  /// `path` without `.` segments, repeated or trailing slashes (`..` kept: tagd never resolves
  /// it without the file system).
  public static func normalized(_ path: String) -> String {
    let parts = path.split(separator: "/").filter { $0 != "." }
    return "/" + parts.joined(separator: "/")
  }

  /// Whether `bytes` start with `prefix` (ASCII, lower case), ignoring ASCII case.
  private static func startsCaseless(_ bytes: ArraySlice<UInt8>, _ prefix: String) -> Bool {
    guard bytes.count >= prefix.utf8.count else { return false }
    return zip(bytes, prefix.utf8).allSatisfy { byte, expected in
      byte == expected || (expected >= UInt8(ascii: "a") && byte | 0x20 == expected)
    }
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
