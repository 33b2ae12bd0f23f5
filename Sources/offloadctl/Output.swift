import Foundation

/// Where commands print: data to stdout, messages to stderr, JSON with sorted keys.
enum Output {
  /// The JSON schema version every `--json` document carries.
  static let schemaVersion = 1

  /// Writes a line to standard output.
  static func line(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
  }

  /// Writes a line to standard error.
  static func error(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }

  /// Encodes `value` as one pretty JSON document with sorted keys.
  static func jsonText<Value: Encodable>(_ value: Value) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  /// Prints `value` as one JSON document on standard output.
  static func json<Value: Encodable>(_ value: Value) throws {
    line(try jsonText(value))
  }
}
