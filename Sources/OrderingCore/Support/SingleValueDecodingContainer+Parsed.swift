extension SingleValueDecodingContainer {
  /// Decodes a value written as a string that is checked when read (an order key, a placement
  /// role): the string, made into a value by `parse`.
  ///
  /// - Parameter parse: Makes the value from the string, or throws why it cannot.
  /// - Returns: The value.
  /// - Throws: The decoder's error when the value is not a string; `DecodingError.dataCorrupted`
  ///   whose debug description is the error's text when `parse` refuses the string.
  /// - Complexity: O(*m*) plus the cost of `parse`, where *m* is the string's length.
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
