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
    writer.key("id")
    writer.string(id.rawValue)
    if let note {
      writer.key("note")
      writer.string(note)
    }
    writer.key("order")
    writer.string(order.rawValue)
    if let parent {
      writer.key("parent")
      writer.string(parent.rawValue)
    }
    if let role {
      writer.key("role")
      writer.string(role.description)
    }
    writer.key("text")
    writer.string(text)
    writer.endObject()
  }

  /// Reads an item as its `Codable` conformance does, validating the id, parent and order key.
  ///
  /// - Throws: `CanonicalJSONError` for anything the reader leaves to `JSONDecoder`: a missing,
  ///   unknown or repeated member, an invalid id or order key, a value of the wrong kind.
  /// - Complexity: O(*m*), where *m* is the item's size in the file.
  package init(canonicalJSON reader: inout CanonicalJSONReader) throws(CanonicalJSONError) {
    var created: Date?
    var done: Bool?
    var id: ShortID?
    var note: String?
    var order: OrderKey?
    var parent: ShortID?
    var role: PlacementRole?
    var text: String?
    try reader.readObject(keys: Self.canonicalKeys) { (reader, key) throws(CanonicalJSONError) in
      switch key {
      case 0: created = try reader.readDate()
      case 1: done = try reader.readBool()
      case 2: id = try ShortID(canonicalJSON: &reader)
      case 3: note = try reader.readNull() ? nil : try reader.readString()
      case 4:
        let start = reader.offset
        guard let key = OrderKey(rawValue: try reader.readString()) else {
          throw CanonicalJSONError(offset: start)
        }
        order = key
      case 5: parent = try reader.readNull() ? nil : try ShortID(canonicalJSON: &reader)
      case 6:
        guard !(try reader.readNull()) else { break }
        let start = reader.offset
        guard let value = try? PlacementRole(parsing: try reader.readString()) else {
          throw CanonicalJSONError(offset: start)
        }
        role = value
      default: text = try reader.readString()
      }
    }
    guard let created, let done, let id, let order, let text else {
      throw CanonicalJSONError(offset: reader.offset)
    }
    self.init(
      id: id, text: text, created: created, done: done, parent: parent, order: order, note: note,
      role: role)
  }
}

extension ItemCollection: CanonicalJSONCodable {
  /// The member keys in the order `Codable` writes them (UTF-8 byte order).
  static let canonicalKeys: CanonicalJSONKeys = ["created", "id", "items", "kind", "name"]

  /// Writes the collection as its `Codable` conformance does.
  ///
  /// - Throws: `CanonicalJSONError` for a date outside the years 0000–9999.
  /// - Complexity: O(*n*), where *n* is the collection's encoded size.
  package func writeCanonicalJSON(to writer: inout CanonicalJSONWriter) throws(CanonicalJSONError) {
    writer.beginObject()
    writer.key("created")
    try writer.date(created)
    writer.key("id")
    writer.string(id.rawValue)
    writer.key("items")
    writer.beginArray()
    for item in items {
      writer.element()
      try item.writeCanonicalJSON(to: &writer)
    }
    writer.endArray()
    writer.key("kind")
    writer.string(kind.rawValue)
    writer.key("name")
    writer.string(name)
    writer.endObject()
  }

  /// Reads a collection as its `Codable` conformance does.
  ///
  /// - Throws: `CanonicalJSONError` for anything the reader leaves to `JSONDecoder`.
  /// - Complexity: O(*n*), where *n* is the collection's size in the file.
  package init(canonicalJSON reader: inout CanonicalJSONReader) throws(CanonicalJSONError) {
    var created: Date?
    var id: ShortID?
    var items: [Item]?
    var kind: CollectionKind?
    var name: String?
    try reader.readObject(keys: Self.canonicalKeys) { (reader, key) throws(CanonicalJSONError) in
      switch key {
      case 0: created = try reader.readDate()
      case 1: id = try ShortID(canonicalJSON: &reader)
      case 2:
        var read: [Item] = []
        try reader.readArray { (reader) throws(CanonicalJSONError) in
          read.append(try Item(canonicalJSON: &reader))
        }
        items = read
      case 3:
        let start = reader.offset
        guard let value = CollectionKind(rawValue: try reader.readString()) else {
          throw CanonicalJSONError(offset: start)
        }
        kind = value
      default: name = try reader.readString()
      }
    }
    guard let created, let id, let items, let kind, let name else {
      throw CanonicalJSONError(offset: reader.offset)
    }
    self.init(id: id, name: name, kind: kind, created: created, items: items)
  }
}

extension ShortID {
  /// Reads an identifier from a JSON string, refusing characters outside the alphabet.
  ///
  /// - Complexity: O(*m*), where *m* is the identifier's length.
  init(canonicalJSON reader: inout CanonicalJSONReader) throws(CanonicalJSONError) {
    let start = reader.offset
    guard let id = ShortID(try reader.readString()) else {
      throw CanonicalJSONError(offset: start)
    }
    self = id
  }
}
