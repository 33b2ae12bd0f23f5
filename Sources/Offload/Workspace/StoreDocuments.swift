public import Foundation
import OrderingCore

/// The store's index: the collections, the item-to-collection map, and the id counter.
///
/// One small document, so a command that touches one collection reads the index and that
/// collection's file only.
public struct StoreIndex: Codable, Hashable, Sendable {
  /// A collection as the index lists it.
  public struct Entry: Codable, Hashable, Sendable {
    /// The collection's id (its file is `collections/<id>.json`).
    public var id: ShortID
    /// The collection's name.
    public var name: String
    /// List or plan.
    public var kind: CollectionKind
    /// When it was created.
    public var created: Date
    /// How many items it holds.
    public var itemCount: Int
  }

  /// The next value of the id counter.
  public var nextSequence: UInt64
  /// The collections, the inbox first, then in creation order or as `collection move` put them.
  public var collections: [Entry]
  /// Which collection holds each item.
  public var itemLocations: [ShortID: ShortID]
  /// The next history entry's number.
  public var nextHistorySequence: UInt64 = 1
  /// The numbers of the history entries undo can still revert, oldest first.
  public var history: [UInt64] = []
  /// The version vector of the replicas' operations this index (a device's cache) holds:
  /// replica id to the merged prefix of its log; `nil` for a cache never brought up to date
  /// with the logs (and for a store of the single-writer layouts).
  public var covers: [String: UInt64]?

  enum CodingKeys: String, CodingKey {
    case nextSequence, collections, items, nextHistorySequence, history, covers
  }
}

extension StoreIndex.Entry {
  /// The entry that lists `collection`: its id, name, kind, creation date and item count.
  public init(_ collection: ItemCollection) {
    self.init(
      id: collection.id, name: collection.name, kind: collection.kind,
      created: collection.created, itemCount: collection.items.count)
  }
}

extension StoreIndex {
  /// Decodes the index; the item map is stored per collection as one string of ids.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    nextSequence = try container.decode(UInt64.self, forKey: .nextSequence)
    nextHistorySequence =
      try container.decodeIfPresent(UInt64.self, forKey: .nextHistorySequence) ?? 1
    history = try container.decodeIfPresent([UInt64].self, forKey: .history) ?? []
    covers = try container.decodeIfPresent([String: UInt64].self, forKey: .covers)
    collections = try container.decode([Entry].self, forKey: .collections)
    let grouped = try container.decode([String: String].self, forKey: .items)
    if let locations = Self.locations(grouped) {
      itemLocations = locations
      return
    }
    // Something is invalid: find it the slow way, for the error message.
    var locations: [ShortID: ShortID] = [:]
    for (collection, ids) in grouped {
      guard let collectionID = ShortID(collection) else {
        throw DecodingError.dataCorruptedError(
          forKey: .items, in: container,
          debugDescription: "\"\(collection)\" is not a collection id")
      }
      for text in ids.split(separator: " ") {
        guard let id = ShortID(String(text)) else {
          throw DecodingError.dataCorruptedError(
            forKey: .items, in: container, debugDescription: "\"\(text)\" is not an item id")
        }
        locations[id] = collectionID
      }
    }
    itemLocations = locations
  }

  /// The item map of `grouped` (collection id to space-separated item ids), read byte by
  /// byte with the dictionary sized up front; nil when an id is invalid, so the caller can
  /// name it. About seven times faster than splitting the strings into `Substring`s.
  ///
  /// - Complexity: O(*n*), where *n* is the total length of the strings.
  static func locations(_ grouped: [String: String]) -> [ShortID: ShortID]? {
    var capacity = 0
    for ids in grouped.values { capacity += ids.utf8.count / 7 + 1 }
    var locations: [ShortID: ShortID] = [:]
    locations.reserveCapacity(capacity)
    for (collection, ids) in grouped {
      guard let collectionID = ShortID(collection) else { return nil }
      var ids = ids
      let valid = ids.withUTF8 { bytes -> Bool in
        var start = 0
        for index in 0...bytes.count where index == bytes.count || bytes[index] == 0x20 {
          defer { start = index + 1 }
          guard index > start else { continue }
          let token = UnsafeBufferPointer(rebasing: bytes[start..<index])
          guard token.allSatisfy(ShortID.isDigit) else { return false }
          locations[ShortID(unchecked: String(decoding: token, as: UTF8.self))] = collectionID
        }
        return true
      }
      guard valid else { return nil }
    }
    return locations
  }

  /// Encodes the index, with the item map as one sorted string of ids per collection: a
  /// few long strings code far faster than thousands of keys.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(nextSequence, forKey: .nextSequence)
    try container.encode(nextHistorySequence, forKey: .nextHistorySequence)
    try container.encode(history, forKey: .history)
    try container.encodeIfPresent(covers, forKey: .covers)
    try container.encode(collections, forKey: .collections)
    var grouped: [ShortID: [ShortID]] = [:]
    for (item, collection) in itemLocations { grouped[collection, default: []].append(item) }
    var items: [String: String] = [:]
    for (collection, ids) in grouped { items[collection.rawValue] = Self.joinedSorted(ids) }
    try container.encode(items, forKey: .items)
  }

  /// The ids sorted and joined by spaces. Ids of up to eight bytes (every id of the first
  /// 2^35 items) sort as big-endian packed integers, which is their byte order and so their
  /// `String` order; longer ones sort as strings.
  ///
  /// - Complexity: O(*n* log *n*), where *n* is the number of ids.
  static func joinedSorted(_ ids: [ShortID]) -> String {
    var packed: [(key: UInt64, id: ShortID)] = []
    packed.reserveCapacity(ids.count)
    for id in ids {
      guard id.rawValue.utf8.count <= 8 else {
        return ids.sorted().map(\.rawValue).joined(separator: " ")
      }
      var key: UInt64 = 0
      var shift: UInt64 = 56
      for byte in id.rawValue.utf8 {
        key |= UInt64(byte) << shift
        shift &-= 8
      }
      packed.append((key, id))
    }
    packed.sort { $0.key < $1.key }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(ids.count * 7)
    for (index, entry) in packed.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: " ")) }
      bytes.append(contentsOf: entry.id.rawValue.utf8)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// An index with only the inbox.
  static func empty(now: Date) -> StoreIndex {
    StoreIndex(
      nextSequence: 1,
      collections: [
        Entry(
          id: Workspace.inboxID, name: Workspace.inboxName, kind: .list, created: now, itemCount: 0)
      ],
      itemLocations: [:])
  }
}

/// One entry of the undo history: what a command changed, as before-and-after records.
public struct HistoryEntry: Codable, Hashable, Sendable {
  /// A change to one collection: its metadata and the items that changed.
  public struct CollectionChange: Codable, Hashable, Sendable {
    /// A collection's own fields, without its items.
    public struct Metadata: Codable, Hashable, Sendable {
      /// The name.
      public var name: String
      /// List or plan.
      public var kind: CollectionKind
      /// When it was created.
      public var created: Date
    }

    /// An item before and after the change (`nil` where it did not exist).
    public struct ItemChange: Codable, Hashable, Sendable {
      /// The item before the change.
      public var before: Item?
      /// The item after the change.
      public var after: Item?
    }

    /// The collection's id.
    public var collection: ShortID
    /// Its metadata before (`nil` if the change created it).
    public var before: Metadata?
    /// Its metadata after (`nil` if the change deleted it).
    public var after: Metadata?
    /// The items that were added, removed or changed, sorted by id.
    public var items: [ItemChange]
  }

  /// The entry's number, increasing over the store's life.
  public var sequence: UInt64
  /// When the change was made.
  public var date: Date
  /// What the command did, in words (`move 3kq2mz after a9x0pq`).
  public var summary: String
  /// The collections it changed, sorted by id.
  public var changes: [CollectionChange]
  /// The order of the collections (their ids, the inbox first) before and after the change,
  /// when the change set it (a reorder or a delete); `nil` when it left the order alone.
  public var collectionOrder: CollectionOrder? = nil

  /// The order of the collections around a change, as values: replaying or reverting it sets
  /// an order, so doing it twice gives what doing it once gives.
  public struct CollectionOrder: Codable, Hashable, Sendable {
    /// The collection ids in order before the change.
    public var before: [ShortID]
    /// The collection ids in order after the change.
    public var after: [ShortID]
  }

  /// How many items the entry touches.
  public var itemCount: Int { changes.reduce(0) { $0 + $1.items.count } }
}

extension ItemCollection {
  /// The collection's own fields.
  var metadata: HistoryEntry.CollectionChange.Metadata {
    .init(name: name, kind: kind, created: created)
  }
}
