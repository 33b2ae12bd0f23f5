import Foundation

/// The JSON encoder of every file `Persistence` writes: keys sorted by their UTF-8 bytes, no
/// escaped slashes, ISO 8601 millisecond dates, integers exactly; one line, or indented by two
/// spaces with one member per line. Several times faster than `JSONEncoder` for the small
/// values a journal appends, and at least as fast for large documents.
///
/// It builds a tree of the value and writes it; `JSONDecoder` reads its output. Numbers are
/// written as Swift prints them (`1.5`, `1e-07`), integers exactly; a non-finite number is an
/// error, as with `JSONEncoder`.
package final class LineEncoder {
  /// How object members are laid out. Persistence's files use ``canonical``; a client in the
  /// package may keep members in the order they were encoded, or space the colon on both
  /// sides (`"key" : value`, the layout of Foundation's pretty printer).
  package struct Layout: Hashable, Sendable {
    /// Whether members are sorted by the UTF-8 bytes of their keys (else: in encoding order,
    /// a key encoded twice written twice).
    package var sortsKeys: Bool
    /// Whether indented output writes `"key" : value` instead of `"key": value`.
    package var spaceBeforeColon: Bool

    /// Sorted keys, `"key": value`: every file Persistence writes.
    package static let canonical = Layout(sortsKeys: true, spaceBeforeColon: false)
    /// Sorted keys, `"key" : value`: what `JSONEncoder` writes with `.prettyPrinted` and
    /// `.sortedKeys`.
    package static let foundationSorted = Layout(sortsKeys: true, spaceBeforeColon: true)
    /// Members in the order they were encoded, `"key": value`.
    package static let encodingOrder = Layout(sortsKeys: false, spaceBeforeColon: false)
  }

  /// Whether to indent (two spaces, one member or element per line).
  let pretty: Bool
  /// How members are laid out.
  let layout: Layout

  /// An encoder that indents (`pretty`) or writes one line, in `layout`.
  package init(pretty: Bool = false, layout: Layout = .canonical) {
    self.pretty = pretty
    self.layout = layout
  }

  /// The encoded bytes of `value`, appended to `output`.
  ///
  /// - Throws: `EncodingError.invalidValue` for a number that is not finite or a date
  ///   outside the years 0000–9999.
  /// - Complexity: O(*n* log *n*), where *n* is the number of values (keys are sorted).
  package func encode<Value: Encodable>(_ value: Value, into output: inout [UInt8]) throws {
    let node = try TreeEncoder.node(for: value, codingPath: [])
    node.write(to: &output, indent: pretty ? 0 : nil, layout: layout)
  }
}

/// A JSON value under construction.
private enum Node {
  case null
  case bool(Bool)
  case integer(Int64)
  case unsigned(UInt64)
  case double(Double)
  case string(String)
  case array(ArrayBox)
  case object(ObjectBox)

  func write(to output: inout [UInt8], indent: Int? = nil, layout: LineEncoder.Layout = .canonical)
  {
    switch self {
    case .null: output.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
    case .bool(let value):
      output.append(contentsOf: value ? Array("true".utf8) : Array("false".utf8))
    case .integer(let value): Node.writeInteger(value, to: &output)
    case .unsigned(let value): output.append(contentsOf: String(value).utf8)
    case .double(let value):
      if value == value.rounded(), abs(value) < 1e15 {
        Node.writeInteger(Int64(value), to: &output)
      } else {
        output.append(contentsOf: value.description.utf8)
      }
    case .string(let value): Node.writeString(value, to: &output)
    case .array(let box):
      output.append(UInt8(ascii: "["))
      for (index, item) in box.items.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        Node.newline(indent.map { $0 + 1 }, to: &output)
        item.write(to: &output, indent: indent.map { $0 + 1 }, layout: layout)
      }
      if !box.items.isEmpty { Node.newline(indent, to: &output) }
      output.append(UInt8(ascii: "]"))
    case .object(let box):
      output.append(UInt8(ascii: "{"))
      var members = box.members
      if layout.sortsKeys && members.count > 1 && !Node.isSorted(members) {
        members.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
      }
      var first = true
      for (index, member) in members.enumerated() {
        // A key encoded twice keeps its last value, as JSONEncoder does (the sort is stable).
        if layout.sortsKeys && index + 1 < members.count && members[index + 1].key == member.key {
          continue
        }
        if !first { output.append(UInt8(ascii: ",")) }
        first = false
        Node.newline(indent.map { $0 + 1 }, to: &output)
        Node.writeString(member.key, to: &output)
        if indent != nil && layout.spaceBeforeColon { output.append(UInt8(ascii: " ")) }
        output.append(UInt8(ascii: ":"))
        if indent != nil { output.append(UInt8(ascii: " ")) }
        member.node.write(to: &output, indent: indent.map { $0 + 1 }, layout: layout)
      }
      if !first { Node.newline(indent, to: &output) }
      output.append(UInt8(ascii: "}"))
    }
  }

  /// Whether the keys are already in order (the common case for types declared alphabetically
  /// and for dictionaries encoded twice), so sorting can be skipped.
  static func isSorted(_ members: [(key: String, node: Node)]) -> Bool {
    for index in 1..<members.count
    where !members[index - 1].key.utf8.lexicographicallyPrecedes(members[index].key.utf8) {
      return false
    }
    return true
  }

  /// A line break and `level` levels of two-space indentation, when writing indented.
  static func newline(_ level: Int?, to output: inout [UInt8]) {
    guard let level else { return }
    output.append(0x0A)
    output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: level * 2))
  }

  static func writeInteger(_ value: Int64, to output: inout [UInt8]) {
    if value >= 0 && value < 10 {
      output.append(UInt8(ascii: "0") + UInt8(value))
      return
    }
    output.append(contentsOf: String(value).utf8)
  }

  /// The escaping every Persistence file shares (see `CanonicalJSONWriter.appendEscaped`).
  static func writeString(_ value: String, to output: inout [UInt8]) {
    CanonicalJSONWriter.appendEscaped(value, to: &output)
  }
}

private final class ArrayBox {
  var items: [Node] = []
}

private final class ObjectBox {
  var members: [(key: String, node: Node)] = []
}

/// The `Encoder` that builds a ``Node``.
private final class TreeEncoder: Encoder {
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  /// The value encoded so far.
  var result: Node? {
    didSet { if let slot, let result { slot(result) } }
  }
  /// For the encoder a container's `superEncoder` returns: puts the value, each time it is set,
  /// in the member or item the container made for it.
  private let slot: ((Node) -> Void)?

  init(codingPath: [any CodingKey], slot: ((Node) -> Void)? = nil) {
    self.codingPath = codingPath
    self.slot = slot
  }

  /// The encoder a container's `superEncoder` returns: its value is an empty object until
  /// something is encoded, as with `JSONEncoder`, and `slot` puts it in place.
  static func superEncoder(
    codingPath: [any CodingKey], slot: @escaping (Node) -> Void
  ) -> TreeEncoder {
    let encoder = TreeEncoder(codingPath: codingPath, slot: slot)
    encoder.result = .object(ObjectBox())
    return encoder
  }

  /// The node of a value, with Foundation's special cases (Date, Data, URL, Decimal).
  static func node<Value: Encodable>(for value: Value, codingPath: [any CodingKey]) throws -> Node {
    // Metatype comparisons first: they cost next to nothing, unlike dynamic casts.
    let type = Value.self
    if type == String.self { return .string(unsafeBitCast(value, to: String.self)) }
    if type == Int.self { return .integer(Int64(unsafeBitCast(value, to: Int.self))) }
    if type == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
    if type == Double.self { return try double(unsafeBitCast(value, to: Double.self), codingPath) }
    if type == Date.self {
      return .string(
        try ISO8601Milliseconds.format(unsafeBitCast(value, to: Date.self), codingPath: codingPath))
    }
    if type == Float.self || type == Int8.self || type == Int16.self || type == Int32.self
      || type == Int64.self || type == UInt.self || type == UInt8.self || type == UInt16.self
      || type == UInt32.self || type == UInt64.self || type == Data.self || type == URL.self
      || type == Decimal.self
    {
      return try special(value, codingPath)
    }
    let encoder = TreeEncoder(codingPath: codingPath)
    try value.encode(to: encoder)
    return encoder.result ?? .object(ObjectBox())
  }

  /// The rarer types that JSONEncoder also treats specially, or that need widening.
  private static func special<Value>(_ value: Value, _ codingPath: [any CodingKey]) throws -> Node {
    switch value {
    case let number as Float: return try double(Double(number), codingPath)
    case let number as any FixedWidthInteger:
      if let value = Int64(exactly: number) { return .integer(value) }
      return .unsigned(UInt64(truncatingIfNeeded: number))
    case let data as Data: return .string(data.base64EncodedString())
    case let url as URL: return .string(url.absoluteString)
    case let decimal as Decimal: return .double(NSDecimalNumber(decimal: decimal).doubleValue)
    default: return .null
    }
  }

  static func double(_ value: Double, _ codingPath: [any CodingKey]) throws -> Node {
    guard value.isFinite else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: codingPath, debugDescription: "\(value) is not a valid JSON number"))
    }
    return .double(value)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(
      Keyed<Key>(box: box(ObjectBox.init, Node.object), codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    Unkeyed(box: box(ArrayBox.init, Node.array), codingPath: codingPath)
  }

  /// The box the value already is, when it is one of this kind (a second container of a kind
  /// adds to the first one's members or items), else a new one that becomes the value.
  private func box<Box: AnyObject>(_ make: () -> Box, _ node: (Box) -> Node) -> Box {
    switch result {
    case .object(let box as Box), .array(let box as Box):
      return box
    default:
      let box = make()
      result = node(box)
      return box
    }
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { Single(encoder: self) }

  struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: ObjectBox
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { box.members.append((key.stringValue, .null)) }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
      box.members.append((key.stringValue, .bool(value)))
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
      box.members.append((key.stringValue, .string(value)))
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
      box.members.append((key.stringValue, .integer(Int64(value))))
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws {
      box.members.append((key.stringValue, .integer(value)))
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
      box.members.append((key.stringValue, .unsigned(value)))
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
      box.members.append((key.stringValue, try TreeEncoder.double(value, codingPath + [key])))
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
      box.members.append(
        (key.stringValue, try TreeEncoder.node(for: value, codingPath: codingPath + [key])))
    }
    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
      let nested = ObjectBox()
      box.members.append((key.stringValue, .object(nested)))
      return KeyedEncodingContainer(Keyed<NestedKey>(box: nested, codingPath: codingPath + [key]))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      let nested = ArrayBox()
      box.members.append((key.stringValue, .array(nested)))
      return Unkeyed(box: nested, codingPath: codingPath + [key])
    }
    mutating func superEncoder() -> any Encoder {
      superEncoder(key: "super", codingPath: codingPath)
    }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
      superEncoder(key: key.stringValue, codingPath: codingPath + [key])
    }
    /// An encoder whose value goes under `key`.
    private func superEncoder(key: String, codingPath: [any CodingKey]) -> any Encoder {
      let (parent, index) = (box, box.members.count)
      parent.members.append((key, .null))
      return TreeEncoder.superEncoder(codingPath: codingPath) { parent.members[index].node = $0 }
    }
  }

  struct Unkeyed: UnkeyedEncodingContainer {
    let box: ArrayBox
    let codingPath: [any CodingKey]
    var count: Int { box.items.count }

    mutating func encodeNil() throws { box.items.append(.null) }
    mutating func encode(_ value: Bool) throws { box.items.append(.bool(value)) }
    mutating func encode(_ value: String) throws { box.items.append(.string(value)) }
    mutating func encode(_ value: Int) throws { box.items.append(.integer(Int64(value))) }
    mutating func encode(_ value: Double) throws {
      box.items.append(try TreeEncoder.double(value, codingPath))
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
      box.items.append(try TreeEncoder.node(for: value, codingPath: codingPath + [IndexKey(count)]))
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
      -> KeyedEncodingContainer<NestedKey>
    {
      let nested = ObjectBox()
      box.items.append(.object(nested))
      return KeyedEncodingContainer(Keyed<NestedKey>(box: nested, codingPath: codingPath))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
      let nested = ArrayBox()
      box.items.append(.array(nested))
      return Unkeyed(box: nested, codingPath: codingPath)
    }
    /// An encoder whose value goes in the next item.
    mutating func superEncoder() -> any Encoder {
      let (parent, index) = (box, box.items.count)
      parent.items.append(.null)
      return TreeEncoder.superEncoder(codingPath: codingPath) { parent.items[index] = $0 }
    }
  }

  struct Single: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.result = .null }
    mutating func encode(_ value: Bool) throws { encoder.result = .bool(value) }
    mutating func encode(_ value: String) throws { encoder.result = .string(value) }
    mutating func encode(_ value: Int) throws { encoder.result = .integer(Int64(value)) }
    mutating func encode(_ value: Int64) throws { encoder.result = .integer(value) }
    mutating func encode(_ value: UInt64) throws { encoder.result = .unsigned(value) }
    mutating func encode(_ value: Double) throws {
      encoder.result = try TreeEncoder.double(value, codingPath)
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
      encoder.result = try TreeEncoder.node(for: value, codingPath: codingPath)
    }
  }
}

/// The coding key of an array element.
private struct IndexKey: CodingKey {
  var intValue: Int?
  var stringValue: String { "Index \(intValue ?? 0)" }
  init(_ index: Int) { intValue = index }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { self.intValue = intValue }
}
