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

  /// Times each decoder over `iterations` messages, `runs` times.
  static func measure(iterations: Int, runs: Int) throws(BenchError) -> [DecoderTiming] {
    let bytes = Array(message.utf8)
    let data = Data(bytes)
    let decoder = JSONDecoder()
    var checksum = 0
    let candidates: [(String, () -> Int)] = [
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
        "FoundationEssentials `JSONDecoder` (`Decodable` struct)",
        { (try? decoder.decode(ChangeRequest.self, from: data))?.id ?? 0 }
      ),
      (
        "Foundation `JSONSerialization.jsonObject` (`[String: Any]`)",
        { ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any])?.count ?? 0 }
      ),
    ]
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
}
