import Foundation
import Persistence

extension Workspace {
  /// The digest of this machine's id (``MachineIdentity``), read once per process.
  static let machine = MachineIdentity.digest()

  /// Claims the folder this device has just made for its first change (decision 0010): its
  /// `device.json` gets this device's name and token, so other devices (and `store retire
  /// NAME`) know it from its first change on, and the identity records the folder's inode,
  /// so a copy of the store made from now on is told apart. Nothing is changed when the
  /// identity is not this workspace's or the folder is claimed already; a failure leaves the
  /// next open's claim check to do it.
  ///
  /// - Parameter device: This device.
  func claimNewFolder(_ device: DeviceContext) {
    let identities = DeviceIdentityStore(
      stateDirectory: device.stateDirectory, storePath: DeviceContext.identityPath(root),
      fileSystem: fileSystem)
    try? Self.persisting { () throws(PersistenceError) in
      guard var identity = try identities.document.load(),
        identity.replica == device.replica.rawValue
      else { return }
      if case .record(let anchor) = try replicaFolders.anchorCheck(
        of: identity, machine: Self.machine)
      {
        identity = try identities.record(anchor, in: identity)
      }
      if try replicaFolders.claim(of: identity) == .unclaimed {
        try replicaFolders.writeClaim(identity)
      }
    }
  }
}

extension DeviceContext {
  /// The identity to share a store with that has no `replicas/` folder: a new one (new id,
  /// token and anchor) when this identity made a folder `replicas/<id>/` at this path before,
  /// since that folder is gone with the earlier store (restored from a copy made before it was
  /// shared, or made anew) while other devices may still hold its log; else this one. A
  /// chosen `$OFFLOAD_REPLICA_ID` (a reproducible run) is kept.
  ///
  /// - Parameters:
  ///   - identity: The identity kept for the store's path.
  ///   - identities: Where it is kept.
  /// - Returns: The identity to use, saved; this one when it cannot be renewed.
  static func renewedIfStale(_ identity: DeviceIdentity, in identities: DeviceIdentityStore)
    -> DeviceIdentity
  {
    let chosen = ProcessInfo.processInfo.environment["OFFLOAD_REPLICA_ID"]
    guard identity.anchor?.folder != nil, chosen != identity.replica else { return identity }
    var generator = SystemRandomNumberGenerator()
    let replica = newReplicaID(avoiding: [identity.replica], using: &generator)
    return
      (try? identities.reassign(
        identity, replica: replica.rawValue,
        claim: String(UInt64.random(in: .min ... .max), radix: 16), machine: Workspace.machine))
      ?? identity
  }
}
