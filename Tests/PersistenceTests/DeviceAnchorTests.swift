import Foundation
import OffloadTestSupport
import Persistence
import Testing

/// A device's identity records the machine it was made on and the inode of the folder it
/// made, so an identity copied together with the store is told apart (decision 0010).
@Suite("Device anchors")
struct DeviceAnchorTests {
  /// A store with this device's folder made, and its identity with the anchor recorded.
  func madeStore(_ work: TemporaryDirectory, machine: String = "m1") throws -> (
    folders: ReplicaFolders, identities: DeviceIdentityStore, identity: DeviceIdentity
  ) {
    let store = work.appending("store")
    let folders = ReplicaFolders(store: store)
    let identities = DeviceIdentityStore(
      stateDirectory: work.appending("state"), storePath: store)
    var identity = try identities.loadOrCreate(
      name: "laptop", newReplicaID: { "k7q" }, newClaim: { "c0ffee" }, machine: machine)
    try folders.writeClaim(identity)
    let check = try folders.anchorCheck(of: identity, machine: machine)
    guard case .record(let anchor) = check else {
      Issue.record("a new folder is not recorded: \(check)")
      return (folders, identities, identity)
    }
    identity = try identities.record(anchor, in: identity)
    return (folders, identities, identity)
  }

  @Test("the folder this device made, on the machine it was made on, is its own")
  func sameFolderIsOurs() throws {
    let work = try TemporaryDirectory(prefix: "offload-anchor")
    let made = try madeStore(work)
    let loaded = try #require(try made.identities.document.load())
    #expect(loaded.anchor?.machine == "m1")
    let inode = try POSIXFileSystem().status(made.folders.folder(of: "k7q"), followingLinks: true)
      .inode
    #expect(loaded.anchor?.folder == inode)
    #expect(try made.folders.anchorCheck(of: loaded, machine: "m1") == .same)
    // A file written in the folder since changes nothing: the folder is the same one.
    try Data("x".utf8).write(to: URL(fileURLWithPath: made.folders.folder(of: "k7q") + "/ops"))
    #expect(try made.folders.anchorCheck(of: loaded, machine: "m1") == .same)
  }

  @Test("a store copied with its identity (cp -a) is a copy: the identity must move")
  func copiedStoreWithIdentityIsACopy() throws {
    let work = try TemporaryDirectory(prefix: "offload-anchor")
    let made = try madeStore(work)
    let copy = work.appending("copy")
    try FileManager.default.copyItem(atPath: made.folders.store, toPath: copy)
    // The identity copied to the copy's key, as a restored home folder brings it.
    let copied = DeviceIdentityStore(stateDirectory: work.appending("state"), storePath: copy)
    var identity = made.identity
    identity.store = copy
    try copied.document.save(identity)
    let loaded = try #require(try copied.document.load())
    let check = try ReplicaFolders(store: copy).anchorCheck(of: loaded, machine: "m1")
    guard case .copied(let reason) = check else {
      Issue.record("a copied folder passed as the same: \(check)")
      return
    }
    #expect(reason.contains("replicas/k7q/ is not the one it made"))
    // The original stays its device's own.
    #expect(try made.folders.anchorCheck(of: made.identity, machine: "m1") == .same)
  }

  @Test("an identity written before anchors decodes, gets one recorded and does not move")
  func identityWithoutAnchorIsRecorded() throws {
    let work = try TemporaryDirectory(prefix: "offload-anchor")
    let store = work.appending("store")
    let identities = DeviceIdentityStore(stateDirectory: work.appending("state"), storePath: store)
    // What a build before anchors wrote: no anchor field.
    let old = OldIdentity(replica: "k7q", claim: "c0ffee", name: "laptop", store: store)
    let oldFormat = DocumentFormat<OldIdentity>(
      name: DeviceIdentityStore.format.name, version: DeviceIdentityStore.format.version)
    let oldDocument = DocumentStore(path: identities.document.path, format: oldFormat)
    try FileManager.default.createDirectory(
      atPath: (identities.document.path as NSString).deletingLastPathComponent,
      withIntermediateDirectories: true)
    try oldDocument.save(old)
    let folders = ReplicaFolders(store: store)
    try folders.writeClaim(try #require(try identities.document.load()))
    let loaded = try #require(try identities.document.load())
    #expect(loaded.anchor == nil)
    let check = try folders.anchorCheck(of: loaded, machine: "m1")
    let inode = try POSIXFileSystem().status(folders.folder(of: "k7q"), followingLinks: true)
      .inode
    #expect(check == .record(DeviceAnchor(machine: "m1", folder: inode)))
    guard case .record(let anchor) = check else { return }
    let recorded = try identities.record(anchor, in: loaded)
    #expect(recorded.replica == "k7q" && recorded.claim == "c0ffee")
    #expect(try folders.anchorCheck(of: recorded, machine: "m1") == .same)
    // And a build before anchors still reads the file with one.
    #expect(try oldDocument.load() == old)
  }

  @Test("an identity made on another machine is a copy, whether or not its folder exists")
  func otherMachineIsACopy() throws {
    let work = try TemporaryDirectory(prefix: "offload-anchor")
    let made = try madeStore(work)
    let check = try made.folders.anchorCheck(of: made.identity, machine: "m2")
    guard case .copied(let reason) = check else {
      Issue.record("another machine passed: \(check)")
      return
    }
    #expect(reason.contains("made on another machine"))
    var unwritten = made.identity
    unwritten.replica = "b2c"
    unwritten.anchor = DeviceAnchor(machine: "m1")
    #expect(try made.folders.anchorCheck(of: unwritten, machine: "m1") == .same)
    guard case .copied = try made.folders.anchorCheck(of: unwritten, machine: "m2") else {
      Issue.record("another machine passed before the folder was made")
      return
    }
  }

  @Test("a folder gone since it was made means the store came back from an earlier copy")
  func goneFolderIsACopy() throws {
    let work = try TemporaryDirectory(prefix: "offload-anchor")
    let made = try madeStore(work)
    try FileManager.default.removeItem(atPath: made.folders.folder(of: "k7q"))
    let check = try made.folders.anchorCheck(of: made.identity, machine: "m1")
    guard case .copied(let reason) = check else {
      Issue.record("a gone folder passed: \(check)")
      return
    }
    #expect(reason.contains("replicas/k7q/ it made is gone"))
  }

  @Test("the check costs one status call and writes nothing")
  func checkIsOneStatus() throws {
    let work = try TemporaryDirectory(prefix: "offload-anchor")
    let made = try madeStore(work)
    let counting = FaultInjectingFileSystem()
    let folders = ReplicaFolders(store: made.folders.store, fileSystem: counting)
    _ = try folders.anchorCheck(of: made.identity, machine: "m1")
    #expect(counting.operations.count == 1, "\(counting.operations)")
    #expect(counting.operations.first?.hasPrefix("stat ") == true, "\(counting.operations)")
  }

  @Test("device.json in the synced folder never carries the anchor")
  func deviceRecordHasNoAnchor() throws {
    let work = try TemporaryDirectory(prefix: "offload-anchor")
    let made = try madeStore(work)
    try made.folders.writeClaim(made.identity)
    let bytes = try String(
      contentsOfFile: made.folders.folder(of: "k7q") + "/device.json", encoding: .utf8)
    #expect(!bytes.contains("anchor") && !bytes.contains("m1"), "\(bytes)")
    #expect(try made.folders.claim(of: made.identity) == .ours)
  }

  @Test("the machine digest is 16 hex digits, stable, and falls back to the host name")
  func machineDigest() {
    let digest = MachineIdentity.digest()
    #expect(digest.count == 16 && digest.allSatisfy(\.isHexDigit), "\(digest)")
    #expect(MachineIdentity.digest() == digest)
    #expect(!MachineIdentity.isHostName(digest))
    let unreadable = FaultInjectingFileSystem(failingOperation: 1, crashes: true)
    let a = MachineIdentity.digest(fileSystem: unreadable, hostName: { "alpha" })
    let b = MachineIdentity.digest(fileSystem: unreadable, hostName: { "beta" })
    #expect(a != b && a.count == 21 && MachineIdentity.isHostName(a))
    #expect(MachineIdentity.digest(fileSystem: unreadable, hostName: { "alpha" }) == a)
  }

  /// A machine known by its host name alone can be renamed (macOS does it as a laptop joins
  /// networks): the folder decides, and the new name is recorded.
  @Test("a renamed host keeps its identity when its folder is the one it made")
  func renamedHostKeepsItsIdentity() throws {
    let alpha = "host-0123456789abcdef"
    let beta = "host-fedcba9876543210"
    let status = FileStatus(
      kind: .directory, device: 1, inode: 42, size: 0, owner: 0, permissions: 0o755,
      modified: .init(seconds: 0, nanoseconds: 0))
    func check(recorded: DeviceAnchor, machine: String, inode: UInt64?) -> DeviceAnchorCheck {
      var found = status
      found.inode = inode ?? 0
      return DeviceAnchor.check(
        recorded: recorded, machine: machine, replica: "k7q", folder: inode == nil ? nil : found)
    }
    let made = DeviceAnchor(machine: alpha, folder: 42)
    #expect(
      check(recorded: made, machine: beta, inode: 42)
        == .record(DeviceAnchor(machine: beta, folder: 42)))
    guard case .copied = check(recorded: made, machine: beta, inode: 43) else {
      Issue.record("a copied folder on a renamed host must move")
      return
    }
    // A machine id against a host name, either way round, is judged by the folder too.
    #expect(
      check(
        recorded: DeviceAnchor(machine: "0123456789abcdef", folder: 42), machine: beta, inode: 42)
        == .record(DeviceAnchor(machine: beta, folder: 42)))
    // No folder to judge by yet: the new name is recorded, nothing moves.
    #expect(
      check(recorded: DeviceAnchor(machine: alpha), machine: beta, inode: nil)
        == .record(DeviceAnchor(machine: beta)))
    // Two machine ids that differ still mean another machine, whatever the folder says.
    guard
      case .copied = check(
        recorded: DeviceAnchor(machine: "0123456789abcdef", folder: 42),
        machine: "fedcba9876543210", inode: 42)
    else {
      Issue.record("another machine id must move")
      return
    }
  }
}

/// An identity as builds before anchors wrote and read it.
private struct OldIdentity: Codable, Equatable {
  var replica: String
  var claim: String
  var name: String
  var store: String
}
