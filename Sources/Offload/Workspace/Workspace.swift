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
  /// A check every change runs under the exclusive lock before it changes anything (see
  /// ``changing(expecting:)``); nil for none.
  var expectation: ChangeExpectation?
  /// Whether changes leave the journal's checkpoint to ``checkpointIfDue()`` (see
  /// ``deferringCheckpoints()``).
  var defersCheckpoints = false
  /// What this workspace keeps between reads and changes (``remembering()``); nil for none.
  var memory: StoreMemory?
  /// Where the changes this workspace makes note their history sequences, when a screen or
  /// page keeps them for its undo (``recording(in:)``).
  var madeHere: ChangesMadeHere?
  /// This device's side of the store (decision 0010), or `nil` for the single-writer layout
  /// (a store read before its first change moves it into this device's log).
  let device: DeviceContext?
  /// The folder of this device's cache: the change journal, the collection and history files
  /// and the lock (`replicas/<id>` inside the store; the store itself without a device).
  let cacheRoot: String
  /// The device's state folder this workspace was given (used once the store is shared).
  let stateDirectory: String?

  /// Creates a workspace over a store folder; nothing is read or written until asked.
  ///
  /// - Parameters:
  ///   - root: The store folder. It is created by the first change.
  ///   - maximumPlanDepth: The deepest depth a plan item may reach; 9 allows ten levels.
  ///   - historyLimit: How many changes undo can go back.
  ///   - lockTimeout: How long to wait for another process's lock.
  ///   - fileSystem: The file operations; the real ones by default (tests inject faults here).
  ///   - now: The clock, `Date.init` by default.
  ///   - stateDirectory: The device's state folder, outside any synced folder, where this
  ///     device's identity for the store is kept (made on first use); by default
  ///     `$XDG_STATE_HOME`, else `~/.local/state`. It is used only when the store is shared
  ///     (it holds a `replicas` folder: see ``share()``); `nil`, or a store that is not shared,
  ///     opens the single-writer layout.
  public init(
    root: String, maximumPlanDepth: Int = 9, historyLimit: Int = 100,
    lockTimeout: Duration = .seconds(10), fileSystem: any FileSystem = POSIXFileSystem(),
    now: @escaping @Sendable () -> Date = { Date() },
    stateDirectory: String? = DeviceContext.defaultStateDirectory()
  ) {
    self.root = root
    self.maximumPlanDepth = maximumPlanDepth
    self.historyLimit = historyLimit
    self.lockTimeout = lockTimeout
    self.fileSystem = fileSystem
    self.now = now
    // One status call: a store is shared between devices once it holds `replicas/`.
    let shared =
      (try? fileSystem.status(root + "/" + Self.replicasFolder, followingLinks: true))?.kind
      == .directory
    let device =
      shared ? stateDirectory.flatMap { DeviceContext.resolve(store: root, state: $0) } : nil
    self.stateDirectory = stateDirectory
    self.device = device
    cacheRoot = device.map { root + "/replicas/" + $0.replica.rawValue } ?? root
  }

  /// This workspace reading the store's files of the single-writer layout, at its root.
  var singleWriterView: Workspace {
    Workspace(
      root: root, maximumPlanDepth: maximumPlanDepth, historyLimit: historyLimit,
      lockTimeout: lockTimeout, fileSystem: fileSystem, now: now, stateDirectory: nil)
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
  var indexPath: String { cacheRoot + "/" + Self.journalName + ".snapshot.json" }
  /// The index of the earlier layout, read until the first change moves it into the journal.
  var legacyIndexPath: String { cacheRoot + "/index.json" }
  var historyFolder: String { cacheRoot + "/history" }
  func historyPath(_ sequence: UInt64) -> String {
    let digits = String(sequence)
    return historyFolder + "/" + String(repeating: "0", count: max(0, 12 - digits.count)) + digits
      + ".json"
  }
  var collectionsFolder: String { cacheRoot + "/collections" }
  func collectionPath(_ id: ShortID) -> String { collectionsFolder + "/\(id.rawValue).json" }

  var lock: FileLock {
    FileLock(path: cacheRoot + "/store.lock", timeout: lockTimeout, fileSystem: fileSystem)
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
    if device != nil, !((try? replicaFolders.replicaIDs()) ?? []).isEmpty { return true }
    return singleWriterLayoutExists
  }

  /// Whether the store's root holds a store of the single-writer layout.
  var singleWriterLayoutExists: Bool {
    guard let names = try? fileSystem.listDirectory(root) else { return false }
    return names.contains { name in
      name == "index.json" || name == Self.journalName + ".snapshot.json"
        || (name.hasPrefix(Self.journalName + ".") && name.hasSuffix(".jsonl"))
    }
  }

  // MARK: Reading

  /// Runs `body` under the store lock: shared for readers, exclusive for writers.
  func locked<T>(shared: Bool, _ body: () throws(WorkspaceError) -> T) throws(WorkspaceError) -> T {
    if device != nil {
      // This device's lock lives in its folder: a reader of a store this device never wrote
      // has nothing of its own to guard; a writer makes the folder first.
      if shared && !ownFolderExists { return try body() }
      if !shared {
        do throws(PersistenceError) {
          try fileSystem.makeDirectories(cacheRoot, permissions: 0o755)
        } catch {
          throw WorkspaceError(
            .cannotCreate, "cannot create the store folder \(cacheRoot): \(error.description)")
        }
      }
    }
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
    if let device { return try readReplicatedState(device) }
    return try locked(shared: true) { () throws(WorkspaceError) in
      let stamp = memoryStamp()
      if let kept = memory?.kept(at: stamp) { return kept.state }
      let contents = try Self.persisting { () throws(PersistenceError) in
        try JSONLinesJournal<StoreChange, StoreIndex>.read(
          directory: cacheRoot, name: Self.journalName, format: Self.indexFormat,
          fileSystem: fileSystem)
      }
      if let damage = contents.damage {
        throw WorkspaceError(
          .damagedStore,
          damage.description + " Run `offloadctl store repair` to keep its valid part.")
      }
      var state = try state(from: contents)
      if let memory, let stamp {
        state.stamp = stamp
        memory.keep(state, at: stamp, hasSnapshot: contents.snapshot != nil)
      }
      return state
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
    if device != nil && !ownFolderExists { return try body(try readState()) }
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
