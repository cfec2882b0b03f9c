import TagTestSupport
import Testing

@testable import JSONRPC

/// The bytes tagd 1.0 wrote for a double: integral values below 2^53 as integers, everything
/// else through `description`.
private func reference(_ value: Double) -> String {
  guard value.isFinite else { return "null" }
  if value.magnitude < 0x1p53, Double(Int64(value)) == value {
    return value == 0 && value.sign == .minus ? "-0" : String(Int64(value))
  }
  return value.description
}

private func written(_ body: (inout JSONWriter) -> Void) -> String {
  var writer = JSONWriter()
  body(&writer)
  return String(decoding: writer.bytes, as: UTF8.self)
}

/// Doubles of every kind: multiples of 1/16 near and beyond the fast path's bound, halves of
/// sums, random bits, the specials.
private func numberSamples(count: Int, seed: UInt64) -> [Double] {
  var random = SplitMix64(seed: seed)
  var samples: [Double] = [
    0, -0.0, .infinity, -.infinity, .nan, 0.5, -0.5, 0.0625, -0.0625, 0.125, 0.25, 0.75, 0.9375,
    0x1p40 - 0.0625, -(0x1p40 - 0.0625), 0x1p40 + 0.5, 0x1p40 + 0.25, 0x1p44 + 0.5, 0x1p52 + 0.5,
    0x1p53, .greatestFiniteMagnitude, .leastNonzeroMagnitude, .leastNormalMagnitude, 1e-7, 5e20,
    -Double.greatestFiniteMagnitude, 0.0001, 0.03125, 1.0 / 3,
  ]
  for _ in 0..<count {
    let sixteenths = Int64.random(in: -(1 << 46)...(1 << 46), using: &random)
    samples.append(Double(sixteenths) / 16)
    samples.append(Double(Int64.random(in: -20_000...20_000, using: &random)) / 16)
    samples.append(Double(sixteenths) / 32)
    let a = Double(Int.random(in: 0...2_000, using: &random))
    let b = Double(Int.random(in: 0...2_000, using: &random))
    samples.append(0.5 * a + 0.5 * b)
    samples.append(Double(bitPattern: random.next()))
  }
  return samples
}

@Test func numbersAreWrittenAsTagd1WroteThem() {
  var mismatches: [String] = []
  var fast = 0
  for sample in numberSamples(count: 30_000, seed: 0x16) {
    let text = written { $0.double(sample) }
    if text != reference(sample) { mismatches.append("\(sample.bitPattern): \(text)") }
    // Where the multiple-of-1/16 path takes a value, it must agree with `description`.
    var fastBytes = [UInt8](repeating: 0, count: JSONWriter.maxNumberLength)
    let fastLength = fastBytes.withUnsafeMutableBufferPointer {
      JSONWriter.writeSixteenths(sample, to: $0.baseAddress!)
    }
    if let fastLength {
      fast += 1
      let fastText = String(decoding: fastBytes[..<fastLength], as: UTF8.self)
      if fastText != sample.description {
        mismatches.append("sixteenths of \(sample.bitPattern): \(fastText) vs \(sample)")
      }
    }
  }
  #expect(mismatches.isEmpty, "\(mismatches.count) differ, e.g. \(mismatches.prefix(5))")
  #expect(fast > 40_000)
}

@Test func sixteenthsTakeExactlyTheNonIntegralMultiplesBelow2To40() {
  func taken(_ value: Double) -> Bool {
    var bytes = [UInt8](repeating: 0, count: JSONWriter.maxNumberLength)
    return bytes.withUnsafeMutableBufferPointer {
      JSONWriter.writeSixteenths(value, to: $0.baseAddress!)
    } != nil
  }
  #expect(taken(0.5) && taken(-1234.0625) && taken(0x1p40 - 0.0625))
  #expect(!taken(3) && !taken(-0.0) && !taken(0.03125) && !taken(0x1p40 + 0.5) && !taken(.nan))
  #expect(!taken(.infinity) && !taken(0.1))
}

@Test func aRunWritesWhatKeysAndNumbersWrite() {
  let samples = numberSamples(count: 2_000, seed: 0x4F)
  var index = 0
  while index + 4 <= samples.count {
    let values = Array(samples[index..<(index + 4)])
    let run = written { w in
      w.beginArray()
      w.null()
      w.value(maxLength: 30 + 4 * JSONWriter.maxNumberLength) { run in
        run.fragment(#"{"x":"#)
        run.number(values[0])
        run.fragment(#","y":"#)
        run.number(values[1])
        run.fragment(#","width":"#)
        run.number(values[2])
        run.fragment(#","height":"#)
        run.number(values[3])
        run.fragment("}")
      }
      w.value(maxLength: 2 + 20 * 2) { run in
        run.fragment("[")
        run.integer(Int(values[0].bitPattern >> 1))
        run.fragment(",")
        run.integer(-Int(values[1].bitPattern >> 1))
        run.fragment("]")
      }
      w.endArray()
    }
    let keys = written { w in
      w.beginArray()
      w.null()
      w.beginObject()
      w.key("x")
      w.double(values[0])
      w.key("y")
      w.double(values[1])
      w.key("width")
      w.double(values[2])
      w.key("height")
      w.double(values[3])
      w.endObject()
      w.beginArray()
      w.integer(Int(values[0].bitPattern >> 1))
      w.integer(-Int(values[1].bitPattern >> 1))
      w.endArray()
      w.endArray()
    }
    #expect(run == keys)
    index += 4
  }
}

@Test func integersAreWrittenAsDescriptionWritesThem() {
  var random = SplitMix64(seed: 0x1E)
  var samples: [Int64] = [0, 1, -1, 9, 10, 11, 99, 100, 101, .max, .min, .max - 1, .min + 1]
  var power: Int64 = 1
  for _ in 0..<19 {
    samples += [power - 1, power, power + 1, -power, 1 - power]
    power = power &* 10
  }
  for _ in 0..<20_000 {
    samples.append(Int64(bitPattern: random.next()))
    samples.append(Int64(bitPattern: random.next()) >> Int64.random(in: 0...63, using: &random))
  }
  for sample in samples {
    #expect(written { $0.integer(sample) } == String(sample))
    if sample.magnitude < 1 << 53 {
      #expect(written { $0.double(Double(sample)) } == String(sample))
    }
  }
}
