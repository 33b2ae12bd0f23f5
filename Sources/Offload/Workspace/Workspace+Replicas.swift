import Foundation
import OrderingCore
import Persistence
public import Replication

/// This device's side of a store shared by several devices (decision 0010): its replica id,
/// its name, and where its identity is kept outside the store.
public struct DeviceContext: Sendable {
  /// This device's replica id.
  public let replica: ReplicaID
  /// This device's name (the host name, or `OFFLOAD_DEVICE_NAME`).
  public let name: String
  /// The device's state folder (`$XDG_STATE_HOME`, else `~/.local/state`).
  public let stateDirectory: String

  /// The device's state folder: `$XDG_STATE_HOME`, else `~/.local/state`.
  ///
  /// - Returns: The folder, or `nil` when neither the variable nor a home folder is known.
  public static func defaultStateDirectory() -> String? {
    let environment = ProcessInfo.processInfo.environment
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state }
    var home = environment["HOME"] ?? ""
    // A process started without HOME (a script's bare environment) is the same user still.
    if home.isEmpty { home = FileManager.default.homeDirectoryForCurrentUser.path }
    guard home.hasPrefix("/") else { return nil }
    return home + "/.local/state"
  }

  /// This device's name: `$OFFLOAD_DEVICE_NAME`, else the host name.
  public static func deviceName() -> String {
    if let name = ProcessInfo.processInfo.environment["OFFLOAD_DEVICE_NAME"], !name.isEmpty {
      return name
    }
    return ProcessInfo.processInfo.hostName
  }

  /// This device's identity for a store, made and kept under the state folder on first use
  /// (a new identity takes `$OFFLOAD_REPLICA_ID` when it is a valid replica id, else a random
  /// one); `nil` when the state folder cannot be written (the store then opens single-writer).
  static func resolve(store: String, state: String) -> DeviceContext? {
    let identities = DeviceIdentityStore(stateDirectory: state, storePath: identityPath(store))
    var generator = SystemRandomNumberGenerator()
    guard
      let identity = try? identities.loadOrCreate(
        name: deviceName(),
        newReplicaID: {
          // A reproducible run (tests, documentation examples) may choose the id.
          if let chosen = ProcessInfo.processInfo.environment["OFFLOAD_REPLICA_ID"],
            let id = try? ReplicaID(chosen)
          {
            return id.rawValue
          }
          // Never one a device folder of the store already has.
          let taken = Set((try? ReplicaFolders(store: store).replicaIDs()) ?? [])
          return newReplicaID(avoiding: taken, using: &generator).rawValue
        },
        newClaim: { String(UInt64.random(in: .min ... .max), radix: 16) }),
      let replica = try? ReplicaID(identity.replica)
    else { return nil }
    return DeviceContext(replica: replica, name: identity.name, stateDirectory: state)
  }

  /// The real path a store's identity is keyed by.
  static func identityPath(_ store: String) -> String {
    URL(fileURLWithPath: store).standardizedFileURL.resolvingSymlinksInPath().path
  }
}

extension Workspace {
  /// Gives a copy of this store at `path` this device's identity, so the copy is the same
  /// device at another path (a test that copies a store to replay a command on it); a copy
  /// without this is a new device.
  ///
  /// - Parameter path: The copy's folder.
  /// - Throws: ``WorkspaceError/Code/ioFailure`` when the identity cannot be written.
  func shareIdentity(with path: String) throws(WorkspaceError) {
    guard let device else { return }
    let source = DeviceIdentityStore(
      stateDirectory: device.stateDirectory, storePath: DeviceContext.identityPath(root))
    let target = DeviceIdentityStore(
      stateDirectory: device.stateDirectory, storePath: DeviceContext.identityPath(path))
    try Self.persisting { () throws(PersistenceError) in
      guard var identity = try source.document.load() else { return }
      identity.store = target.storePath
      try target.document.save(identity)
    }
  }
}

/// One line of a device's operation log: one committed change, whole or not at all.
struct ReplicaLogEntry: Codable {
  /// The change's operations, in the order they were made.
  var operations: [ReplicaOperation]
  /// This device's record of the change (before-and-after records, the history note, the
  /// version vector after it): what its cache and its undo need, read by no other device.
  var record: StoreChange?
  /// The merged state this log starts from, on the first line of a compacted log only.
  var snapshot: ReplicaLogSnapshot?
}

/// Another device's log line as this device merges it: the operations alone. The record is
/// that device's own (for its cache and its undo), and decoding it (every item before and
/// after a change) would cost more than the operations. (Codable only because the log
/// readers ask it; it is never written.)
struct ReplicaLogOperations: Codable, ReplicaLogLine {
  /// The change's operations, in the order they were made.
  var operations: [ReplicaOperation]
  /// The merged state this log starts from, on the first line of a compacted log only.
  var snapshot: ReplicaLogSnapshot?
}

/// What a merge reads of a log line, whichever way it was decoded: its operations and, on a
/// compacted log's first line, its snapshot.
protocol ReplicaLogLine {
  /// The change's operations, in the order they were made.
  var operations: [ReplicaOperation] { get }
  /// The merged state this log starts from, on the first line of a compacted log only.
  var snapshot: ReplicaLogSnapshot? { get }
}

extension ReplicaLogEntry: ReplicaLogLine {}

extension Workspace {
  /// This device's own lines as the merge reads every device's: operations and snapshot.
  ///
  /// - Complexity: O(*l*) for *l* lines.
  static func operationLines(_ records: [JournalRecord<ReplicaLogEntry>])
    -> [JournalRecord<ReplicaLogOperations>]
  {
    records.map {
      JournalRecord(
        sequence: $0.sequence,
        entry: ReplicaLogOperations(operations: $0.entry.operations, snapshot: $0.entry.snapshot))
    }
  }
}

/// The base a device's log starts from (no compaction yet: always empty).
struct ReplicaLogBase: Codable, Hashable {}

extension Workspace {
  /// The format named in every device log's header.
  static let replicaLogFormat = DocumentFormat<ReplicaLogBase>(name: "offload.replica-log")

  /// The store's per-device folders.
  var replicaFolders: ReplicaFolders { ReplicaFolders(store: root, fileSystem: fileSystem) }

  /// Whether this device has written to the store (its folder exists).
  var ownFolderExists: Bool {
    guard let device else { return false }
    let folder = replicaFolders.folder(of: device.replica.rawValue)
    return ((try? fileSystem.statusIfPresent(folder, followingLinks: true)) ?? nil) != nil
  }

  /// Every device's operations merged: this device's log read from `own` when it is open,
  /// the others' read without writing (a line not whole yet waits for the rest).
  ///
  /// - Complexity: O(*o* log *o*), *o* operations in the logs.
  func mergedReplicaState(own: [JournalRecord<ReplicaLogEntry>]?) -> ReplicaState {
    guard let device else { return ReplicaState() }
    var logs = [
      (replica: device.replica, records: Self.operationLines(own ?? ownLogRecords(device)))
    ]
    let others: [ReplicaLogRead<ReplicaLogOperations, ReplicaLogBase>] = replicaFolders.readLogs(
      except: device.replica.rawValue, format: Self.replicaLogFormat)
    for read in others {
      if let id = try? ReplicaID(read.replica) { logs.append((id, read.contents?.entries ?? [])) }
    }
    return Self.mergeFromBase(logs)
  }

  /// This device's log, read without writing.
  func ownLogRecords(_ device: DeviceContext) -> [JournalRecord<ReplicaLogEntry>] {
    (replicaFolders.readLog(of: device.replica.rawValue, format: Self.replicaLogFormat)
      as ReplicaLogRead<ReplicaLogEntry, ReplicaLogBase>).contents?.entries ?? []
  }

  /// This device's committed changes its cache lacks (a crash came between the log's line
  /// and the cache's), as the cache's lines to replay, with their history notes.
  func missingOwnRecords(
    _ state: StoreState, own: [JournalRecord<ReplicaLogEntry>], replica: ReplicaID
  ) -> [StoreChange] {
    guard let covers = state.index.covers else { return [] }
    let have = covers[replica.rawValue] ?? 0
    return own.compactMap { line in
      guard let record = line.entry.record, let last = line.entry.operations.last,
        last.sequence > have
      else { return nil }
      return record
    }
  }

  /// The committed state of a store with per-device logs: this device's cache, brought up to
  /// date in memory with every device's operations.
  func readReplicatedState(_ device: DeviceContext) throws(WorkspaceError) -> StoreState {
    guard !((try? replicaFolders.replicaIDs()) ?? []).isEmpty else {
      return try singleWriterView.readState()
    }
    let read = { () throws(WorkspaceError) -> StoreState in
      let contents = try Self.persisting { () throws(PersistenceError) in
        try JSONLinesJournal<StoreChange, StoreIndex>.read(
          directory: cacheRoot, name: Self.journalName, format: Self.indexFormat,
          fileSystem: fileSystem)
      }
      var state: StoreState
      if contents.damage == nil, let cached = try? self.state(from: contents) {
        state = cached
      } else {
        state = StoreState(index: .empty(now: Date(timeIntervalSince1970: 0)), tail: [])
      }
      let checkpoint = loadMergedCheckpoint(device)
      let own = ownLogRead(device, checkpoint: checkpoint)
      for record in missingOwnRecords(state, own: own.entries, replica: device.replica) {
        state.apply(record)
      }
      // Nothing past the checkpoint and the cache holds it: no merge at all.
      if let checkpoint, state.index.covers == checkpoint.covers,
        let tails = tails(device, checkpoint: checkpoint, own: own), tails.operations.isEmpty
      {
        return state
      }
      let merged = mergeLogs(device, checkpoint: checkpoint, own: own)
      if let refresh = try refreshChange(state, merged: merged.state) { state.apply(refresh) }
      if merged.wantsCheckpoint && ownFolderExists {
        saveMergedCheckpoint(device, state: merged.state, marks: merged.marks)
      }
      return state
    }
    guard ownFolderExists else { return try read() }
    return try locked(shared: true) { () throws(WorkspaceError) in try read() }
  }

  /// The change that brings a cache up to the merged state, or `nil` when it holds it.
  ///
  /// - Complexity: O(*n*), *n* items, when the cache is behind; O(*r*) otherwise.
  func refreshChange(_ state: StoreState, merged: ReplicaState) throws(WorkspaceError)
    -> StoreChange?
  {
    let covers = Self.vector(merged.seen)
    guard state.index.covers != covers else { return nil }
    let target = ReplicaBridge.collections(of: merged, created: Date(timeIntervalSince1970: 0))
    var targetByID: [ShortID: ItemCollection] = [:]
    for collection in target { targetByID[collection.id] = collection }
    var changes: [HistoryEntry.CollectionChange] = []
    var ids = Set(targetByID.keys)
    for entry in state.index.collections {
      ids.insert(entry.id)
    }
    for id in ids.sorted() {
      var cached: ItemCollection?
      if let entry = state.index.collections.first(where: { $0.id == id }) {
        cached = try? loadCollection(entry, tail: state.tail)
      }
      if let change = Self.difference(id: id, from: cached, to: targetByID[id]) {
        changes.append(change)
      }
    }
    let before = state.index.collections.map(\.id)
    let after = target.map(\.id)
    return StoreChange(
      changes: changes, nextSequence: state.index.nextSequence, history: nil,
      droppedHistory: [],
      collectionOrder: before == after ? nil : .init(before: before, after: after),
      covers: covers)
  }

  /// A version vector as the cache stores it.
  static func vector(_ vector: VersionVector) -> [String: UInt64] {
    var result: [String: UInt64] = [:]
    for (replica, count) in vector.counts { result[replica.rawValue] = count }
    return result
  }

  /// The milliseconds of a date, for the hybrid clock.
  static func milliseconds(_ date: Date) -> UInt64 {
    UInt64(max(0, (date.timeIntervalSince1970 * 1000).rounded()))
  }
}

/// Ids a change makes on a device: its replica id and a counter past the ids it made before
/// (at least three digits: `k7q001`), skipping any id the merged state holds (live or
/// deleted).
struct ReplicaIDSource {
  let replica: ReplicaID
  var counter: UInt64
  let taken: MergedSource

  /// The next id.
  mutating func next() -> ShortID? {
    while counter < UInt64.max {
      // At least three counter digits, so ids keep the six characters commands show.
      var node = NodeID.make(replica: replica, counter: counter)
      let digits = node.rawValue.dropFirst(ReplicaID.length)
      if digits.count < 3 {
        node = NodeID(
          replica.rawValue + String(repeating: "0", count: 3 - digits.count) + digits)
      }
      counter += 1
      if taken.kind(of: node) == nil, let id = ShortID(node.rawValue) { return id }
    }
    return nil
  }
}

/// This device's open log during a change, with every device's operations merged.
struct DeviceLog {
  let replica: ReplicaID
  let log: JSONLinesJournal<ReplicaLogEntry, ReplicaLogBase>
  /// The merged state before the change (partial when only this device's own operations
  /// came past the checkpoint).
  let merged: MergedSource
  /// How the merge was read: from the checkpoint or the logs' start, and up to where (its
  /// `state` is empty: the state is `merged`).
  var reading: MergedLogs
  /// The collection order before the change.
  var order: [ShortID] = []

  var idSource: ReplicaIDSource {
    ReplicaIDSource(replica: replica, counter: merged.seen[replica] + 1, taken: merged)
  }

  /// Appends a committed change's operations to this device's log as one line (the commit
  /// point) and returns the version vector the cache covers after it, with the merged state
  /// after it (holding only the nodes the change read when the state is partial).
  func commit(_ change: StoreChange, index: StoreIndex, now: Date) throws(WorkspaceError)
    -> (covers: [String: UInt64], state: CommittedMerge)
  {
    var after = index
    after.apply(change)
    let order = after.collections.map(\.id)
    let before = merged.state(holding: ReplicaBridge.nodes(of: change, order: order))
    let changes = ReplicaBridge.changes(
      for: change, order: order, state: before, replica: replica)
    var device = Replica(id: replica, state: before)
    let commit = device.apply(changes, wallTime: Workspace.milliseconds(now))
    let covers = Workspace.vector(device.state.seen)
    if !commit.operations.isEmpty {
      var record = change
      record.covers = covers
      try Workspace.persisting { () throws(PersistenceError) in
        _ = try log.append(ReplicaLogEntry(operations: commit.operations, record: record))
      }
    }
    return (
      covers,
      CommittedMerge(
        state: device.state, operations: commit.operations, partial: merged.isPartial)
    )
  }

  func close() { try? log.close() }
}

extension Workspace {
  /// The cache's state under the exclusive lock: the journal's snapshot and tail.
  func cacheState(_ journal: JSONLinesJournal<StoreChange, StoreIndex>) throws(WorkspaceError)
    -> StoreState
  {
    try state(from: journal.recovered)
  }

  /// Opens this device's log for a change (moving a store of the single-writer layout into
  /// it first) and merges every device's operations; `nil` without a device.
  func openDeviceLog() throws(WorkspaceError) -> DeviceLog? {
    guard let device else { return nil }
    let checkpoint = loadMergedCheckpoint(device)
    let opened = try Self.persisting { () throws(PersistenceError) in
      try replicaFolders.openOwnLog(
        replica: device.replica.rawValue, format: Self.replicaLogFormat,
        after: checkpoint?.marks[device.replica.rawValue])
        as (log: JSONLinesJournal<ReplicaLogEntry, ReplicaLogBase>, continued: Bool)
    }
    let log = opened.log
    let own = OwnLogRead(entries: log.recovered.entries, continued: opened.continued, end: nil)
    if log.lastSequence != 0, let checkpoint,
      let partial = partialMerge(device, checkpoint: checkpoint, own: own)
    {
      return DeviceLog(
        replica: device.replica, log: log, merged: partial.source, reading: partial.reading)
    }
    var reading = mergeLogs(device, checkpoint: checkpoint, own: own)
    var merged = reading.state
    if log.lastSequence == 0 {
      var first: [Change] = []
      if singleWriterLayoutExists {
        first = try singleWriterChanges(replica: device.replica)
      } else if merged.latest == nil {
        first = [.set(.inbox, .created(ReplicaBridge.createdText(now())))]
      }
      if !first.isEmpty {
        var replica = Replica(id: device.replica, state: merged)
        let commit = replica.apply(first, wallTime: Self.milliseconds(now()))
        try Self.persisting { () throws(PersistenceError) in
          _ = try log.append(ReplicaLogEntry(operations: commit.operations))
        }
        merged = replica.state
        reading.state = merged
        reading.fromCheckpoint = false
        if singleWriterLayoutExists { moveSingleWriterFilesToBackups() }
      }
    }
    reading.state = ReplicaState()
    return DeviceLog(
      replica: device.replica, log: log, merged: MergedSource(whole: merged), reading: reading)
  }

  /// The creates that rebuild a store of the single-writer layout: every collection and
  /// item with its fields, ids kept.
  func singleWriterChanges(replica: ReplicaID) throws(WorkspaceError) -> [Change] {
    let legacy = singleWriterView
    let state = try legacy.readState()
    var changes: [HistoryEntry.CollectionChange] = []
    for entry in state.index.collections {
      let collection = try legacy.loadCollection(entry, tail: state.tail)
      changes.append(
        .init(
          collection: entry.id, before: nil, after: collection.metadata,
          items: collection.items.map { .init(before: nil, after: $0) }))
    }
    let change = StoreChange(
      changes: changes, nextSequence: state.index.nextSequence, history: nil, droppedHistory: [])
    return ReplicaBridge.changes(
      for: change, order: state.index.collections.map(\.id), state: ReplicaState(),
      replica: replica)
  }

  /// Moves the single-writer layout's files into `backups/single-writer/` once the log
  /// holding their contents is on stable storage; a file that cannot move stays (it is
  /// never read again once this device's log exists).
  func moveSingleWriterFilesToBackups() {
    let backups = root + "/backups/single-writer-" + String(Self.milliseconds(now()))
    try? fileSystem.makeDirectories(backups, permissions: 0o755)
    for name in (try? fileSystem.listDirectory(root)) ?? [] {
      let moves =
        name == "index.json" || name.hasPrefix("index.json.") || name == "collections"
        || name == "history" || name.hasPrefix(Self.journalName + ".")
      if moves { try? fileSystem.rename(root + "/" + name, to: backups + "/" + name) }
    }
  }
}
