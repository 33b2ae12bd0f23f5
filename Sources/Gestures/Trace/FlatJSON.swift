/// A value of a flat JSON object: the only shape trace lines have.
enum FlatJSONValue: Hashable, Sendable {
  case string(String)
  case number(Double)
  case bool(Bool)
  case null
}

/// Parses one line holding a flat JSON object (no nested objects or arrays).
///
/// Hand-written so `Gestures` needs nothing but the standard library.
struct FlatJSONParser {
  private let bytes: [UInt8]
  private var position = 0
  private let line: Int

  init(_ text: Substring, line: Int) {
    bytes = Array(text.utf8)
    self.line = line
  }

  private func error(_ message: String) -> GestureError {
    GestureError(
      .invalidJSON, line: line, column: position + 1,
      description: "trace line \(line), column \(position + 1): \(message)")
  }

  private mutating func skipSpace() {
    while position < bytes.count,
      bytes[position] == 0x20 || bytes[position] == 0x09 || bytes[position] == 0x0D
    {
      position += 1
    }
  }

  private mutating func expect(_ byte: UInt8, _ what: String) throws(GestureError) {
    skipSpace()
    guard position < bytes.count, bytes[position] == byte else {
      throw error("expected \(what)")
    }
    position += 1
  }

  mutating func parseObject() throws(GestureError) -> [(String, FlatJSONValue)] {
    var fields: [(String, FlatJSONValue)] = []
    try expect(0x7B, "'{' at the start of the object")
    skipSpace()
    if position < bytes.count, bytes[position] == 0x7D {
      position += 1
    } else {
      while true {
        skipSpace()
        let key = try parseString()
        if fields.contains(where: { $0.0 == key }) { throw error("duplicate key \"\(key)\"") }
        try expect(0x3A, "':' after a key")
        fields.append((key, try parseValue()))
        skipSpace()
        guard position < bytes.count else { throw error("unterminated object") }
        if bytes[position] == 0x2C {
          position += 1
          continue
        }
        if bytes[position] == 0x7D {
          position += 1
          break
        }
        throw error("expected ',' or '}'")
      }
    }
    skipSpace()
    guard position == bytes.count else { throw error("unexpected text after the object") }
    return fields
  }

  private mutating func parseValue() throws(GestureError) -> FlatJSONValue {
    skipSpace()
    guard position < bytes.count else { throw error("expected a value") }
    switch bytes[position] {
    case 0x22: return .string(try parseString())
    case 0x74: try literal("true"); return .bool(true)
    case 0x66: try literal("false"); return .bool(false)
    case 0x6E: try literal("null"); return .null
    case 0x7B, 0x5B: throw error("nested objects and arrays are not part of the trace format")
    default: return .number(try parseNumber())
    }
  }

  private mutating func literal(_ word: String) throws(GestureError) {
    let expected = Array(word.utf8)
    guard position + expected.count <= bytes.count,
      Array(bytes[position..<position + expected.count]) == expected
    else { throw error("invalid literal") }
    position += expected.count
  }

  private mutating func parseNumber() throws(GestureError) -> Double {
    let start = position
    while position < bytes.count {
      let byte = bytes[position]
      let isNumberByte =
        (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2B || byte == 0x2E
        || byte == 0x65 || byte == 0x45
      if !isNumberByte { break }
      position += 1
    }
    let text = String(decoding: bytes[start..<position], as: UTF8.self)
    guard !text.isEmpty, let value = Double(text), value.isFinite else {
      position = start
      throw error("invalid number")
    }
    return value
  }

  private mutating func parseString() throws(GestureError) -> String {
    skipSpace()
    guard position < bytes.count, bytes[position] == 0x22 else { throw error("expected a string") }
    position += 1
    var scalars = String.UnicodeScalarView()
    var run: [UInt8] = []
    while position < bytes.count {
      let byte = bytes[position]
      if byte == 0x22 {
        position += 1
        scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
        return String(scalars)
      }
      if byte == 0x5C {
        scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
        run.removeAll()
        position += 1
        guard position < bytes.count else { break }
        let escaped = bytes[position]
        position += 1
        switch escaped {
        case 0x22: scalars.append("\"")
        case 0x5C: scalars.append("\\")
        case 0x2F: scalars.append("/")
        case 0x6E: scalars.append("\n")
        case 0x74: scalars.append("\t")
        case 0x72: scalars.append("\r")
        case 0x62: scalars.append("\u{08}")
        case 0x66: scalars.append("\u{0C}")
        case 0x75:
          guard position + 4 <= bytes.count,
            let code = UInt32(
              String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16),
            let scalar = Unicode.Scalar(code)
          else { throw error("invalid \\u escape") }
          position += 4
          scalars.append(scalar)
        default:
          position -= 1
          throw error("invalid escape")
        }
        continue
      }
      run.append(byte)
      position += 1
    }
    throw error("unterminated string")
  }
}

/// Writes JSON values deterministically (numbers in Swift's shortest round-trip form).
enum JSONText {
  static func string(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  static func number(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return value.description
  }

  /// An object with keys in the given order.
  static func object(_ fields: [(String, String)]) -> String {
    "{" + fields.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
  }
}
