import Foundation
import JSONRPC

/// Decoding one typical request: our byte-level reader against Foundation's coders, in-process.
struct DecoderTiming {
  /// What decoded the message.
  var name: String
  /// Nanoseconds per message: median and range over the runs.
  var nanoseconds: Sample
}

/// The shape `JSONDecoder` decodes the typical request into.
private struct ChangeRequest: Decodable {
  struct Params: Decodable {
    var field: String
    var text: String
  }
  var jsonrpc: String
  var id: Int
  var method: String
  var params: Params
}

enum JSONComparison {
  /// The typical per-keystroke message.
  static let message =
    #"{"jsonrpc":"2.0","id":12345,"method":"field/change","params":{"field":"f1","text":"new york ci"}}"#

  /// Runs decoder `index` `count` times; returns the checksum (0 if it decoded nothing).
  static func loop(decoder index: Int, count: Int) -> Int {
    let candidates = candidates()
    guard candidates.indices.contains(index) else { return 0 }
    var checksum = 1
    for _ in 0..<count { checksum &+= candidates[index].1() }
    return checksum
  }

  /// Times each decoder over `iterations` messages, `runs` times.
  static func measure(iterations: Int, runs: Int) throws(BenchError) -> [DecoderTiming] {
    let candidates = candidates()
    var checksum = 0
    var timings: [DecoderTiming] = []
    for (name, decode) in candidates {
      guard decode() != 0 else { throw BenchError("\(name) failed to decode the typical request") }
      var samples: [Double] = []
      for run in 0...runs {
        let start = Clock.nanoseconds()
        for _ in 0..<iterations { checksum &+= decode() }
        let perMessage = Double(Clock.nanoseconds() - start) / Double(iterations)
        if run > 0 { samples.append(perMessage) }
      }
      timings.append(DecoderTiming(name: name, nanoseconds: Sample(samples)))
    }
    guard checksum != 0 else { throw BenchError("the decoders decoded nothing") }
    return timings
  }

  /// The decoders compared, each decoding the typical request once.
  private static func candidates() -> [(String, () -> Int)] {
    let bytes = Array(message.utf8)
    let data = Data(bytes)
    let decoder = JSONDecoder()
    return [
      (
        "`JSONRPC.JSONReader.parse` (bytes → `JSONValue`)",
        { (try? JSONReader.parse(bytes))?["id"] == .integer(12345) ? 1 : 0 }
      ),
      (
        "`JSONRPC.Envelope.decode` (parse + classify, what tagd runs)",
        {
          if case .single(.success(.request(_, let method, _))) = Envelope.decode(bytes) {
            return method.utf8.count
          }
          return 0
        }
      ),
      (
        "`JSONRPC.JSONScanner`: full validating scan, nothing built",
        { scan(bytes) { scanner throws(JSONParseError) in try scanner.scanDocument() } ? 1 : 0 }
      ),
      (
        "`JSONRPC.JSONScanner`: envelope and params pulled, the two Strings made",
        { pullChange(bytes) }
      ),
      (
        "FoundationEssentials `JSONDecoder` (`Decodable` struct)",
        { (try? decoder.decode(ChangeRequest.self, from: data))?.id ?? 0 }
      ),
      (
        "Foundation `JSONSerialization.jsonObject` (`[String: Any]`)",
        { ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any])?.count ?? 0 }
      ),
    ]
  }

  /// Runs `body` on a scanner over `bytes`; false when it throws.
  private static func scan(
    _ bytes: [UInt8],
    _ body: (inout JSONScanner) throws(JSONParseError) -> Void
  ) -> Bool {
    bytes.withUnsafeBufferPointer { buffer in
      var scanner = JSONScanner(buffer)
      do throws(JSONParseError) {
        try body(&scanner)
        return true
      } catch {
        return false
      }
    }
  }

  /// What typed decoding from bytes does for the typical request: the envelope's members
  /// matched as bytes, the method compared as bytes, `field` and `text` made into Strings.
  private static func pullChange(_ bytes: [UInt8]) -> Int {
    var result = 0
    let scanned = scan(bytes) { scanner throws(JSONParseError) in
      guard try scanner.beginObject() else { return }
      var id: Int64 = 0
      var isChange = false
      var field = ""
      var text = ""
      while let key = try scanner.nextKey() {
        if key == "jsonrpc" {
          guard let version = try scanner.readStringBytes(), version == "2.0" else { return }
        } else if key == "id" {
          guard case .integer(let value)? = try scanner.readNumber() else { return }
          id = value
        } else if key == "method" {
          isChange = try scanner.readStringBytes().map { $0 == "field/change" } ?? false
        } else if key == "params", try scanner.beginObject() {
          while let member = try scanner.nextKey() {
            if member == "field" {
              field = try scanner.readString() ?? ""
            } else if member == "text" {
              text = try scanner.readString() ?? ""
            } else {
              try scanner.skipValue()
            }
          }
        } else {
          try scanner.skipValue()
        }
      }
      try scanner.finish()
      if isChange && id == 12345 { result = field.utf8.count + text.utf8.count }
    }
    return scanned ? result : 0
  }
}
