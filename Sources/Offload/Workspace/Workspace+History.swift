import Foundation
import Persistence

extension Workspace {
  /// The recent changes, newest first.
  ///
  /// - Parameter limit: How many to return at most.
  /// - Complexity: O(*h*), where *h* is the length of the history.
  public func history(limit: Int = 20) throws(WorkspaceError) -> [HistoryEntry] {
    try reading { (state) throws(WorkspaceError) in
      var entries: [HistoryEntry] = []
      for sequence in state.index.history.reversed().prefix(max(0, limit)) {
        if let entry = try historyEntry(sequence, tail: state.tail) { entries.append(entry) }
      }
      return entries
    }
  }

  /// A history entry: from the journal's tail when it was recorded there, else from its file.
  func historyEntry(_ sequence: UInt64, tail: [StoreChange]) throws(WorkspaceError)
    -> HistoryEntry?
  {
    if let change = tail.last(where: { $0.history?.sequence == sequence }) {
      return change.historyEntry
    }
    let store = historyStore(sequence)
    return try Self.persisting { () throws(PersistenceError) in try store.load() }
  }

  /// Reverts the most recent change and drops it from the history.
  ///
  /// Undo checks that every item and collection the change touched is still as the change
  /// left it; if anything was edited since, it refuses rather than overwrite that edit.
  ///
  /// - Returns: The entry that was undone.
  /// - Throws: ``WorkspaceError/Code/nothingToUndo`` or ``WorkspaceError/Code/conflict``.
  /// - Complexity: O(*n*) in the sizes of the collections the change touched.
  @discardableResult
  public func undo() throws(WorkspaceError) -> HistoryEntry {
    try change(recordsHistory: false) { (transaction) throws(WorkspaceError) in
      guard let sequence = transaction.index.history.last else {
        throw WorkspaceError(.nothingToUndo, "there is nothing to undo")
      }
      guard let entry = try historyEntry(sequence, tail: transaction.tail) else {
        throw WorkspaceError(
          .damagedStore,
          "the history entry \(sequence) is missing (\(historyPath(sequence))); run `offloadctl store repair`"
        )
      }
      transaction.droppedHistory = [sequence]
      for change in entry.changes.reversed() {
        try revert(change, entry: entry, in: &transaction)
      }
      // The collections take the order they had (a deleted one comes back in its place).
      if let order = entry.collectionOrder { transaction.collectionOrder = order.before }
      return (entry, "undo \(entry.sequence)")
    }
  }

  private func revert(
    _ change: HistoryEntry.CollectionChange, entry: HistoryEntry, in transaction: inout Transaction
  ) throws(WorkspaceError) {
    func conflict(_ what: String) -> WorkspaceError {
      WorkspaceError(
        .conflict,
        "cannot undo \"\(entry.summary)\": \(what) changed since, and undo would overwrite that")
    }
    let exists = transaction.index.collections.contains { $0.id == change.collection }
    guard let before = change.before else {
      // The change created the collection: delete it again, if it holds only what it got.
      guard exists else { return }
      let current = try transaction.collection(change.collection)
      let expected = Set(change.items.compactMap(\.after))
      guard Set(current.items) == expected else { throw conflict("collection \"\(current.name)\"") }
      try transaction.delete(change.collection)
      return
    }
    var collection: ItemCollection
    if exists {
      collection = try transaction.collection(change.collection)
      if let after = change.after, collection.metadata != after {
        throw conflict("collection \"\(collection.name)\"")
      }
    } else {
      guard change.after == nil else { throw conflict("a collection") }
      if transaction.index.collections.contains(where: {
        $0.name.lowercased() == before.name.lowercased()
      }) {
        throw conflict("the name \"\(before.name)\"")
      }
      collection = ItemCollection(
        id: change.collection, name: before.name, kind: before.kind, created: before.created)
    }
    collection.name = before.name
    collection.kind = before.kind
    var position: [ShortID: Int] = [:]
    for (index, item) in collection.items.enumerated() { position[item.id] = index }
    var removed: Set<ShortID> = []
    for itemChange in change.items {
      let id = (itemChange.after ?? itemChange.before)?.id
      guard let id else { continue }
      let current = position[id].map { collection.items[$0] }
      guard current == itemChange.after else { throw conflict("item \(id)") }
      if let previous = itemChange.before {
        if let index = position[id] {
          collection.items[index] = previous
        } else {
          position[id] = collection.items.count
          collection.items.append(previous)
        }
      } else {
        removed.insert(id)
      }
    }
    collection.items.removeAll { removed.contains($0.id) }
    try transaction.update(collection)
  }
}
