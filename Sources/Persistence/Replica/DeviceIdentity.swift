import Foundation

/// Which device this is for one store: kept outside the synced folder, so a copied store
/// becomes a new device and two copies of a store on one machine are two devices.
///
/// ``DeviceIdentityStore/loadOrCreate(name:newReplicaID:newClaim:machine:)`` makes and saves
/// a store's identity; ``DeviceIdentityStore/reassign(_:replica:claim:machine:)`` replaces it.
public struct DeviceIdentity: Codable, Sendable, Equatable {
  /// The device's replica id in this store.
  public var replica: String
  /// A random token this device also writes into its folder's `device.json`; another token
  /// there means another device writes as this replica id.
  public var claim: String
  /// The device's name for people ("laptop").
  public var name: String
  /// The store's real path this identity belongs to.
  public var store: String
  /// The machine the identity was made on and the inode of the folder it made, so a copy of
  /// the identity made with the store is told apart; `nil` in identity files written before
  /// anchors (the first open records it) and in `device.json`.
  public var anchor: DeviceAnchor?
}

/// What a device's folder says about who writes it.
public enum ReplicaClaim: Sendable, Equatable {
  /// The folder's `device.json` holds this device's token.
  case ours
  /// The folder has no `device.json` yet.
  case unclaimed
  /// Another device wrote its token there (a copied identity): take a new replica id.
  case claimedByAnotherDevice(name: String)
}

/// Where a device keeps its identities: `<state>/offload/replicas/<key>.json`, one file per
/// store, keyed by the store's real path (the caller resolves symbolic links).
public struct DeviceIdentityStore: Sendable {
  /// The document holding this store's identity.
  public let document: DocumentStore<DeviceIdentity>
  /// The store's real path.
  public let storePath: String

  /// The format of identity files and of `device.json`.
  public static let format = DocumentFormat<DeviceIdentity>(name: "offload.device", version: 1)

  /// An identity store for one store; nothing is read or written until asked.
  ///
  /// - Parameters:
  ///   - stateDirectory: The device's state folder (`$XDG_STATE_HOME`, else
  ///     `~/.local/state`), outside any synced folder.
  ///   - storePath: The store's real path.
  ///   - fileSystem: The file operations; the real ones by default.
  public init(
    stateDirectory: String, storePath: String, fileSystem: any FileSystem = POSIXFileSystem()
  ) {
    self.storePath = storePath
    let folder = PathName.join(PathName.join(stateDirectory, "offload"), "replicas")
    let path = PathName.join(folder, Self.key(for: storePath) + ".json")
    document = DocumentStore(path: path, format: Self.format, fileSystem: fileSystem)
  }

  /// The file name for a store path: FNV-1a 64 of the path in hex, after the folder's name.
  static func key(for path: String) -> String {
    let base = path.split(separator: "/").last.map(String.init) ?? "store"
    let safe = String(
      base.unicodeScalars.filter {
        $0.isASCII && ($0 == "-" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
      }.prefix(32))
    return (safe.isEmpty ? "store" : safe) + "-" + MachineIdentity.hex(MachineIdentity.fnv1a(path))
  }

  /// Creates the folder of the identity files.
  func makeFolder() throws(PersistenceError) {
    let path = document.path
    try document.fileSystem.makeDirectory(
      String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]))
  }

  /// This store's identity, made and saved on first use.
  ///
  /// - Parameters:
  ///   - name: The device's name, for a new identity.
  ///   - newReplicaID: Makes a fresh replica id.
  ///   - newClaim: Makes a fresh random token.
  ///   - machine: The digest of this machine's id (``MachineIdentity``), recorded in a new
  ///     identity's anchor; `nil` records none.
  /// - Returns: The identity.
  /// - Throws: ``PersistenceError`` from loading or saving the identity file.
  public func loadOrCreate(
    name: String, newReplicaID: () -> String, newClaim: () -> String, machine: String? = nil
  ) throws(PersistenceError) -> DeviceIdentity {
    if let identity = try document.load(), identity.store == storePath { return identity }
    try makeFolder()
    let identity = DeviceIdentity(
      replica: newReplicaID(), claim: newClaim(), name: name, store: storePath,
      anchor: machine.map { DeviceAnchor(machine: $0) })
    try document.save(identity)
    return identity
  }

  /// Replaces the identity (after a claim by another device, or when the identity turns out
  /// to be a copy): the old replica's log stays in the store as another device's, nothing in
  /// it lost.
  ///
  /// - Parameters:
  ///   - identity: The identity in use.
  ///   - replica: The new replica id.
  ///   - claim: A new random token.
  ///   - machine: The digest of this machine's id, the new identity's anchor (its folder is
  ///     recorded once made); `nil` records none.
  /// - Returns: The new identity, saved.
  /// - Throws: ``PersistenceError`` from saving.
  public func reassign(
    _ identity: DeviceIdentity, replica: String, claim: String, machine: String? = nil
  ) throws(PersistenceError) -> DeviceIdentity {
    var next = identity
    next.replica = replica
    next.claim = claim
    next.anchor = machine.map { DeviceAnchor(machine: $0) }
    try makeFolder()
    try document.save(next)
    return next
  }
}

extension ReplicaFolders {
  /// The `device.json` of a device's folder.
  func claimDocument(_ replica: String) -> DocumentStore<DeviceIdentity> {
    DocumentStore(
      path: PathName.join(folder(of: replica), "device.json"), format: DeviceIdentityStore.format,
      fileSystem: fileSystem)
  }

  /// The name and claim a device wrote into its folder's `device.json`, read without
  /// changing anything.
  ///
  /// - Parameter replica: The device's replica id.
  /// - Returns: What the device wrote, or `nil` when its folder has no `device.json` yet.
  /// - Throws: ``PersistenceError`` when `device.json` cannot be read.
  public func deviceRecord(of replica: String) throws(PersistenceError) -> DeviceIdentity? {
    try claimDocument(replica).read()
  }

  /// Who writes the identity's folder, read without changing anything.
  ///
  /// - Parameter identity: This device's identity.
  /// - Returns: ``ReplicaClaim/ours``, ``ReplicaClaim/unclaimed``, or the other device's name.
  /// - Throws: ``PersistenceError`` when `device.json` cannot be read.
  public func claim(of identity: DeviceIdentity) throws(PersistenceError) -> ReplicaClaim {
    guard let found = try claimDocument(identity.replica).read() else { return .unclaimed }
    return found.claim == identity.claim ? .ours : .claimedByAnotherDevice(name: found.name)
  }

  /// Writes this device's token into its folder's `device.json`.
  ///
  /// - Parameter identity: This device's identity.
  /// - Throws: ``PersistenceError`` from writing.
  public func writeClaim(_ identity: DeviceIdentity) throws(PersistenceError) {
    try fileSystem.makeDirectory(root)
    try fileSystem.makeDirectory(folder(of: identity.replica))
    var stored = identity
    stored.store = ""
    stored.anchor = nil  // this machine's, never in the synced folder
    try claimDocument(identity.replica).save(stored)
  }
}
