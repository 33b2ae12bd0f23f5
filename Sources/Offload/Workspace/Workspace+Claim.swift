import Foundation
import Persistence
import Replication

extension Workspace {
  /// Makes sure this device is the one writing its folder (decision 0010, "Two devices
  /// claiming one identity"): its `device.json` holds the claim token of this device's
  /// identity. A folder without one gets this device's; a folder holding another device's
  /// token (two devices came to one replica id) is left to that device: this device takes a
  /// new replica id, and the old id's log stays as the other device's, nothing in it lost.
  ///
  /// First, before anything is written, the identity's anchor (Persistence's `DeviceAnchor`:
  /// the machine it was made on and the inode of the folder it made) is compared with what is
  /// found now:
  /// an identity copied together with the store (a home folder restored on a second machine,
  /// a cloned disk, the state folder copied by hand), or a store restored from a copy, moves
  /// to a new replica id the same way, so two copies never append to one log. An identity
  /// without an anchor (written before anchors) gets one recorded. The check costs one status
  /// call of this device's folder.
  ///
  /// ```swift
  /// let (workspace, notice) = try Workspace(root: folder).claimingOwnFolder()
  /// if let notice { print(notice) }
  /// ```
  ///
  /// - Returns: The workspace to use (a new one when this device moved to a new replica id)
  ///   and one line saying so, else `nil`.
  /// - Throws: ``WorkspaceError/Code/ioFailure`` when the identity or `device.json` cannot be
  ///   read or written.
  /// - Complexity: O(*d*), *d* device folders (when a new id is chosen); else O(1) file
  ///   operations.
  public func claimingOwnFolder() throws(WorkspaceError) -> (workspace: Workspace, notice: String?)
  {
    guard let device else { return (self, nil) }
    let identities = DeviceIdentityStore(
      stateDirectory: device.stateDirectory, storePath: DeviceContext.identityPath(root),
      fileSystem: fileSystem)
    return try Self.persisting { () throws(PersistenceError) in
      guard var identity = try identities.document.load() else { return (self, nil) }
      // Before anything is written: an identity copied with the store moves to a new id.
      switch try replicaFolders.anchorCheck(of: identity, machine: Self.machine) {
      case .same: break
      case .record(let anchor): identity = try identities.record(anchor, in: identity)
      case .copied(let reason):
        return try moving(identity, in: identities) { moved in
          "this device (\(identity.name)) now writes as \(moved) instead of \(identity.replica): "
            + "\(reason); \(identity.replica)'s log stays as another device's, nothing in it lost"
        }
      }
      guard identity.anchor?.folder != nil else { return (self, nil) }  // no folder yet
      switch try replicaFolders.claim(of: identity) {
      case .ours:
        return (self, nil)
      case .unclaimed:
        try replicaFolders.writeClaim(identity)
        return (self, nil)
      case .claimedByAnotherDevice(let other):
        return try moving(identity, in: identities) { moved in
          "this device (\(identity.name)) found its replica id \(identity.replica) claimed by "
            + "\(other); it now writes as \(moved), and \(identity.replica)'s log stays "
            + "as \(other)'s"
        }
      }
    }
  }

  /// Moves this device to a new replica id no device folder of the store has, with a new
  /// token: the old id's log stays in the store as another device's.
  ///
  /// - Parameters:
  ///   - identity: The identity in use.
  ///   - identities: Where it is kept.
  ///   - notice: The line to show, given the new id.
  /// - Returns: The workspace writing as the new id, and the line.
  func moving(
    _ identity: DeviceIdentity, in identities: DeviceIdentityStore,
    notice: (String) -> String
  ) throws(PersistenceError) -> (workspace: Workspace, notice: String?) {
    guard let device else { return (self, nil) }
    var generator = SystemRandomNumberGenerator()
    let replica = DeviceContext.newReplicaID(
      avoiding: Set(try replicaFolders.replicaIDs()).union([identity.replica]), using: &generator)
    let moved = try identities.reassign(
      identity, replica: replica.rawValue,
      claim: String(UInt64.random(in: .min ... .max), radix: 16), machine: Self.machine)
    let workspace = Workspace(
      root: root, maximumPlanDepth: maximumPlanDepth, historyLimit: historyLimit,
      lockTimeout: lockTimeout, fileSystem: fileSystem, now: now,
      stateDirectory: device.stateDirectory)
    return (workspace, notice(moved.replica))
  }
}

extension DeviceContext {
  /// A random replica id that no device folder of the store has.
  ///
  /// - Parameters:
  ///   - taken: The replica ids of the store's device folders.
  ///   - generator: The source of randomness.
  /// - Returns: An id not in `taken`.
  /// - Complexity: O(1) expected while `taken` holds a small share of the 32,768 ids.
  static func newReplicaID(
    avoiding taken: Set<String>, using generator: inout some RandomNumberGenerator
  ) -> ReplicaID {
    var replica = ReplicaID.random(using: &generator)
    while taken.contains(replica.rawValue) { replica = ReplicaID.random(using: &generator) }
    return replica
  }
}
