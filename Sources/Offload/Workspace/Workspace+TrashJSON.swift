import Foundation

// The `--json` shapes of the removed items and of a restore: one place for them, beside the
// values they write, as the photo shapes are (`PhotoJSON`).

extension DeletedItem: Encodable {
  private enum Key: String, CodingKey { case id, text, nested, collection, removed, removedBy }
  private enum PlaceKey: String, CodingKey { case id, name, exists }

  /// Writes `id`, `text`, `nested` (how many items were nested under it), `collection` (`id`,
  /// `name`, `exists`), `removed` and, in a shared store, `removedBy`.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(item.id.rawValue, forKey: .id)
    try container.encode(item.text, forKey: .text)
    try container.encode(nestedCount, forKey: .nested)
    var place = container.nestedContainer(keyedBy: PlaceKey.self, forKey: .collection)
    try place.encode(collectionID.rawValue, forKey: .id)
    try place.encode(collectionName, forKey: .name)
    try place.encode(collectionExists, forKey: .exists)
    try container.encode(removed, forKey: .removed)
    try container.encodeIfPresent(removedBy, forKey: .removedBy)
  }
}

extension RestoredItem: Encodable {
  private enum Key: String, CodingKey { case id, nested, collection, parent, place }

  /// Writes `id`, `nested`, `collection` (its id), `parent` (when it went under one) and
  /// `place` (`formerPlace`, `endOfCollection` or `inbox`).
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(id.rawValue, forKey: .id)
    try container.encode(nestedCount, forKey: .nested)
    try container.encode(collectionID.rawValue, forKey: .collection)
    try container.encodeIfPresent(parent?.rawValue, forKey: .parent)
    try container.encode(place.rawValue, forKey: .place)
  }
}
