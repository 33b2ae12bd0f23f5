import Foundation
import OffloadTestSupport
import Testing

@testable import Offload
@testable import OffloadWeb

/// The organize channel's checkpoints wait for the page to be still: a stroke's end schedules
/// one after a quiet spell, a stroke's beginning puts it off, and a long run of changes
/// without a pause checkpoints at once.
@Suite("QuietCheckpoint: the store's bookkeeping waits for a still page")
struct QuietCheckpointTests {
  static func tail(_ workspace: Workspace) throws -> Int {
    let journal = try workspace.openJournal()
    defer { try? journal.close() }
    return try workspace.state(from: journal.recovered).tail.count
  }

  /// A store whose journal holds at least `changes` changes past its checkpoint (due from
  /// 32), and how many it holds.
  func store(changes: Int) throws -> (OrganizeServiceTests.Store, Int) {
    let store = try OrganizeServiceTests.Store()
    let before = try Self.tail(store.workspace)
    let deferring = store.workspace.deferringCheckpoints()
    for number in 1...changes { try deferring.addItem(to: "House", text: "Task \(number)") }
    let tail = try Self.tail(store.workspace)
    #expect(tail == before + changes)
    return (store, tail)
  }

  /// Waits up to two seconds for the tail to reach `count`.
  func eventually(_ workspace: Workspace, tail count: Int) async throws -> Bool {
    for _ in 0..<200 {
      if try Self.tail(workspace) == count { return true }
      try await Task.sleep(for: .milliseconds(10))
    }
    return false
  }

  @Test("a stroke's end checkpoints after the quiet spell; a new stroke puts it off")
  func waitsForQuiet() async throws {
    let (store, tail) = try store(changes: 40)
    defer { store.folder.remove() }
    let checkpoint = QuietCheckpoint(service: store.service, quiet: .milliseconds(300))
    checkpoint.strokeEnded()
    try await Task.sleep(for: .milliseconds(100))
    checkpoint.strokeBegan()  // the person drags again within the quiet spell
    try await Task.sleep(for: .milliseconds(500))
    #expect(try Self.tail(store.workspace) == tail, "checkpointed during a stroke")
    checkpoint.strokeEnded()
    #expect(try await eventually(store.workspace, tail: 0))
  }

  @Test("changes without a pause checkpoint at the cap, after the answer")
  func capChecks() async throws {
    let (store, tail) = try store(changes: QuietCheckpoint.cap)
    defer { store.folder.remove() }
    let checkpoint = QuietCheckpoint(service: store.service, quiet: .seconds(60))
    for _ in 1..<QuietCheckpoint.cap {
      checkpoint.strokeBegan()
      await checkpoint.changed()
    }
    #expect(try Self.tail(store.workspace) == tail)
    await checkpoint.changed()
    #expect(try Self.tail(store.workspace) == 0)
  }

  @Test("a page that leaves runs the checkpoint still waiting")
  func closeRunsIt() async throws {
    let (store, _) = try store(changes: 40)
    defer { store.folder.remove() }
    let checkpoint = QuietCheckpoint(service: store.service, quiet: .seconds(60))
    checkpoint.strokeEnded()
    await checkpoint.close()
    #expect(try Self.tail(store.workspace) == 0)
  }
}
