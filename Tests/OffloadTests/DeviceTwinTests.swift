import Foundation
import OffloadTestSupport
import Persistence
import Testing

@testable import Offload

/// Two devices claiming one identity: a store copied together with the device's identity (a
/// home folder restored on a second machine, a cloned disk) is told apart by the identity's
/// anchor, and the copy moves to a new replica id before it writes anything, nothing lost
/// (decision 0010).
@Suite("Two devices claiming one identity")
struct DeviceTwinTests {
  /// A shared store on device A with a plan of three items, and its twin B: the store copied
  /// (new folders, new inodes) with A's identity copied to the copy's key, as a restored home
  /// folder brings it.
  func twins() throws -> (TemporaryDirectory, a: Workspace, b: Workspace) {
    let work = try TemporaryDirectory(prefix: "offload-twin")
    let state = work.appending("state")
    let a = try Workspace(root: work.appending("a"), stateDirectory: state).share()
    try a.createCollection(named: "Trip", kind: .plan)
    for text in ["Pack", "Tent", "Passport"] { try a.addItem(to: "Trip", text: text) }
    try FileManager.default.copyItem(atPath: a.root, toPath: work.appending("b"))
    let source = DeviceIdentityStore(
      stateDirectory: state, storePath: DeviceContext.identityPath(a.root))
    let target = DeviceIdentityStore(
      stateDirectory: state, storePath: DeviceContext.identityPath(work.appending("b")))
    var identity = try #require(try source.document.load())
    identity.store = target.storePath
    try target.document.save(identity)
    return (work, a, Workspace(root: work.appending("b"), stateDirectory: state))
  }

  /// Trip's item texts, sorted, as a fresh open of the store shows them.
  func trip(_ workspace: Workspace) throws -> [String] {
    let fresh = Workspace(root: workspace.root, stateDirectory: workspace.stateDirectory)
    let state = try fresh.readState()
    let entry = try #require(state.index.collections.first { $0.name == "Trip" })
    return try fresh.loadCollection(entry, tail: state.tail).items.map(\.text).sorted()
  }

  @Test("the copy moves to a new id, the original keeps its own, and both see every change")
  func twinsConverge() throws {
    let (work, a, b) = try twins()
    defer { _ = work }
    let old = try #require(a.device?.replica.rawValue)
    #expect(b.device?.replica.rawValue == old)
    let (movedB, notice) = try b.claimingOwnFolder()
    let new = try #require(movedB.device?.replica.rawValue)
    #expect(new != old)
    let line = try #require(notice)
    #expect(line.contains("now writes as \(new) instead of \(old)"), "\(line)")
    #expect(line.contains("replicas/\(old)/ is not the one it made"), "\(line)")
    #expect(!line.contains("\n"))
    let (sameA, noticeA) = try a.claimingOwnFolder()
    #expect(noticeA == nil)
    #expect(sameA.device?.replica.rawValue == old)
    // Both work on after the copy.
    try sameA.addItem(to: "Trip", text: "Hotel")
    _ = try sameA.setDone(sameA.addItem(to: "Trip", text: "Map").id.rawValue, true)
    try movedB.addItem(to: "Trip", text: "Sunscreen")
    try movedB.addItem(to: "Trip", text: "Charger")
    // The move is made once: B's next open finds its new folder its own.
    let (again, noticeAgain) = try Workspace(root: b.root, stateDirectory: b.stateDirectory)
      .claimingOwnFolder()
    #expect(noticeAgain == nil)
    #expect(again.device?.replica.rawValue == new)
    // The sync engine carries each one's folders to the other.
    try carryOwnFolder(from: sameA, to: movedB)
    try carryOwnFolder(from: movedB, to: sameA)
    let everything = ["Charger", "Hotel", "Map", "Pack", "Passport", "Sunscreen", "Tent"]
    #expect(try trip(sameA) == everything)
    #expect(try trip(movedB) == everything)
    // Each device's log is written by one device only: A's under the old id, B's under the new.
    let devices = try sameA.devices()
    #expect(devices.first { $0.replica == new }?.changes == 2)
    #expect(devices.first { $0.isThisDevice }?.replica == old)
  }

  @Test("an identity whose machine differs moves; one without an anchor is recorded, not moved")
  func machineAndOldIdentity() throws {
    let (work, a, _) = try twins()
    defer { _ = work }
    let device = try #require(a.device)
    let identities = DeviceIdentityStore(
      stateDirectory: device.stateDirectory, storePath: DeviceContext.identityPath(a.root))
    var identity = try #require(try identities.document.load())
    #expect(identity.anchor?.machine == Workspace.machine)
    // Written before anchors: recorded on the next open, no move.
    identity.anchor = nil
    try identities.document.save(identity)
    let (kept, none) = try a.claimingOwnFolder()
    #expect(none == nil)
    #expect(kept.device?.replica == device.replica)
    let recorded = try #require(try identities.document.load()).anchor
    #expect(recorded?.machine == Workspace.machine && recorded?.folder != nil)
    // Made on another machine: moves.
    identity.anchor = DeviceAnchor(machine: "0123456789abcdef", folder: recorded?.folder)
    try identities.document.save(identity)
    let (moved, notice) = try a.claimingOwnFolder()
    #expect(moved.device?.replica != device.replica)
    #expect(notice?.contains("made on another machine") == true, "\(notice ?? "")")
    try moved.addItem(to: "Trip", text: "Hotel")
    #expect(try trip(moved) == ["Hotel", "Pack", "Passport", "Tent"])
  }

  @Test("a device's first change writes its name, so another device can retire it by name")
  func firstChangeWritesTheName() throws {
    let work = try TemporaryDirectory(prefix: "offload-twin")
    defer { _ = work }
    let laptop = try Workspace(root: work.appending("laptop"), stateDirectory: work.appending("l"))
      .share()
    try laptop.createCollection(named: "Trip", kind: .list)
    try FileManager.default.copyItem(atPath: laptop.root, toPath: work.appending("phone"))
    // Another state folder: another device, with its own name and id.
    let taken = try #require(laptop.device?.replica.rawValue)
    _ = try DeviceIdentityStore(
      stateDirectory: work.appending("p"),
      storePath: DeviceContext.identityPath(work.appending("phone"))
    ).loadOrCreate(
      name: "phone-one-change", newReplicaID: { taken == "zz9" ? "zz8" : "zz9" },
      newClaim: { "c0ffee" }, machine: Workspace.machine)
    let phone = Workspace(root: work.appending("phone"), stateDirectory: work.appending("p"))
    try phone.addItem(to: "Trip", text: "Sunscreen")
    let id = try #require(phone.device?.replica.rawValue)
    let record = try #require(try phone.replicaFolders.deviceRecord(of: id))
    #expect(record.name == "phone-one-change")
    try carryOwnFolder(from: phone, to: laptop)
    let retired = try laptop.retire("phone-one-change")
    #expect(retired.replica == id)
  }

  @Test("a store made anew where this device had written before is shared under a new id")
  func storeMadeAnewGetsANewID() throws {
    let work = try TemporaryDirectory(prefix: "offload-twin")
    defer { _ = work }
    let state = work.appending("state")
    let root = work.appending("store")
    let first = try Workspace(root: root, stateDirectory: state).share()
    let old = try #require(first.device?.replica)
    // Shared again without being made anew: the same device.
    #expect(try Workspace(root: root, stateDirectory: state).share().device?.replica == old)
    _ = try first.capture("Call the plumber")
    // The store is gone and made anew (or restored from a copy made before it was shared).
    try FileManager.default.removeItem(atPath: root)
    _ = try Workspace(root: root, stateDirectory: state).capture("Buy milk")
    let again = try Workspace(root: root, stateDirectory: state).share()
    let new = try #require(again.device?.replica)
    #expect(new != old)
    #expect(Workspace(root: root, stateDirectory: state).device?.replica == new)
    let (_, notice) = try again.claimingOwnFolder()
    #expect(notice == nil)
    #expect(try again.capture("Call the plumber").text == "Call the plumber")
  }
}
