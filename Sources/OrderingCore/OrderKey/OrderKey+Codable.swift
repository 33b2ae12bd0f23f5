extension OrderKey: Codable {
  /// Decodes a key from a JSON string, validating it.
  ///
  /// - Throws: `DecodingError.dataCorrupted` whose debug description is the
  ///   ``OrderingError`` message, when the string is not a valid key.
  /// - Complexity: O(*m*), where *m* is the key's length.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    do {
      self = try OrderKey(validating: text)
    } catch {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
    }
  }

  /// Encodes the key as a JSON string.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}
