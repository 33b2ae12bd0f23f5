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
  /// ```swift
  /// let (workspace, notice) = try Workspace(root: folder).claimingOwnFolder()
  /// if let notice { print(notice) }
  /// ```
  ///
  /// - Returns: The workspace to use (a new one when this device moved to a new replica id)
  ///   and one line saying so, else `nil`.
  /// - Throws: ``WorkspaceError/Code/ioFailure`` when the identity or `device.json` cannot be
  ///   read or written.
  /// - Complexity: O(*d*), *d* device folders (when a new id is chosen).
  public func claimingOwnFolder() throws(WorkspaceError) -> (workspace: Workspace, notice: String?)
  {
    guard let device, ownFolderExists else { return (self, nil) }
    let identities = DeviceIdentityStore(
      stateDirectory: device.stateDirectory, storePath: DeviceContext.identityPath(root),
      fileSystem: fileSystem)
    return try Self.persisting { () throws(PersistenceError) in
      guard let identity = try identities.document.load() else { return (self, nil) }
      switch try replicaFolders.claim(of: identity) {
      case .ours:
        return (self, nil)
      case .unclaimed:
        try replicaFolders.writeClaim(identity)
        return (self, nil)
      case .claimedByAnotherDevice(let other):
        var generator = SystemRandomNumberGenerator()
        let replica = DeviceContext.newReplicaID(
          avoiding: Set(try replicaFolders.replicaIDs()), using: &generator)
        let moved = try identities.reassign(
          identity, replica: replica.rawValue,
          claim: String(UInt64.random(in: .min ... .max), radix: 16))
        let workspace = Workspace(
          root: root, maximumPlanDepth: maximumPlanDepth, historyLimit: historyLimit,
          lockTimeout: lockTimeout, fileSystem: fileSystem, now: now,
          stateDirectory: device.stateDirectory)
        let notice =
          "this device (\(identity.name)) found its replica id \(identity.replica) claimed by "
          + "\(other); it now writes as \(moved.replica), and \(identity.replica)'s log stays "
          + "as \(other)'s"
        return (workspace, notice)
      }
    }
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
