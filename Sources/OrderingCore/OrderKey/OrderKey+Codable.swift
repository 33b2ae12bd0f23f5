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

extension SingleValueDecodingContainer {
  /// Decodes a value written as a string that is checked when read (an order key, a placement
  /// role): the string, made into a value by `parse`.
  ///
  /// - Parameter parse: Makes the value from the string, or throws why it cannot.
  /// - Returns: The value.
  /// - Throws: The decoder's error when the value is not a string; `DecodingError.dataCorrupted`
  ///   whose debug description is the error's text when `parse` refuses the string.
  package func decode<Value, Failure: Error & CustomStringConvertible>(
    parsedBy parse: (String) throws(Failure) -> Value
  ) throws -> Value {
    let text = try decode(String.self)
    do {
      return try parse(text)
    } catch {
      throw DecodingError.dataCorruptedError(in: self, debugDescription: error.description)
    }
  }
}
