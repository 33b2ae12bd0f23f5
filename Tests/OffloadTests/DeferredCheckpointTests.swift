import Foundation
import OffloadTestSupport
import Persistence
import Testing

@testable import Offload

/// `Workspace.deferringCheckpoints()` and `checkpointIfDue()`: a change answers once its
/// journal line is durable, the checkpoint comes after, and nothing a reader sees depends on
/// when it comes.
@Suite("Workspace: checkpoints deferred to after the answer")
struct DeferredCheckpointTests {
  /// The journal's tail: the committed changes the checkpoint files do not hold yet.
  static func tail(_ workspace: Workspace) throws -> Int {
    let journal = try workspace.openJournal()
    defer { try? journal.close() }
    return try workspace.state(from: journal.recovered).tail.count
  }

  @Test("deferred changes keep their tail until checkpointIfDue, which then empties it once")
  func tailWaitsForTheCheckpoint() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    try workspace.createCollection(named: "Plan", kind: .plan)  // the store's first checkpoint
    #expect(try Self.tail(workspace) == 0)
    #expect(try workspace.checkpointIfDue() == false)
    let deferring = workspace.deferringCheckpoints()
    for number in 1...40 { try deferring.addItem(to: "Plan", text: "Step \(number)") }
    // Without deferring, the 32nd change would have checkpointed.
    #expect(try Self.tail(workspace) == 40)
    let before = try snapshot(workspace)
    #expect(try deferring.checkpointIfDue())
    #expect(try Self.tail(workspace) == 0)
    #expect(try snapshot(workspace) == before)
    #expect(try workspace.checkpointIfDue() == false)
    #expect(try workspace.history(limit: 100).count == 41)
  }

  @Test("a store without a checkpoint takes its first one at its first change, deferred or not")
  func firstChangeStillCheckpoints() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    #expect(try workspace.checkpointIfDue() == false)  // no store yet: nothing to do
    try workspace.deferringCheckpoints().capture("Call the plumber")
    #expect(try Self.tail(workspace) == 0)
    #expect(FileManager.default.fileExists(atPath: workspace.indexPath))
  }

  @Test("a workspace that does not defer checkpoints a long tail another left behind")
  func ordinaryChangeCatchesUp() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    try workspace.createCollection(named: "Groceries", kind: .list)
    let deferring = workspace.deferringCheckpoints()
    for number in 1...35 { try deferring.addItem(to: "Groceries", text: "Item \(number)") }
    #expect(try Self.tail(workspace) == 35)
    try workspace.capture("Buy stamps")
    #expect(try Self.tail(workspace) == 0)
  }

  @Test(
    "seeded runs: deferred changes and checkpoints at random give the same store as plain changes",
    arguments: 0..<8)
  func sameStoreEitherWay(seed: UInt64) throws {
    let (plain, plainFolder) = try makeWorkspace()
    defer { plainFolder.remove() }
    let (second, otherFolder) = try makeWorkspace()
    defer { otherFolder.remove() }
    // The same device in both folders, so both hand out the same ids.
    try plain.shareIdentity(with: second.root)
    let other = Workspace(root: second.root, historyLimit: 1_000, now: second.now)
    var random = SplitMix64(seed: seed)
    for workspace in [plain, other] { try workspace.createCollection(named: "Plan", kind: .plan) }
    let deferring = other.deferringCheckpoints()
    var longest = 0
    for step in 0..<70 {
      let choice = random.next() % 10
      let rows = try plain.tree(of: "Plan").rows()
      let picked = rows.isEmpty ? nil : rows[Int(random.next() % UInt64(rows.count))]
      for workspace in [plain, deferring] {
        switch (choice, picked) {
        case (0...4, let row?):
          try workspace.moveItem(row.item.id.rawValue, to: .firstRoot)
        case (5, let row?):
          try workspace.setDone(ItemSelection(terms: [.id(row.item.id.rawValue)]), in: "Plan", true)
        default:
          try workspace.addItem(to: "Plan", text: "Step \(step)")
        }
      }
      longest = max(longest, try Self.tail(deferring))
      if random.next() % 16 == 0 { try deferring.checkpointIfDue() }
      if step % 10 == 9 { #expect(try snapshot(deferring) == snapshot(plain), "step \(step)") }
    }
    // The tail did grow past the point where a change would have checkpointed.
    #expect(longest >= Workspace.checkpointChanges)
    try deferring.checkpointIfDue()
    #expect(try snapshot(deferring) == snapshot(plain))
    #expect(
      try deferring.history(limit: 1_000).map(\.summary)
        == plain.history(limit: 1_000).map(\.summary))
  }

  @Test("a checkpoint that fails at any file operation changes nothing a reader sees")
  func failedCheckpointLosesNothing() throws {
    // Two live history entries, so the checkpoint writes a handful of files, not 33.
    let folder = try TemporaryDirectory(prefix: "offload-checkpoint-faults")
    defer { folder.remove() }
    let workspace = Workspace(root: folder.appending("store"), historyLimit: 2)
    try workspace.createCollection(named: "Plan", kind: .plan)
    let deferring = workspace.deferringCheckpoints()
    for number in 1...33 { try deferring.addItem(to: "Plan", text: "Step \(number)") }
    let before = try snapshot(workspace)
    let dry = FaultInjectingFileSystem()
    // Count the operations of the checkpoint on a copy, so the store itself keeps its tail.
    let copy = folder.appending("copy")
    try FileManager.default.copyItem(atPath: workspace.root, toPath: copy)
    try workspace.shareIdentity(with: copy)
    #expect(try Workspace(root: copy, fileSystem: dry).checkpointIfDue())
    #expect(dry.operationCount > 10)
    var failures = 0
    for operation in 1...dry.operationCount {
      let trial = folder.appending("trial-\(operation)")
      try FileManager.default.copyItem(atPath: workspace.root, toPath: trial)
      try workspace.shareIdentity(with: trial)
      let faulty = FaultInjectingFileSystem(failingOperation: operation, crashes: true)
      do throws(WorkspaceError) {
        _ = try Workspace(root: trial, fileSystem: faulty).checkpointIfDue()
      } catch {
        failures += 1
      }
      let reader = Workspace(root: trial)
      #expect(try snapshot(reader) == before, "fault at operation \(operation)")
      #expect(try reader.checkpointIfDue() || Self.tail(reader) == 0)
      #expect(try snapshot(reader) == before, "after the retry, fault at \(operation)")
      try FileManager.default.removeItem(atPath: trial)
    }
    #expect(failures > 0)
  }
}
