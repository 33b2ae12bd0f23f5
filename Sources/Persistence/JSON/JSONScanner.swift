/// A place in a JSON text where it stops being valid, and why.
package struct JSONSyntaxError: Error, Sendable, Equatable {
  /// The byte offset of the offending byte (the text's length when it ended too soon).
  package var offset: Int
  /// What was wrong, as a phrase ("expected ':' after an object key, found 'x'").
  package var message: String
}

/// A small validating JSON scanner: it finds the first syntax error with its byte offset, and the
/// byte offset of the value at a coding path, so load errors can point into the file.
///
/// It never builds values and never recurses deeper than ``maximumDepth``, so any input, however
/// hostile, is scanned in O(*n*) time and bounded stack.
package struct JSONScanner {
  /// The deepest nesting accepted (the same as Foundation's `JSONDecoder`).
  static let maximumDepth = 512

  private let bytes: UnsafeRawBufferPointer
  private var index = 0

  private init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

  /// The first syntax error of `text`, or nil when it is one valid JSON value.
  package static func validate(_ text: UnsafeRawBufferPointer) -> JSONSyntaxError? {
    var scanner = JSONScanner(text)
    do throws(JSONSyntaxError) {
      try scanner.skipWhitespace()
      try scanner.skipValue(depth: 0)
      scanner.skipSpaces()
      if scanner.index < text.count {
        throw scanner.error("expected the end of the file after the top-level value, found")
      }
      return nil
    } catch {
      return error
    }
  }

  /// The byte offset where the value at `path` starts, when the text is valid up to it.
  static func offset(of path: [any CodingKey], in text: UnsafeRawBufferPointer) -> Int? {
    var scanner = JSONScanner(text)
    return try? scanner.locate(path[...])
  }

  /// The 1-based line and column (in bytes) of `offset`.
  static func lineAndColumn(of offset: Int, in text: UnsafeRawBufferPointer) -> (Int, Int) {
    var line = 1
    var lineStart = 0
    for position in 0..<min(offset, text.count) where text[position] == 0x0A {
      line += 1
      lineStart = position + 1
    }
    return (line, offset - lineStart + 1)
  }

  // MARK: - Scanning

  private mutating func locate(_ path: ArraySlice<any CodingKey>) throws(JSONSyntaxError) -> Int {
    try skipWhitespace()
    guard let key = path.first else { return index }
    let rest = path.dropFirst()
    switch bytes[index] {
    case UInt8(ascii: "{"):
      index += 1
      try skipWhitespace()
      if bytes[index] == UInt8(ascii: "}") { throw error("no member \"\(key.stringValue)\"") }
      while true {
        try skipWhitespace()
        guard bytes[index] == UInt8(ascii: "\"") else { throw error("not an object key") }
        let nameStart = index
        try skipString()
        let name = String(decoding: bytes[(nameStart + 1)..<(index - 1)], as: UTF8.self)
        try skipWhitespace()
        try expect(UInt8(ascii: ":"), "expected ':' after an object key, found")
        if name == key.stringValue { return try locate(rest) }
        try skipWhitespace()
        try skipValue(depth: 1)
        try skipWhitespace()
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        throw error("no member \"\(key.stringValue)\"")
      }
    case UInt8(ascii: "["):
      guard let wanted = key.intValue else { throw error("not an array") }
      index += 1
      var position = 0
      while true {
        try skipWhitespace()
        if position == wanted { return try locate(rest) }
        try skipValue(depth: 1)
        try skipWhitespace()
        guard bytes[index] == UInt8(ascii: ",") else { throw error("no element \(wanted)") }
        index += 1
        position += 1
      }
    default:
      throw error("not a container")
    }
  }

  private mutating func skipValue(depth: Int) throws(JSONSyntaxError) {
    guard depth < Self.maximumDepth else {
      throw error("nesting deeper than \(Self.maximumDepth) levels at")
    }
    switch bytes[index] {
    case UInt8(ascii: "{"): try skipContainer(closedBy: "}", depth: depth, keyed: true)
    case UInt8(ascii: "["): try skipContainer(closedBy: "]", depth: depth, keyed: false)
    case UInt8(ascii: "\""):
      try skipString()
    case UInt8(ascii: "t"): try skipLiteral("true")
    case UInt8(ascii: "f"): try skipLiteral("false")
    case UInt8(ascii: "n"): try skipLiteral("null")
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      try skipNumber()
    default:
      throw error("expected a value, found")
    }
  }

  /// Skips an object's members (`keyed`) or an array's elements, from the opening bracket to
  /// past `close`.
  private mutating func skipContainer(closedBy close: Unicode.Scalar, depth: Int, keyed: Bool)
    throws(JSONSyntaxError)
  {
    let closing = UInt8(ascii: close)
    index += 1
    try skipWhitespace()
    if bytes[index] == closing {
      index += 1
      return
    }
    while true {
      try skipWhitespace()
      if keyed {
        guard bytes[index] == UInt8(ascii: "\"") else {
          throw error("expected a string key in an object, found")
        }
        try skipString()
        try skipWhitespace()
        try expect(UInt8(ascii: ":"), "expected ':' after an object key, found")
        try skipWhitespace()
      }
      try skipValue(depth: depth + 1)
      try skipWhitespace()
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      try expect(
        closing,
        keyed
          ? "expected ',' or '}' after an object member, found"
          : "expected ',' or ']' after an array element, found")
      return
    }
  }

  private mutating func skipString() throws(JSONSyntaxError) {
    index += 1  // the opening quote
    while true {
      guard index < bytes.count else { throw endOfText("inside a string") }
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        return
      case UInt8(ascii: "\\"):
        index += 1
        guard index < bytes.count else { throw endOfText("inside a string") }
        switch bytes[index] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
          UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          index += 1
        case UInt8(ascii: "u"):
          index += 1
          for _ in 0..<4 {
            guard index < bytes.count else { throw endOfText("inside a \\u escape") }
            guard Self.isHexDigit(bytes[index]) else {
              throw error("expected a hexadecimal digit in a \\u escape, found")
            }
            index += 1
          }
        default:
          throw error("invalid escape sequence in a string:")
        }
      case 0..<0x20:
        throw error("unescaped control character in a string:")
      case 0x80...:
        try skipUTF8Scalar()
      default:
        index += 1
      }
    }
  }

  private mutating func skipUTF8Scalar() throws(JSONSyntaxError) {
    let lead = bytes[index]
    // 0xC0, 0xC1 and 0xF5 up only start overlong or out-of-range sequences; in a lead byte,
    // the count of leading 1 bits is the sequence's length and the bits below the 0 are data.
    guard (0xC2...0xF4).contains(lead) else { throw error("invalid UTF-8 in a string:") }
    let length = (~lead).leadingZeroBitCount
    guard index + length <= bytes.count else { throw endOfText("inside a UTF-8 sequence") }
    var scalar = UInt32(lead) & (0x7F >> length)
    for offset in 1..<length {
      let byte = bytes[index + offset]
      guard byte & 0xC0 == 0x80 else {
        index += offset
        throw error("invalid UTF-8 in a string:")
      }
      scalar = scalar << 6 | UInt32(byte & 0x3F)
    }
    let minimum: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
    guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
      throw error("invalid UTF-8 in a string:")
    }
    index += length
  }

  private mutating func skipNumber() throws(JSONSyntaxError) {
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count else { throw endOfText("inside a number") }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else {
      try skipDigits()
    }
    if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
      index += 1
      try skipDigits()
    }
    if index < bytes.count && (bytes[index] | 0x20) == UInt8(ascii: "e") {
      index += 1
      if index < bytes.count
        && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"))
      {
        index += 1
      }
      try skipDigits()
    }
  }

  private mutating func skipDigits() throws(JSONSyntaxError) {
    guard index < bytes.count else { throw endOfText("inside a number") }
    guard Self.isDigit(bytes[index]) else { throw error("expected a digit in a number, found") }
    while index < bytes.count && Self.isDigit(bytes[index]) { index += 1 }
  }

  private mutating func skipLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
    let start = index
    for byte in UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount) {
      guard index < bytes.count else { throw endOfText("inside \(literal)") }
      guard bytes[index] == byte else {
        index = start
        throw error("expected a value, found")
      }
      index += 1
    }
  }

  /// Skips whitespace, and requires a byte after it.
  private mutating func skipWhitespace() throws(JSONSyntaxError) {
    skipSpaces()
    guard index < bytes.count else { throw endOfText("where a value or a delimiter was due") }
  }

  private mutating func skipSpaces() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x0A, 0x0D, 0x09: index += 1
      default: return
      }
    }
  }

  private mutating func expect(_ byte: UInt8, _ message: String) throws(JSONSyntaxError) {
    guard bytes[index] == byte else { throw error(message) }
    index += 1
  }

  private func error(_ message: String) -> JSONSyntaxError {
    guard index < bytes.count else { return endOfText(message) }
    let found = JSONScanner.describe(bytes[index])
    let phrase = message.hasSuffix("found") || message.hasSuffix(":") || message.hasSuffix("at")
    return JSONSyntaxError(offset: index, message: phrase ? "\(message) \(found)" : message)
  }

  private func endOfText(_ place: String) -> JSONSyntaxError {
    JSONSyntaxError(
      offset: bytes.count, message: "the text ends too soon (\(place)); the file is truncated")
  }

  static func describe(_ byte: UInt8) -> String {
    if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    let hex = String(byte, radix: 16, uppercase: true)
    return "byte 0x\(hex.count == 1 ? "0" + hex : hex)"
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
  }
}
