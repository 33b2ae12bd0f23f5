/// A seeded, reproducible random number generator (SplitMix64).
///
/// Every random test case draws from one of these, so a failure can be replayed: the seed
/// is part of every failure message (use ``description`` in `#expect` comments), and the
/// environment variable `OFFLOAD_TEST_SEED` overrides the default seed of ``testSeed(_:)``.
///
/// ```swift
/// var rng = SplitMix64(seed: SplitMix64.testSeed(42))
/// #expect(check(list), "\(rng)")
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable, CustomStringConvertible {
  /// The seed this generator started from.
  public let seed: UInt64
  private var state: UInt64

  /// Creates a generator from a seed.
  public init(seed: UInt64) {
    self.seed = seed
    self.state = seed
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// `seed N` plus how to replay it, for failure messages.
  public var description: String {
    "seed \(seed) (replay with OFFLOAD_TEST_SEED=\(seed))"
  }

  /// The seed a test uses: `OFFLOAD_TEST_SEED` when set, else `defaultSeed`.
  public static func testSeed(_ defaultSeed: UInt64) -> UInt64 {
    if let text = Environment.value("OFFLOAD_TEST_SEED"), let seed = UInt64(text) { return seed }
    return defaultSeed
  }

  /// A uniformly random index into a collection of `count` elements.
  public mutating func index(below count: Int) -> Int {
    Int.random(in: 0..<count, using: &self)
  }

  /// True with probability `probability`.
  public mutating func chance(_ probability: Double) -> Bool {
    Double.random(in: 0..<1, using: &self) < probability
  }
}
