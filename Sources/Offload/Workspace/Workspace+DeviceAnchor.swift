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
