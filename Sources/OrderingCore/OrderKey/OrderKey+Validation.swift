extension OrderKey {
  /// Creates a key from text, checking that it is a valid key.
  ///
  /// A valid key has a head letter `a`–`z` or `A`–`Z`, at least as many bytes as the
  /// integer part the head announces (`a` = 2, `b` = 3, … `Z` = 2, `Y` = 3, …), only
  /// base-62 digits after the head, no `0` at the end of its fraction, and is not the
  /// smallest integer key `A000…0` (26 zeros).
  ///
  /// ```swift
  /// let key = try OrderKey(validating: "a0V")
  /// ```
  ///
  /// - Parameter text: The key's text.
  /// - Throws: An ``OrderingError`` naming the key, the byte and what is wrong with it.
  /// - Complexity: O(*m*), where *m* is the length of `text`.
  public init(validating text: String) throws(OrderingError) {
    try withBytes(text) { (bytes) throws(OrderingError) in
      try KeyDigits.base62.validate(bytes) { text }
    }
    self.init(unchecked: text)
  }

  /// Validates `text` as a key and returns its ``prefix``, reading its bytes once: the
  /// ordered forest's build, which then keeps the text itself as the key.
  ///
  /// A key that passes the quick check (``quickPrefix(ofValid:)``) costs one pass; any other
  /// text goes through the full validation, which names what is wrong.
  ///
  /// - Complexity: O(*m*), where *m* is the length of `text`.
  @usableFromInline
  static func prefix(validating text: String) throws(OrderingError) -> UInt64 {
    var copy = text
    if let prefix = copy.withUTF8({ quickPrefix(ofValid: $0) }) { return prefix }
    return try withBytes(text) { (bytes) throws(OrderingError) in
      try KeyDigits.base62.validate(bytes) { text }
      return prefix(of: bytes)
    }
  }

  /// The ``prefix`` of `bytes` when they are surely a valid key, or `nil` when the full
  /// validation must decide: a head letter, an integer part as long as it announces, only
  /// base-62 digits (`0-9A-Za-z`) and no `0` ending a fraction. Keys with the head `A` are
  /// left to the full check, which knows the one integer nothing sorts below.
  ///
  /// - Complexity: O(*m*), where *m* is the number of bytes.
  @inlinable
  static func quickPrefix(ofValid bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
    guard let head = bytes.first else { return nil }
    let integerLength: Int
    switch head {
    case UInt8(ascii: "a")...UInt8(ascii: "z"): integerLength = Int(head &- UInt8(ascii: "a")) &+ 2
    case UInt8(ascii: "B")...UInt8(ascii: "Z"): integerLength = Int(UInt8(ascii: "Z") &- head) &+ 2
    default: return nil
    }
    let count = bytes.count
    guard count >= integerLength else { return nil }
    var prefix = UInt64(head) &<< 56
    var shift: UInt64 = 48
    for index in 1..<count {
      let byte = bytes[index]
      let isDigit =
        byte &- UInt8(ascii: "0") < 10 || byte &- UInt8(ascii: "A") < 26
        || byte &- UInt8(ascii: "a") < 26
      guard isDigit else { return nil }
      if index < 8 {
        prefix |= UInt64(byte) &<< shift
        shift &-= 8
      }
    }
    if count > integerLength && bytes[count &- 1] == UInt8(ascii: "0") { return nil }
    return prefix
  }

  /// Whether `text` is a valid key.
  ///
  /// - Complexity: O(*m*), where *m* is the length of `text`.
  public static func isValid(_ text: String) -> Bool {
    (try? OrderKey(validating: text)) != nil
  }
}

extension OrderKey: RawRepresentable {
  /// Creates a key from text, or `nil` when the text is not a valid key.
  ///
  /// Use ``init(validating:)`` to learn what is wrong with invalid text.
  ///
  /// - Complexity: O(*m*), where *m* is the length of `rawValue`.
  public init?(rawValue: String) {
    guard let key = try? OrderKey(validating: rawValue) else { return nil }
    self = key
  }
}
