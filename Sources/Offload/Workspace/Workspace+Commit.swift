import Foundation
import OrderingCore
import Persistence

// Changing the store: one journal line per change, and the checkpoints behind it.
// Decision record 0004 says why this is crash-consistent, file operation by file operation.
extension Workspace {
  /// Runs `body` as one change: under the exclusive store lock, over the committed state, and
  /// commits what it changed as one journal line (then checkpoints when the tail is long).
  ///
  /// When this throws, nothing changed; when it returns, the change is on stable storage.
  ///
  /// - Parameters:
  ///   - recordsHistory: Whether the change can be undone (undo itself is not recorded).
  ///   - body: Mutates the transaction and returns its result and a summary for the history.
  func change<Result>(
    recordsHistory: Bool = true,
    _ body: (inout Transaction) throws(WorkspaceError) -> (Result, summary: String)
  ) throws(WorkspaceError) -> Result {
    try changeStamped(recordsHistory: recordsHistory, stamped: false, body).result
  }

  /// Runs `body` as one change, as ``change(recordsHistory:_:)`` does, and returns with its
  /// result the store's ``changeStamp()`` taken after the commit and before the lock is let
  /// go: a change another process makes afterwards always moves it.
  ///
  /// - Parameters:
  ///   - recordsHistory: Whether the change can be undone.
  ///   - stamped: Whether to take the stamp when nothing is kept in memory (a workspace that
  ///     keeps what it writes, ``remembering()``, always takes it).
  ///   - body: Mutates the transaction and returns its result and a summary for the history.
  /// - Returns: The result and the stamp (nil for a shared store).
  func changeStamped<Result>(
    recordsHistory: Bool = true, stamped: Bool,
    _ body: (inout Transaction) throws(WorkspaceError) -> (Result, summary: String)
  ) throws(WorkspaceError) -> (result: Result, stamp: String?) {
    try createFolders()
    return try locked(shared: false) { () throws(WorkspaceError) in
      var devices = try openDeviceLog()
      defer { devices?.close() }
      // What this workspace kept at the stamp the store has now, under the lock: the state,
      // and the journal opened for appending without reading it.
      var kept = devices == nil ? memory?.kept(at: memoryStamp()) : nil
      let journal = try openJournal(resuming: &kept)
      var journalOpen = true
      defer { if journalOpen { try? journal.close() } }
      var state: StoreState
      if let kept { state = kept.state } else { state = try cacheState(journal) }
      // Whether the cache's journal holds every line so far: once one fails (a full disk),
      // none after it is written, or a later line's `covers` would claim the missing one.
      var cacheWhole = true
      if var open = devices, let device {
        // This device's changes whose cache line a crash kept from being written.
        let own = open.log.recovered.entries
        for record in missingOwnRecords(state, own: own, replica: device.replica) {
          if cacheWhole { cacheWhole = (try? journal.append(record)) != nil }
          state.apply(record)
        }
        // Other devices' operations (or this device's after a crash) the cache lacks yet.
        if let refresh = try refreshChange(state, merged: open.merged) {
          if cacheWhole { cacheWhole = (try? journal.append(refresh)) != nil }
          state.apply(refresh)
        }
        open.order = state.index.collections.map(\.id)
        devices = open
      }
      var transaction = Transaction(workspace: self, state: state)
      if let kept { transaction.start(from: kept) }
      if let devices { transaction.replicaIDs = devices.idSource }
      if let expectation {
        // Under the same lock as the change: no other writer can slip in between.
        var base = ChangeBase(transaction: transaction)
        try expectation(&base)
        transaction = base.transaction
      }
      let (result, summary) = try body(&transaction)
      if let devices { Self.suffixPlacedKeys(&transaction, replica: devices.replica) }
      let wantsStamp = devices == nil && (stamped || memory != nil)
      guard
        var change = try record(transaction, summary: summary, recordsHistory: recordsHistory)
      else { return (result, wantsStamp ? changeStamp() : nil) }
      if let devices {
        // The commit point: this device's log line. The cache's line after it is bookkeeping:
        // when it is lost, the next command brings the cache up to the log.
        let committed = try devices.commit(change, index: state.index, now: now())
        if let made = change.history?.sequence { madeHere?.record(made) }
        change.covers = committed.covers
        let cached = cacheWhole && (try? journal.append(change)) != nil
        saveCheckpointAfterCommit(devices, state: committed.state)
        guard cached else { return (result, nil) }
      } else {
        // The commit point: once this line is on stable storage, the change is made.
        do throws(WorkspaceError) {
          try Self.persisting { () throws(PersistenceError) in _ = try journal.append(change) }
        } catch {
          memory?.forget()
          throw error
        }
        if let made = change.history?.sequence { madeHere?.record(made) }
      }
      var after = state
      after.apply(change)
      var hasSnapshot = kept?.hasSnapshot ?? (journal.recovered.snapshot != nil)
      var keepable = devices == nil
      // A store without a snapshot (new, or of the earlier layout) takes its first one now,
      // even when checkpoints are deferred.
      if after.needsCheckpoint && !defersCheckpoints || !hasSnapshot {
        // A checkpoint that fails leaves the tail in the journal; the next change does it again.
        do throws(WorkspaceError) {
          try checkpoint(after, journal: journal)
          after.tail = []
          hasSnapshot = true
        } catch {
          keepable = false
        }
      }
      guard let memory, keepable else {
        memory?.forget()
        return (result, wantsStamp ? changeStamp() : nil)
      }
      journalOpen = false
      let point = try? journal.suspend()
      guard let stamp = changeStamp() else {
        memory.forget()
        return (result, nil)
      }
      after.stamp = stamp
      memory.keep(
        transaction.kept(
          StoreMemory.Kept(stamp: stamp, state: after, point: point, hasSnapshot: hasSnapshot),
          before: kept))
      return (result, stamp)
    }
  }

  /// Opens the change journal for a change: resumed without reading it when `kept` holds
  /// where this workspace's last change suspended it and nothing changed it since, else
  /// opened (and read); `kept` is dropped when a resume finds the journal changed.
  func openJournal(resuming kept: inout StoreMemory.Kept?) throws(WorkspaceError)
    -> JSONLinesJournal<StoreChange, StoreIndex>
  {
    if let point = kept?.point {
      let resumed = try Self.persisting { () throws(PersistenceError) in
        try JSONLinesJournal<StoreChange, StoreIndex>.resume(
          at: point, directory: cacheRoot, name: Self.journalName, format: Self.indexFormat,
          lockTimeout: lockTimeout, fileSystem: fileSystem)
      }
      if let resumed { return resumed }
      kept = nil
    }
    return try openJournal()
  }

  /// Opens the change journal (under the exclusive store lock).
  func openJournal() throws(WorkspaceError) -> JSONLinesJournal<StoreChange, StoreIndex> {
    try Self.persisting { () throws(PersistenceError) in
      try JSONLinesJournal<StoreChange, StoreIndex>.open(
        directory: cacheRoot, name: Self.journalName, format: Self.indexFormat,
        lockTimeout: lockTimeout, fileSystem: fileSystem)
    }
  }

  private func createFolders() throws(WorkspaceError) {
    do throws(PersistenceError) {
      try fileSystem.makeDirectories(collectionsFolder, permissions: 0o755)
      try fileSystem.makeDirectories(historyFolder, permissions: 0o755)
    } catch {
      throw WorkspaceError(
        .cannotCreate, "cannot create the store folder \(root): \(error.description)")
    }
  }

  /// The journal line of a transaction, or nil when it changed nothing.
  private func record(_ transaction: Transaction, summary: String, recordsHistory: Bool)
    throws(WorkspaceError) -> StoreChange?
  {
    var changes: [HistoryEntry.CollectionChange] = []
    for id in transaction.touched.sorted() {
      let original = transaction.originals[id] ?? nil
      let current = transaction.collections[id]
      guard let change = Self.difference(id: id, from: original, to: current) else { continue }
      changes.append(change)
    }
    let index = transaction.index
    var order: HistoryEntry.CollectionOrder?
    if let after = transaction.collectionOrder {
      let before = index.collections.map(\.id)
      var arranged = index
      arranged.apply(
        StoreChange(
          changes: changes, nextSequence: index.nextSequence, history: nil, droppedHistory: []))
      arranged.arrangeCollections(after)
      if arranged.collections.map(\.id) != before || !changes.isEmpty {
        order = .init(before: before, after: arranged.collections.map(\.id))
      }
    }
    guard !changes.isEmpty || order != nil else { return nil }
    var note: StoreChange.HistoryNote?
    var dropped = transaction.droppedHistory
    if recordsHistory {
      let sequence = index.nextHistorySequence
      guard sequence < UInt64.max else {
        throw WorkspaceError(
          .damagedStore,
          "the store's history counter is at its limit (\(sequence)) in \(indexPath); run `offloadctl store repair`"
        )
      }
      note = .init(sequence: sequence, date: now(), summary: summary)
      dropped += (index.history + [sequence]).dropLast(max(historyLimit, 1))
    }
    return StoreChange(
      changes: changes, nextSequence: index.nextSequence, history: note, droppedHistory: dropped,
      collectionOrder: order)
  }

  /// Brings the collection files, the history files and the index up to date with the journal,
  /// then empties the journal: the index's save is the checkpoint's commit point.
  ///
  /// Each file is replaced atomically, and replaying the tail over a file that already holds
  /// it changes nothing, so a crash anywhere before the index is saved leaves the tail to be
  /// replayed (and this checkpoint to be done again); after it, the files hold the tail.
  ///
  /// - Complexity: O(*n* + *t*), where *n* is the size of the collections the tail touched and
  ///   *t* the size of the tail.
  func checkpoint(_ state: StoreState, journal: JSONLinesJournal<StoreChange, StoreIndex>)
    throws(WorkspaceError)
  {
    var ids: [ShortID] = []
    var seen: Set<ShortID> = []
    for change in state.tail {
      for id in change.collectionIDs where seen.insert(id).inserted { ids.append(id) }
    }
    for id in ids {
      let collection = ItemCollection.applying(
        state.tail.changes(to: id), to: try loadCollectionFile(id))
      try Self.persisting { () throws(PersistenceError) in
        if let collection {
          try collectionStore(id).save(collection)
        } else {
          try fileSystem.unlinkIfPresent(collectionPath(id))
          try fileSystem.unlinkIfPresent(collectionPath(id) + ".backup")
        }
      }
    }
    let live = Set(state.index.history)
    try Self.persisting { () throws(PersistenceError) in
      for change in state.tail {
        if let entry = change.historyEntry, live.contains(entry.sequence) {
          try historyStore(entry.sequence).save(entry)
        }
      }
      for change in state.tail {
        for sequence in change.droppedHistory where !live.contains(sequence) {
          try fileSystem.unlinkIfPresent(historyPath(sequence))
          try fileSystem.unlinkIfPresent(historyPath(sequence) + ".backup")
        }
      }
      try journal.compact(state.index)
      // The earlier layout's index is superseded once the snapshot exists.
      try fileSystem.unlinkIfPresent(legacyIndexPath)
      try fileSystem.unlinkIfPresent(legacyIndexPath + ".backup")
    }
    removeStaleTemporaryFiles()
  }

  /// Removes temporary files left by saves that a crash interrupted (`*.tmp-<pid>-<n>`); only
  /// under the exclusive lock, when no save of this store can be under way.
  func removeStaleTemporaryFiles() {
    for folder in [root, collectionsFolder, historyFolder] {
      for name in (try? fileSystem.listDirectory(folder)) ?? [] where name.contains(".tmp-") {
        try? fileSystem.unlinkIfPresent(folder + "/" + name)
      }
    }
  }

  /// What changed in one collection, or `nil` when nothing did.
  static func difference(id: ShortID, from old: ItemCollection?, to new: ItemCollection?)
    -> HistoryEntry.CollectionChange?
  {
    if let old, let new, let items = sameOrderChanges(old.items, new.items) {
      if items.isEmpty && old.metadata == new.metadata { return nil }
      return .init(collection: id, before: old.metadata, after: new.metadata, items: items)
    }
    var before: [ShortID: Item] = [:]
    for item in old?.items ?? [] { before[item.id] = item }
    var items: [HistoryEntry.CollectionChange.ItemChange] = []
    for item in new?.items ?? [] {
      // Compared as `Item`, not `Item?`: the optional comparison copies both items.
      guard let previous = before.removeValue(forKey: item.id) else {
        items.append(.init(before: nil, after: item))
        continue
      }
      if previous != item { items.append(.init(before: previous, after: item)) }
    }
    for (_, item) in before { items.append(.init(before: item, after: nil)) }
    items.sort {
      ($0.before ?? $0.after)?.id.rawValue ?? "" < ($1.before ?? $1.after)?.id.rawValue ?? ""
    }
    if items.isEmpty && old?.metadata == new?.metadata { return nil }
    return .init(collection: id, before: old?.metadata, after: new?.metadata, items: items)
  }

  /// The changed items of a collection whose items kept their ids in the same order (an
  /// editor's change moves and edits items in place), sorted by id as ``difference(id:from:to:)``
  /// sorts them; nil when the ids are not in the same order, without hashing any item.
  ///
  /// - Complexity: O(*n* + *c* log *c*), where *c* is the number of changed items.
  private static func sameOrderChanges(_ old: [Item], _ new: [Item])
    -> [HistoryEntry.CollectionChange.ItemChange]?
  {
    guard old.count == new.count else { return nil }
    var items: [HistoryEntry.CollectionChange.ItemChange] = []
    for index in old.indices {
      guard old[index].id == new[index].id else { return nil }
      if old[index] != new[index] { items.append(.init(before: old[index], after: new[index])) }
    }
    items.sort { ($0.before?.id.rawValue ?? "") < ($1.before?.id.rawValue ?? "") }
    return items
  }
}
