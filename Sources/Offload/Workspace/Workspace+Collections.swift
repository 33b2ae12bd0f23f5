import Foundation
import OrderingCore

/// Where ``Workspace/moveCollection(_:to:)`` puts a collection.
public enum CollectionPlacement: Hashable, Sendable {
  /// Right before the collection of this name or id prefix.
  case before(String)
  /// Right after the collection of this name or id prefix.
  case after(String)
  /// First after the inbox.
  case first
  /// Last.
  case last
}

extension Workspace {
  /// The collections, the inbox first, then in the order ``moveCollection(_:to:)`` gave them
  /// (creation order until then).
  ///
  /// - Complexity: O(*c*), where *c* is the number of collections.
  public func collections() throws(WorkspaceError) -> [StoreIndex.Entry] {
    try loadIndex().collections
  }

  /// Finds a collection by name (any case) or by a unique id prefix.
  ///
  /// A name wins over an id: a collection named `0` is found by that name, not the inbox
  /// (whose id is `0`). `id:PREFIX` looks at ids only, so every collection can be named.
  func resolveCollection(_ reference: String, in index: StoreIndex) throws(WorkspaceError)
    -> StoreIndex.Entry
  {
    let byIDOnly = reference.hasPrefix("id:")
    let reference = byIDOnly ? String(reference.dropFirst(3)) : reference
    let folded = reference.lowercased()
    if !byIDOnly,
      let entry = index.collections.first(where: { $0.name.lowercased() == folded })
    {
      return entry
    }
    switch ShortID.match(reference, in: index.collections.map(\.id)) {
    case .unique(let id):
      if let entry = index.collections.first(where: { $0.id == id }) { return entry }
    case .ambiguous(let ids):
      throw WorkspaceError(
        .ambiguous,
        "\"\(reference)\" matches several collection ids (\(ids.map(\.rawValue).joined(separator: ", "))); type more of it or use the name"
      )
    case .none: break
    }
    let names = index.collections.map(\.name).sorted().prefix(8).joined(separator: ", ")
    throw WorkspaceError(
      .notFound,
      byIDOnly
        ? "no collection has an id starting with \"\(reference)\""
        : "no collection is named \"\(reference)\" (collections: \(names))")
  }

  /// Finds a collection as ``resolveCollection(_:in:)`` does, refusing the inbox with
  /// `refusal` (``WorkspaceError/Code/invalidRequest``): for the changes the inbox never takes.
  func resolveCollection(_ reference: String, in index: StoreIndex, notInbox refusal: String)
    throws(WorkspaceError) -> StoreIndex.Entry
  {
    let entry = try resolveCollection(reference, in: index)
    guard entry.id != Self.inboxID else { throw WorkspaceError(.invalidRequest, refusal) }
    return entry
  }

  /// Runs `body` as one change to the collection `reference` names, refusing the inbox with
  /// `refusal`, as ``resolveCollection(_:in:notInbox:)`` does.
  func changeCollection<Result>(
    _ reference: String, notInbox refusal: String,
    _ body: (inout Transaction, StoreIndex.Entry) throws(WorkspaceError) -> (
      Result, summary: String
    )
  ) throws(WorkspaceError) -> Result {
    try change { (transaction) throws(WorkspaceError) in
      let entry = try resolveCollection(reference, in: transaction.index, notInbox: refusal)
      return try body(&transaction, entry)
    }
  }

  /// A collection by name or id prefix, arranged as a tree.
  ///
  /// - Complexity: O(*n* log *n*), where *n* is the number of its items.
  public func tree(of reference: String) throws(WorkspaceError) -> CollectionTree {
    try reading { (state) throws(WorkspaceError) in try tree(of: reference, in: state) }
  }

  /// A collection by name or id prefix, arranged as a tree, from a state already read.
  private func tree(of reference: String, in state: StoreState) throws(WorkspaceError)
    -> CollectionTree
  {
    try tree(try resolveCollection(reference, in: state.index), in: state)
  }

  /// A collection arranged as a tree, and whether ``undo()`` has a change to take back (as
  /// `history(limit: 1)` being non-empty says), from one read of the store. A page that shows
  /// a collection with its Undo button needs both.
  ///
  /// - Complexity: O(*n* log *n*), where *n* is the number of the collection's items.
  public func treeAndUndo(of reference: String) throws(WorkspaceError) -> (
    tree: CollectionTree, canUndo: Bool
  ) {
    try reading { (state) throws(WorkspaceError) in
      let tree = try tree(of: reference, in: state)
      guard let newest = state.index.history.last else { return (tree, false) }
      return (tree, try historyEntry(newest, tail: state.tail) != nil)
    }
  }

  /// Creates an empty collection.
  ///
  /// - Parameters:
  ///   - name: Its name, unique regardless of case; leading and trailing spaces are dropped.
  ///   - kind: List (flat) or plan (nested).
  /// - Returns: The new collection.
  /// - Throws: ``WorkspaceError/Code/alreadyExists`` or ``WorkspaceError/Code/badInput`` for
  ///   an empty or multi-line name.
  @discardableResult
  public func createCollection(named name: String, kind: CollectionKind) throws(WorkspaceError)
    -> ItemCollection
  {
    let name = try Self.validName(name)
    return try change { (transaction) throws(WorkspaceError) in
      try Self.ensureNameIsFree(name, in: transaction.index)
      let collection = ItemCollection(
        id: try transaction.nextID(), name: name, kind: kind, created: now())
      try transaction.update(collection)
      return (collection, "create \(kind.rawValue) \"\(name)\"")
    }
  }

  /// Renames a collection.
  ///
  /// - Throws: ``WorkspaceError/Code/notFound``, ``WorkspaceError/Code/alreadyExists``, or
  ///   ``WorkspaceError/Code/invalidRequest`` for the inbox.
  public func renameCollection(_ reference: String, to newName: String) throws(WorkspaceError) {
    let newName = try Self.validName(newName)
    try changeCollection(reference, notInbox: "the inbox cannot be renamed") {
      (transaction, entry) throws(WorkspaceError) in
      if newName.lowercased() != entry.name.lowercased() {
        try Self.ensureNameIsFree(newName, in: transaction.index)
      }
      var collection = try transaction.collection(entry.id)
      collection.name = newName
      try transaction.update(collection)
      return ((), "rename \"\(entry.name)\" to \"\(newName)\"")
    }
  }

  /// Deletes a collection; a non-empty one only with `force` (undo brings it back).
  ///
  /// - Returns: How many items went with it.
  @discardableResult
  public func deleteCollection(_ reference: String, force: Bool) throws(WorkspaceError) -> Int {
    try deleteCollections([reference], force: force)
  }

  /// Deletes several collections as one change; non-empty ones only with `force`. One
  /// ``undo()`` brings them all back, each in its place in the order.
  ///
  /// - Parameters:
  ///   - references: Names or id prefixes; naming one collection twice deletes it once.
  ///   - force: Whether collections that still hold items may go, with their items.
  /// - Returns: How many items went with them.
  /// - Throws: ``WorkspaceError/Code/notFound`` for a name that matches nothing,
  ///   ``WorkspaceError/Code/invalidRequest`` for the inbox, ``WorkspaceError/Code/notEmpty``
  ///   for a collection with items without `force`; nothing is deleted then.
  /// - Complexity: O(*r* · *k* + *n*), where *r* is the number of references, *k* of
  ///   collections and *n* of the items deleted.
  @discardableResult
  public func deleteCollections(_ references: [String], force: Bool) throws(WorkspaceError)
    -> Int
  {
    guard !references.isEmpty else {
      throw WorkspaceError(.invalidRequest, "name the collections to delete")
    }
    return try change { (transaction) throws(WorkspaceError) in
      var entries: [StoreIndex.Entry] = []
      for reference in references {
        let entry = try resolveCollection(
          reference, in: transaction.index, notInbox: "the inbox cannot be deleted")
        if !entries.contains(where: { $0.id == entry.id }) { entries.append(entry) }
      }
      var removed = 0
      for entry in entries {
        let collection = try transaction.collection(entry.id)
        guard collection.items.isEmpty || force else {
          throw WorkspaceError(
            .notEmpty,
            "\"\(entry.name)\" still has \(collection.items.count) item\(collection.items.count == 1 ? "" : "s"); pass --force to delete it with them (undo brings them back)"
          )
        }
        removed += collection.items.count
        try transaction.delete(entry.id)
      }
      let gone = Set(entries.map(\.id))
      transaction.collectionOrder = transaction.index.collections.map(\.id).filter {
        !gone.contains($0)
      }
      let names = entries.map { "\"\($0.name)\"" }.joined(separator: ", ")
      return (removed, "delete \(names)")
    }
  }

  /// Puts a collection elsewhere in the order of ``collections()``. The inbox stays first:
  /// it is where capture goes and what `collection list` opens with, so `first` means first
  /// after the inbox, and the inbox itself cannot move.
  ///
  /// - Parameters:
  ///   - reference: The collection's name or id prefix.
  ///   - placement: Where it goes.
  /// - Returns: Its position afterwards, 0 being the inbox's.
  /// - Throws: ``WorkspaceError/Code/notFound``; ``WorkspaceError/Code/invalidRequest`` for
  ///   the inbox, a place before the inbox, or a place next to the collection itself.
  /// - Complexity: O(*k*), where *k* is the number of collections.
  @discardableResult
  public func moveCollection(_ reference: String, to placement: CollectionPlacement)
    throws(WorkspaceError) -> Int
  {
    try changeCollection(reference, notInbox: "the inbox stays first and cannot be moved") {
      (transaction, entry) throws(WorkspaceError) in
      var order = transaction.index.collections.map(\.id).filter { $0 != entry.id }
      let position: Int
      switch placement {
      case .first: position = 1
      case .last: position = order.count
      case .before(let anchor), .after(let anchor):
        let other = try resolveCollection(anchor, in: transaction.index)
        guard other.id != entry.id else {
          throw WorkspaceError(
            .invalidRequest, "\"\(entry.name)\" cannot be placed next to itself")
        }
        let index = order.firstIndex(of: other.id) ?? order.count
        if case .before = placement {
          guard other.id != Self.inboxID else {
            throw WorkspaceError(
              .invalidRequest, "the inbox stays first: nothing goes before it; use --first")
          }
          position = index
        } else {
          position = index + 1
        }
      }
      order.insert(entry.id, at: max(1, min(position, order.count)))
      transaction.collectionOrder = order
      return (order.firstIndex(of: entry.id) ?? 0, "move collection \"\(entry.name)\"")
    }
  }

  /// Turns a plan into a list (flattened in preorder) or a list into a plan (as it is).
  ///
  /// - Returns: How many items changed place.
  @discardableResult
  public func convertCollection(_ reference: String, to kind: CollectionKind)
    throws(WorkspaceError) -> Int
  {
    try changeCollection(reference, notInbox: "the inbox is always a list") {
      (transaction, entry) throws(WorkspaceError) in
      var collection = try transaction.collection(entry.id)
      guard collection.kind != kind else { return (0, "convert \"\(entry.name)\"") }
      var moved = 0
      if kind == .list {
        var forest = CollectionTree(collection, maximumPlanDepth: maximumPlanDepth).forest
        let changes = forest.convertToList()
        moved = changes.count
        CollectionTree.apply(changes, to: &collection)
      }
      collection.kind = kind
      try transaction.update(collection)
      return (moved, "convert \"\(entry.name)\" to a \(kind.rawValue)")
    }
  }

  static func validName(_ name: String) throws(WorkspaceError) -> String {
    do {
      return try ItemText.valid(name, what: "a collection name")
    } catch {
      throw WorkspaceError(.badInput, error.reason)
    }
  }

  static func ensureNameIsFree(_ name: String, in index: StoreIndex) throws(WorkspaceError) {
    if let existing = index.collections.first(where: { $0.name.lowercased() == name.lowercased() })
    {
      throw WorkspaceError(
        .alreadyExists, "a collection named \"\(existing.name)\" exists already")
    }
  }
}
