extension OrderKey {
  /// Returns a key strictly between two keys with random digits appended.
  ///
  /// Two replicas that insert into the same gap at the same time would otherwise make the
  /// same key. The random suffix (`randomDigits` base-62 digits, the last one never `0`;
  /// the default 6 carry about 35.7 bits) makes that collision unlikely. With a seeded
  /// generator the result is reproducible.
  ///
  /// ```swift
  /// var rng = SystemRandomNumberGenerator()
  /// let key = try OrderKey.between(a, b, jitter: &rng)
  /// ```
  ///
  /// - Parameters:
  ///   - lower: The key to sort after, or `nil`.
  ///   - upper: The key to sort before, or `nil`.
  ///   - generator: The source of randomness; seed it for reproducible keys.
  ///   - randomDigits: How many random digits to append, at least 6 (≥ 30 bits).
  /// - Returns: A key strictly between the bounds whose last `randomDigits` digits are random.
  /// - Throws: The errors of ``between(_:_:)``.
  /// - Complexity: O(*m*), where *m* is the longer bound's length.
  public static func between<Generator: RandomNumberGenerator>(
    _ lower: OrderKey?, _ upper: OrderKey?, jitter generator: inout Generator,
    randomDigits: Int = 6
  ) throws(OrderingError) -> OrderKey {
    precondition(randomDigits >= 6, "at least 6 random digits (30 bits) are needed")
    var base = try between(lower, upper)
    // The suffix is appended to `base`, so `base` must not be a prefix of the upper bound:
    // step toward the upper bound until it is not (each step makes `base` longer).
    if let upper {
      while upper.rawValue.utf8.starts(with: base.rawValue.utf8) {
        base = try between(base, upper)
      }
    }
    let digits = KeyDigits.base62.digits
    var suffix: [UInt8] = []
    suffix.reserveCapacity(randomDigits)
    for index in 0..<randomDigits {
      let isLast = index == randomDigits - 1
      let value =
        isLast
        ? Int.random(in: 1..<62, using: &generator) : Int.random(in: 0..<62, using: &generator)
      suffix.append(digits[value])
    }
    return OrderKey(unchecked: base.rawValue + String(decoding: suffix, as: UTF8.self))
  }
}
