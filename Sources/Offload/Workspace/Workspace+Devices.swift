public import Foundation
import Persistence
import Replication

/// One device of a shared store, as its folder and its log show it (`offloadctl store devices`).
public struct StoreDevice: Sendable, Equatable, Encodable {
  /// The device's replica id (its folder's name under `replicas/`).
  public var replica: String
  /// The device's name, from its `device.json` (this device's own name for itself); `nil`
  /// when the device has not written one yet.
  public var name: String?
  /// Whether this is the device running the command.
  public var isThisDevice: Bool
  /// How many operations the device has written (its log's whole lines).
  public var operations: Int
  /// How many changes (log lines, one per command) the device has written.
  public var changes: Int
  /// What the device had merged of every device's log when it wrote its last change (the
  /// version vector of its last log line's record, else of the snapshot its compacted log
  /// begins with), by replica id; empty when no line of its log carries one yet.
  public var seen: [String: UInt64]
  /// When the device wrote its last operation (its hybrid clock's wall time), or `nil` when
  /// its log holds none yet.
  public var lastWrite: Date?
  /// One line when the device's log is not read whole (a line still arriving, a newer
  /// format, damage), else `nil`.
  public var problem: String?
  /// Whether a device of the store retired this one for good (`offloadctl store retire`):
  /// compaction no longer waits for it, and its operations stay in the merge.
  public var retired = false

  /// The keys of `offloadctl store devices --json`: the fields' names, `thisDevice` for
  /// ``isThisDevice``.
  enum CodingKeys: String, CodingKey {
    case replica, name, isThisDevice = "thisDevice", operations, changes, seen, lastWrite
    case problem, retired
  }
}

extension Workspace {
  /// The devices of this shared store: every device folder under `replicas/`, sorted by
  /// replica id, with what its log says.
  ///
  /// ```swift
  /// for device in try workspace.devices() {
  ///   print(device.replica, device.name ?? "?", device.operations)
  /// }
  /// ```
  ///
  /// - Returns: One ``StoreDevice`` per device folder.
  /// - Throws: ``WorkspaceError/Code/invalidRequest`` when the store is not shared between
  ///   devices (see ``share()``).
  /// - Complexity: O(*o*) for *o* operations in the logs.
  public func devices() throws(WorkspaceError) -> [StoreDevice] {
    guard let device else {
      throw WorkspaceError(
        .invalidRequest,
        "the store at \(root) is not shared between devices; `offloadctl store share` shares it")
    }
    let retired = retiredReplicas()
    var ids = (try? replicaFolders.replicaIDs()) ?? []
    if !ids.contains(device.replica.rawValue) { ids.append(device.replica.rawValue) }
    return ids.sorted().map { id in
      let read: ReplicaLogRead<ReplicaLogEntry, ReplicaLogBase> = replicaFolders.readLog(
        of: id, format: Self.replicaLogFormat)
      let entries = read.contents?.entries ?? []
      let own = id == device.replica.rawValue
      var problem = read.problem
      // This device's folder before its first change holds no log yet: nothing wrong.
      if own && entries.isEmpty && !ownFolderExists { problem = nil }
      let last = entries.last(where: { !$0.entry.operations.isEmpty })?.entry.operations.last
      return StoreDevice(
        replica: id, name: own ? device.name : deviceName(of: id), isThisDevice: own,
        operations: entries.reduce(0) { $0 + $1.entry.operations.count },
        changes: entries.count,
        seen: entries.last(where: { $0.entry.record?.covers != nil })?.entry.record?.covers
          ?? entries.first?.entry.snapshot?.seen ?? [:],
        lastWrite: last.map { Date(timeIntervalSince1970: Double($0.timestamp.wallTime) / 1000) },
        problem: problem, retired: (try? ReplicaID(id)).map(retired.contains) ?? false)
    }
  }

  /// A device's name as its folder's `device.json` gives it, or `nil`.
  func deviceName(of replica: String) -> String? {
    let claim = ((try? replicaFolders.deviceRecord(of: replica)) ?? nil)?.name
    return claim.flatMap { $0.isEmpty ? nil : $0 }
  }
}
