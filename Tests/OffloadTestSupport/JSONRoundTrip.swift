import Foundation

/// Encodes and decodes values as compact JSON text with sorted keys.
public enum JSONRoundTrip {
  /// Encodes a value as JSON text.
  public static func encode<Value: Encodable>(_ value: Value) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  /// Decodes a value from JSON text.
  public static func decode<Value: Decodable>(_ type: Value.Type, from text: String) throws -> Value
  {
    try JSONDecoder().decode(type, from: Data(text.utf8))
  }
}
