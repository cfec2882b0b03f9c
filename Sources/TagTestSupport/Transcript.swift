public import JSONRPC

/// A recorded client/server conversation from `Protocol/transcripts/`, replayed by the tests.
///
/// The format is line-based: `-> BODY` is a message the client sends (sent byte for byte, so
/// it may be invalid JSON), `<- JSON` is the next reply the server must write, `<~ JSON` is a
/// next reply that must *contain* this JSON (every member given, recursively; used for
/// `initialize`, whose whole result only the lifecycle transcript pins), `== exit N` is the
/// status the daemon must exit with once the client closes stdin, and lines starting with `#`
/// (or blank) are commentary.
///
/// `{{rootUri}}` and `{{root}}` stand for the checkout's root as a `file://` URI and as a path
/// (a transcript serves a vault of the repository without naming where it is checked out).
/// A transcript that uses them is replayed **stepwise** over pipes: each message is sent once
/// the replies to the one before it have arrived, so requests parked while the vault is indexed
/// are answered in the order written (the tests of parking itself hold indexing explicitly).
public struct Transcript: Sendable {
  /// The file name without extension.
  public var name: String
  /// Bodies the client sends, in order.
  public var sends: [String]
  /// Replies the server must write, in order.
  public var expectedReplies: [ExpectedReply]
  /// The exit status expected after stdin closes, when the transcript states one.
  public var expectedExit: Int32?
  /// How many replies each send is followed by.
  public var replyCounts: [Int]
  /// Whether it serves a vault of the repository (see ``Transcript``): replayed stepwise.
  public var stepwise: Bool

  /// The checkout's root as a `file://` URI, as LSP clients write one.
  public static var rootURI: String {
    var out = "file://"
    for byte in packageRoot().utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        out.unicodeScalars += ["%", hex[Int(byte >> 4)], hex[Int(byte & 15)]]
      }
    }
    return out
  }

  /// `text` with the placeholders filled in.
  public static func expanding(_ text: String) -> String {
    text.replacing("{{rootUri}}", with: rootURI).replacing("{{root}}", with: packageRoot())
  }

  /// `text` with the checkout's root put back as placeholders (for recording).
  public static func abstracting(_ text: String) -> String {
    text.replacing(rootURI, with: "{{rootUri}}").replacing(packageRoot(), with: "{{root}}")
  }

  /// Parses transcript text.
  public init(name: String, text: String) throws(TranscriptError) {
    self.name = name
    sends = []
    expectedReplies = []
    replyCounts = []
    stepwise = text.contains("{{root")
    let text = Self.expanding(text)
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      if line.hasPrefix("-> ") {
        sends.append(String(line.dropFirst(3)))
        replyCounts.append(0)
      } else if line.hasPrefix("<- ") || line.hasPrefix("<~ ") {
        if !replyCounts.isEmpty { replyCounts[replyCounts.count - 1] += 1 }
      }
      if line.hasPrefix("-> ") {
      } else if line.hasPrefix("<- ") {
        expectedReplies.append(ExpectedReply(text: String(line.dropFirst(3)), partial: false))
      } else if line.hasPrefix("<~ ") {
        expectedReplies.append(ExpectedReply(text: String(line.dropFirst(3)), partial: true))
      } else if line.hasPrefix("== exit ") {
        guard let code = Int32(line.dropFirst(8)) else {
          throw TranscriptError(file: name, line: number + 1)
        }
        expectedExit = code
      } else if !(line.isEmpty || line.hasPrefix("#")) {
        throw TranscriptError(file: name, line: number + 1)
      }
    }
  }
}

/// One reply a transcript expects: exactly this JSON (`<- `), or any JSON containing it (`<~ `).
public struct ExpectedReply: Sendable, CustomStringConvertible {
  /// The JSON text of the line.
  public var text: String
  /// Whether the reply need only contain it.
  public var partial: Bool

  /// Whether `reply` is what this line expects (member order ignored).
  public func matches(_ reply: String) -> Bool {
    partial ? JSONCompare.contains(reply, text) : JSONCompare.same(reply, text)
  }

  /// The line as written.
  public var description: String { (partial ? "<~ " : "<- ") + text }
}

/// A transcript line that is none of the known forms.
public struct TranscriptError: Error, Sendable, CustomStringConvertible {
  /// The transcript.
  public var file: String
  /// The 1-based line number.
  public var line: Int
  /// "file:line: …".
  public var description: String {
    "\(file):\(line): not a `-> `, `<- `, `<~ `, `== exit ` or `#` line"
  }
}

/// JSON comparison that ignores object member order (replies are compared as values).
public enum JSONCompare {
  /// Parses `text`, or returns nil when it is not JSON.
  public static func parse(_ text: String) -> JSONValue? {
    try? JSONReader.parse(Array(text.utf8), maxDepth: 10_000)
  }

  /// The value with every object's members sorted by key.
  public static func canonical(_ value: JSONValue) -> JSONValue {
    switch value {
    case .array(let items): .array(items.map(canonical))
    case .object(let object):
      .object(
        JSONObject(
          object.members.map { JSONMember($0.key, canonical($0.value)) }.sorted { $0.key < $1.key }
        )
      )
    default: value
    }
  }

  /// Compact, key-sorted JSON text of `value`, for readable failure messages.
  public static func text(_ value: JSONValue) -> String {
    var writer = JSONWriter()
    writer.value(canonical(value))
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  /// Whether JSON text `a` contains `b`: objects have at least `b`'s members with contained
  /// values; everything else is equal.
  public static func contains(_ a: String, _ b: String) -> Bool {
    guard let x = parse(a), let y = parse(b) else { return false }
    return contains(x, y)
  }

  private static func contains(_ x: JSONValue, _ y: JSONValue) -> Bool {
    guard case .object(let big) = x, case .object(let small) = y else {
      return canonical(x) == canonical(y)
    }
    return small.members.allSatisfy { member in
      big[member.key].map { contains($0, member.value) } ?? false
    }
  }

  /// Whether two JSON texts denote the same value (member order ignored).
  public static func same(_ a: String, _ b: String) -> Bool {
    guard let x = parse(a), let y = parse(b) else { return false }
    return canonical(x) == canonical(y)
  }
}

/// Splits a framed byte stream into bodies with the project's own decoder.
public func splitFrames(_ bytes: [UInt8], framing: Framing) -> [String] {
  var decoder = FrameDecoder(framing: framing)
  decoder.feed(bytes)
  var bodies: [String] = []
  while let event = decoder.next() {
    if case .message(let body) = event { bodies.append(String(decoding: body, as: UTF8.self)) }
  }
  return bodies
}

/// The package root, found from this file's path.
public func packageRoot(file: String = #filePath) -> String {
  var parts = file.split(separator: "/", omittingEmptySubsequences: false)
  while let last = parts.last, last != "Sources" && last != "Tests" { parts.removeLast() }
  parts.removeLast()
  return parts.joined(separator: "/")
}
