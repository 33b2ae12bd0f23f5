import Foundation
import OffloadTestSupport
import Testing

@testable import Offload

/// A store in a folder a sync engine carries becomes shared on its first open (decision 0010,
/// "Sharing on first open"); other stores are left as they are.
@Suite("Sharing on first open: stores in synced folders", .serialized)
struct AutoShareTests {
  /// A store folder `Sync/offload` (with `.stfolder` in `Sync` when `marked`) holding a list
  /// Trip of three items in the single-writer layout, and a device state folder.
  func singleWriterStore(marked: Bool) throws -> (TemporaryDirectory, Workspace) {
    let folder = try TemporaryDirectory(prefix: "offload-autoshare")
    if marked {
      try FileManager.default.createDirectory(
        atPath: folder.appending("Sync/.stfolder"), withIntermediateDirectories: true)
    }
    let root = folder.appending("Sync/offload")
    let plain = Workspace(root: root, stateDirectory: nil)
    try plain.createCollection(named: "Trip", kind: .list)
    for text in ["Hotel", "Tickets", "Pack"] { try plain.addItem(to: "Trip", text: text) }
    return (folder, Workspace(root: root, stateDirectory: folder.appending("state")))
  }

  func texts(_ workspace: Workspace) throws -> [String] {
    try workspace.tree(of: "Trip").rows().map(\.item.text)
  }

  /// Every file under `path` (relative path → bytes).
  func files(_ path: String) -> [String: Data] {
    var found: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: path)
    while let name = enumerator?.nextObject() as? String {
      if let data = FileManager.default.contents(atPath: path + "/" + name) { found[name] = data }
    }
    return found
  }

  @Test("a single-writer store under .stfolder is shared on its first open, items kept")
  func sharedOnFirstOpen() throws {
    let (folder, workspace) = try singleWriterStore(marked: true)
    defer { folder.remove() }
    #expect(!workspace.isShared)
    let opened = try workspace.sharedIfSynced(forChange: false)
    #expect(opened.workspace.isShared)
    #expect(
      opened.notice
        == "this store is now shared between devices, each writing its own log, because it "
        + "lies in a folder a sync engine carries: found Syncthing's .stfolder in "
        + folder.appending("Sync"))
    #expect(try texts(opened.workspace) == ["Hotel", "Tickets", "Pack"])
    #expect(try opened.workspace.verify().isClean)
    // The single-writer files moved to backups/; a new open sees the shared store, says
    // nothing and shares nothing again.
    let root = workspace.root
    #expect(!FileManager.default.fileExists(atPath: root + "/changes.snapshot.json"))
    let backups = try FileManager.default.contentsOfDirectory(atPath: root + "/backups")
    #expect(backups.count == 1 && backups[0].hasPrefix("single-writer-"))
    let before = files(root)
    let again = try Workspace(root: root, stateDirectory: folder.appending("state"))
      .sharedIfSynced(forChange: true)
    #expect(again.notice == nil && again.workspace.isShared)
    #expect(files(root) == before)
    // A change after it goes to this device's log.
    try again.workspace.addItem(to: "Trip", text: "Passport")
    #expect(try texts(again.workspace) == ["Hotel", "Tickets", "Pack", "Passport"])
  }

  @Test("a store no marker reveals stays single-writer, byte for byte; store share still shares")
  func unmarkedStoreIsLeftAlone() throws {
    let (folder, workspace) = try singleWriterStore(marked: false)
    defer { folder.remove() }
    let before = files(workspace.root)
    let opened = try workspace.sharedIfSynced(forChange: true)
    #expect(opened.notice == nil && !opened.workspace.isShared)
    #expect(files(workspace.root) == before)
    let shared = try opened.workspace.share()
    #expect(shared.isShared)
    #expect(try texts(shared) == ["Hotel", "Tickets", "Pack"])
  }

  @Test("a store shared already, and a workspace without a state folder, are untouched")
  func sharedOrStatelessUntouched() throws {
    let (folder, workspace) = try singleWriterStore(marked: true)
    defer { folder.remove() }
    // Without a state folder the store cannot have an identity: nothing happens.
    let stateless = Workspace(root: workspace.root, stateDirectory: nil)
    let before = files(workspace.root)
    let untouched = try stateless.sharedIfSynced(forChange: true)
    #expect(untouched.notice == nil && !untouched.workspace.isShared)
    #expect(files(workspace.root) == before)
    // Shared by hand first: the first open finds nothing to do.
    let shared = try workspace.share()
    let sharedFiles = files(workspace.root)
    let opened = try shared.sharedIfSynced(forChange: true)
    #expect(opened.notice == nil && opened.workspace.isShared)
    #expect(files(workspace.root) == sharedFiles)
  }

  @Test("no store yet: a read writes nothing, a change makes the new store shared")
  func newStoreInSyncedFolder() throws {
    let folder = try TemporaryDirectory(prefix: "offload-autoshare")
    defer { folder.remove() }
    try FileManager.default.createDirectory(
      atPath: folder.appending("Dropbox/.dropbox.cache"), withIntermediateDirectories: true)
    let root = folder.appending("Dropbox/lists/offload")
    let workspace = Workspace(root: root, stateDirectory: folder.appending("state"))
    let read = try workspace.sharedIfSynced(forChange: false)
    #expect(read.notice == nil && !read.workspace.isShared)
    #expect(!FileManager.default.fileExists(atPath: root))
    let change = try workspace.sharedIfSynced(forChange: true)
    #expect(
      change.notice?.hasSuffix("found Dropbox's .dropbox.cache in " + folder.appending("Dropbox"))
        == true)
    #expect(change.workspace.isShared)
    try change.workspace.createCollection(named: "Trip", kind: .list)
    try change.workspace.addItem(to: "Trip", text: "Hotel")
    #expect(try texts(change.workspace) == ["Hotel"])
    // Nothing of the single-writer layout was ever written at the store's root.
    let names = try FileManager.default.contentsOfDirectory(atPath: root)
    #expect(!names.contains { $0.hasPrefix("changes.") || $0 == "collections" })
  }

  /// Several threads of one process open the same store at once (each open file description
  /// takes its own `flock`, so they wait on each other as processes do): one shares it, the
  /// others wait on the lock and find it shared.
  @Test("opened at once by several openers, the store is shared once and holds its items once")
  func concurrentOpens() async throws {
    for round in 0..<5 {
      let (folder, workspace) = try singleWriterStore(marked: true)
      defer { folder.remove() }
      let openers = 4
      let results = try await withThrowingTaskGroup(of: (Bool, String?).self) { group in
        for _ in 0..<openers {
          group.addTask {
            let opened = try Workspace(
              root: workspace.root, stateDirectory: folder.appending("state")
            )
            .sharedIfSynced(forChange: true)
            return (opened.workspace.isShared, opened.notice)
          }
        }
        var all: [(Bool, String?)] = []
        for try await result in group { all.append(result) }
        return all
      }
      let shared = results.filter { $0.0 }.count
      let notices = results.compactMap { $0.1 }.count
      #expect(shared == openers, "round \(round)")
      #expect(notices == 1, "round \(round): \(results)")
      let reopened = Workspace(root: workspace.root, stateDirectory: folder.appending("state"))
      #expect(try texts(reopened) == ["Hotel", "Tickets", "Pack"], "round \(round)")
      let replicas = try FileManager.default.contentsOfDirectory(
        atPath: workspace.root + "/replicas")
      #expect(replicas.count == 1, "round \(round): \(replicas)")
      #expect(try reopened.verify().isClean, "round \(round)")
    }
  }

  /// The upgrade of a store both devices already had: each device's first open migrates its
  /// own copy of the same single-writer store before either log reaches the other. The two
  /// migrations create the same ids; the merge must show each item once.
  @Test("two devices that migrate copies of one single-writer store apart show each item once")
  func bothDevicesMigrateTheSameStore() throws {
    let (folder, laptop) = try singleWriterStore(marked: true)
    defer { folder.remove() }
    try FileManager.default.copyItem(
      atPath: folder.appending("Sync"), toPath: folder.appending("PhoneSync"))
    let phoneRoot = folder.appending("PhoneSync/offload")
    let phone = Workspace(root: phoneRoot, stateDirectory: folder.appending("phone-state"))
    let laptopShared = try laptop.sharedIfSynced(forChange: true).workspace
    let phoneShared = try phone.sharedIfSynced(forChange: true).workspace
    try laptopShared.addItem(to: "Trip", text: "Passport")
    try phoneShared.addItem(to: "Trip", text: "Sunscreen")
    for (from, to) in [(laptopShared, phoneShared), (phoneShared, laptopShared)] {
      try carryOwnFolder(from: from, to: to)
    }
    let onLaptop = try texts(laptopShared)
    let onPhone = try texts(phoneShared)
    #expect(onLaptop == onPhone)
    #expect(onLaptop.sorted() == ["Hotel", "Pack", "Passport", "Sunscreen", "Tickets"])
    #expect(try laptopShared.verify().isClean)
    #expect(try phoneShared.verify().isClean)
  }
}
