import Foundation
import OffloadTestSupport
import Testing

@testable import Persistence

@Suite("Replica folders: own log, other devices' logs, identity")
struct ReplicaFoldersTests {
  let folder: TemporaryDirectory
  init() throws { folder = try TemporaryDirectory(prefix: "offload-replicas") }

  func appendSwipes(_ store: String, replica: String, count: Int) throws -> String {
    let journal: JSONLinesJournal<Swipe, Deck> = try ReplicaFolders(store: store)
      .openOwnLog(replica: replica, format: deckFormat)
    for photo in 0..<count { try journal.append(Swipe(photo: photo, decision: "keep")) }
    let path = journal.journalPath
    try journal.close()
    return path
  }

  @Test func theOwnLogLivesInTheDevicesFolderAndKeepsItsEntries() throws {
    let store = folder.appending("store")
    let path = try appendSwipes(store, replica: "k7q", count: 3)
    #expect(path == store + "/replicas/k7q/ops.0.jsonl")
    let journal: JSONLinesJournal<Swipe, Deck> = try ReplicaFolders(store: store)
      .openOwnLog(replica: "k7q", format: deckFormat)
    #expect(journal.recovered.entries.map(\.entry.photo) == [0, 1, 2])
    try journal.close()
  }

  @Test func aHalfCopiedLastLineWaitsUntilItIsWhole() throws {
    let laptop = folder.appending("laptop")
    let phone = folder.appending("phone")
    let source = try appendSwipes(laptop, replica: "a1b", count: 3)
    _ = try appendSwipes(phone, replica: "k7q", count: 1)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
    let copy = phone + "/replicas/a1b/ops.0.jsonl"
    try FileManager.default.createDirectory(
      atPath: phone + "/replicas/a1b", withIntermediateDirectories: true)
    // The sync engine has copied all but the last 10 bytes.
    try bytes.prefix(bytes.count - 10).write(to: URL(fileURLWithPath: copy))
    let folders = ReplicaFolders(store: phone)
    let before = try folderDigest(phone + "/replicas/a1b")
    let partial: [ReplicaLogRead<Swipe, Deck>] = folders.readLogs(
      except: "k7q", format: deckFormat)
    #expect(partial.map(\.replica) == ["a1b"])
    #expect(partial[0].contents?.entries.map(\.entry.photo) == [0, 1])
    #expect(partial[0].problem?.hasPrefix("a1b's log: line 4 is not whole yet") == true)
    #expect(try folderDigest(phone + "/replicas/a1b") == before, "reading wrote nothing")
    try bytes.write(to: URL(fileURLWithPath: copy))
    let whole: [ReplicaLogRead<Swipe, Deck>] = folders.readLogs(
      except: "k7q", format: deckFormat)
    #expect(whole[0].contents?.entries.map(\.entry.photo) == [0, 1, 2])
    #expect(whole[0].problem == nil)
  }

  @Test func aLogInANewerFormatIsNamedAndLeftOut() throws {
    let store = folder.appending("store")
    let newer = DocumentFormat<Deck>(name: "test.deck", version: 2)
    let journal = try JSONLinesJournal<Swipe, Deck>.open(
      directory: store + "/replicas/zz9", name: "ops", format: newer)
    try journal.append(Swipe(photo: 1, decision: "trash"))
    try journal.close()
    let reads: [ReplicaLogRead<Swipe, Deck>] = ReplicaFolders(store: store).readLogs(
      except: "k7q", format: deckFormat)
    #expect(reads.count == 1 && reads[0].contents == nil)
    let problem = try #require(reads[0].problem)
    #expect(problem.contains("replicas/zz9/ops.0.jsonl was written by a newer version"))
    #expect(!problem.contains("\n"))
  }

  @Test func filesASyncEngineLeavesAreIgnored() throws {
    let store = folder.appending("store")
    _ = try appendSwipes(store, replica: "k7q", count: 1)
    for name in [
      ".stfolder", ".stignore", ".syncthing.ops.0.jsonl.tmp",
      "a1b.sync-conflict-20261127-064500-ABCDEFG", "~syncthing~x.tmp", "Notes.txt",
    ] {
      FileManager.default.createFile(atPath: store + "/replicas/" + name, contents: Data())
    }
    #expect(try ReplicaFolders(store: store).replicaIDs() == ["k7q"])
    for name in ["ops.0.sync-conflict-20261127-064500-X.jsonl", ".dropbox.cache", "a.icloud"] {
      #expect(ReplicaFolders.isSyncEngineFile(name), "\(name)")
    }
    #expect(!ReplicaFolders.isSyncEngineFile("ops.0.jsonl"))
  }

  @Test func theIdentityLivesOutsideTheStoreAndACopyIsANewDevice() throws {
    let state = folder.appending("state")
    var counter = 0
    func make(_ store: String) throws -> DeviceIdentity {
      try DeviceIdentityStore(stateDirectory: state, storePath: store).loadOrCreate(
        name: "laptop",
        newReplicaID: {
          counter += 1
          return "r0\(counter)"
        }, newClaim: { "token\(counter)" })
    }
    let first = try make(folder.appending("store"))
    #expect(try make(folder.appending("store")) == first)
    let copy = try make(folder.appending("copy-of-store"))
    #expect(copy.replica != first.replica)
    #expect(!FileManager.default.fileExists(atPath: folder.appending("store/replicas")))
  }

  @Test func twoDevicesClaimingOneIdentityAreDetected() throws {
    let store = folder.appending("store")
    let folders = ReplicaFolders(store: store)
    let mine = DeviceIdentity(replica: "k7q", claim: "aaaa", name: "laptop", store: store)
    #expect(try folders.claim(of: mine) == .unclaimed)
    try folders.writeClaim(mine)
    #expect(try folders.claim(of: mine) == .ours)
    // A second machine restored from the same home folder writes its own token.
    let clone = DeviceIdentity(replica: "k7q", claim: "bbbb", name: "desktop", store: store)
    try folders.writeClaim(clone)
    #expect(try folders.claim(of: mine) == .claimedByAnotherDevice(name: "desktop"))
    let identities = DeviceIdentityStore(
      stateDirectory: folder.appending("state"), storePath: store)
    let moved = try identities.reassign(mine, replica: "m2n", claim: "cccc")
    try folders.writeClaim(moved)
    #expect(try folders.claim(of: moved) == .ours)
    #expect(try folders.replicaIDs() == ["k7q", "m2n"])
  }
}
