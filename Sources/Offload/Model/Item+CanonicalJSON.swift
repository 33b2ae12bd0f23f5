import Foundation
internal import OrderingCore
package import Persistence

// Collections are the store's large documents (a 10,000-item collection is about 1.9 MB), and
// every command that changes one loads and saves it whole. These conformances write and read
// the very bytes the `Codable` conformances write and read, without the generic encoder and
// `JSONDecoder`; Persistence falls back to `Codable` for anything they do not read.

extension Item: CanonicalJSONCodable {
  /// The member keys in the order `Codable` writes them (UTF-8 byte order).
  static let canonicalKeys: CanonicalJSONKeys = [
    "created", "done", "id", "note", "order", "parent", "role", "text",
  ]
  /// The keys every item has, as bits of ``canonicalKeys``: `note`, `parent` and `role` are
  /// written only when set.
  static let requiredKeys = canonicalKeys.bits(of: "created", "done", "id", "order", "text")

  /// Writes the item as its `Codable` conformance does: members in key order, no `parent` for
  /// a root, no `note` without one, no `role` without one.
  ///
  /// - Throws: `CanonicalJSONError` for a date outside the years 0000–9999.
  /// - Complexity: O(*m*), where *m* is the length of the text.
  package func writeCanonicalJSON(to writer: inout CanonicalJSONWriter) throws(CanonicalJSONError) {
    writer.beginObject()
    writer.key("created")
    try writer.date(created)
    writer.key("done")
    writer.bool(done)
    writer.member("id", id.rawValue)
    if let note { writer.member("note", note) }
    writer.member("order", order.rawValue)
    if let parent { writer.member("parent", parent.rawValue) }
    if let role { writer.member("role", role.description) }
    writer.member("text", text)
    writer.endObject()
  }

  /// Reads an item as its `Codable` conformance does, validating the id, parent and order key.
  ///
  /// - Throws: `CanonicalJSONError` for anything the reader leaves to `JSONDecoder`: a missing,
  ///   unknown or repeated member, an invalid id or order key, a value of the wrong kind.
  /// - Complexity: O(*m*), where *m* is the item's size in the file.
  package init(canonicalJSON reader: inout CanonicalJSONReader) throws(CanonicalJSONError) {
    // Each member read replaces the placeholder's; the keys read show whether every required
    // member was there.
    var item = Item(id: ShortID(unchecked: ""), text: "", created: .distantPast, order: .first)
    let read = try reader.readObject(keys: Self.canonicalKeys) {
      (reader, key) throws(CanonicalJSONError) in
      switch key {
      case 0: item.created = try reader.readDate()
      case 1: item.done = try reader.readBool()
      case 2: item.id = try ShortID(canonicalJSON: &reader)
      case 3: item.note = try reader.readNull() ? nil : try reader.readString()
      case 4: item.order = try reader.readString { OrderKey(rawValue: $0) }
      case 5: item.parent = try reader.readNull() ? nil : try ShortID(canonicalJSON: &reader)
      case 6:
        item.role =
          try reader.readNull() ? nil : try reader.readString { try? PlacementRole(parsing: $0) }
      default: item.text = try reader.readString()
      }
    }
    guard read & Self.requiredKeys == Self.requiredKeys else {
      throw CanonicalJSONError(offset: reader.offset)
    }
    self = item
  }
}

extension ItemCollection: CanonicalJSONCodable {
  /// The member keys in the order `Codable` writes them (UTF-8 byte order).
  static let canonicalKeys: CanonicalJSONKeys = ["created", "id", "items", "kind", "name"]
  /// The keys every collection has, as bits of ``canonicalKeys``: all of them.
  static let requiredKeys = canonicalKeys.bits(of: "created", "id", "items", "kind", "name")

  /// Writes the collection as its `Codable` conformance does.
  ///
  /// - Throws: `CanonicalJSONError` for a date outside the years 0000–9999.
  /// - Complexity: O(*n*), where *n* is the collection's encoded size.
  package func writeCanonicalJSON(to writer: inout CanonicalJSONWriter) throws(CanonicalJSONError) {
    writer.beginObject()
    writer.key("created")
    try writer.date(created)
    writer.member("id", id.rawValue)
    writer.key("items")
    writer.beginArray()
    for item in items {
      writer.element()
      try item.writeCanonicalJSON(to: &writer)
    }
    writer.endArray()
    writer.member("kind", kind.rawValue)
    writer.member("name", name)
    writer.endObject()
  }

  /// Reads a collection as its `Codable` conformance does.
  ///
  /// - Throws: `CanonicalJSONError` for anything the reader leaves to `JSONDecoder`.
  /// - Complexity: O(*n*), where *n* is the collection's size in the file.
  package init(canonicalJSON reader: inout CanonicalJSONReader) throws(CanonicalJSONError) {
    // As for an item: each member read replaces the placeholder's.
    var collection = ItemCollection(
      id: ShortID(unchecked: ""), name: "", kind: .list, created: .distantPast)
    let read = try reader.readObject(keys: Self.canonicalKeys) {
      (reader, key) throws(CanonicalJSONError) in
      switch key {
      case 0: collection.created = try reader.readDate()
      case 1: collection.id = try ShortID(canonicalJSON: &reader)
      case 2:
        try reader.readArray { (reader) throws(CanonicalJSONError) in
          collection.items.append(try Item(canonicalJSON: &reader))
        }
      case 3: collection.kind = try reader.readString { CollectionKind(rawValue: $0) }
      default: collection.name = try reader.readString()
      }
    }
    guard read == Self.requiredKeys else {
      throw CanonicalJSONError(offset: reader.offset)
    }
    self = collection
  }
}

extension ShortID {
  /// Reads an identifier from a JSON string, refusing characters outside the alphabet.
  ///
  /// - Complexity: O(*m*), where *m* is the identifier's length.
  init(canonicalJSON reader: inout CanonicalJSONReader) throws(CanonicalJSONError) {
    self = try reader.readString { ShortID($0) }
  }
}

extension CanonicalJSONWriter {
  /// Writes a member whose value is a string.
  mutating func member(_ name: StaticString, _ value: String) {
    key(name)
    string(value)
  }
}

extension CanonicalJSONReader {
  /// Reads a string and converts it; a string `convert` refuses is an error at its offset.
  ///
  /// - Complexity: O(*m*), where *m* is the string's length, plus the conversion.
  mutating func readString<Value>(as convert: (String) -> Value?) throws(CanonicalJSONError)
    -> Value
  {
    let start = offset
    guard let value = convert(try readString()) else { throw CanonicalJSONError(offset: start) }
    return value
  }
}
