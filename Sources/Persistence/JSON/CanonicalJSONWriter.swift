public import Foundation

/// A document type that writes and reads its own canonical JSON, byte for byte what the
/// `Codable` path writes, so ``DocumentStore`` can skip the generic encoder and `JSONDecoder`.
///
/// `DocumentStore` checks for this conformance with a dynamic cast. Saving calls
/// ``writeCanonicalJSON(to:)`` inside the usual envelope; when it throws, the document is
/// encoded through `Codable` instead, which reports the error. Loading calls
/// ``init(canonicalJSON:)`` on the envelope's `data`; when it throws (any byte outside the
/// strict subset the reader accepts, an unknown or repeated member, a value of the wrong kind),
/// the file is decoded again through `JSONDecoder`, so damaged files get exactly the errors,
/// byte offsets and quarantine they always got.
///
/// A conformance must keep both directions equal to the `Codable` ones: members in UTF-8 byte
/// order of their keys, `nil` optionals left out, the same strings, numbers and dates. Test
/// it against `Codable` over many random values.
///
/// ```swift
/// extension Point: CanonicalJSONCodable {
///   func writeCanonicalJSON(to writer: inout CanonicalJSONWriter) throws(CanonicalJSONError) {
///     writer.beginObject()
///     writer.key("x"); writer.integer(x)
///     writer.key("y"); writer.integer(y)
///     writer.endObject()
///   }
///   init(canonicalJSON reader: inout CanonicalJSONReader) throws(CanonicalJSONError) {
///     var x: Int?, y: Int?
///     try reader.readObject(keys: ["x", "y"]) { (reader, key) throws(CanonicalJSONError) in
///       if key == 0 { x = try reader.readInt() } else { y = try reader.readInt() }
///     }
///     guard let x, let y else { throw CanonicalJSONError(offset: reader.offset) }
///     self.init(x: x, y: y)
///   }
/// }
/// ```
public protocol CanonicalJSONCodable: Codable {
  /// Writes the value as the `Codable` path would.
  ///
  /// - Throws: ``CanonicalJSONError`` when the value cannot be written here (a date outside
  ///   the years 0000–9999, say); the caller then uses the `Codable` path.
  func writeCanonicalJSON(to writer: inout CanonicalJSONWriter) throws(CanonicalJSONError)

  /// Reads a value as `JSONDecoder` would, or throws for anything outside the strict subset.
  ///
  /// - Throws: ``CanonicalJSONError`` for any input not read here; the caller then uses
  ///   `JSONDecoder`, which decides whether the input is valid and what the error says.
  init(canonicalJSON reader: inout CanonicalJSONReader) throws(CanonicalJSONError)
}

/// The fast path gave up: the bytes or the value are not in its subset. Never shown to users;
/// the `Codable` path takes over.
public struct CanonicalJSONError: Error, Hashable, Sendable {
  /// The byte offset where reading stopped (0 when writing).
  public var offset: Int

  /// Creates an error at `offset`.
  public init(offset: Int) { self.offset = offset }
}

/// Writes canonical JSON bytes exactly as Persistence's `Codable` encoder does: two-space
/// indentation with one member per line (or one line), `"key": value`, strings escaped the
/// same way, dates as ISO 8601 UTC text with milliseconds.
///
/// The caller writes object members in UTF-8 byte order of their keys and leaves out `nil`
/// optionals, as the `Codable` path does; the writer adds commas, line breaks and indentation.
public struct CanonicalJSONWriter {
  /// The bytes written so far.
  public internal(set) var bytes: [UInt8]
  /// The indentation level, or nil for one-line output.
  var level: Int?
  /// Whether the innermost open container has no member or element yet.
  var atStart = true

  /// A writer that indents (`pretty`) or writes one line.
  init(pretty: Bool, reservingCapacity capacity: Int = 0) {
    bytes = []
    bytes.reserveCapacity(capacity)
    level = pretty ? 0 : nil
  }

  /// Opens an object: `{`.
  public mutating func beginObject() {
    bytes.append(UInt8(ascii: "{"))
    open()
  }

  /// Closes the innermost object: `}` on its own line when it has members.
  public mutating func endObject() { close(UInt8(ascii: "}")) }

  /// Opens an array: `[`.
  public mutating func beginArray() {
    bytes.append(UInt8(ascii: "["))
    open()
  }

  /// Closes the innermost array: `]` on its own line when it has elements.
  public mutating func endArray() { close(UInt8(ascii: "]")) }

  /// Starts the next array element: a comma after the previous one, a line break, indentation.
  public mutating func element() { separate() }

  /// Starts the next object member: separator, `"key":` and a space when indenting.
  ///
  /// The key is written as it is: a plain key that needs no escaping (no `"`, `\\` or control
  /// character), as every member name of a Swift type is.
  ///
  /// - Complexity: O(*k*), where *k* is the key's length.
  public mutating func key(_ key: StaticString) {
    separate()
    bytes.append(UInt8(ascii: "\""))
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
    bytes.append(UInt8(ascii: "\""))
    bytes.append(UInt8(ascii: ":"))
    if level != nil { bytes.append(UInt8(ascii: " ")) }
  }

  /// Starts the next object member with a key known at run time (a dictionary's), escaped.
  ///
  /// - Complexity: O(*k*), where *k* is the key's length.
  public mutating func key(string key: String) {
    separate()
    string(key)
    bytes.append(UInt8(ascii: ":"))
    if level != nil { bytes.append(UInt8(ascii: " ")) }
  }

  /// Writes a string, escaped as the `Codable` path escapes it.
  ///
  /// - Complexity: O(*m*), where *m* is the string's UTF-8 length.
  public mutating func string(_ value: String) {
    if let done = value.utf8.withContiguousStorageIfAvailable({
      Self.appendEscaped($0, to: &bytes)
    }) {
      return done
    }
    var copy = value
    copy.withUTF8 { Self.appendEscaped($0, to: &bytes) }
  }

  /// Writes an integer in decimal.
  public mutating func integer(_ value: Int) { integer(Int64(value)) }

  /// Writes an integer in decimal.
  public mutating func integer(_ value: Int64) {
    if value < 0 {
      bytes.append(UInt8(ascii: "-"))
      unsigned(value.magnitude)
    } else {
      unsigned(UInt64(value))
    }
  }

  /// Writes an unsigned integer in decimal.
  public mutating func unsigned(_ value: UInt64) {
    if value < 10 {
      bytes.append(UInt8(ascii: "0") + UInt8(value))
      return
    }
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes, room for the 20 digits
    withUnsafeMutableBytes(of: &digits) { buffer in
      var rest = value
      var position = buffer.count
      while rest > 0 {
        position -= 1
        buffer[position] = UInt8(ascii: "0") + UInt8(rest % 10)
        rest /= 10
      }
      bytes.append(contentsOf: buffer[position...])
    }
  }

  /// Writes `true` or `false`.
  public mutating func bool(_ value: Bool) {
    if value {
      bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65])
    } else {
      bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])
    }
  }

  /// Writes `null`.
  public mutating func null() { bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) }

  /// Writes a date as `"YYYY-MM-DDTHH:MM:SS.mmmZ"`, rounded to the millisecond.
  ///
  /// - Throws: ``CanonicalJSONError`` for a date outside the years 0000–9999.
  public mutating func date(_ value: Date) throws(CanonicalJSONError) {
    bytes.append(UInt8(ascii: "\""))
    guard ISO8601Milliseconds.write(value, to: &bytes) else {
      throw CanonicalJSONError(offset: 0)
    }
    bytes.append(UInt8(ascii: "\""))
  }

  // MARK: - Layout

  private mutating func open() {
    atStart = true
    if let level { self.level = level + 1 }
  }

  private mutating func close(_ bracket: UInt8) {
    if let level {
      self.level = level - 1
      if !atStart { newline() }
    }
    bytes.append(bracket)
    atStart = false
  }

  private mutating func separate() {
    if let level, level <= Self.maximumCachedLevel {
      // One append: `,`, the line break and the indentation (without the comma at the start).
      let separator = Self.separators[level]
      if atStart {
        bytes.append(contentsOf: separator[1...])
      } else {
        bytes.append(contentsOf: separator)
      }
      atStart = false
      return
    }
    if !atStart { bytes.append(UInt8(ascii: ",")) }
    atStart = false
    newline()
  }

  private mutating func newline() {
    guard let level else { return }
    bytes.append(0x0A)
    for _ in 0..<(level * 2) { bytes.append(UInt8(ascii: " ")) }
  }

  /// The deepest level whose separator is precomputed.
  private static let maximumCachedLevel = 16

  /// `,` + line break + indentation, for each level up to ``maximumCachedLevel``.
  private static let separators: [[UInt8]] = (0...maximumCachedLevel).map { level in
    [UInt8(ascii: ","), 0x0A] + [UInt8](repeating: UInt8(ascii: " "), count: level * 2)
  }

  // MARK: - Strings

  /// Appends `value` as a JSON string: `"` and `\` escaped, `\n \r \t \b \f` by name, other
  /// control characters as `\u00XX` (lowercase hex), everything else (`/`, non-ASCII) as is.
  ///
  /// - Complexity: O(*m*), where *m* is the number of bytes.
  static func appendEscaped(_ value: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    var start = 0
    for index in 0..<value.count {
      let byte = value[index]
      guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
        continue
      }
      if start < index {
        output.append(contentsOf: UnsafeBufferPointer(rebasing: value[start..<index]))
      }
      start = index + 1
      switch byte {
      case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
      case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
      case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
      case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
      case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
      case 0x08: output.append(contentsOf: [0x5C, UInt8(ascii: "b")])
      case 0x0C: output.append(contentsOf: [0x5C, UInt8(ascii: "f")])
      default:
        let hex: StaticString = "0123456789abcdef"
        let digits = hex.utf8Start
        output.append(contentsOf: [
          0x5C, UInt8(ascii: "u"), 0x30, 0x30, digits[Int(byte >> 4)], digits[Int(byte & 0xF)],
        ])
      }
    }
    if start < value.count {
      output.append(contentsOf: UnsafeBufferPointer(rebasing: value[start..<value.count]))
    }
    output.append(UInt8(ascii: "\""))
  }

  /// Appends `value` as a JSON string, escaped as the bytes overload does.
  ///
  /// - Complexity: O(*m*), where *m* is the string's UTF-8 length.
  static func appendEscaped(_ value: String, to output: inout [UInt8]) {
    if value.utf8.withContiguousStorageIfAvailable({ appendEscaped($0, to: &output) }) != nil {
      return
    }
    var copy = value
    copy.withUTF8 { appendEscaped($0, to: &output) }
  }
}
