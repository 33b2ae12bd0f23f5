import Foundation
import OffloadTestSupport
import Testing

@testable import Offload

/// A truncated collection file loses nothing `store repair` can find elsewhere: in a shared
/// store the files are this device's cache of the merged logs, so what it held comes back from
/// the logs; in a store of one device, items its last checkpoint held come back from the undo
/// history's newest record of each.
@Suite("Repair of a truncated collection file")
struct CollectionRepairTests {
  /// Cuts a collection's file to a third, mid-record, with no spare copy beside it.
  func truncate(_ workspace: Workspace, _ name: String) throws {
    let id = try #require(try workspace.collections().first { $0.name == name }?.id)
    let folder = workspace.cacheRoot + "/collections/"
    let file = folder + id.rawValue + ".json"
    for spare in try FileManager.default.contentsOfDirectory(atPath: folder)
    where spare.hasPrefix(id.rawValue + ".json.") {
      try FileManager.default.removeItem(atPath: folder + spare)
    }
    let whole = try #require(FileManager.default.contents(atPath: file))
    try whole.prefix(whole.count / 3).write(to: URL(fileURLWithPath: file))
  }

  @Test("A store of one device brings a checkpointed plan's items back from the history")
  func truncatedCollectionFileComesBackFromTheHistory() throws {
    let folder = try TemporaryDirectory(prefix: "offload-repair-history")
    defer { _ = folder }
    let workspace = Workspace(root: folder.appending("store"))
    try workspace.createCollection(named: "Trip", kind: .plan)
    // More changes than a checkpoint takes, so the file holds most items and the journal few.
    let texts = (1...(Workspace.checkpointChanges + 8)).map { "thing \($0)" }
    for text in texts { try workspace.addItem(to: "Trip", text: text) }
    let third = try workspace.tree(of: "Trip").collection.items[2].id
    try workspace.editText(third, to: "renamed")
    var expected = texts
    expected[2] = "renamed"
    let before = try workspace.tree(of: "Trip").rows().map(\.item.text)
    #expect(before == expected, "\(before)")
    try truncate(workspace, "Trip")
    #expect(!(try workspace.verify().isClean))

    _ = try workspace.repair()
    let repaired = try workspace.tree(of: "Trip").rows().map(\.item.text)
    #expect(repaired == expected, "\(repaired)")
    #expect(try workspace.verify().isClean)
    #expect(try workspace.repair().backup == nil)
  }

  @Test("A truncated collection file of a shared store keeps every item after repair")
  func truncatedCollectionFileComesBackFromTheLogs() throws {
    let folder = try TemporaryDirectory(prefix: "offload-shared-repair")
    defer { _ = folder }
    let state = folder.appending("state")
    let laptop = try Workspace(root: folder.appending("laptop"), stateDirectory: state).share()
    try laptop.createCollection(named: "Trip", kind: .plan)
    let texts = ["Hotel", "Tickets", "Pack", "Passport", "Tent", "Towel"]
    for text in texts { try laptop.addItem(to: "Trip", text: text) }
    try truncate(laptop, "Trip")
    #expect(!(try laptop.verify().isClean))

    let (report, backup) = try laptop.repair()
    #expect(!report.isClean)
    #expect(backup != nil)
    let shown = try laptop.tree(of: "Trip").rows().map(\.item.text)
    #expect(shown == texts)
    let verified = try laptop.verify()
    #expect(verified.isClean)
    #expect(verified.items == texts.count)
    // A second repair finds nothing, and a change after it keeps every item.
    #expect(try laptop.repair().backup == nil)
    try laptop.addItem(to: "Trip", text: "Sunscreen")
    #expect(try laptop.tree(of: "Trip").rows().map(\.item.text) == texts + ["Sunscreen"])
  }
}
