public import Foundation
public import OrderingCore

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
  /// The collections, the inbox first, then in creation order.
  public var collections: [Entry]
  /// Which collection holds each item.
  public var itemLocations: [ShortID: ShortID]

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

  /// How many items the entry touches.
  public var itemCount: Int { changes.reduce(0) { $0 + $1.items.count } }
}

/// The undo history: the most recent changes, newest last.
public struct History: Codable, Hashable, Sendable {
  /// The entries, oldest first.
  public var entries: [HistoryEntry]
  /// The next entry's number.
  public var nextSequence: UInt64
}

extension ItemCollection {
  /// The collection's own fields.
  var metadata: HistoryEntry.CollectionChange.Metadata {
    .init(name: name, kind: kind, created: created)
  }
}
