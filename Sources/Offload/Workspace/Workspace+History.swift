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

  /// Takes back the most recent change and drops it from the history.
  ///
  /// A change to items within collections (an add, a capture, a move or drop, an indent or
  /// outdent, a removal, a done mark, an edit, and the bulk form of each) is taken back as an
  /// intent of each collection's `Editor` (see `Editor.undo(_:current:)` in Editing): the
  /// inverse of the change, built from the history entry's records, is checked against the
  /// collection as it is now and against its rules, then saved as one change. A change to the
  /// collections themselves (a create, rename, convert, delete or reorder) is reverted from
  /// the entry's records.
  ///
  /// Either way undo refuses, in one line, when an item or collection the change touched was
  /// changed since, rather than overwrite that change: `cannot undo "SUMMARY": item ID changed
  /// since, and undo would overwrite that`. In a shared store the history holds this device's
  /// changes only, and the undo is written as new operations of this device (decision 0014).
  ///
  /// - Returns: The entry that was undone.
  /// - Throws: ``WorkspaceError/Code/nothingToUndo`` or ``WorkspaceError/Code/conflict``.
  /// - Complexity: O(*n* log *n*) in the sizes of the collections the change touched.
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
      // The keys put back are the ones the change found: a shared store keeps them as they
      // are rather than give them this device's suffix again.
      transaction.restoresKeys = true
      if entry.changesItemsOnly {
        for change in entry.changes.reversed() {
          try undoThroughEditor(change, entry: entry, in: &transaction)
        }
      } else {
        for change in entry.changes.reversed() {
          try revert(change, entry: entry, in: &transaction)
        }
      }
      // The collections take the order they had (a deleted one comes back in its place).
      if let order = entry.collectionOrder { transaction.collectionOrder = order.before }
      return (entry, "undo \(entry.sequence)")
    }
  }

  /// Takes back one collection's item changes through its editor.
  private func undoThroughEditor(
    _ change: HistoryEntry.CollectionChange, entry: HistoryEntry,
    in transaction: inout Transaction
  ) throws(WorkspaceError) {
    guard transaction.index.collections.contains(where: { $0.id == change.collection }) else {
      throw Self.undoConflict(entry, "a collection")
    }
    var collection = try transaction.collection(change.collection)
    guard collection.metadata == change.after else {
      throw Self.undoConflict(entry, "collection \"\(collection.name)\"")
    }
    let (made, restored) = Self.editChange(change)
    var items: [ShortID: Item] = [:]
    for item in collection.items { items[item.id] = item }
    var editor = try transaction.takeTree(change.collection).editor
    let inverse: EditChange<ShortID>
    do throws(EditRefusal) {
      inverse = try editor.undo(made) { id, name in items[id].flatMap { Self.field(name, of: $0) } }
    } catch {
      throw WorkspaceError(.conflict, "cannot undo \"\(entry.summary)\": \(error.reason)")
    }
    guard let changes = inverse.changeSet else {
      throw WorkspaceError(.damagedStore, "the history entry \(entry.sequence) holds a bad key")
    }
    CollectionTree.apply(changes, to: &collection, adding: restored)
    Self.apply(inverse.fields, to: &collection)
    try transaction.update(collection)
  }

  /// The refusal of an undo: what changed since.
  static func undoConflict(_ entry: HistoryEntry, _ what: String) -> WorkspaceError {
    WorkspaceError(
      .conflict,
      "cannot undo \"\(entry.summary)\": \(what) changed since, and undo would overwrite that")
  }

  /// The editor's change that a history entry's records of one collection describe: every
  /// item the change touched, with its place and its fields before and after (the same before
  /// and after where the change left them alone, so the undo checks those too: a text edited
  /// since refuses the undo of a move), and the removed items as they were (the undo puts
  /// them back with every field, their creation date included).
  ///
  /// - Complexity: O(*c*), where *c* is the number of item records.
  static func editChange(_ change: HistoryEntry.CollectionChange)
    -> (EditChange<ShortID>, restored: [ShortID: Item])
  {
    func spot(_ item: Item?) -> EditChange<ShortID>.Spot? {
      item.map { .init(parent: $0.parent, key: $0.order.rawValue) }
    }
    var made = EditChange<ShortID>(intent: .edit)
    var restored: [ShortID: Item] = [:]
    for record in change.items {
      guard let id = (record.after ?? record.before)?.id else { continue }
      if record.after == nil, let before = record.before { restored[id] = before }
      made.placements.append(
        .init(id: id, before: spot(record.before), after: spot(record.after)))
      for name in fieldNames {
        made.fields.append(
          .init(
            id: id, name: name, before: record.before.flatMap { field(name, of: $0) },
            after: record.after.flatMap { field(name, of: $0) }))
      }
    }
    return (made, restored)
  }

  /// The item fields an undo checks and puts back, besides its place.
  static let fieldNames = ["done", "text", "role", "note"]

  /// An item's field as the editor's text: `true`/`false`, the text, the role's word, the
  /// note; nil for none.
  static func field(_ name: String, of item: Item) -> String? {
    switch name {
    case "done": String(item.done)
    case "text": item.text
    case "role": item.role?.description
    case "note": item.note
    default: nil
    }
  }

  private func revert(
    _ change: HistoryEntry.CollectionChange, entry: HistoryEntry, in transaction: inout Transaction
  ) throws(WorkspaceError) {
    func conflict(_ what: String) -> WorkspaceError { Self.undoConflict(entry, what) }
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

extension HistoryEntry {
  /// Whether the entry changes only items within collections that exist before and after it
  /// with the same name and kind, and leaves the collections' order alone: an undo of it is
  /// an editor intent per collection.
  var changesItemsOnly: Bool {
    collectionOrder == nil
      && changes.allSatisfy { $0.before != nil && $0.before == $0.after }
  }
}
