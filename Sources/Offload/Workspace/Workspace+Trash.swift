public import Foundation
import OrderingCore
import Replication

/// An item removed from the store that ``Workspace/restoreItems(_:)`` can put back.
public struct DeletedItem: Hashable, Sendable {
  /// The item as it was removed (its `parent` and `order` are where it stood).
  public var item: Item
  /// How many items were nested under it when it was removed (they come back with it).
  public var nestedCount: Int
  /// The id of the collection it was in.
  public var collectionID: ShortID
  /// The name of that collection (as it was, when the collection is gone).
  public var collectionName: String
  /// Whether that collection still exists.
  public var collectionExists: Bool
  /// When it was removed.
  public var removed: Date
  /// In a shared store, the device that removed it (its name, else its replica id); `nil` in a
  /// store never shared.
  public var removedBy: String?
}

/// Where a restored item went.
public struct RestoredItem: Hashable, Sendable {
  /// How the place was chosen.
  public enum Place: String, Hashable, Sendable {
    /// Under its former parent (or among its collection's top items) where it stood.
    case formerPlace
    /// At the end of its former collection: its former parent is gone.
    case endOfCollection
    /// At the end of the inbox: its former collection is gone.
    case inbox
  }

  /// The item's id.
  public var id: ShortID
  /// The item's text.
  public var text: String
  /// How many nested items came back with it.
  public var nestedCount: Int
  /// The collection it went to.
  public var collectionID: ShortID
  /// That collection's name.
  public var collectionName: String
  /// The item it went under, or `nil` for a top item.
  public var parent: ShortID?
  /// How the place was chosen.
  public var place: Place
}

/// What ``Workspace/restoreItems(_:)`` did: one entry per named item, in the order named.
public struct RestoreResult: Hashable, Sendable {
  /// Where each item went.
  public var restored: [RestoredItem]
}

extension Workspace {
  /// The removed items that can be restored, newest removal first.
  ///
  /// A store never shared finds them in its undo history (the newest entries only, as many
  /// as it keeps); a shared store finds them in the merged trash of every device, including
  /// the items of a deleted collection. An item restored since, or brought back by undo, is
  /// not listed; items nested under a removed item come back with it and are counted, not
  /// listed.
  ///
  /// ```swift
  /// let workspace = Workspace(root: folder)
  /// let item = try workspace.capture("Passport")
  /// try workspace.removeItems([item.id.rawValue])
  /// for deleted in try workspace.deletedItems() {
  ///   print(deleted.item.text, deleted.collectionName)  // Passport Inbox
  /// }
  /// let result = try workspace.restoreItems([item.id.rawValue])
  /// print(result.restored[0].place)  // formerPlace
  /// ```
  ///
  /// - Parameter collection: A collection's name or id prefix to list only what was removed
  ///   from it; `nil` for every collection.
  /// - Returns: The removed items.
  /// - Throws: ``WorkspaceError/Code/notFound`` or ``WorkspaceError/Code/ambiguous`` for the
  ///   collection, or an error reading the store.
  /// - Complexity: O(*h* + *o* log *o*): *h* the items of the history entries kept, *o* the
  ///   operations of the logs in a shared store.
  public func deletedItems(in collection: String? = nil) throws(WorkspaceError) -> [DeletedItem] {
    try reading { (state) throws(WorkspaceError) in
      let all = try trash(index: state.index, tail: state.tail).map(\.listed)
      guard let collection else { return all }
      let id = try resolveDeletedCollection(collection, index: state.index, among: all)
      return all.filter { $0.collectionID == id }
    }
  }

  /// Puts removed items back, each with everything that was nested under it and every field
  /// (text, done, note, role), as one change that ``undo()`` takes back.
  ///
  /// Each item goes under its former parent, where it stood among its siblings, when that
  /// parent still exists in a plan (at the top of its collection when it was a top item;
  /// a parent moved to a list since cannot nest it, as if gone); else at the
  /// end of its former collection; else, when that collection is gone, at the end of the inbox.
  /// An item whose former parent is restored by the same call goes back under it.
  ///
  /// - Parameter ids: The items' ids or unique prefixes of them, as ``deletedItems(in:)``
  ///   lists them.
  /// - Returns: Where each item went.
  /// - Throws: ``WorkspaceError/Code/invalidRequest`` for no id,
  ///   ``WorkspaceError/Code/notFound`` for an id that names no removed item,
  ///   ``WorkspaceError/Code/ambiguous`` for a prefix of several, or
  ///   ``WorkspaceError/Code/refused`` when a place cannot take the item; nothing is written
  ///   then.
  /// - Complexity: O(*h* + *n* log *n*): *h* as for ``deletedItems(in:)``, *n* the sizes of
  ///   the collections the items go to.
  @discardableResult
  public func restoreItems(_ ids: [String]) throws(WorkspaceError) -> RestoreResult {
    guard !ids.isEmpty else {
      throw WorkspaceError(.invalidRequest, "name at least one removed item to restore")
    }
    return try change { (transaction) throws(WorkspaceError) in
      let trash = try self.trash(index: transaction.index, tail: transaction.tail)
      var chosen: [TrashEntry] = []
      for prefix in ids {
        let entry = try Self.resolveDeleted(prefix, in: trash, index: transaction.index)
        if !chosen.contains(where: { $0.root.id == entry.root.id }) { chosen.append(entry) }
      }
      var results: [ShortID: RestoredItem] = [:]
      var locations = transaction.index.itemLocations
      let present = Set(transaction.index.collections.map(\.id))
      let lists = Set(transaction.index.collections.filter { $0.kind == .list }.map(\.id))
      for entry in Self.parentsFirst(chosen) {
        let (collectionID, parent, place) = Self.restorePlace(
          entry, locations: locations, collections: present, lists: lists)
        var collection = try transaction.collection(collectionID)
        let destination = Self.formerSpot(
          entry.root.order, parent: parent, in: collection, keepsPlace: place == .formerPlace)
        var root = entry.root
        root.parent = parent
        _ = try edit(
          collectionID, in: &transaction, verb: "restore \(root.id)", adding: [root.id: root]
        ) { (editor) throws(EditRefusal) in
          try editor.add(root.id, role: root.role, at: destination)
        }
        collection = try transaction.collection(collectionID)
        collection.items += entry.nested
        try transaction.update(collection)
        for item in [root] + entry.nested { locations[item.id] = collectionID }
        results[root.id] = RestoredItem(
          id: root.id, text: root.text, nestedCount: entry.nested.count,
          collectionID: collectionID, collectionName: collection.name, parent: parent,
          place: place)
      }
      let restored = chosen.compactMap { results[$0.root.id] }
      let summary = "restore " + restored.map(\.id.rawValue).joined(separator: " ")
      return (RestoreResult(restored: restored), summary)
    }
  }

  // MARK: - Where a restored item goes (pure)

  /// The collection, parent and kind of place an entry goes back to: under its former
  /// parent when that item is in the store (`locations`) in a collection that nests (not one
  /// of `lists`), at the top of its former collection when it was a top item there; else the
  /// end of that collection; else the end of the inbox.
  static func restorePlace(
    _ entry: TrashEntry, locations: [ShortID: ShortID], collections: Set<ShortID>,
    lists: Set<ShortID>
  ) -> (collection: ShortID, parent: ShortID?, place: RestoredItem.Place) {
    if let parent = entry.root.parent {
      if let collection = locations[parent], !lists.contains(collection) {
        return (collection, parent, .formerPlace)
      }
    } else if collections.contains(entry.collectionID) {
      return (entry.collectionID, nil, .formerPlace)
    }
    if collections.contains(entry.collectionID) {
      return (entry.collectionID, nil, .endOfCollection)
    }
    return (inboxID, nil, .inbox)
  }

  /// Where an item whose key was `key` stood among `parent`'s children now: before the first
  /// sibling whose key is greater, else last; last when `keepsPlace` is false.
  ///
  /// - Complexity: O(*n*), *n* items of the collection.
  static func formerSpot(
    _ key: OrderKey, parent: ShortID?, in collection: ItemCollection, keepsPlace: Bool
  ) -> OrderedForest<ShortID>.Destination {
    let last: OrderedForest<ShortID>.Destination =
      parent.map { .lastChild(of: $0) } ?? .lastRoot
    guard keepsPlace else { return last }
    let next = collection.items.filter { $0.parent == parent && $0.order > key }
      .min { ($0.order, $0.id) < ($1.order, $1.id) }
    return next.map { .before($0.id) } ?? last
  }

  /// The entries in an order where an entry whose former parent comes back with another
  /// entry follows that entry; otherwise as named.
  ///
  /// - Complexity: O(*k*² · *s*), *k* entries of *s* items.
  static func parentsFirst(_ entries: [TrashEntry]) -> [TrashEntry] {
    var pending = entries
    var result: [TrashEntry] = []
    while !pending.isEmpty {
      let carried = Set(pending.flatMap { [$0.root.id] + $0.nested.map(\.id) })
      let next =
        pending.firstIndex { entry in
          entry.root.parent.map { !carried.contains($0) } ?? true
        } ?? 0
      result.append(pending.remove(at: next))
    }
    return result
  }

  /// The removed item a prefix names.
  static func resolveDeleted(_ word: String, in trash: [TrashEntry], index: StoreIndex)
    throws(WorkspaceError) -> TrashEntry
  {
    let prefix = bareID(word)
    switch ShortID.match(prefix, in: trash.map(\.root.id)) {
    case .unique(let id):
      if let entry = trash.first(where: { $0.root.id == id }) { return entry }
    case .ambiguous(let ids):
      throw WorkspaceError(
        .ambiguous,
        "\"\(prefix)\" matches several removed items (\(ids.map(\.rawValue).joined(separator: ", "))); type more of the id"
      )
    case .none:
      break
    }
    if case .unique(let id) = ShortID.match(prefix, in: index.itemLocations.keys) {
      throw WorkspaceError(.notFound, "item \(id) is not removed: it is in the store")
    }
    throw WorkspaceError(.notFound, "no removed item has an id starting with \"\(prefix)\"")
  }

  /// The id of the collection `reference` names: a present collection, or one gone that a
  /// removed item was in.
  private func resolveDeletedCollection(
    _ reference: String, index: StoreIndex, among deleted: [DeletedItem]
  ) throws(WorkspaceError) -> ShortID {
    do {
      return try resolveCollection(reference, in: index).id
    } catch {
      let gone = deleted.filter { !$0.collectionExists }
      if let match = gone.first(where: { $0.collectionName == reference }) {
        return match.collectionID
      }
      if case .unique(let id) = ShortID.match(reference, in: Set(gone.map(\.collectionID))) {
        return id
      }
      throw error
    }
  }
}
