package import Foundation

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
///     writer.key("x")
///     writer.integer(x)
///     writer.key("y")
///     writer.integer(y)
///     writer.endObject()
///   }
///   init(canonicalJSON reader: inout CanonicalJSONReader) throws(CanonicalJSONError) {
///     var x: Int?
///     var y: Int?
///     try reader.readObject(keys: ["x", "y"]) { (reader, key) throws(CanonicalJSONError) in
///       if key == 0 { x = try reader.readInt() } else { y = try reader.readInt() }
///     }
///     guard let x, let y else { throw CanonicalJSONError(offset: reader.offset) }
///     self.init(x: x, y: y)
///   }
/// }
/// ```
package protocol CanonicalJSONCodable: Codable {
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
package struct CanonicalJSONError: Error, Hashable, Sendable {
  /// The byte offset where reading stopped (0 when writing).
  package var offset: Int

  /// Creates an error at `offset`.
  package init(offset: Int) { self.offset = offset }
}

/// Writes canonical JSON bytes exactly as Persistence's `Codable` encoder does: two-space
/// indentation with one member per line (or one line), `"key": value`, strings escaped the
/// same way, dates as ISO 8601 UTC text with milliseconds.
///
/// The caller writes object members in UTF-8 byte order of their keys and leaves out `nil`
/// optionals, as the `Codable` path does; the writer adds commas, line breaks and indentation.
/// It writes into a buffer of its own (growing by doubling), so a byte costs a store, not an
/// `Array.append`; it cannot be copied.
package struct CanonicalJSONWriter: ~Copyable {
  /// The buffer.
  private var base: UnsafeMutablePointer<UInt8>
  /// The number of bytes written.
  private var count = 0
  /// The buffer's size.
  private var capacity: Int
  /// The indentation level, or nil for one-line output.
  private var level: Int?
  /// Whether the innermost open container has no member or element yet.
  private var atStart = true

  /// A writer that indents (`pretty`) or writes one line.
  package init(pretty: Bool, reservingCapacity capacity: Int = 0) {
    self.capacity = max(capacity, 256)
    base = .allocate(capacity: self.capacity)
    level = pretty ? 0 : nil
  }

  deinit { base.deallocate() }

  /// The bytes written so far.
  ///
  /// - Complexity: O(*n*): a copy.
  package var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

  /// The bytes written so far, as `Data`.
  var data: Data { Data(bytes: base, count: count) }

  /// Opens an object: `{`.
  package mutating func beginObject() {
    append(UInt8(ascii: "{"))
    open()
  }

  /// Closes the innermost object: `}` on its own line when it has members.
  package mutating func endObject() { close(UInt8(ascii: "}")) }

  /// Opens an array: `[`.
  package mutating func beginArray() {
    append(UInt8(ascii: "["))
    open()
  }

  /// Closes the innermost array: `]` on its own line when it has elements.
  package mutating func endArray() { close(UInt8(ascii: "]")) }

  /// Starts the next array element: a comma after the previous one, a line break, indentation.
  package mutating func element() { separate() }

  /// Starts the next object member: separator, `"key":` and a space when indenting.
  ///
  /// The key is written as it is: a plain key that needs no escaping (no `"`, `\\` or control
  /// character), as every member name of a Swift type is.
  ///
  /// - Complexity: O(*k*), where *k* is the key's length.
  package mutating func key(_ key: StaticString) {
    separate()
    let length = key.utf8CodeUnitCount
    reserve(length + 4)
    base[count] = UInt8(ascii: "\"")
    (base + count + 1).update(from: key.utf8Start, count: length)
    count += length + 1
    base[count] = UInt8(ascii: "\"")
    base[count + 1] = UInt8(ascii: ":")
    count += 2
    if level != nil {
      base[count] = UInt8(ascii: " ")
      count += 1
    }
  }

  /// Starts the next object member with a key known at run time (a dictionary's), escaped.
  ///
  /// - Complexity: O(*k*), where *k* is the key's length.
  package mutating func key(string key: String) {
    separate()
    string(key)
    append(UInt8(ascii: ":"))
    if level != nil { append(UInt8(ascii: " ")) }
  }

  /// Writes a string, escaped as the `Codable` path escapes it.
  ///
  /// - Complexity: O(*m*), where *m* is the string's UTF-8 length.
  package mutating func string(_ value: String) {
    if value.utf8.withContiguousStorageIfAvailable({ appendEscaped($0) }) != nil { return }
    var copy = value
    copy.withUTF8 { appendEscaped($0) }
  }

  /// Writes an integer in decimal.
  package mutating func integer(_ value: Int) { integer(Int64(value)) }

  /// Writes an integer in decimal.
  package mutating func integer(_ value: Int64) {
    if value < 0 {
      append(UInt8(ascii: "-"))
      unsigned(value.magnitude)
    } else {
      unsigned(UInt64(value))
    }
  }

  /// Writes an unsigned integer in decimal.
  package mutating func unsigned(_ value: UInt64) {
    var digits = 1
    var rest = value
    while rest >= 10 {
      rest /= 10
      digits += 1
    }
    reserve(digits)
    rest = value
    for position in stride(from: count + digits - 1, through: count, by: -1) {
      base[position] = UInt8(ascii: "0") + UInt8(rest % 10)
      rest /= 10
    }
    count += digits
  }

  /// Writes `true` or `false`.
  package mutating func bool(_ value: Bool) {
    let word: StaticString = value ? "true" : "false"
    appendRaw(word)
  }

  /// Writes `null`.
  package mutating func null() { appendRaw("null") }

  /// Writes a date as `"YYYY-MM-DDTHH:MM:SS.mmmZ"`, rounded to the millisecond.
  ///
  /// - Throws: ``CanonicalJSONError`` for a date outside the years 0000–9999.
  package mutating func date(_ value: Date) throws(CanonicalJSONError) {
    reserve(26)
    guard
      ISO8601Milliseconds.write(
        value, to: UnsafeMutableBufferPointer(start: base + count + 1, count: 24))
    else { throw CanonicalJSONError(offset: 0) }
    base[count] = UInt8(ascii: "\"")
    base[count + 25] = UInt8(ascii: "\"")
    count += 26
  }

  /// Appends a line break (the one at the end of a file).
  mutating func appendNewline() { append(0x0A) }

  // MARK: - Buffer

  /// Makes room for `extra` more bytes.
  @inline(__always)
  private mutating func reserve(_ extra: Int) {
    if count + extra > capacity { grow(count + extra) }
  }

  private mutating func grow(_ needed: Int) {
    var size = capacity * 2
    while size < needed { size *= 2 }
    let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
    larger.update(from: base, count: count)
    base.deallocate()
    base = larger
    capacity = size
  }

  private mutating func append(_ byte: UInt8) {
    reserve(1)
    base[count] = byte
    count += 1
  }

  private mutating func appendRaw(_ text: StaticString) {
    reserve(text.utf8CodeUnitCount)
    (base + count).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
    count += text.utf8CodeUnitCount
  }

  private mutating func appendEscaped(_ value: UnsafeBufferPointer<UInt8>) {
    reserve(Self.maximumEscapedCount(value.count))
    count += Self.escape(value, into: base + count)
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
    append(bracket)
    atStart = false
  }

  private mutating func separate() {
    if !atStart { append(UInt8(ascii: ",")) }
    atStart = false
    newline()
  }

  private mutating func newline() {
    guard let level else { return }
    reserve(1 + level * 2)
    base[count] = 0x0A
    (base + count + 1).update(repeating: UInt8(ascii: " "), count: level * 2)
    count += 1 + level * 2
  }

  // MARK: - Strings

  /// The most bytes `escape` writes for `count` bytes: quotes, and six per control byte.
  static func maximumEscapedCount(_ count: Int) -> Int { count * 6 + 2 }

  /// Writes `value` as a JSON string at `output` (room for ``maximumEscapedCount(_:)`` bytes)
  /// and returns the number of bytes written: `"` and `\\` escaped, `\n \r \t \b \f` by
  /// name, other control characters as `\u00XX` (lowercase hex), everything else (`/`,
  /// non-ASCII) as is. The one escaping of every Persistence file.
  ///
  /// - Complexity: O(*m*), where *m* is the number of bytes.
  static func escape(_ value: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt8>)
    -> Int
  {
    var written = 0
    func put(_ byte: UInt8) {
      output[written] = byte
      written += 1
    }
    put(UInt8(ascii: "\""))
    for byte in value {
      guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
        put(byte)
        continue
      }
      put(0x5C)
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"): put(byte)
      case 0x0A: put(UInt8(ascii: "n"))
      case 0x0D: put(UInt8(ascii: "r"))
      case 0x09: put(UInt8(ascii: "t"))
      case 0x08: put(UInt8(ascii: "b"))
      case 0x0C: put(UInt8(ascii: "f"))
      default:
        let hex: StaticString = "0123456789abcdef"
        put(UInt8(ascii: "u"))
        put(0x30)
        put(0x30)
        put(hex.utf8Start[Int(byte >> 4)])
        put(hex.utf8Start[Int(byte & 0xF)])
      }
    }
    put(UInt8(ascii: "\""))
    return written
  }

  /// Appends `value` as a JSON string to `output`, escaped as ``escape(_:into:)`` does.
  ///
  /// - Complexity: O(*m*), where *m* is the string's UTF-8 length.
  static func appendEscaped(_ value: String, to output: inout [UInt8]) {
    var value = value
    value.withUTF8 { utf8 in
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumEscapedCount(utf8.count)) {
        buffer in
        guard let start = buffer.baseAddress else { return }
        let written = escape(utf8, into: start)
        output.append(contentsOf: UnsafeBufferPointer(start: start, count: written))
      }
    }
  }
}
