import Foundation

/// The one JSON style of every file `Persistence` writes: sorted keys, no escaped slashes,
/// numbers as Foundation prints them (the shortest text that reads back to the same value), and
/// dates as ISO 8601 UTC text with milliseconds (`2026-11-21T22:21:15.123Z`).
enum CanonicalJSON {
  /// An encoder in the canonical style; `pretty` indents by two spaces, one member per line.
  static func encoder(pretty: Bool) -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting =
      pretty
      ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
      : [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(try ISO8601Milliseconds.format(date, codingPath: encoder.codingPath))
    }
    return encoder
  }

  /// A decoder that reads what ``encoder(pretty:)`` writes.
  static func decoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      let text = try container.decode(String.self)
      guard let date = ISO8601Milliseconds.parse(text) else {
        throw DecodingError.dataCorruptedError(
          in: container,
          debugDescription:
            "\"\(text.prefix(40))\" is not an ISO 8601 UTC date like 2026-01-31T12:00:00.000Z")
      }
      return date
    }
    return decoder
  }
}

/// Formats and parses `YYYY-MM-DDTHH:MM:SS.mmmZ` without a date formatter (years 0000–9999).
enum ISO8601Milliseconds {
  /// The text of `date`, rounded to the millisecond.
  static func format(_ date: Date, codingPath: [any CodingKey] = []) throws -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(24)
    guard write(date, to: &bytes) else {
      throw EncodingError.invalidValue(
        date,
        EncodingError.Context(
          codingPath: codingPath, debugDescription: "a date outside the years 0000-9999"))
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the 24 bytes of `date`'s text, rounded to the millisecond, to `output`; false
  /// (and nothing appended) for a date outside the years 0000–9999.
  ///
  /// - Complexity: O(1).
  static func write(_ date: Date, to output: inout [UInt8]) -> Bool {
    var text: (UInt64, UInt64, UInt64) = (0, 0, 0)
    return withUnsafeMutableBytes(of: &text) { raw in
      let buffer = raw.bindMemory(to: UInt8.self)
      guard write(date, to: buffer) else { return false }
      output.append(contentsOf: buffer)
      return true
    }
  }

  /// Writes the 24 bytes of `date`'s text, rounded to the millisecond, into `buffer` (24 bytes
  /// long); false for a date outside the years 0000–9999.
  ///
  /// - Complexity: O(1).
  static func write(_ date: Date, to buffer: UnsafeMutableBufferPointer<UInt8>) -> Bool {
    let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
    guard milliseconds.isFinite, milliseconds >= -62_167_219_200_000,
      milliseconds < 253_402_300_800_000, buffer.count >= 24
    else { return false }
    let total = Int64(milliseconds)
    let days = Int(total.floorDiv(86_400_000))
    let inDay = Int(total - Int64(days) * 86_400_000)
    let (year, month, day) = civil(fromDays: days)
    var position = 0
    func put(_ value: Int, width: Int, then separator: UInt8) {
      var rest = value
      for digit in stride(from: width - 1, through: 0, by: -1) {
        buffer[position + digit] = UInt8(ascii: "0") + UInt8(rest % 10)
        rest /= 10
      }
      buffer[position + width] = separator
      position += width + 1
    }
    put(year, width: 4, then: UInt8(ascii: "-"))
    put(month, width: 2, then: UInt8(ascii: "-"))
    put(day, width: 2, then: UInt8(ascii: "T"))
    put(inDay / 3_600_000, width: 2, then: UInt8(ascii: ":"))
    put(inDay / 60_000 % 60, width: 2, then: UInt8(ascii: ":"))
    put(inDay / 1000 % 60, width: 2, then: UInt8(ascii: "."))
    put(inDay % 1000, width: 3, then: UInt8(ascii: "Z"))
    return true
  }

  /// The date of `text`, or nil when it is not in the format (1 to 9 fraction digits, or none).
  static func parse(_ text: String) -> Date? {
    var text = text
    return text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
  }

  /// The date of the UTF-8 text in `bytes`, or nil when it is not in the format.
  ///
  /// - Complexity: O(*m*), where *m* is the number of bytes.
  static func parse(_ bytes: UnsafeRawBufferPointer) -> Date? {
    guard bytes.count >= 20, bytes[bytes.count - 1] == UInt8(ascii: "Z") else { return nil }
    func number(_ start: Int, _ count: Int) -> Int? {
      var value = 0
      for index in start..<(start + count) {
        let digit = Int(bytes[index]) - 48
        guard digit >= 0 && digit <= 9 else { return nil }
        value = value * 10 + digit
      }
      return value
    }
    guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
      bytes[16] == UInt8(ascii: ":"), let year = number(0, 4), let month = number(5, 2),
      let day = number(8, 2), let hour = number(11, 2), let minute = number(14, 2),
      let second = number(17, 2), (1...12).contains(month), (1...31).contains(day), hour < 24,
      minute < 60, second < 60
    else { return nil }
    var fraction = 0.0
    if bytes.count > 20 {
      let digits = bytes.count - 21
      guard bytes[19] == UInt8(ascii: "."), (1...9).contains(digits),
        let value = number(20, digits)
      else { return nil }
      fraction = Double(value) / pow(10, Double(digits))
    }
    let days = Self.days(fromCivil: year, month, day)
    let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second)
    // Round to the millisecond the same way `format` does, so text reads back exactly.
    return Date(timeIntervalSince1970: ((seconds + fraction) * 1000).rounded() / 1000)
  }

  /// (year, month, day) of a day count since 1970-01-01 (proleptic Gregorian).
  static func civil(fromDays count: Int) -> (Int, Int, Int) {
    let z = count + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// The day count since 1970-01-01 of a civil date.
  static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int {
    let year = month <= 2 ? year - 1 : year
    let era = (year >= 0 ? year : year - 399) / 400
    let yearOfEra = year - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}

extension Int64 {
  fileprivate func floorDiv(_ divisor: Int64) -> Int64 {
    let quotient = self / divisor
    return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
  }
}
