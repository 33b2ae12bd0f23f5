import Foundation
import OrderingCore
import Persistence

/// One committed change of the list store: a line of the store's change journal.
///
/// The line says everything the change does, as values rather than steps: each touched
/// collection's items and metadata before and after, the id counter after it, the history
/// entry it records and the entries it drops. Its fsync'd append is the change's commit point;
/// the collection files, the history files and the index are checkpoints that replaying the
/// journal's tail brings up to date. Replaying a line twice gives what replaying it once gives,
/// so a checkpoint cut short by a crash is simply done again.
struct StoreChange: Codable, Hashable, Sendable {
  /// The collections the change touched, sorted by id, as before-and-after records.
  var changes: [HistoryEntry.CollectionChange]
  /// The id counter after the change.
  var nextSequence: UInt64
  /// The history entry the change records (its changes are ``changes``), or nil for undo.
  var history: HistoryNote?
  /// History entries the change drops: the undone entry, or the oldest beyond the limit.
  var droppedHistory: [UInt64]
  /// The order of the collections before and after the change, when it set one (a reorder, a
  /// delete, or undoing them); absent from lines that left the order alone. Replay sets the
  /// `after` order, so replaying the line twice gives what replaying it once gives.
  var collectionOrder: HistoryEntry.CollectionOrder? = nil
  /// The version vector of the replicas' operations the cache holds after this change
  /// (decision 0010); `nil` in the single-writer layout.
  var covers: [String: UInt64]? = nil

  /// A history entry's own fields; its changes are the line's.
  struct HistoryNote: Codable, Hashable, Sendable {
    /// The entry's number.
    var sequence: UInt64
    /// When the change was made.
    var date: Date
    /// What the command did, in words.
    var summary: String
  }

  /// The history entry this change records, if any.
  var historyEntry: HistoryEntry? {
    history.map {
      HistoryEntry(
        sequence: $0.sequence, date: $0.date, summary: $0.summary, changes: changes,
        collectionOrder: collectionOrder)
    }
  }

  /// The ids of the collections the change touched.
  var collectionIDs: [ShortID] { changes.map(\.collection) }
}

/// The store's checkpoint index with the journal's tail replayed over it: what every reader
/// and every change sees.
struct StoreState {
  /// The index after every committed change.
  var index: StoreIndex
  /// The committed changes the collection and history files do not hold yet, oldest first.
  var tail: [StoreChange]
  /// The store's change stamp under the lock this state was read or committed under, when the
  /// workspace keeps what it reads (``Workspace/remembering()``); nil otherwise.
  var stamp: String? = nil

  /// Whether the tail is long enough that a change should checkpoint it: reading it costs
  /// every command, writing the files costs one.
  var needsCheckpoint: Bool {
    tail.count >= Workspace.checkpointChanges
      || tail.reduce(0) { $0 + $1.changes.reduce(0) { $0 + $1.items.count } }
        >= Workspace.checkpointItems
  }

  /// Replays one committed change over the index.
  ///
  /// - Complexity: O(*c*), where *c* is the number of items the change touched.
  mutating func apply(_ change: StoreChange) {
    index.apply(change)
    tail.append(change)
  }
}

extension StoreIndex {
  /// Replays one committed change over the index: counters, collection entries, item locations
  /// and the live history entries.
  ///
  /// - Complexity: O(*c* + *k*), where *c* is the number of items the change touched and *k*
  ///   the number of collections.
  mutating func apply(_ change: StoreChange) {
    nextSequence = max(nextSequence, change.nextSequence)
    for collectionChange in change.changes {
      let id = collectionChange.collection
      var delta = 0
      for item in collectionChange.items {
        if let before = item.before, item.after == nil {
          delta -= 1
          if itemLocations[before.id] == id { itemLocations[before.id] = nil }
        }
      }
      for item in collectionChange.items {
        guard let after = item.after else { continue }
        if item.before == nil { delta += 1 }
        itemLocations[after.id] = id
      }
      let position = collections.firstIndex { $0.id == id }
      guard let metadata = collectionChange.after else {
        if let position { collections.remove(at: position) }
        continue
      }
      var entry =
        position.map { collections[$0] }
        ?? Entry(
          id: id, name: metadata.name, kind: metadata.kind, created: metadata.created, itemCount: 0)
      entry.name = metadata.name
      entry.kind = metadata.kind
      entry.created = metadata.created
      entry.itemCount = max(0, entry.itemCount + delta)
      if let position { collections[position] = entry } else { collections.append(entry) }
    }
    if let order = change.collectionOrder { arrangeCollections(order.after) }
    if let covers = change.covers { self.covers = covers }
    if let note = change.history {
      history.append(note.sequence)
      nextHistorySequence = max(nextHistorySequence, note.sequence + 1)
    }
    if !change.droppedHistory.isEmpty {
      let dropped = Set(change.droppedHistory)
      history.removeAll { dropped.contains($0) }
    }
  }
}

extension StoreIndex {
  /// Puts the collections in the given order; a collection the order does not name keeps its
  /// place after those it names, and an id of no collection is passed over.
  ///
  /// - Complexity: O(*k* log *k*), where *k* is the number of collections.
  mutating func arrangeCollections(_ order: [ShortID]) {
    var rank: [ShortID: Int] = [:]
    for (position, id) in order.enumerated() where rank[id] == nil { rank[id] = position }
    collections = collections.enumerated().sorted { a, b in
      (rank[a.element.id] ?? Int.max, a.offset) < (rank[b.element.id] ?? Int.max, b.offset)
    }.map(\.element)
  }
}

extension ItemCollection {
  /// The collection after committed changes, in order: its metadata set, its changed items
  /// put in place, its removed items gone; nil when a change deleted it.
  ///
  /// Setting values is idempotent: replaying changes over a file that already holds them gives
  /// the same collection (with the items in possibly another array order, which carries no
  /// meaning: order comes from each item's `parent` and `order`).
  ///
  /// - Parameters:
  ///   - changes: The changes to this collection, oldest first.
  ///   - collection: The collection before them (nil when it does not exist).
  /// - Returns: The collection after them, or nil.
  /// - Complexity: O(*n* · *c*) for up to 256 changed items, else O(*n* + *c*), where *n* is
  ///   the number of items and *c* the number of item changes.
  static func applying(
    _ changes: some Sequence<HistoryEntry.CollectionChange>, to collection: ItemCollection?
  ) -> ItemCollection? {
    var collection = collection
    var pending: [HistoryEntry.CollectionChange.ItemChange] = []
    for change in changes {
      guard let metadata = change.after else {
        collection = nil
        pending.removeAll()
        continue
      }
      if collection == nil {
        collection = ItemCollection(
          id: change.collection, name: metadata.name, kind: metadata.kind,
          created: metadata.created)
      }
      collection?.name = metadata.name
      collection?.kind = metadata.kind
      collection?.created = metadata.created
      pending += change.items
    }
    guard var result = collection, !pending.isEmpty else { return collection }
    // Comparing short ids is cheap and hashing them is not: callgrind puts a scan of 10,000
    // items at a thousandth of building a map of them. Up to 256 changed items (every tail
    // but an import's) scan; more build the map once.
    var position: [ShortID: Int]?
    if pending.count > 256 {
      var map: [ShortID: Int] = [:]
      map.reserveCapacity(result.items.count)
      for (index, item) in result.items.enumerated() { map[item.id] = index }
      position = map
    }
    var removed: Set<ShortID> = []
    for itemChange in pending {
      guard let id = (itemChange.after ?? itemChange.before)?.id else { continue }
      let index = position.map { $0[id] } ?? result.items.firstIndex { $0.id == id }
      if let after = itemChange.after {
        removed.remove(id)
        if let index {
          result.items[index] = after
        } else {
          position?[id] = result.items.count
          result.items.append(after)
        }
      } else if index != nil {
        removed.insert(id)
      }
    }
    if !removed.isEmpty { result.items.removeAll { removed.contains($0.id) } }
    return result
  }
}

extension [StoreChange] {
  /// The changes to one collection in these committed changes, oldest first.
  ///
  /// - Complexity: O(*t*), where *t* is the number of collection changes in the lines.
  func changes(to id: ShortID) -> [HistoryEntry.CollectionChange] {
    flatMap { $0.changes.filter { $0.collection == id } }
  }
}
