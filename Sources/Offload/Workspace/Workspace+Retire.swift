import Foundation
import Persistence
import Replication

/// The devices a device has retired for good, kept in its own folder (`retired.json`).
struct RetiredDevices: Codable, Hashable {
  /// The retired devices' replica ids, sorted.
  var replicas: [String]
}

extension Workspace {
  /// The format of `retired.json`.
  static let retiredFormat = DocumentFormat<RetiredDevices>(name: "offload.retired-devices")

  /// The `retired.json` of a device's folder.
  func retiredDocument(_ replica: String) -> DocumentStore<RetiredDevices> {
    DocumentStore(
      path: PathName.join(replicaFolders.folder(of: replica), "retired.json"),
      format: Self.retiredFormat, fileSystem: fileSystem)
  }

  /// The devices any device of the store has retired (each device's `retired.json`).
  func retiredReplicas() -> Set<ReplicaID> {
    var result = Set<ReplicaID>()
    for id in (try? replicaFolders.replicaIDs()) ?? [] {
      for replica in ((try? retiredDocument(id).read()) ?? nil)?.replicas ?? [] {
        if let replica = try? ReplicaID(replica) { result.insert(replica) }
      }
    }
    return result
  }

  /// Retires a device gone for good: recorded in this device's own folder, so compaction no
  /// longer waits for what it has seen. Its operations stay in the merge, and any that still
  /// arrive are merged.
  ///
  /// ```swift
  /// let retired = try workspace.retire("old-phone")
  /// print(retired.replica)
  /// ```
  ///
  /// - Parameter name: The device's name, its replica id, or a prefix of its replica id, as
  ///   `store devices` shows them.
  /// - Returns: The device retired, as `store devices` shows it.
  /// - Throws: ``WorkspaceError/Code/invalidRequest`` when the store is not shared or `name`
  ///   is this device; ``WorkspaceError/Code/notFound`` when no device matches;
  ///   ``WorkspaceError/Code/ambiguous`` when several do; ``WorkspaceError/Code/ioFailure``
  ///   when `retired.json` cannot be written.
  /// - Complexity: O(*o*) for *o* operations in the logs (the devices are listed).
  public func retire(_ name: String) throws(WorkspaceError) -> StoreDevice {
    let devices = try devices()
    var matches = devices.filter { $0.replica == name }
    if matches.isEmpty { matches = devices.filter { $0.name == name } }
    if matches.isEmpty { matches = devices.filter { $0.replica.hasPrefix(name) && !name.isEmpty } }
    guard let found = matches.first else {
      throw WorkspaceError(
        .notFound,
        "no device \"\(name)\" in this store; `offloadctl store devices` lists them")
    }
    guard matches.count == 1 else {
      throw WorkspaceError(
        .ambiguous,
        "\"\(name)\" names \(matches.count) devices (\(matches.map(\.replica).joined(separator: ", "))); "
          + "give more of the replica id")
    }
    guard !found.isThisDevice, let device else {
      throw WorkspaceError(
        .invalidRequest,
        "\(found.name ?? found.replica) (\(found.replica)) is this device; retire it from another "
          + "device")
    }
    let own = device.replica.rawValue
    try Self.persisting { () throws(PersistenceError) in
      let document = retiredDocument(own)
      var retired = try document.read() ?? RetiredDevices(replicas: [])
      guard !retired.replicas.contains(found.replica) else { return }
      retired.replicas = (retired.replicas + [found.replica]).sorted()
      try fileSystem.makeDirectory(replicaFolders.root)
      try fileSystem.makeDirectory(replicaFolders.folder(of: own))
      try document.save(retired)
    }
    var shown = found
    shown.retired = true
    return shown
  }
}
