/// A coding key named at run time (an event's details, whose keys depend on the event).
struct CodingName: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }

  init(_ name: String) { stringValue = name }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

extension KeyedEncodingContainer {
  /// Encodes a number, or null when there is none or it is not finite (JSON has no
  /// infinities, and reports have always shown a missing figure as null).
  mutating func encodeNumber(_ value: Double?, forKey key: Key) throws {
    if let value, value.isFinite {
      try encode(value, forKey: key)
    } else {
      try encodeNil(forKey: key)
    }
  }
}

/// The text of a number in replays and evaluations: an integer without a fraction, else the
/// shortest text that reads back to the same value.
func shortText(_ value: Double) -> String {
  if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
  return value.description
}
