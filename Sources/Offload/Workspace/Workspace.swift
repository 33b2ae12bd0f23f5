public import Foundation
import OrderingCore
public import Persistence

/// A store folder holding a capture inbox, collections that are lists or plans, and their
/// undo history.
///
/// Every change runs under one exclusive lock on `store.lock` and commits at exactly one
/// point: the fsync'd append of one line to the store's change journal, which says what the
/// change does as before-and-after records (items, collection metadata, the id counter, the
/// history entry). The collection files, the history files and the index are checkpoints: every
/// reader replays the journal's tail over them, and a change brings them up to date (then
/// empties the journal) once the tail grows. A crash, kill, full disk or I/O error at any
/// moment leaves the state before the change or after it, and the next command goes on.
/// What changed is kept as before-and-after records in the history, so ``undo()`` puts back
/// exactly what a command changed.
///
/// ```swift
/// let workspace = Workspace(root: "/home/ada/.local/share/offload")
/// let item = try workspace.capture("Call the plumber")
/// try workspace.createCollection(named: "House", kind: .plan)
/// try workspace.moveItem(item.id.rawValue, toCollection: "House", to: .firstRoot)
/// try workspace.undo()
/// ```
///
/// Layout: `changes.snapshot.json` (the index: collections, item locations, id counter, live
/// history entries, as of the last checkpoint), `changes.<g>.jsonl` (the change journal since),
/// `collections/<id>.json` (one collection each), `history/<sequence>.json` (one undo entry
/// each), `store.lock` and `changes.lock`. A store of the earlier layout (`index.json`) is read
/// as it is and moves to this one with its first change.
public struct Workspace: Sendable {
  /// The inbox's collection id.
  public static let inboxID = ShortID(unchecked: "0")
  /// The inbox's name.
  public static let inboxName = "Inbox"

  /// The store folder.
  public let root: String
  /// The deepest depth a plan item may reach (roots are at depth 0).
  public var maximumPlanDepth: Int
  /// How many changes ``undo()`` can go back.
  public var historyLimit: Int
  /// How long a command waits for another process's lock before reporting the store busy.
  public var lockTimeout: Duration
  /// The file operations every read and write of the store goes through.
  public let fileSystem: any FileSystem
  /// The source of the current time (fixed in tests and the demo).
  let now: @Sendable () -> Date

  /// Creates a workspace over a store folder; nothing is read or written until asked.
  ///
  /// - Parameters:
  ///   - root: The store folder. It is created by the first change.
  ///   - maximumPlanDepth: The deepest depth a plan item may reach; 9 allows ten levels.
  ///   - historyLimit: How many changes undo can go back.
  ///   - lockTimeout: How long to wait for another process's lock.
  ///   - fileSystem: The file operations; the real ones by default (tests inject faults here).
  ///   - now: The clock, `Date.init` by default.
  public init(
    root: String, maximumPlanDepth: Int = 9, historyLimit: Int = 100,
    lockTimeout: Duration = .seconds(10), fileSystem: any FileSystem = POSIXFileSystem(),
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.root = root
    self.maximumPlanDepth = maximumPlanDepth
    self.historyLimit = historyLimit
    self.lockTimeout = lockTimeout
    self.fileSystem = fileSystem
    self.now = now
  }

  // MARK: Files

  /// The change journal's name: its files are `changes.snapshot.json` and `changes.<g>.jsonl`.
  static let journalName = "changes"
  /// The index's format (the journal's snapshot, and the earlier layout's `index.json`).
  static let indexFormat = DocumentFormat<StoreIndex>(name: "offload.index")
  /// After how many committed changes, or changed items, a change checkpoints the journal.
  static let checkpointChanges = 32
  static let checkpointItems = 4_096

  /// The index checkpoint (the change journal's snapshot).
  var indexPath: String { root + "/" + Self.journalName + ".snapshot.json" }
  /// The index of the earlier layout, read until the first change moves it into the journal.
  var legacyIndexPath: String { root + "/index.json" }
  var historyFolder: String { root + "/history" }
  func historyPath(_ sequence: UInt64) -> String {
    let digits = String(sequence)
    return historyFolder + "/" + String(repeating: "0", count: max(0, 12 - digits.count)) + digits
      + ".json"
  }
  var collectionsFolder: String { root + "/collections" }
  func collectionPath(_ id: ShortID) -> String { collectionsFolder + "/\(id.rawValue).json" }

  var lock: FileLock {
    FileLock(path: root + "/store.lock", timeout: lockTimeout, fileSystem: fileSystem)
  }
  var legacyIndexStore: DocumentStore<StoreIndex> {
    DocumentStore(
      path: legacyIndexPath, format: Self.indexFormat, lock: lock, fileSystem: fileSystem)
  }
  func historyStore(_ sequence: UInt64) -> DocumentStore<HistoryEntry> {
    DocumentStore(
      path: historyPath(sequence), format: DocumentFormat(name: "offload.history-entry"),
      lock: lock,
      fileSystem: fileSystem)
  }
  func collectionStore(_ id: ShortID) -> DocumentStore<ItemCollection> {
    DocumentStore(
      path: collectionPath(id), format: DocumentFormat(name: "offload.collection"), lock: lock,
      fileSystem: fileSystem)
  }

  /// Whether the store folder holds a store yet.
  public var exists: Bool {
    guard let names = try? fileSystem.listDirectory(root) else { return false }
    return names.contains { name in
      name == "index.json" || name == Self.journalName + ".snapshot.json"
        || (name.hasPrefix(Self.journalName + ".") && name.hasSuffix(".jsonl"))
    }
  }

  // MARK: Reading

  /// Runs `body` under the store lock: shared for readers, exclusive for writers.
  func locked<T>(shared: Bool, _ body: () throws(WorkspaceError) -> T) throws(WorkspaceError) -> T {
    do {
      let run = { () throws -> T in try body() }
      return try shared ? lock.withSharedLock(run) : lock.withLock(run)
    } catch let error as WorkspaceError {
      throw error
    } catch let error as PersistenceError {
      throw WorkspaceError(error)
    } catch {
      throw WorkspaceError(.ioFailure, "\(error)")
    }
  }

  /// The committed state, read under the shared lock: nothing is written.
  ///
  /// - Complexity: O(*i* + *t*), where *i* is the size of the index and *t* of the journal tail.
  func readState() throws(WorkspaceError) -> StoreState {
    guard exists else { return StoreState(index: .empty(now: now()), tail: []) }
    return try locked(shared: true) { () throws(WorkspaceError) in
      let contents = try Self.persisting { () throws(PersistenceError) in
        try JSONLinesJournal<StoreChange, StoreIndex>.read(
          directory: root, name: Self.journalName, format: Self.indexFormat,
          fileSystem: fileSystem)
      }
      if let damage = contents.damage {
        throw WorkspaceError(
          .damagedStore,
          damage.description + " Run `offloadctl store repair` to keep its valid part.")
      }
      return try state(from: contents)
    }
  }

  /// The state of a journal's contents: its snapshot (or the earlier layout's index) with its
  /// entries replayed.
  func state(from contents: JournalContents<StoreChange, StoreIndex>) throws(WorkspaceError)
    -> StoreState
  {
    var index: StoreIndex
    if let snapshot = contents.snapshot {
      index = snapshot
    } else if let legacy = try Self.persisting({ () throws(PersistenceError) in
      try legacyIndexStore.load()
    }) {
      index = legacy
      index.history = legacyHistorySequences()
    } else {
      index = .empty(now: now())
    }
    var state = StoreState(index: index, tail: [])
    for record in contents.entries { state.apply(record.entry) }
    return state
  }

  /// The history entries of the earlier layout: the files of the history folder.
  func legacyHistorySequences() -> [UInt64] {
    let names = (try? fileSystem.listDirectory(historyFolder)) ?? []
    return names.compactMap { name in
      name.hasSuffix(".json") ? UInt64(name.dropLast(5)) : nil
    }.sorted()
  }

  /// Runs `body` over the committed state, under the shared store lock, so every file it reads
  /// belongs to one state.
  func reading<T>(_ body: (StoreState) throws(WorkspaceError) -> T) throws(WorkspaceError) -> T {
    guard exists else { return try body(StoreState(index: .empty(now: now()), tail: [])) }
    return try locked(shared: true) { () throws(WorkspaceError) in try body(try readState()) }
  }

  /// Loads the index as of every committed change, or an empty one when there is no store.
  func loadIndex() throws(WorkspaceError) -> StoreIndex {
    try readState().index
  }

  /// Loads a collection the index lists, with the journal's tail replayed over its file.
  ///
  /// - Complexity: O(*n* + *t*), where *n* is the collection's size and *t* the tail's.
  func loadCollection(_ entry: StoreIndex.Entry, tail: [StoreChange]) throws(WorkspaceError)
    -> ItemCollection
  {
    let changes = tail.changes(to: entry.id)
    let replayed = !changes.isEmpty
    let file = try loadCollectionFile(entry.id)
    if let collection = replayed ? ItemCollection.applying(changes, to: file) : file {
      return collection
    }
    if entry.id == Self.inboxID || replayed {
      return ItemCollection(
        id: entry.id, name: entry.name, kind: entry.kind, created: entry.created)
    }
    throw WorkspaceError(
      .damagedStore,
      "the index lists collection \"\(entry.name)\" but its file \(collectionPath(entry.id)) is missing; run `offloadctl store repair`"
    )
  }

  /// A collection's checkpoint file, or nil when there is none. Nothing is written: a file whose
  /// records are JSON but incomplete (a missing order key, an older or other client) is
  /// salvaged in memory, and a file that is not JSON at all is reported for `store repair`.
  ///
  /// - Complexity: O(*n*), where *n* is the file's size.
  func loadCollectionFile(_ id: ShortID) throws(WorkspaceError) -> ItemCollection? {
    let store = collectionStore(id)
    do throws(PersistenceError) {
      return try store.read()
    } catch  where error.code == .damaged {
      if let data = try? fileSystem.readAll(store.path),
        let salvaged = CollectionSalvage.salvage(
          data, id: id, fallbackDate: Date(timeIntervalSince1970: 0),
          maximumPlanDepth: maximumPlanDepth)
      {
        return salvaged.collection
      }
      throw WorkspaceError(
        .damagedStore, error.description + " Run `offloadctl store repair` to restore it.")
    } catch {
      throw WorkspaceError(error)
    }
  }

  /// Runs a Persistence call, turning its error into a workspace error.
  static func persisting<T>(_ body: () throws(PersistenceError) -> T) throws(WorkspaceError) -> T {
    do {
      return try body()
    } catch {
      throw WorkspaceError(error)
    }
  }

  // MARK: Changing

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
    try createFolders()
    return try locked(shared: false) { () throws(WorkspaceError) in
      let journal = try openJournal()
      defer { try? journal.close() }
      let state = try state(from: journal.recovered)
      var transaction = Transaction(workspace: self, state: state)
      let (result, summary) = try body(&transaction)
      guard
        let change = try record(transaction, summary: summary, recordsHistory: recordsHistory)
      else { return result }
      // The commit point: once this line is on stable storage, the change is made.
      try Self.persisting { () throws(PersistenceError) in _ = try journal.append(change) }
      var after = state
      after.apply(change)
      if after.needsCheckpoint || journal.recovered.snapshot == nil {
        // A checkpoint that fails leaves the tail in the journal; the next change does it again.
        try? checkpoint(after, journal: journal)
      }
      return result
    }
  }

  /// Opens the change journal (under the exclusive store lock).
  func openJournal() throws(WorkspaceError) -> JSONLinesJournal<StoreChange, StoreIndex> {
    try Self.persisting { () throws(PersistenceError) in
      try JSONLinesJournal<StoreChange, StoreIndex>.open(
        directory: root, name: Self.journalName, format: Self.indexFormat,
        lockTimeout: lockTimeout, fileSystem: fileSystem)
    }
  }

  private func createFolders() throws(WorkspaceError) {
    do throws(PersistenceError) {
      try fileSystem.makeDirectory(collectionsFolder)
      try fileSystem.makeDirectory(historyFolder)
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
    var before: [ShortID: Item] = [:]
    for item in old?.items ?? [] { before[item.id] = item }
    var items: [HistoryEntry.CollectionChange.ItemChange] = []
    for item in new?.items ?? [] {
      let previous = before.removeValue(forKey: item.id)
      if previous != item { items.append(.init(before: previous, after: item)) }
    }
    for (_, item) in before { items.append(.init(before: item, after: nil)) }
    items.sort {
      ($0.before ?? $0.after)?.id.rawValue ?? "" < ($1.before ?? $1.after)?.id.rawValue ?? ""
    }
    if items.isEmpty && old?.metadata == new?.metadata { return nil }
    return .init(collection: id, before: old?.metadata, after: new?.metadata, items: items)
  }
}

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
  /// Each collection arranged as a tree, built once while the collection is unchanged.
  private var trees: [ShortID: CollectionTree] = [:]

  init(workspace: Workspace, state: StoreState) {
    self.workspace = workspace
    self.index = state.index
    self.tail = state.tail
  }

  /// The ids of the collections loaded, created or deleted.
  var touched: Set<ShortID> { Set(originals.keys) }

  /// A collection by id, loaded on first use.
  mutating func collection(_ id: ShortID) throws(WorkspaceError) -> ItemCollection {
    if let collection = collections[id] { return collection }
    guard let entry = index.collections.first(where: { $0.id == id }) else {
      throw WorkspaceError(.notFound, "no collection has the id \(id)")
    }
    let collection = try workspace.loadCollection(entry, tail: tail)
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

  /// A fresh id from the store's counter.
  ///
  /// - Throws: ``WorkspaceError/Code/damagedStore`` when the counter is at its limit.
  mutating func nextID() throws(WorkspaceError) -> ShortID {
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

extension WorkspaceError {
  /// Wraps a Persistence error with the code a command maps to an exit status.
  init(_ error: PersistenceError) {
    let code: Code =
      switch error.code {
      case .busy: .storeBusy
      case .damaged, .newerVersion, .wrongFormat, .missingMigration, .migrationFailed,
        .journalMismatch, .journalUnusable:
        .damagedStore
      case .notFound: .notFound
      default: .ioFailure
      }
    var description = error.description
    if code == .damagedStore && error.code == .damaged {
      description += " Run `offloadctl store repair` to restore it."
    }
    self.init(code, description, underlying: nil)
  }
}
