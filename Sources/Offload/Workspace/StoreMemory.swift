import Persistence
import Synchronization

/// What a long-lived workspace keeps of a single-writer store between its reads and changes:
/// the committed state, the collections and trees it read or wrote, and where the journal
/// stopped, all as of one ``Workspace/changeStamp()``.
///
/// Every use compares the stamp, taken under the store's lock, with the kept one: while they
/// are equal no process committed a change, so the kept values are what reading the store
/// would give; once another process changes the store (its journal's size, time or inode
/// moves), the next read or change reads the files again and keeps what it read. A change
/// of this workspace keeps the state it committed, with the stamp taken after its commit and
/// before the lock is released, so its own changes never cost a read.
final class StoreMemory: Sendable {
  /// The kept values, all of one stamp.
  struct Kept: Sendable {
    /// The change stamp of the store when these were read or written.
    var stamp: String
    /// The index and the journal's tail.
    var state: StoreState
    /// Where this workspace's last change suspended the journal, so the next change opens it
    /// for appending without reading it; nil after a read.
    var point: JSONLinesJournal<StoreChange, StoreIndex>.ResumePoint?
    /// Whether the journal had a snapshot (a store without one takes its first at a change).
    var hasSnapshot: Bool
    /// Collections read or written at the stamp.
    var collections: [ShortID: ItemCollection] = [:]
    /// Collections arranged as trees at the stamp.
    var trees: [ShortID: CollectionTree] = [:]
  }

  private let kept = Mutex<Kept?>(nil)

  /// The kept values when they are of `stamp`, else nil.
  func kept(at stamp: String?) -> Kept? {
    guard let stamp else { return nil }
    return kept.withLock { kept in kept?.stamp == stamp ? kept : nil }
  }

  /// Keeps `values`, replacing whatever was kept.
  func keep(_ values: Kept) {
    kept.withLock { $0 = values }
  }

  /// Keeps a state read at `stamp` (with no resume point), unless the same stamp is kept.
  func keep(_ state: StoreState, at stamp: String, hasSnapshot: Bool) {
    kept.withLock { kept in
      guard kept?.stamp != stamp else { return }
      kept = Kept(stamp: stamp, state: state, point: nil, hasSnapshot: hasSnapshot)
    }
  }

  /// Keeps a collection read at `stamp`, when the kept values are of that stamp.
  func keep(_ collection: ItemCollection, at stamp: String) {
    kept.withLock { kept in
      guard kept?.stamp == stamp else { return }
      kept?.collections[collection.id] = collection
    }
  }

  /// Keeps a tree built at `stamp`, when the kept values are of that stamp.
  func keep(_ tree: CollectionTree, at stamp: String) {
    kept.withLock { kept in
      guard kept?.stamp == stamp else { return }
      kept?.collections[tree.collection.id] = tree.collection
      kept?.trees[tree.collection.id] = tree
    }
  }

  /// Drops everything kept (after a change whose outcome on disk is not known).
  func forget() {
    kept.withLock { $0 = nil }
  }
}

extension Workspace {
  /// This workspace keeping the store's state, collections and trees in memory between its
  /// reads and changes, for a long-lived process (a server) that reads and changes the same
  /// collections again and again.
  ///
  /// Each read and change still takes the store's lock and compares the store's
  /// ``changeStamp()`` with the one kept: another process's change is always seen, and
  /// costs one read of the files. Copies of the returned workspace (such as
  /// ``changing(expecting:)``'s) share what it keeps. A shared store (decision 0010) keeps
  /// nothing: other devices' changes arrive in their own logs.
  ///
  /// - Returns: A copy of this workspace that keeps what it reads and writes.
  public func remembering() -> Workspace {
    var remembering = self
    remembering.memory = device == nil ? StoreMemory() : nil
    return remembering
  }

  /// The stamp to key kept values with, taken under the store's lock; nil when nothing is
  /// kept.
  func memoryStamp() -> String? {
    memory == nil ? nil : changeStamp()
  }

  /// A collection of `state`, from memory when kept at the state's stamp, else loaded (and
  /// kept).
  ///
  /// - Complexity: O(1) when kept; else O(*n* + *t*), where *n* is the collection's size
  ///   and *t* the journal's tail.
  func collection(_ entry: StoreIndex.Entry, in state: StoreState) throws(WorkspaceError)
    -> ItemCollection
  {
    if let memory, let stamp = state.stamp {
      if let kept = memory.kept(at: stamp)?.collections[entry.id] { return kept }
      let loaded = try loadCollection(entry, tail: state.tail)
      memory.keep(loaded, at: stamp)
      return loaded
    }
    return try loadCollection(entry, tail: state.tail)
  }

  /// A collection of `state` arranged as a tree, from memory when kept at the state's stamp,
  /// else built (and kept).
  ///
  /// - Complexity: O(1) when kept; else O(*n* log *n* + *t*).
  func tree(_ entry: StoreIndex.Entry, in state: StoreState) throws(WorkspaceError)
    -> CollectionTree
  {
    if let memory, let stamp = state.stamp, let kept = memory.kept(at: stamp)?.trees[entry.id] {
      return kept
    }
    let tree = CollectionTree(try collection(entry, in: state), maximumPlanDepth: maximumPlanDepth)
    if let memory, let stamp = state.stamp { memory.keep(tree, at: stamp) }
    return tree
  }

  /// Keeps a tree of a collection as committed at `stamp` (a surface that built one from
  /// what a change returned), so the next read or change starts from it.
  ///
  /// - Parameters:
  ///   - tree: The tree.
  ///   - stamp: The stamp the change returned with the collection.
  public func keep(_ tree: CollectionTree, at stamp: String?) {
    guard let memory, let stamp else { return }
    memory.keep(tree, at: stamp)
  }
}
