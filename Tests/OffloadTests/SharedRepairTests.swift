import Foundation
import OffloadTestSupport
import Testing

@testable import Offload

/// In a shared store the files `store repair` mends are this device's cache of the merged
/// logs, so what a damaged cache file held comes back from the logs rather than being lost.
@Suite("Repair of a shared store's cache")
struct SharedRepairTests {
  @Test("A truncated collection file of a shared store keeps every item after repair")
  func truncatedCollectionFileComesBackFromTheLogs() throws {
    let folder = try TemporaryDirectory(prefix: "offload-shared-repair")
    defer { _ = folder }
    let state = folder.appending("state")
    let laptop = try Workspace(root: folder.appending("laptop"), stateDirectory: state).share()
    try laptop.createCollection(named: "Trip", kind: .plan)
    let texts = ["Hotel", "Tickets", "Pack", "Passport", "Tent", "Towel"]
    for text in texts { try laptop.addItem(to: "Trip", text: text) }
    let id = try #require(try laptop.collections().first { $0.name == "Trip" }?.id)
    let file = laptop.cacheRoot + "/collections/" + id.rawValue + ".json"
    let whole = try #require(FileManager.default.contents(atPath: file))
    // Cut the file mid-record, as a crash of the disk or a careless edit would.
    try whole.prefix(whole.count / 3).write(to: URL(fileURLWithPath: file))
    #expect(!(try laptop.verify().isClean))

    let (report, backup) = try laptop.repair()
    #expect(!report.isClean)
    #expect(backup != nil)
    let shown = try laptop.tree(of: "Trip").collection.items.map(\.text)
    #expect(shown == texts)
    let verified = try laptop.verify()
    #expect(verified.isClean)
    #expect(verified.items == texts.count)
    // A second repair finds nothing, and a change after it keeps every item.
    #expect(try laptop.repair().backup == nil)
    try laptop.addItem(to: "Trip", text: "Sunscreen")
    #expect(try laptop.tree(of: "Trip").collection.items.map(\.text) == texts + ["Sunscreen"])
  }
}
