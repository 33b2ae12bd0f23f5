public import Foundation
import OrderingCore
import Persistence

/// A store folder holding a capture inbox, collections that are lists or plans, and their
/// undo history.
///
/// Every change runs under one exclusive lock on `store.lock`, reads the index and the
/// collections it touches, and writes back only the files that changed, each atomically
/// through `Persistence`. What changed is kept as before-and-after records in the history,
/// so ``undo()`` puts back exactly what a command changed.
///
/// ```swift
/// let workspace = Workspace(root: "/home/ada/.local/share/offload")
/// let item = try workspace.capture("Call the plumber")
/// try workspace.createCollection(named: "House", kind: .plan)
/// try workspace.moveItem(item.id.rawValue, toCollection: "House", to: .root(at: 0))
/// try workspace.undo()
/// ```
///
/// Layout: `index.json` (collections, item locations, id counter), `collections/<id>.json`
/// (one collection each), `history/<sequence>.json` (one undo entry each), `store.lock`.
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
  /// The source of the current time (fixed in tests and the demo).
  let now: @Sendable () -> Date

  /// Creates a workspace over a store folder; nothing is read or written until asked.
  ///
  /// - Parameters:
  ///   - root: The store folder. It is created by the first change.
  ///   - maximumPlanDepth: The deepest depth a plan item may reach; 9 allows ten levels.
  ///   - historyLimit: How many changes undo can go back.
  ///   - lockTimeout: How long to wait for another process's lock.
  ///   - now: The clock, `Date.init` by default.
  public init(
    root: String, maximumPlanDepth: Int = 9, historyLimit: Int = 100,
    lockTimeout: Duration = .seconds(10), now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.root = root
    self.maximumPlanDepth = maximumPlanDepth
    self.historyLimit = historyLimit
    self.lockTimeout = lockTimeout
    self.now = now
  }

  // MARK: Files

  var indexPath: String { root + "/index.json" }
  var historyFolder: String { root + "/history" }
  func historyPath(_ sequence: UInt64) -> String {
    let digits = String(sequence)
    return historyFolder + "/" + String(repeating: "0", count: max(0, 12 - digits.count)) + digits
      + ".json"
  }
  var collectionsFolder: String { root + "/collections" }
  func collectionPath(_ id: ShortID) -> String { collectionsFolder + "/\(id.rawValue).json" }

  var lock: FileLock { FileLock(path: root + "/store.lock", timeout: lockTimeout) }
  var indexStore: DocumentStore<StoreIndex> {
    DocumentStore(path: indexPath, format: DocumentFormat(name: "offload.index"), lock: lock)
  }
  func historyStore(_ sequence: UInt64) -> DocumentStore<HistoryEntry> {
    DocumentStore(
      path: historyPath(sequence), format: DocumentFormat(name: "offload.history-entry"), lock: lock
    )
  }

  /// The sequence numbers of the stored history entries, oldest first.
  func historySequences() -> [UInt64] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: historyFolder)) ?? []
    return names.compactMap { name in
      name.hasSuffix(".json") ? UInt64(name.dropLast(5)) : nil
    }.sorted()
  }
  func collectionStore(_ id: ShortID) -> DocumentStore<ItemCollection> {
    DocumentStore(
      path: collectionPath(id), format: DocumentFormat(name: "offload.collection"), lock: lock)
  }

  /// Whether the store folder holds a store yet.
  public var exists: Bool { FileManager.default.fileExists(atPath: indexPath) }

  // MARK: Reading

  /// Loads the index, or an empty one when the store does not exist yet.
  func loadIndex() throws(WorkspaceError) -> StoreIndex {
    try Self.persisting { () throws(PersistenceError) in try indexStore.load() }
      ?? .empty(now: now())
  }

  /// Loads a collection the index lists.
  func loadCollection(_ entry: StoreIndex.Entry) throws(WorkspaceError) -> ItemCollection {
    if let collection = try Self.persisting({ () throws(PersistenceError) in
      try collectionStore(entry.id).load()
    }) {
      return collection
    }
    if entry.id == Self.inboxID {
      return ItemCollection(id: entry.id, name: entry.name, kind: .list, created: entry.created)
    }
    throw WorkspaceError(
      .damagedStore,
      "the index lists collection \"\(entry.name)\" but its file \(collectionPath(entry.id)) is missing; run `offloadctl store verify`"
    )
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

  /// Runs `body` as one change: under the store lock, with the collections it touches, and
  /// writes back what changed plus a history entry.
  ///
  /// - Parameters:
  ///   - recordsHistory: Whether the change can be undone (undo itself is not recorded).
  ///   - body: Mutates the transaction and returns its result and a summary for the history.
  func change<Result>(
    recordsHistory: Bool = true,
    _ body: (inout Transaction) throws(WorkspaceError) -> (Result, summary: String)
  ) throws(WorkspaceError) -> Result {
    try createFolders()
    do {
      return try lock.withLock {
        var transaction = Transaction(workspace: self, index: try loadIndex())
        let (result, summary) = try body(&transaction)
        try commit(transaction, summary: summary, recordsHistory: recordsHistory)
        return result
      }
    } catch let error as WorkspaceError {
      throw error
    } catch let error as PersistenceError {
      throw WorkspaceError(error)
    } catch {
      throw WorkspaceError(.ioFailure, "\(error)")
    }
  }

  private func createFolders() throws(WorkspaceError) {
    do {
      try FileManager.default.createDirectory(
        atPath: collectionsFolder, withIntermediateDirectories: true)
      try FileManager.default.createDirectory(
        atPath: historyFolder, withIntermediateDirectories: true)
    } catch {
      throw WorkspaceError(
        .cannotCreate, "cannot create the store folder \(root): \(error.localizedDescription)")
    }
  }

  private func commit(_ transaction: Transaction, summary: String, recordsHistory: Bool)
    throws(WorkspaceError)
  {
    var index = transaction.index
    var changes: [HistoryEntry.CollectionChange] = []
    for id in transaction.touched.sorted() {
      let original = transaction.originals[id] ?? nil
      let current = transaction.collections[id]
      guard let change = Self.difference(id: id, from: original, to: current) else { continue }
      changes.append(change)
    }
    guard !changes.isEmpty else { return }
    // Collections first, then the history entry, then the index that points at them: a crash
    // in between leaves every file whole, and at worst a change that cannot be undone.
    for change in changes {
      let id = change.collection
      if let collection = transaction.collections[id] {
        try Self.persisting { () throws(PersistenceError) in
          try collectionStore(id).save(collection)
        }
      } else {
        try? FileManager.default.removeItem(atPath: collectionPath(id))
        try? FileManager.default.removeItem(atPath: collectionPath(id) + ".backup")
      }
      for item in change.items {
        if let before = item.before, item.after == nil, index.itemLocations[before.id] == id {
          index.itemLocations[before.id] = nil
        }
      }
      for item in change.items { if let after = item.after { index.itemLocations[after.id] = id } }
      if let collection = transaction.collections[id] {
        let entry = StoreIndex.Entry(
          id: id, name: collection.name, kind: collection.kind, created: collection.created,
          itemCount: collection.items.count)
        if let position = index.collections.firstIndex(where: { $0.id == id }) {
          index.collections[position] = entry
        } else {
          index.collections.append(entry)
        }
      } else {
        index.collections.removeAll { $0.id == id }
      }
    }
    // One file per entry: a command writes its own entry and never rewrites the others.
    if recordsHistory {
      let sequence = index.nextHistorySequence
      let entry = HistoryEntry(sequence: sequence, date: now(), summary: summary, changes: changes)
      index.nextHistorySequence += 1
      try Self.persisting { () throws(PersistenceError) in try historyStore(sequence).save(entry) }
      for old in historySequences().dropLast(historyLimit) { removeHistoryEntry(old) }
    } else if let last = historySequences().last {
      removeHistoryEntry(last)
    }
    try Self.persisting { () throws(PersistenceError) in try indexStore.save(index) }
  }

  func removeHistoryEntry(_ sequence: UInt64) {
    try? FileManager.default.removeItem(atPath: historyPath(sequence))
    try? FileManager.default.removeItem(atPath: historyPath(sequence) + ".backup")
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
  /// Every collection loaded or created, as it is now (absent when deleted).
  var collections: [ShortID: ItemCollection] = [:]
  /// Each touched collection as it was on disk (`nil` when the change created it).
  var originals: [ShortID: ItemCollection?] = [:]

  init(workspace: Workspace, index: StoreIndex) {
    self.workspace = workspace
    self.index = index
  }

  /// The ids of the collections loaded, created or deleted.
  var touched: Set<ShortID> { Set(originals.keys) }

  /// A collection by id, loaded on first use.
  mutating func collection(_ id: ShortID) throws(WorkspaceError) -> ItemCollection {
    if let collection = collections[id] { return collection }
    guard let entry = index.collections.first(where: { $0.id == id }) else {
      throw WorkspaceError(.notFound, "no collection has the id \(id)")
    }
    let collection = try workspace.loadCollection(entry)
    collections[id] = collection
    if originals[id] == nil { originals[id] = .some(collection) }
    return collection
  }

  /// Replaces a collection (loading it first so its original is known).
  mutating func update(_ collection: ItemCollection) throws(WorkspaceError) {
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
    _ = try collection(id)
    collections[id] = nil
  }

  /// A fresh id from the store's counter.
  mutating func nextID() -> ShortID {
    while true {
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
