import Foundation

/// The first line of every journal file: what it holds and where it starts.
struct JournalHeader: Codable, Hashable, Sendable {
  /// The sequence number of the last entry before this file (the snapshot's last entry).
  var baseSequence: Int
  /// The snapshot format's name (the journal belongs to that document).
  var format: String
  /// The generation: the snapshot names the generation of the journal that continues it.
  var generation: Int
  /// The version of the line layout (1).
  var journal: Int
  /// The format version the entries were written with.
  var version: Int

  /// The header's line, with its newline.
  func line() throws(PersistenceError) -> Data {
    do {
      var data = try CanonicalJSON.encoder(pretty: false).encode(self)
      data.append(0x0A)
      return data
    } catch {
      throw PersistenceError(
        .encodingFailed, underlying: error, description: "cannot encode a journal header: \(error)."
      )
    }
  }
}

/// The layout of an entry line: `{"crc":"1a2b3c4d","entry":<entry JSON>,"seq":42}` and a
/// newline, where `crc` is the CRC-32 of the entry's bytes exactly as they appear in the line.
/// It is what a JSON encoder with sorted keys writes, so any JSON tool reads it.
enum JournalLine {
  private static let prefix = Array(#"{"crc":""#.utf8)
  private static let middle = Array(#"","entry":"#.utf8)
  private static let suffix = Array(#","seq":"#.utf8)
  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// Appends the line of entry `sequence` (with its newline) to `line`.
  static func append(sequence: Int, entry: UnsafeRawBufferPointer, to line: inout [UInt8]) {
    let crc = CRC32.checksum(entry)
    line.append(contentsOf: prefix)
    for shift in stride(from: 28, through: 0, by: -4) {
      line.append(hexDigits[Int((crc >> UInt32(shift)) & 0xF)])
    }
    line.append(contentsOf: middle)
    line.append(contentsOf: entry)
    line.append(contentsOf: suffix)
    line.append(contentsOf: String(sequence).utf8)
    line.append(UInt8(ascii: "}"))
    line.append(0x0A)
  }

  /// Splits a line (without its newline) into its sequence number and the range of its entry.
  ///
  /// - Throws: A phrase saying what is wrong: the layout, or a checksum that does not match.
  static func parse(_ line: UnsafeRawBufferPointer) throws(JournalLineProblem) -> (
    sequence: Int, entry: Range<Int>
  ) {
    let minimum = prefix.count + 8 + middle.count + suffix.count + 2
    guard line.count >= minimum + 1 else {
      throw JournalLineProblem(
        message: "the line is too short to be an entry (\(line.count) bytes)")
    }
    guard line.starts(with: prefix) else {
      throw JournalLineProblem(message: "the line does not start with {\"crc\":\"")
    }
    var expected: UInt32 = 0
    for index in prefix.count..<(prefix.count + 8) {
      guard let digit = hexValue(line[index]) else {
        throw JournalLineProblem(message: "the checksum is not 8 lowercase hexadecimal digits")
      }
      expected = expected << 4 | digit
    }
    let entryStart = prefix.count + 8 + middle.count
    guard line[(prefix.count + 8)..<entryStart].elementsEqual(middle) else {
      throw JournalLineProblem(message: "the checksum is not followed by \",\"entry\":")
    }
    guard line[line.count - 1] == UInt8(ascii: "}") else {
      throw JournalLineProblem(message: "the line does not end with '}'")
    }
    var digitsStart = line.count - 1
    while digitsStart > entryStart && line[digitsStart - 1] >= UInt8(ascii: "0")
      && line[digitsStart - 1] <= UInt8(ascii: "9")
    {
      digitsStart -= 1
    }
    let digitCount = line.count - 1 - digitsStart
    guard digitCount >= 1 && digitCount <= 18 else {
      throw JournalLineProblem(message: "the line does not end with a sequence number")
    }
    let entryEnd = digitsStart - suffix.count
    guard entryEnd > entryStart, line[entryEnd..<digitsStart].elementsEqual(suffix) else {
      throw JournalLineProblem(message: "the entry is not followed by ,\"seq\":")
    }
    var sequence = 0
    for index in digitsStart..<(line.count - 1) { sequence = sequence * 10 + Int(line[index] - 48) }
    let actual = CRC32.checksum(UnsafeRawBufferPointer(rebasing: line[entryStart..<entryEnd]))
    guard actual == expected else {
      throw JournalLineProblem(
        message:
          "the checksum does not match (the line says \(hex(expected)), the entry's bytes give \(hex(actual)))"
      )
    }
    return (sequence, entryStart..<entryEnd)
  }

  static func hex(_ value: UInt32) -> String {
    let text = String(value, radix: 16)
    return String(repeating: "0", count: 8 - text.count) + text
  }

  private static func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    default: nil
    }
  }
}

/// What is wrong with a journal line.
struct JournalLineProblem: Error {
  var message: String
}
