import TagTestSupport
import Testing

@testable import JSONRPC

/// The word-at-a-time escape scan finds exactly the bytes a byte-by-byte scan finds.
@Suite struct EscapeScanTests {
  func naive(_ bytes: [UInt8], from start: Int) -> Int {
    bytes[start...].firstIndex { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C } ?? bytes.count
  }

  @Test func matchesAByteByByteScan() {
    var random = SplitMix64(seed: 42)
    for _ in 0..<5_000 {
      let count = Int.random(in: 0...40, using: &random)
      let bytes = (0..<count).map { _ in
        // Mostly plain text, sometimes any byte (including UTF-8 lead/continuation bytes).
        Bool.random(using: &random)
          ? UInt8.random(in: 0x20...0x7E, using: &random)
          : UInt8.random(in: 0...0xFF, using: &random)
      }
      let start = count == 0 ? 0 : Int.random(in: 0...count, using: &random)
      let fast = bytes.withUnsafeBufferPointer {
        JSONWriter.firstByteNeedingEscape($0, from: start)
      }
      #expect(fast == naive(bytes, from: start), "\(bytes) from \(start)")
    }
  }

  @Test(arguments: [0x00, 0x1F, 0x22, 0x5C, 0x0A] as [UInt8])
  func findsEachEscapedByteInEveryLane(byte: UInt8) {
    for position in 0..<17 {
      var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 17)
      bytes[position] = byte
      let found = bytes.withUnsafeBufferPointer { JSONWriter.firstByteNeedingEscape($0, from: 0) }
      #expect(found == position)
    }
  }
}

/// The scanner's word-at-a-time run scan stops exactly where a byte-by-byte scan stops.
@Suite struct PlainRunScanTests {
  func naive(_ bytes: [UInt8], from start: Int) -> Int {
    bytes[start...].firstIndex { $0 < 0x20 || $0 >= 0x80 || $0 == 0x22 || $0 == 0x5C }
      ?? bytes.count
  }

  @Test func matchesAByteByByteScan() {
    var random = SplitMix64(seed: 43)
    for _ in 0..<5_000 {
      let count = Int.random(in: 0...40, using: &random)
      let bytes = (0..<count).map { _ in
        Int.random(in: 0..<4, using: &random) > 0
          ? UInt8.random(in: 0x20...0x7E, using: &random)
          : UInt8.random(in: 0...0xFF, using: &random)
      }
      let start = count == 0 ? 0 : Int.random(in: 0...count, using: &random)
      let fast = bytes.withUnsafeBufferPointer { JSONScanner.plainRunEnd($0, from: start) }
      #expect(fast == naive(bytes, from: start), "\(bytes) from \(start)")
    }
  }

  @Test(arguments: [0x00, 0x1F, 0x22, 0x5C, 0x80, 0xC3, 0xFF] as [UInt8])
  func stopsAtEachByteInEveryLane(byte: UInt8) {
    for position in 0..<17 {
      var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 17)
      bytes[position] = byte
      let found = bytes.withUnsafeBufferPointer { JSONScanner.plainRunEnd($0, from: 0) }
      #expect(found == position)
    }
  }
}
