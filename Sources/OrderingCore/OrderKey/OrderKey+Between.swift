extension OrderKey {
  /// Returns the key the reference library returns between two keys.
  ///
  /// `nil` stands for an open end: `between(nil, nil)` is `a0`, `between(k, nil)` sorts
  /// after `k`, `between(nil, k)` before it. Appending (`between(last, nil)`) and
  /// prepending make keys that stay short; inserting again and again into one gap makes
  /// keys grow by about one byte per six inserts (see ``OrderKey`` budgets).
  ///
  /// ```swift
  /// let a = OrderKey.first                  // "a0"
  /// let b = try OrderKey.between(a, nil)    // "a1"
  /// let c = try OrderKey.between(a, b)      // "a0V"
  /// ```
  ///
  /// - Parameters:
  ///   - lower: The key to sort after, or `nil` for the start of the list.
  ///   - upper: The key to sort before, or `nil` for the end of the list.
  /// - Returns: A key strictly between the bounds.
  /// - Throws: ``OrderingError/Code/boundsNotAscending`` when `lower >= upper`, naming both
  ///   keys; ``OrderingError/Code/keySpaceExhausted`` when no integer key is left.
  /// - Complexity: O(*m*), where *m* is the longer bound's length.
  public static func between(_ lower: OrderKey?, _ upper: OrderKey?) throws(OrderingError)
    -> OrderKey
  {
    try withBytes(lower?.rawValue ?? "") { (a) throws(OrderingError) in
      try withBytes(upper?.rawValue ?? "") { (b) throws(OrderingError) in
        try between(lower == nil ? nil : a, upper == nil ? nil : b, digits: .base62)
      }
    }
  }

  /// The key between two valid keys with its ``prefix``, or `nil` when `lower >= upper` or
  /// no key is left: the ordered forest's path, which reports no error (its bounds come
  /// from a valid forest) and reads the new key's bytes once.
  ///
  /// - Complexity: O(*m*), where *m* is the longer bound's length.
  @usableFromInline
  static func betweenWithPrefix(_ lower: OrderKey?, _ upper: OrderKey?) -> (
    key: OrderKey, prefix: UInt64
  )? {
    var lowerText = lower?.rawValue ?? ""
    var upperText = upper?.rawValue ?? ""
    return lowerText.withUTF8 { lowerBytes in
      upperText.withUTF8 { upperBytes in
        let a = lower == nil ? nil : lowerBytes
        let b = upper == nil ? nil : upperBytes
        if let a, let b, !KeyDigits.lessThan(a, b) { return nil }
        return withKey(between: a, b, digits: .base62) { bytes in
          (OrderKey(unchecked: String(decoding: bytes, as: UTF8.self)), prefix(of: bytes))
        }
      }
    }
  }

  /// The first 8 bytes of a key as a big-endian number, zero-padded.
  ///
  /// Keys hold no zero byte, so prefixes order as the keys do, up to ties: a search among
  /// keys compares numbers and reads the keys only when two prefixes are equal.
  @inlinable
  static func prefix(of bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 56
    for byte in bytes.prefix(8) {
      value |= UInt64(byte) &<< shift
      shift &-= 8
    }
    return value
  }

  /// The first 8 bytes of the key as a big-endian number, zero-padded (see
  /// ``prefix(of:)``).
  @inlinable
  var prefix: UInt64 {
    var text = rawValue
    return text.withUTF8 { OrderKey.prefix(of: $0) }
  }

  /// The key between two byte buffers (valid keys), using a stack buffer for the result.
  static func between(
    _ a: UnsafeBufferPointer<UInt8>?, _ b: UnsafeBufferPointer<UInt8>?,
    digits: KeyDigits
  ) throws(OrderingError) -> OrderKey {
    if let a, let b, !KeyDigits.lessThan(a, b) {
      let lowerText = String(decoding: a, as: UTF8.self)
      let upperText = String(decoding: b, as: UTF8.self)
      let relation =
        a.elementsEqual(b) ? "they are equal" : "the lower bound sorts after the upper bound"
      throw OrderingError(
        .boundsNotAscending, key: lowerText, otherKey: upperText,
        description:
          "cannot make a key between \(OrderingError.quoted(lowerText)) and \(OrderingError.quoted(upperText)): \(relation)"
      )
    }
    let text = withKey(between: a, b, digits: digits) { String(decoding: $0, as: UTF8.self) }
    guard let text else {
      let bound = a.map { String(decoding: $0, as: UTF8.self) } ?? ""
      throw OrderingError(
        .keySpaceExhausted, key: bound,
        description:
          "no key is left after \(OrderingError.quoted(bound)) below the upper bound: the integer key space is exhausted"
      )
    }
    return OrderKey(unchecked: text)
  }

  /// Writes the key between two ascending byte buffers (valid keys) into a stack buffer and
  /// passes its bytes to `body`; `nil` when the integer key space is exhausted.
  ///
  /// - Complexity: O(*m*), where *m* is the longer bound's length.
  static func withKey<Result>(
    between a: UnsafeBufferPointer<UInt8>?, _ b: UnsafeBufferPointer<UInt8>?, digits: KeyDigits,
    _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result? {
    let capacity = Swift.max(a?.count ?? 0, b?.count ?? 0) + 3
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { out in
      guard let count = digits.keyBetween(a, b, into: out) else { return nil }
      return body(UnsafeBufferPointer(rebasing: out[0..<count]))
    }
  }

  /// Returns `count` strictly increasing keys between two bounds, spread evenly.
  ///
  /// Between two keys the gap is bisected recursively, so the keys stay short:
  /// 100,000 keys between `a0` and `a1` are at most 6 bytes long. With an open end the
  /// keys are consecutive integers (`a0 a1 a2 …`). The result equals the reference
  /// library's `generateNKeysBetween`.
  ///
  /// ```swift
  /// let keys = try OrderKey.spread(3, between: nil, and: nil)   // a0 a1 a2
  /// ```
  ///
  /// - Parameters:
  ///   - count: How many keys to make; zero gives an empty array.
  ///   - lower: The key all results sort after, or `nil`.
  ///   - upper: The key all results sort before, or `nil`.
  /// - Returns: `count` keys in increasing order, each strictly between the bounds.
  /// - Throws: The errors of ``between(_:_:)``.
  /// - Complexity: O(*n* · *m*), where *n* is `count` and *m* the length of the longest key
  ///   made, which is O(log *n*) plus the bounds' length for two closed bounds.
  public static func spread(_ count: Int, between lower: OrderKey?, and upper: OrderKey?)
    throws(OrderingError) -> [OrderKey]
  {
    precondition(count >= 0, "cannot make a negative number of keys")
    var result: [OrderKey] = []
    result.reserveCapacity(count)
    try appendSpread(count, lower, upper, to: &result)
    return result
  }

  private static func appendSpread(
    _ count: Int, _ lower: OrderKey?, _ upper: OrderKey?, to result: inout [OrderKey]
  ) throws(OrderingError) {
    if count == 0 { return }
    if count == 1 {
      result.append(try between(lower, upper))
      return
    }
    if upper == nil {
      var key = try between(lower, nil)
      result.append(key)
      for _ in 1..<count {
        key = try between(key, nil)
        result.append(key)
      }
      return
    }
    if lower == nil {
      let start = result.count
      var key = try between(nil, upper)
      result.append(key)
      for _ in 1..<count {
        key = try between(nil, key)
        result.append(key)
      }
      result[start...].reverse()
      return
    }
    let half = count / 2
    let middle = try between(lower, upper)
    try appendSpread(half, lower, middle, to: &result)
    result.append(middle)
    try appendSpread(count - half - 1, middle, upper, to: &result)
  }
}
