/// Several measurements of one figure: median, min and max.
struct Sample {
  /// The measurements, in the order taken.
  var values: [Double]

  init(_ values: [Double]) {
    self.values = values
  }

  /// The median (the mean of the middle two for an even count).
  var median: Double { Self.percentile(values, 0.5) }
  /// The smallest value.
  var min: Double { values.min() ?? .nan }
  /// The largest value.
  var max: Double { values.max() ?? .nan }

  /// The `fraction` percentile of `values` (linear interpolation between order statistics).
  static func percentile(_ values: [Double], _ fraction: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let rank = fraction * Double(sorted.count - 1)
    let low = Int(rank)
    let high = Swift.min(low + 1, sorted.count - 1)
    return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
  }
}

/// Number formatting for the report (no Foundation).
enum Format {
  /// `value` with `digits` decimals.
  static func fixed(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return "—" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = "\(rounded)"
    if let dot = text.firstIndex(of: ".") {
      let decimals = text.distance(from: dot, to: text.endIndex) - 1
      if digits == 0 {
        text = String(text[..<dot])
      } else if decimals < digits {
        text += String(repeating: "0", count: digits - decimals)
      }
    }
    return text
  }

  /// A count with thin separators: 1,000,000.
  static func count(_ value: Int) -> String {
    let digits = Array(String(value))
    var out = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
      out.append(digit)
    }
    return out
  }

  /// `median (min–max) unit`.
  static func sample(_ sample: Sample, _ digits: Int, _ unit: String) -> String {
    "\(fixed(sample.median, digits)) \(unit) (\(fixed(sample.min, digits))–\(fixed(sample.max, digits)))"
  }
}
