// The byte-level helpers of the outline reader: an item's text, fences, rules, headings, list items.

extension OutlineReader {
  /// The item's text as a string, refusing what a terminal would act on.
  static func string(_ bytes: UnsafeBufferPointer<UInt8>, line: Int) throws(MarkdownOutline
    .ParseError) -> String
  {
    var index = 0
    var column = 0
    while index < bytes.count {
      let byte = bytes[index]
      var refused: UInt32?
      if byte < 0x20 || byte == 0x7F {
        refused = UInt32(byte)
      } else if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
        refused = UInt32(bytes[index + 1])
      } else if byte == 0xE2, index + 2 < bytes.count {
        let scalar =
          0x2000 | (UInt32(bytes[index + 1] & 0x3F) << 6) | UInt32(bytes[index + 2] & 0x3F)
        if (0x202A...0x202E).contains(scalar) || (0x2066...0x2069).contains(scalar) {
          refused = scalar
        }
      }
      if let refused {
        let hex = String(refused, radix: 16, uppercase: true)
        throw MarkdownOutline.ParseError(
          line: line,
          reason:
            "the text holds the control character U+\(String(repeating: "0", count: 4 - hex.count))\(hex) at column \(column + 1)"
        )
      }
      if byte & 0xC0 != 0x80 { column += 1 }
      index += 1
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The number of fence characters opening `line`, when it is a code fence.
  static func fenceLength(
    _ line: UnsafeBufferPointer<UInt8>, of byte: UInt8, opening: Bool = false
  ) -> Int? {
    var start = 0
    while start < line.count && line[start] == 0x20 { start += 1 }
    var length = 0
    while start + length < line.count && line[start + length] == byte { length += 1 }
    guard length >= 3 else { return nil }
    let tail = line[(start + length)...]
    if opening {
      // An info string may follow an opening fence, but not a backtick after backticks.
      return byte == 0x60 && tail.contains(0x60) ? nil : length
    }
    return tail.allSatisfy { $0 == 0x20 || $0 == 0x09 } ? length : nil
  }

  /// Whether the line is a thematic break: three or more `-`, `*` or `_`, spaces between.
  static func isRule(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = line.first, first == 0x2D || first == 0x2A || first == 0x5F else {
      return false
    }
    var count = 0
    for byte in line {
      if byte == first {
        count += 1
      } else if byte != 0x20 && byte != 0x09 {
        return false
      }
    }
    return count >= 3
  }

  /// The level and text of an ATX heading (`## Text ##`).
  static func heading(_ line: UnsafeBufferPointer<UInt8>) -> (Int, UnsafeBufferPointer<UInt8>)? {
    var level = 0
    while level < line.count && line[level] == 0x23 { level += 1 }
    guard (1...6).contains(level), level == line.count || isBlank(line[level]) else { return nil }
    var text = trimmed(UnsafeBufferPointer(rebasing: line[level...]))
    // A closing run of `#` after a space is not part of the text.
    var end = text.count
    while end > 0 && text[end - 1] == 0x23 { end -= 1 }
    if end == 0 || isBlank(text[end - 1]) {
      text = trimmed(UnsafeBufferPointer(rebasing: text[..<end]))
    }
    return (level, text)
  }

  /// The done flag and text of a list item, when the line is one.
  static func item(_ line: UnsafeBufferPointer<UInt8>) -> (Bool, UnsafeBufferPointer<UInt8>)? {
    var index = 0
    if line[0] == 0x2D || line[0] == 0x2A || line[0] == 0x2B {
      index = 1
    } else {
      while index < line.count && index < 9 && (0x30...0x39).contains(line[index]) { index += 1 }
      guard index > 0, index < line.count, line[index] == 0x2E || line[index] == 0x29 else {
        return nil
      }
      index += 1
    }
    guard index == line.count || isBlank(line[index]) else { return nil }
    var body = trimmed(UnsafeBufferPointer(rebasing: line[index...]))
    var done = false
    if body.count >= 3, body[0] == 0x5B, body[2] == 0x5D,
      [0x20, 0x78, 0x58, 0x7E].contains(body[1]), body.count == 3 || isBlank(body[3])
    {
      done = body[1] == 0x78 || body[1] == 0x58
      body = trimmed(UnsafeBufferPointer(rebasing: body[3...]))
    }
    return (done, body)
  }

  static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

  /// The bytes without leading and trailing spaces and tabs.
  static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    var start = 0
    var end = bytes.count
    while start < end && isBlank(bytes[start]) { start += 1 }
    while end > start && isBlank(bytes[end - 1]) { end -= 1 }
    return UnsafeBufferPointer(rebasing: bytes[start..<end])
  }
}
