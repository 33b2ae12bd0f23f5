import Foundation
import OrderingCore
import Persistence
import PhotoSession
import Replication

// A store becomes shared between devices on its first open when it lies in a folder a sync
// engine carries (``SyncEngineMarker``), or when the user asks (`offloadctl store share`,
// for a git remote or a USB stick no marker reveals): until then it keeps the single-writer
// layout. See decision 0010, "Sharing on first open".
extension Workspace {
  /// The folder whose presence marks a store shared between devices.
  static let replicasFolder = "replicas"

  /// Whether this workspace reads and writes per-device logs (the store is shared and this
  /// device has an identity for it).
  public var isShared: Bool { device != nil }

  /// This device's replica id and name in a shared store, else nil.
  public var deviceDescription: (replica: String, name: String)? {
    device.map { ($0.replica.rawValue, $0.name) }
  }

  /// Makes the store shareable between devices: creates `replicas/`, then turns the store's
  /// current content into this device's operation log (every collection and item becomes a
  /// create, ids kept; the single-writer files move to `backups/` once the log is on disk).
  /// Running it again, or on a store another device shared, only makes sure this device has
  /// its identity.
  ///
  /// ```swift
  /// let shared = try Workspace(root: folder).share()
  /// print(shared.deviceDescription?.name ?? "")
  /// ```
  ///
  /// - Returns: The workspace over the shared store, as this device.
  /// - Throws: ``WorkspaceError`` when the folder cannot be written, or when there is no
  ///   state folder for this device's identity (`$XDG_STATE_HOME` or `~/.local/state`).
  /// - Complexity: O(*n*) for *n* items in the store (the first time).
  public func share() throws(WorkspaceError) -> Workspace {
    // The identity is made before `replicas/` shows the store shared, so a process that
    // opens the store in between finds this device's identity, not a second one.
    let state = stateDirectory ?? DeviceContext.defaultStateDirectory()
    guard let state,
      DeviceContext.resolve(store: root, state: state, unshared: !replicasFolderExists) != nil
    else {
      throw WorkspaceError(
        .cannotCreate,
        "cannot keep this device's identity for \(root): no writable state folder "
          + "($XDG_STATE_HOME or ~/.local/state)")
    }
    do throws(PersistenceError) {
      try fileSystem.makeDirectories(root + "/" + Self.replicasFolder, permissions: 0o755)
    } catch {
      throw WorkspaceError(
        .cannotCreate, "cannot create the store folder \(root): \(error.description)")
    }
    let shared = reopened(stateDirectory: state)
    guard shared.isShared else {
      throw WorkspaceError(
        .cannotCreate,
        "cannot keep this device's identity for \(root): no writable state folder "
          + "($XDG_STATE_HOME or ~/.local/state)")
    }
    // An empty change under this device's lock opens its log, which moves a single-writer
    // store into it; the single-writer lock keeps a process of that layout out meanwhile.
    let open = { () throws(WorkspaceError) in
      try shared.change(recordsHistory: false) { _ throws(WorkspaceError) in ((), summary: "") }
    }
    if singleWriterLayoutExists {
      try singleWriterView.locked(shared: false, open)
    } else {
      try open()
    }
    // The store's photo sessions become this device's (a session culls this device's disk).
    if let state = shared.device?.stateDirectory {
      var environment = ProcessInfo.processInfo.environment
      environment["XDG_STATE_HOME"] = state
      do throws(PhotoSessionError) {
        try PhotoSessions.adoptUnsharedSessions(root: root, environment: environment)
      } catch {
        throw WorkspaceError(.ioFailure, error.description)
      }
    }
    return shared
  }
}

extension Workspace {
  /// This workspace as it should be used: when the store lies in a folder a sync engine
  /// carries (a ``SyncEngineMarker`` in its folder or an ancestor) and is not shared yet, it
  /// is shared now (``share()``), before any change is written, and a line says so and why.
  /// The check and the sharing run under the single-writer store's lock, so a second process
  /// that waited on that lock finds the store shared and shares nothing again. A store already
  /// shared, one no marker reveals (`store share` is the step for those), and a workspace
  /// opened without a state folder (`stateDirectory: nil`) are returned as they are.
  ///
  /// ```swift
  /// let opened = try Workspace(root: storeFolder).sharedIfSynced(forChange: true)
  /// if let notice = opened.notice { print(notice) }
  /// ```
  ///
  /// - Parameter forChange: Whether a change follows: a store that does not exist yet is
  ///   made shared only then, so a read of an empty folder writes nothing.
  /// - Returns: The workspace to use, and the line to show when the store was shared now.
  /// - Throws: ``WorkspaceError`` when sharing fails (``share()``) or the lock stays busy.
  /// - Complexity: O(*d* × *e*) to look for markers (one listing per folder on the store's
  ///   path: *d* folders of at most *e* entries); sharing adds O(*n*) for *n* items.
  public func sharedIfSynced(forChange: Bool) throws(WorkspaceError) -> (
    workspace: Workspace, notice: String?
  ) {
    guard device == nil, let stateDirectory else { return (self, nil) }
    // Shared since this workspace was made (by another process): open it as it is now.
    if replicasFolderExists { return (reopened(stateDirectory: stateDirectory), nil) }
    guard forChange || singleWriterLayoutExists,
      let marker = SyncEngineMarker.find(
        from: DeviceContext.identityPath(root), fileSystem: fileSystem)
    else { return (self, nil) }
    do throws(PersistenceError) {
      try fileSystem.makeDirectories(root, permissions: 0o755)
    } catch {
      throw WorkspaceError(
        .cannotCreate, "cannot create the store folder \(root): \(error.description)")
    }
    return try singleWriterView.locked(shared: false) {
      () throws(WorkspaceError) -> (workspace: Workspace, notice: String?) in
      // Another process may have shared the store while this one waited for the lock.
      let current = reopened(stateDirectory: stateDirectory)
      if current.replicasFolderExists { return (current, nil) }
      let shared = try share()
      let notice =
        "this store is now shared between devices, each writing its own log, because it lies "
        + "in a folder a sync engine carries: found \(marker)"
      return (shared, notice)
    }
  }

  /// Whether the store holds `replicas/` (it is shared, whether or not this device has an
  /// identity for it).
  var replicasFolderExists: Bool {
    let path = root + "/" + Self.replicasFolder
    return (try? fileSystem.status(path, followingLinks: true))?.kind == .directory
  }

  /// This workspace's settings over the store as it is on disk now.
  func reopened(stateDirectory: String?) -> Workspace {
    Workspace(
      root: root, maximumPlanDepth: maximumPlanDepth, historyLimit: historyLimit,
      lockTimeout: lockTimeout, fileSystem: fileSystem, now: now,
      stateDirectory: stateDirectory)
  }
}

extension Workspace {
  /// One line for each other device's log this device leaves out of the merge (a newer
  /// format than this build reads, or unreadable): nothing is ever written over such a log,
  /// and its operations come in once a build that reads it opens the store. A line that only
  /// waits to be whole (a transfer in progress) is not listed. Empty when the store is not
  /// shared.
  ///
  /// - Complexity: O(*b* + *t*): *b* bytes of the other devices' logs, *t* lines past this
  ///   device's checkpoint decoded.
  public func leftOutLogs() -> [String] {
    guard let device else { return [] }
    return unreadableLogs(device)
  }
}

extension Workspace {
  /// Gives every item this change placed (created, or moved to another parent or key) an
  /// order key ending in this device's replica id, at the same place among its siblings, so
  /// keys two devices make for one gap while apart never tie (decision 0010). The log and
  /// this device's cache both get the rewritten keys.
  ///
  /// - Complexity: O(*c* log *c*) per touched collection of *c* items.
  static func suffixPlacedKeys(_ transaction: inout Transaction, replica: ReplicaID) {
    guard !transaction.restoresKeys else { return }
    for id in transaction.touched {
      guard var collection = transaction.collections[id] else { continue }
      let original = transaction.originals[id] ?? nil
      if let original, let placed = onlyPlaced(collection, original) {
        // One item placed (an add, a move): its neighbours by a scan, not a sort of all.
        if let key = placedKey(collection, placed, replica: replica) {
          collection.items[placed].order = key
          transaction.collections[id] = collection
        }
        continue
      }
      let before = original.map { original in
        Dictionary(original.items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
      }
      var changed = false
      var siblings: [ShortID?: [Int]] = [:]
      for (index, item) in collection.items.enumerated() {
        siblings[item.parent, default: []].append(index)
      }
      for (_, indices) in siblings {
        let ordered = indices.sorted {
          (collection.items[$0].order, collection.items[$0].id.rawValue)
            < (collection.items[$1].order, collection.items[$1].id.rawValue)
        }
        var lower: OrderKey?
        for (position, index) in ordered.enumerated() {
          let item = collection.items[index]
          let old = before?[item.id]
          let placed = old == nil || old?.parent != item.parent || old?.order != item.order
          if placed {
            let upper = ordered.dropFirst(position + 1).first.map { collection.items[$0].order }
            if let key = try? OrderKey.between(lower, upper, replica: replica) {
              collection.items[index].order = key
              changed = true
            }
          }
          lower = collection.items[index].order
        }
      }
      if changed { transaction.collections[id] = collection }
    }
  }

  /// The index of the one item a change placed (created, or moved to another parent or key)
  /// in a collection, or `nil` when it placed none or several.
  ///
  /// The rows a change leaves alone keep their places around it, so the two lists are walked
  /// from both ends while they agree; only the rows between (a move's span, an add's one
  /// row) are looked up by id.
  ///
  /// - Complexity: O(*n*), *n* the rows; O(*m*) hashing for the *m* rows between the ends.
  static func onlyPlaced(_ collection: ItemCollection, _ original: ItemCollection) -> Int? {
    let items = collection.items
    let old = original.items
    func same(_ item: Item, _ other: Item) -> Bool {
      item.id == other.id && item.parent == other.parent && item.order == other.order
    }
    var start = 0
    while start < items.count, start < old.count, same(items[start], old[start]) { start += 1 }
    var end = items.count
    var oldEnd = old.count
    while end > start, oldEnd > start, same(items[end - 1], old[oldEnd - 1]) {
      end -= 1
      oldEnd -= 1
    }
    // One row moved within the span, the rest shifted by one: compared in place.
    if end - start == oldEnd - start, end - start >= 2 {
      let span = end - start
      if items[start].id == old[oldEnd - 1].id,
        (1..<span).allSatisfy({ same(items[start + $0], old[start + $0 - 1]) })
      {
        return same(items[start], old[oldEnd - 1]) ? nil : start
      }
      if items[end - 1].id == old[start].id,
        (0..<span - 1).allSatisfy({ same(items[start + $0], old[start + $0 + 1]) })
      {
        return same(items[end - 1], old[start]) ? nil : end - 1
      }
    }
    // An id between the ends, if the original has it, is between its ends too (ids are
    // unique and the rows outside agree one to one).
    var before: [ShortID: Int] = [:]
    before.reserveCapacity(oldEnd - start)
    for index in start..<oldEnd { before[old[index].id] = index }
    var placed: Int?
    for index in start..<end {
      let item = items[index]
      if let at = before[item.id], same(item, old[at]) { continue }
      guard placed == nil else { return nil }
      placed = index
    }
    return placed
  }

  /// The key, suffixed with the replica id, between the placed item's neighbours (by key,
  /// then id) among its siblings.
  static func placedKey(_ collection: ItemCollection, _ placed: Int, replica: ReplicaID)
    -> OrderKey?
  {
    let item = collection.items[placed]
    let at = (item.order, item.id.rawValue)
    var lower: (OrderKey, String)?
    var upper: (OrderKey, String)?
    for (index, other) in collection.items.enumerated()
    where index != placed && other.parent == item.parent {
      let position = (other.order, other.id.rawValue)
      if position < at {
        if lower.map({ $0 < position }) ?? true { lower = position }
      } else if upper.map({ position < $0 }) ?? true {
        upper = position
      }
    }
    return try? OrderKey.between(lower?.0, upper?.0, replica: replica)
  }
}
