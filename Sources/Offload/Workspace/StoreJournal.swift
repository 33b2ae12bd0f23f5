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
      HistoryEntry(sequence: $0.sequence, date: $0.date, summary: $0.summary, changes: changes)
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

extension ItemCollection {
  /// The collection after one committed change: its metadata set, its changed items put in
  /// place, its removed items gone; nil when the change deleted it.
  ///
  /// Setting values is idempotent: replaying a change over a file that already holds it gives
  /// the same collection.
  ///
  /// - Parameters:
  ///   - change: The change to this collection.
  ///   - collection: The collection before it (nil when it does not exist).
  /// - Returns: The collection after it, or nil.
  /// - Complexity: O(*n* + *c*), where *n* is the number of items and *c* the number changed.
  static func applying(_ change: HistoryEntry.CollectionChange, to collection: ItemCollection?)
    -> ItemCollection?
  {
    guard let metadata = change.after else { return nil }
    var collection =
      collection
      ?? ItemCollection(
        id: change.collection, name: metadata.name, kind: metadata.kind,
        created: metadata.created)
    collection.name = metadata.name
    collection.kind = metadata.kind
    collection.created = metadata.created
    guard !change.items.isEmpty else { return collection }
    var position: [ShortID: Int] = [:]
    position.reserveCapacity(collection.items.count)
    for (index, item) in collection.items.enumerated() { position[item.id] = index }
    var removed: Set<ShortID> = []
    for itemChange in change.items {
      if let after = itemChange.after {
        removed.remove(after.id)
        if let index = position[after.id] {
          collection.items[index] = after
        } else {
          position[after.id] = collection.items.count
          collection.items.append(after)
        }
      } else if let before = itemChange.before, position[before.id] != nil {
        removed.insert(before.id)
      }
    }
    if !removed.isEmpty { collection.items.removeAll { removed.contains($0.id) } }
    return collection
  }
}
