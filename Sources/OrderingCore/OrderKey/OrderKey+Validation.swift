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
