// The byte-level algorithms behind `OrderKey`, written once over any ascending digit
// alphabet so the reference library's base-10 and base-95 vectors can be checked too.
// The format is the one of the JavaScript `fractional-indexing` library (version 3):
//
//   key      = head integerDigits fraction
//   head     = 'a'...'z' (integer part of 2...27 bytes) | 'A'...'Z' (27...2 bytes)
//   fraction = digit* with no trailing zero digit
//
// The integer part (head plus digits) is a number whose length the head announces, so keys
// of different magnitudes still sort by plain byte order.

/// An ascending alphabet of single-byte digits with a 256-entry lookup table.
@usableFromInline
package struct KeyDigits: Sendable {
  /// The digits in ascending byte order.
  @usableFromInline let digits: [UInt8]
  /// For each byte, its digit value, or -1 when the byte is not a digit.
  @usableFromInline let values: [Int16]

  /// The base-62 alphabet `0-9A-Za-z` of the reference library.
  package static let base62 = KeyDigits(
    Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8))

  /// Creates an alphabet; `digits` must be ascending single bytes (checked).
  package init(_ digits: [UInt8]) {
    precondition(digits.count >= 2, "a key alphabet needs at least two digits")
    precondition(zip(digits, digits.dropFirst()).allSatisfy { $0 < $1 }, "digits must ascend")
    var values = [Int16](repeating: -1, count: 256)
    for (value, digit) in digits.enumerated() { values[Int(digit)] = Int16(value) }
    self.digits = digits
    self.values = values
  }

  /// The number of digits.
  @inlinable var base: Int { digits.count }
  /// The zero digit.
  @inlinable var zero: UInt8 { digits[0] }
  /// The largest digit.
  @inlinable var last: UInt8 { digits[digits.count - 1] }

  /// The digit value of `byte`, or -1.
  @inlinable func value(_ byte: UInt8) -> Int { Int(values[Int(byte)]) }

  /// The length of the integer part (head included) that `head` announces, or nil.
  @inlinable static func integerLength(head: UInt8) -> Int? {
    switch head {
    case UInt8(ascii: "a")...UInt8(ascii: "z"): return Int(head - UInt8(ascii: "a")) + 2
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): return Int(UInt8(ascii: "Z") - head) + 2
    default: return nil
    }
  }

  /// Whether `key` is `A` followed by 26 zero digits, the one integer nothing sorts below.
  @inlinable func isSmallestInteger(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
    guard key.count == 27, key[0] == UInt8(ascii: "A") else { return false }
    for index in 1..<27 where key[index] != zero { return false }
    return true
  }

  // MARK: Validation

  /// Checks that `key` is a valid key, throwing an error that names the problem.
  ///
  /// - Complexity: O(*m*), where *m* is the length of the key.
  func validate(_ key: UnsafeBufferPointer<UInt8>, _ string: () -> String) throws(OrderingError) {
    guard let head = key.first else {
      throw OrderingError(
        .emptyKey, key: "", description: "invalid order key \"\": a key cannot be empty")
    }
    guard let integerLength = Self.integerLength(head: head) else {
      let text = string()
      throw OrderingError(
        .invalidHead, key: text, offset: 0,
        description:
          "invalid order key \(OrderingError.quoted(text)): its head \(OrderingError.describeByte(head)) at byte 0 is not a letter a-z or A-Z"
      )
    }
    if isSmallestInteger(key) {
      let text = string()
      throw OrderingError(
        .smallestInteger, key: text,
        description:
          "invalid order key \(OrderingError.quoted(text)): it is the smallest integer key, which no key can sort before"
      )
    }
    if key.count < integerLength {
      let text = string()
      throw OrderingError(
        .invalidIntegerLength, key: text, offset: key.count,
        description:
          "invalid order key \(OrderingError.quoted(text)): head '\(Character(Unicode.Scalar(head)))' needs an integer part of \(integerLength) bytes, but the key has \(key.count)"
      )
    }
    for index in 1..<key.count where value(key[index]) < 0 {
      let text = string()
      throw OrderingError(
        .invalidDigit, key: text, offset: index,
        description:
          "invalid order key \(OrderingError.quoted(text)): \(OrderingError.describeByte(key[index])) at byte \(index) is not a digit of the key alphabet"
      )
    }
    if key.count > integerLength && key[key.count - 1] == zero {
      let text = string()
      throw OrderingError(
        .trailingZero, key: text, offset: key.count - 1,
        description:
          "invalid order key \(OrderingError.quoted(text)): the fraction ends in '\(Character(Unicode.Scalar(zero)))' at byte \(key.count - 1), and a fraction may not end in the zero digit"
      )
    }
  }

  // MARK: Integer parts

  /// Writes the integer part after `integer` into `out`; returns its length, or nil at the top.
  ///
  /// - Complexity: O(*m*), where *m* is the length of the integer part.
  @inlinable
  func increment(_ integer: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>)
    -> Int?
  {
    step(integer, upward: true, into: out)
  }

  /// Writes the integer part before `integer` into `out`; returns its length, or nil at the bottom.
  ///
  /// - Complexity: O(*m*), where *m* is the length of the integer part.
  @inlinable
  func decrement(_ integer: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>)
    -> Int?
  {
    step(integer, upward: false, into: out)
  }

  /// Writes the integer part one after (`upward`) or one before `integer` into `out`; returns
  /// its length, or nil past the top (`z` and every digit the last) or the bottom (`A` and
  /// every digit the zero).
  ///
  /// Heads `a`…`z` give positive integers of 1…26 digits and `Z`…`A` negative ones, so a carry
  /// out of every digit changes the head and the length: one digit longer away from the
  /// middle, one shorter towards it, and `Z…` ↔ `a0` across it.
  ///
  /// - Complexity: O(*m*), where *m* is the length of the integer part.
  @inlinable @inline(__always)
  func step(
    _ integer: UnsafeBufferPointer<UInt8>, upward: Bool, into out: UnsafeMutableBufferPointer<UInt8>
  ) -> Int? {
    // What a digit wraps to when it carries (up) or borrows (down).
    var wrapped: UInt8 { upward ? zero : last }
    let head = integer[0]
    var count = integer.count
    for index in 0..<count { out[index] = integer[index] }
    var index = count - 1
    while index >= 1 {
      let next = value(out[index]) + (upward ? 1 : -1)
      if upward ? next == base : next < 0 {
        out[index] = wrapped
        index -= 1
      } else {
        out[index] = digits[next]
        return count
      }
    }
    // Carry out of every digit: the integer part changes length.
    let (below, above) = (UInt8(ascii: "Z"), UInt8(ascii: "a"))
    if head == (upward ? below : above) {
      out[0] = upward ? above : below
      out[1] = wrapped
      return 2
    }
    if head == (upward ? UInt8(ascii: "z") : UInt8(ascii: "A")) { return nil }
    let newHead = upward ? head + 1 : head - 1
    out[0] = newHead
    if upward ? newHead > above : newHead < below {
      out[count] = wrapped
      count += 1
    } else {
      count -= 1
    }
    return count
  }

  // MARK: Midpoint of fractions

  /// Appends to `out` at `start` the shortest fraction strictly between fractions `a` and `b`
  /// (`b == nil` is the open upper end); returns the end index.
  ///
  /// Both fractions are valid (no trailing zero) and `a < b`. The result is byte-for-byte the
  /// reference library's `midpoint`.
  ///
  /// - Complexity: O(*m*), where *m* is the longer fraction's length.
  @inlinable
  func midpoint(
    _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>?,
    into out: UnsafeMutableBufferPointer<UInt8>, at start: Int
  ) -> Int {
    var end = start
    var a = a[...]
    var b = b?[...]
    while true {
      if let upper = b {
        // Drop the longest common prefix, reading `a` as padded with zeros.
        var n = 0
        while n < upper.count {
          let digitA = n < a.count ? a[a.startIndex + n] : zero
          if digitA != upper[upper.startIndex + n] { break }
          out[end] = digitA
          end += 1
          n += 1
        }
        a = a.dropFirst(n)
        b = upper.dropFirst(n)
      }
      let digitA = a.isEmpty ? 0 : value(a[a.startIndex])
      let digitB = b.map { value($0[$0.startIndex]) } ?? base
      if digitB - digitA > 1 {
        out[end] = digits[(digitA + digitB + 1) >> 1]
        return end + 1
      }
      if let upper = b, upper.count > 1 {
        out[end] = upper[upper.startIndex]
        return end + 1
      }
      out[end] = digits[digitA]
      end += 1
      a = a.dropFirst()
      b = nil
    }
  }

  // MARK: Between

  /// Writes the reference library's key between `a` and `b` into `out`; returns its length.
  ///
  /// Both keys are valid and `a < b` when both are present. The buffer holds at least
  /// `max(a.count, b.count) + 3` bytes.
  ///
  /// - Complexity: O(*m*), where *m* is the longer key's length.
  @inlinable
  func keyBetween(
    _ a: UnsafeBufferPointer<UInt8>?, _ b: UnsafeBufferPointer<UInt8>?,
    into out: UnsafeMutableBufferPointer<UInt8>
  ) -> Int? {
    switch (a, b) {
    case (nil, nil):
      out[0] = UInt8(ascii: "a")
      out[1] = zero
      return 2
    case (nil, let b?):
      let integerLength = Self.integerLength(head: b[0]).unsafelyUnwrapped
      let integer = UnsafeBufferPointer(rebasing: b[0..<integerLength])
      if isSmallestInteger(integer) {
        for index in 0..<integerLength { out[index] = b[index] }
        let fraction = UnsafeBufferPointer(rebasing: b[integerLength...])
        return midpoint(
          UnsafeBufferPointer(start: nil, count: 0), fraction, into: out, at: integerLength)
      }
      if integerLength < b.count {
        for index in 0..<integerLength { out[index] = b[index] }
        return integerLength
      }
      guard let count = decrement(integer, into: out) else { return nil }
      // The reference library returns the smallest integer itself here (`A` and 26 zeros),
      // a key it then refuses as input. Return the key just above it instead, so every key
      // made here is valid: the one deliberate difference from the reference.
      if isSmallestInteger(UnsafeBufferPointer(rebasing: out[0..<count])) {
        return midpoint(UnsafeBufferPointer(start: nil, count: 0), nil, into: out, at: count)
      }
      return count
    case (let a?, nil):
      let integerLength = Self.integerLength(head: a[0]).unsafelyUnwrapped
      let integer = UnsafeBufferPointer(rebasing: a[0..<integerLength])
      if let count = increment(integer, into: out) { return count }
      for index in 0..<integerLength { out[index] = a[index] }
      let fraction = UnsafeBufferPointer(rebasing: a[integerLength...])
      return midpoint(fraction, nil, into: out, at: integerLength)
    case (let a?, let b?):
      let lengthA = Self.integerLength(head: a[0]).unsafelyUnwrapped
      let lengthB = Self.integerLength(head: b[0]).unsafelyUnwrapped
      let integerA = UnsafeBufferPointer(rebasing: a[0..<lengthA])
      let fractionA = UnsafeBufferPointer(rebasing: a[lengthA...])
      if lengthA == lengthB && integerA.elementsEqual(b[0..<lengthB]) {
        for index in 0..<lengthA { out[index] = a[index] }
        let fractionB = UnsafeBufferPointer(rebasing: b[lengthB...])
        return midpoint(fractionA, fractionB, into: out, at: lengthA)
      }
      guard let count = increment(integerA, into: out) else { return nil }
      if Self.lessThan(UnsafeBufferPointer(rebasing: out[0..<count]), b) { return count }
      for index in 0..<lengthA { out[index] = a[index] }
      return midpoint(fractionA, nil, into: out, at: lengthA)
    }
  }

  /// Byte-order comparison of two buffers.
  @inlinable
  static func lessThan(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    let count = Swift.min(a.count, b.count)
    var index = 0
    while index < count {
      let x = a[index]
      let y = b[index]
      if x != y { return x < y }
      index += 1
    }
    return a.count < b.count
  }
}

/// Calls `body` with the UTF-8 bytes of `text`, keeping the body's typed error.
///
/// `String.withUTF8` rethrows an untyped error; this wrapper carries an ``OrderingError``
/// through it without a cast.
@inlinable
func withBytes<Result>(
  _ text: String, _ body: (UnsafeBufferPointer<UInt8>) throws(OrderingError) -> Result
) throws(OrderingError) -> Result {
  var copy = text
  let outcome: Swift.Result<Result, OrderingError> = copy.withUTF8 { bytes in
    do throws(OrderingError) {
      return .success(try body(bytes))
    } catch {
      return .failure(error)
    }
  }
  return try outcome.get()
}
