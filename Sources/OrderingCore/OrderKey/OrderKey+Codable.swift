extension OrderKey: Codable {
  /// Decodes a key from a JSON string, validating it.
  ///
  /// - Throws: `DecodingError.dataCorrupted` whose debug description is the
  ///   ``OrderingError`` message, when the string is not a valid key.
  /// - Complexity: O(*m*), where *m* is the key's length.
  public init(from decoder: any Decoder) throws {
    self = try decoder.singleValueContainer().decode(parsedBy: OrderKey.init(validating:))
  }

  /// Encodes the key as a JSON string.
  public func encode(to encoder: any Encoder) throws { try rawValue.encode(to: encoder) }
}
