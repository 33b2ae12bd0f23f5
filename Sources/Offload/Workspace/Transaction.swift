import OrderingCore

/// The state one change works on: the index and the collections it has loaded.
struct Transaction {
  let workspace: Workspace
  var index: StoreIndex
  /// The committed changes the checkpoint files do not hold yet.
  let tail: [StoreChange]
  /// Every collection loaded or created, as it is now (absent when deleted).
  var collections: [ShortID: ItemCollection] = [:]
  /// Each touched collection as it was on disk (`nil` when the change created it).
  var originals: [ShortID: ItemCollection?] = [:]
  /// History entries the change drops (undo drops the entry it reverts).
  var droppedHistory: [UInt64] = []
  /// The order the collections take after the change (their ids), when it sets one.
  var collectionOrder: [ShortID]?
  /// Whether the change puts back keys a change found (an undo): a shared store keeps them
  /// rather than give them this device's suffix again.
  var restoresKeys = false
  /// Each collection arranged as a tree, built once while the collection is unchanged.
  private var trees: [ShortID: CollectionTree] = [:]
  /// Collections the workspace kept in memory at this state's stamp (``StoreMemory``), taken
  /// from here on first use instead of reading their files.
  private var known: [ShortID: ItemCollection] = [:]

  init(workspace: Workspace, state: StoreState) {
    self.workspace = workspace
    self.index = state.index
    self.tail = state.tail
  }

  /// Starts from what the workspace kept at this state's stamp: its collections and trees.
  mutating func start(from kept: StoreMemory.Kept) {
    known = kept.collections
    trees = kept.trees
  }

  /// What to keep after this transaction committed as `committed`: the collections it
  /// loaded, created or changed as they are now (a deleted one dropped), the trees of those it
  /// did not replace, and what was kept `before` of collections it never loaded.
  ///
  /// - Complexity: O(*k*), where *k* is the number of collections kept.
  func kept(_ committed: StoreMemory.Kept, before: StoreMemory.Kept?) -> StoreMemory.Kept {
    var kept = committed
    kept.collections = before?.collections ?? [:]
    for id in touched { kept.collections[id] = collections[id] }
    for (id, tree) in trees where collections[id] != nil { kept.trees[id] = tree }
    for (id, tree) in before?.trees ?? [:] where !touched.contains(id) { kept.trees[id] = tree }
    return kept
  }

  /// The ids of the collections loaded, created or deleted.
  var touched: Set<ShortID> { Set(originals.keys) }

  /// A collection by id, loaded on first use.
  mutating func collection(_ id: ShortID) throws(WorkspaceError) -> ItemCollection {
    if let collection = collections[id] { return collection }
    guard let entry = index.collections.first(where: { $0.id == id }) else {
      throw WorkspaceError(.notFound, "no collection has the id \(id)")
    }
    let collection: ItemCollection
    if let known = known[id] {
      collection = known
    } else {
      collection = try workspace.loadCollection(entry, tail: tail)
    }
    collections[id] = collection
    if originals[id] == nil { originals[id] = .some(collection) }
    return collection
  }

  /// A collection arranged as a tree; built once until the collection is replaced.
  ///
  /// - Complexity: O(*n* log *n*) the first time, where *n* is the number of items; O(1) after.
  mutating func tree(_ id: ShortID) throws(WorkspaceError) -> CollectionTree {
    if let tree = trees[id] { return tree }
    let tree = CollectionTree(try collection(id), maximumPlanDepth: workspace.maximumPlanDepth)
    trees[id] = tree
    return tree
  }

  /// A collection arranged as a tree, taken out of the cache: the caller holds the only copy,
  /// so an editor made from it changes the forest in place instead of copying its arrays.
  /// For a caller about to change the collection, which drops the cached tree anyway.
  ///
  /// - Complexity: O(*n* log *n*) unless the tree is cached, where *n* is the number of items.
  mutating func takeTree(_ id: ShortID) throws(WorkspaceError) -> CollectionTree {
    if let tree = trees.removeValue(forKey: id) { return tree }
    return CollectionTree(try collection(id), maximumPlanDepth: workspace.maximumPlanDepth)
  }

  /// Replaces a collection (loading it first so its original is known).
  mutating func update(_ collection: ItemCollection) throws(WorkspaceError) {
    trees[collection.id] = nil
    if originals[collection.id] == nil {
      if index.collections.contains(where: { $0.id == collection.id }) {
        _ = try self.collection(collection.id)
      } else {
        originals[collection.id] = .some(nil)
      }
    }
    collections[collection.id] = collection
  }

  /// Deletes a collection.
  mutating func delete(_ id: ShortID) throws(WorkspaceError) {
    trees[id] = nil
    _ = try collection(id)
    collections[id] = nil
  }

  /// Where ids come from in a store with per-device logs: this device's replica id and a
  /// counter (decision 0010); `nil` for the store's own counter.
  var replicaIDs: ReplicaIDSource?

  /// A fresh id: this device's replica id and counter, or the store's counter.
  ///
  /// - Throws: ``WorkspaceError/Code/damagedStore`` when the counter is at its limit.
  mutating func nextID() throws(WorkspaceError) -> ShortID {
    if replicaIDs != nil {
      while let id = replicaIDs?.next() {
        if index.itemLocations[id] == nil && !index.collections.contains(where: { $0.id == id }) {
          return id
        }
      }
    }
    while true {
      guard index.nextSequence < UInt64.max else {
        throw WorkspaceError(
          .damagedStore,
          "the store's id counter is at its limit (\(index.nextSequence)) in \(workspace.indexPath); run `offloadctl store repair`"
        )
      }
      let id = ShortID(sequence: index.nextSequence)
      index.nextSequence += 1
      if index.itemLocations[id] == nil && !index.collections.contains(where: { $0.id == id }) {
        return id
      }
    }
  }
}
