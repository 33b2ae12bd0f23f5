import Persistence
import Replication

extension DeviceContext {
  /// Keeps `replica` as this device's identity for a store that has none yet, so a run that
  /// makes several devices at once can fix their ids (a store opened afterwards takes it).
  ///
  /// - Parameters:
  ///   - replica: The replica id to keep.
  ///   - store: The store's folder.
  ///   - state: The device's state folder.
  /// - Throws: ``PersistenceError`` when the identity cannot be read or written.
  static func adopt(_ replica: ReplicaID, store: String, state: String) throws(PersistenceError) {
    let identities = DeviceIdentityStore(stateDirectory: state, storePath: identityPath(store))
    _ = try identities.loadOrCreate(
      name: deviceName(), newReplicaID: { replica.rawValue },
      newClaim: { String(UInt64.random(in: .min ... .max), radix: 16) })
  }
}
