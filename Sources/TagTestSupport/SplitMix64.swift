/// A tiny deterministic generator (SplitMix64) so property tests replay the same cases every run.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Starts the sequence at `seed`.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }

  /// A string of `0..<maxLength` pieces drawn from `alphabet`.
  public mutating func string(from alphabet: [String], maxLength: Int) -> String {
    var text = ""
    for _ in 0..<Int.random(in: 0..<maxLength, using: &self) {
      text += alphabet[Int.random(in: 0..<alphabet.count, using: &self)]
    }
    return text
  }
}
