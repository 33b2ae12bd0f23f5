package import Foundation

/// Reads JSON bytes for ``CanonicalJSONCodable`` types: a strict, byte-level subset of what
/// `JSONDecoder` reads, giving up with ``CanonicalJSONError`` on anything else.
///
/// What it reads is read exactly as `JSONDecoder` reads it: objects, arrays, `true`, `false`,
/// `null`, strings (escapes included, UTF-8 validated, no raw control characters) and integers
/// without fraction or exponent that fit their type. Anything beyond that (a fraction, an
/// exponent, an unknown or repeated member, a lone surrogate escape, a byte-order mark) makes
/// it give up, and the caller decodes with `JSONDecoder`, which then decides. So the reader
/// never accepts what `JSONDecoder` refuses, nor reads a different value.
///
/// The reader borrows the bytes it reads: Persistence makes one only inside the call that
/// holds them, and a conformance must not keep it.
package struct CanonicalJSONReader {
  /// The bytes read.
  let bytes: UnsafeRawBufferPointer
  /// The byte offset of the next byte to read.
  package private(set) var offset: Int

  /// A reader of `bytes`, from their start.
  init(_ bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
    self.offset = 0
  }

  // MARK: - Structure

  /// Reads an object whose member keys are among `keys`, calling `member` with each key's
  /// index in `keys` to read its value.
  ///
  /// - Returns: A bit set of the keys read (bit *i* for the *i*-th key).
  /// - Throws: ``CanonicalJSONError`` when the next value is not an object, a key is not in
  ///   `keys` or appears twice, or a key has escapes; or what `member` throws.
  /// - Complexity: O(*n* · *k*) plus the cost of `member`, where *n* is the number of members
  ///   and *k* the number of keys.
  @discardableResult
  package mutating func readObject(
    keys: CanonicalJSONKeys,
    _ member: (inout CanonicalJSONReader, Int) throws(CanonicalJSONError) -> Void
  ) throws(CanonicalJSONError) -> UInt64 {
    try expect(UInt8(ascii: "{"))
    var seen: UInt64 = 0
    if try peek() == UInt8(ascii: "}") {
      offset += 1
      return seen
    }
    while true {
      let index = try readKey(among: keys)
      let bit: UInt64 = 1 << UInt64(index)
      guard seen & bit == 0 else { throw failure() }
      seen |= bit
      try expect(UInt8(ascii: ":"))
      try member(&self, index)
      switch try next() {
      case UInt8(ascii: ","): continue
      case UInt8(ascii: "}"): return seen
      default: throw failure(at: offset - 1)
      }
    }
  }

  /// Reads an array, calling `element` to read each element.
  ///
  /// - Throws: ``CanonicalJSONError`` when the next value is not an array, or what `element`
  ///   throws.
  /// - Complexity: O(*n*) plus the cost of `element`, where *n* is the number of elements.
  package mutating func readArray(
    _ element: (inout CanonicalJSONReader) throws(CanonicalJSONError) -> Void
  ) throws(CanonicalJSONError) {
    try expect(UInt8(ascii: "["))
    if try peek() == UInt8(ascii: "]") {
      offset += 1
      return
    }
    while true {
      try element(&self)
      switch try next() {
      case UInt8(ascii: ","): continue
      case UInt8(ascii: "]"): return
      default: throw failure(at: offset - 1)
      }
    }
  }

  /// Reads `null` if it comes next and tells whether it did; otherwise reads nothing.
  package mutating func readNull() throws(CanonicalJSONError) -> Bool {
    guard try peek() == UInt8(ascii: "n") else { return false }
    try literal("null")
    return true
  }

  /// Checks that only whitespace is left.
  ///
  /// - Throws: ``CanonicalJSONError`` at the first other byte.
  func finish() throws(CanonicalJSONError) {
    var position = offset
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x0A, 0x0D, 0x09: position += 1
      default: throw failure(at: position)
      }
    }
  }

  // MARK: - Scalars

  /// Reads `true` or `false`.
  package mutating func readBool() throws(CanonicalJSONError) -> Bool {
    switch try peek() {
    case UInt8(ascii: "t"):
      try literal("true")
      return true
    case UInt8(ascii: "f"):
      try literal("false")
      return false
    default: throw failure()
    }
  }

  /// Reads an integer (no fraction, no exponent, no leading zero) that fits an `Int`.
  package mutating func readInt() throws(CanonicalJSONError) -> Int {
    _ = try peek()
    let negative = bytes[offset] == UInt8(ascii: "-")
    if negative { offset += 1 }
    let magnitude = try readDigits()
    if negative {
      guard magnitude <= UInt64(Int.max) + 1 else { throw failure() }
      return magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude)
    }
    guard magnitude <= UInt64(Int.max) else { throw failure() }
    return Int(magnitude)
  }

  /// Reads a non-negative integer (no fraction, no exponent, no leading zero).
  package mutating func readUInt64() throws(CanonicalJSONError) -> UInt64 {
    _ = try peek()
    return try readDigits()
  }

  /// Reads a string.
  ///
  /// - Throws: ``CanonicalJSONError`` for a raw control character, invalid UTF-8, an unknown
  ///   escape or a lone surrogate.
  /// - Complexity: O(*m*), where *m* is the string's length in the file.
  package mutating func readString() throws(CanonicalJSONError) -> String {
    let (start, end, escaped) = try scanString()
    let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    if !escaped {
      let utf8 = raw.assumingMemoryBound(to: UInt8.self)
      // ASCII is valid UTF-8, and `String(decoding:)` is far faster than `String(validating:)`.
      if Self.isASCII(utf8) { return String(decoding: utf8, as: UTF8.self) }
      guard let text = String(validating: utf8, as: UTF8.self) else { throw failure(at: start) }
      return text
    }
    var unescaped: [UInt8] = []
    unescaped.reserveCapacity(end - start)
    try unescape(start, end, into: &unescaped)
    guard let text = String(validating: unescaped, as: UTF8.self) else {
      throw failure(at: start)
    }
    return text
  }

  /// Reads a string holding an ISO 8601 UTC date (`2026-01-31T12:00:00.000Z`, 0 to 9
  /// fraction digits), as Persistence's `JSONDecoder` date strategy does.
  package mutating func readDate() throws(CanonicalJSONError) -> Date {
    let (start, end, escaped) = try scanString()
    let date: Date?
    if escaped {
      var unescaped: [UInt8] = []
      try unescape(start, end, into: &unescaped)
      date = unescaped.withUnsafeBytes { ISO8601Milliseconds.parse($0) }
    } else {
      date = ISO8601Milliseconds.parse(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
    }
    guard let date else { throw failure(at: start) }
    return date
  }

  // MARK: - Internals

  /// An error at the current offset, or at `position`.
  func failure(at position: Int? = nil) -> CanonicalJSONError {
    CanonicalJSONError(offset: position ?? offset)
  }

  /// Skips whitespace and returns the next byte without reading it.
  mutating func peek() throws(CanonicalJSONError) -> UInt8 {
    // Local copies: the loop then keeps them in registers instead of in `self`.
    let bytes = self.bytes
    var position = offset
    defer { offset = position }
    while position < bytes.count {
      let byte = bytes[position]
      switch byte {
      case 0x20, 0x0A, 0x0D, 0x09: position += 1
      default: return byte
      }
    }
    throw failure(at: position)
  }

  /// Skips whitespace and reads the next byte.
  mutating func next() throws(CanonicalJSONError) -> UInt8 {
    let byte = try peek()
    offset += 1
    return byte
  }

  /// Whether every byte is below 0x80, checked eight bytes at a time.
  static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    var high: UInt64 = 0
    let raw = UnsafeRawBufferPointer(bytes)
    while index + 8 <= bytes.count {
      high |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      index += 8
    }
    while index < bytes.count {
      high |= UInt64(bytes[index])
      index += 1
    }
    return high & 0x8080_8080_8080_8080 == 0
  }

  /// Reads `byte` after optional whitespace.
  mutating func expect(_ byte: UInt8) throws(CanonicalJSONError) {
    guard try next() == byte else { throw failure(at: offset - 1) }
  }

  /// Reads the bytes of `word`.
  mutating func literal(_ word: StaticString) throws(CanonicalJSONError) {
    guard matches(word, at: offset, count: min(word.utf8CodeUnitCount, bytes.count - offset))
    else { throw failure() }
    offset += word.utf8CodeUnitCount
  }

  /// Reads the digits of a non-negative integer.
  private mutating func readDigits() throws(CanonicalJSONError) -> UInt64 {
    let start = offset
    var value: UInt64 = 0
    while offset < bytes.count {
      let digit = bytes[offset] &- UInt8(ascii: "0")
      guard digit <= 9 else { break }
      let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times.addingReportingOverflow(UInt64(digit))
      guard !overflow1, !overflow2 else { throw failure() }
      value = sum
      offset += 1
    }
    guard offset > start, !(bytes[start] == UInt8(ascii: "0") && offset - start > 1) else {
      throw failure(at: start)
    }
    // A fraction or exponent is left to JSONDecoder.
    if offset < bytes.count {
      switch bytes[offset] {
      case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): throw failure()
      default: break
      }
    }
    return value
  }

  /// Reads an object key (no escapes) and returns its index in `keys`.
  private mutating func readKey(among keys: CanonicalJSONKeys) throws(CanonicalJSONError) -> Int {
    let (start, end, escaped) = try scanString()
    guard !escaped else { throw failure(at: start) }
    let count = end - start
    var packed: UInt64 = 0
    for index in 0..<min(count, 8) { packed |= UInt64(bytes[start + index]) << (8 * index) }
    for (index, key) in keys.keys.enumerated() where key.count == count && key.packed == packed {
      if count <= 8 || matches(key.text, at: start, count: count) { return index }
    }
    throw failure(at: start)
  }

  /// Whether the `count` bytes at `position` are the bytes of `word`.
  private func matches(_ word: StaticString, at position: Int, count: Int) -> Bool {
    guard word.utf8CodeUnitCount == count else { return false }
    let text = word.utf8Start
    for index in 0..<count where bytes[position + index] != text[index] { return false }
    return true
  }

  /// Reads a string's quotes and returns the range of its content and whether it has escapes.
  private mutating func scanString() throws(CanonicalJSONError) -> (Int, Int, Bool) {
    try expect(UInt8(ascii: "\""))
    let bytes = self.bytes
    let start = offset
    var position = start
    var escaped = false
    defer { offset = position }
    while true {
      // The common bytes, in a tight loop.
      while position < bytes.count {
        let byte = bytes[position]
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
        position += 1
      }
      guard position < bytes.count else { throw failure(at: position) }
      switch bytes[position] {
      case UInt8(ascii: "\""):
        position += 1
        return (start, position - 1, escaped)
      case UInt8(ascii: "\\"):
        escaped = true
        position += 2  // the escaped byte is checked by `unescape`; skip it here
      default: throw failure(at: position)
      }
    }
  }

  /// Appends the bytes of the string content `start..<end`, escapes resolved.
  private func unescape(_ start: Int, _ end: Int, into output: inout [UInt8])
    throws(CanonicalJSONError)
  {
    var position = start
    while position < end {
      let byte = bytes[position]
      guard byte == UInt8(ascii: "\\") else {
        output.append(byte)
        position += 1
        continue
      }
      guard position + 1 < end else { throw failure(at: position) }
      let escape = bytes[position + 1]
      position += 2
      switch escape {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(escape)
      case UInt8(ascii: "n"): output.append(0x0A)
      case UInt8(ascii: "r"): output.append(0x0D)
      case UInt8(ascii: "t"): output.append(0x09)
      case UInt8(ascii: "b"): output.append(0x08)
      case UInt8(ascii: "f"): output.append(0x0C)
      case UInt8(ascii: "u"):
        var scalar = try hex4(at: position, end: end)
        position += 4
        if (0xD800..<0xDC00).contains(scalar) {
          guard position + 6 <= end, bytes[position] == UInt8(ascii: "\\"),
            bytes[position + 1] == UInt8(ascii: "u")
          else { throw failure(at: position) }
          let low = try hex4(at: position + 2, end: end)
          guard (0xDC00..<0xE000).contains(low) else { throw failure(at: position) }
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          position += 6
        } else if (0xDC00..<0xE000).contains(scalar) {
          throw failure(at: position)
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw failure(at: position) }
        UTF8.encode(unicode) { output.append($0) }
      default: throw failure(at: position - 1)
      }
    }
  }

  /// The value of four hexadecimal digits at `position`.
  private func hex4(at position: Int, end: Int) throws(CanonicalJSONError) -> UInt32 {
    guard position + 4 <= end else { throw failure(at: position) }
    var value: UInt32 = 0
    for index in position..<(position + 4) {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw failure(at: index)
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }
}

/// The member keys of an object, as ``CanonicalJSONReader/readObject(keys:_:)`` matches them:
/// make it once (a `static let`), from a literal of at most 64 plain keys (no `"`, `\\` or
/// control character, as every member name of a Swift type).
///
/// ```swift
/// static let keys: CanonicalJSONKeys = ["created", "done", "id"]
/// ```
package struct CanonicalJSONKeys: ExpressibleByArrayLiteral, Sendable {
  /// One key: its length, its first eight bytes packed little-endian, and its text.
  struct Key: Sendable {
    var count: Int
    var packed: UInt64
    var text: StaticString
  }

  /// The keys, in the order given.
  let keys: [Key]

  /// The keys `elements`, in this order.
  ///
  /// - Complexity: O(*n*), where *n* is the total length of the keys.
  package init(arrayLiteral elements: StaticString...) {
    precondition(elements.count <= 64, "an object reads at most 64 keys")
    keys = elements.map { text in
      precondition(
        UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount).allSatisfy {
          $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
        }, "a key is plain text, with no quote, backslash or control character")
      var packed: UInt64 = 0
      let bytes = text.utf8Start
      for index in 0..<min(text.utf8CodeUnitCount, 8) {
        packed |= UInt64(bytes[index]) << (8 * index)
      }
      return Key(count: text.utf8CodeUnitCount, packed: packed, text: text)
    }
  }

  /// The bits of the keys `names` in a bit set of keys read, as
  /// ``CanonicalJSONReader/readObject(keys:_:)`` returns it (bit *i* for the *i*-th key): the
  /// members an object must have, from their names.
  ///
  /// - Precondition: Every name is one of the keys.
  /// - Complexity: O(*n* · *k*), where *n* is the total length of `names` and *k* the number
  ///   of keys.
  package func bits(of names: StaticString...) -> UInt64 {
    names.reduce(0) { bits, name in
      let bytes = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
      guard
        let index = keys.firstIndex(where: {
          UnsafeBufferPointer(start: $0.text.utf8Start, count: $0.count).elementsEqual(bytes)
        })
      else { preconditionFailure("\(name) is not one of the keys") }
      return bits | 1 << UInt64(index)
    }
  }
}
