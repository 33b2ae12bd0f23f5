import Foundation
import Gestures
import Offload
import OffloadTestSupport
import Persistence
import Testing

@testable import OffloadWeb

/// The organize service keeps the store's state, its collections and their trees in memory
/// between changes (`Workspace.remembering()`): every answer it gives must still be what a
/// fresh read of the store gives, whatever another process changed in between, and the stamp
/// it keeps with a drop's view is taken before the store's lock is let go.
@Suite("OrganizeService: the collection kept in memory between changes")
struct OrganizeMemoryTests {
  /// What a process that keeps nothing reads: the page of `plan` and its version.
  static func fresh(_ root: String, _ plan: String) throws -> OrganizeShapes.Collection {
    let workspace = Workspace(root: root)
    let (tree, canUndo) = try workspace.treeAndUndo(of: "id:" + plan)
    return OrganizeService.view(of: tree, canUndo: canUndo)
  }

  /// A store with a plan of four steps of three tasks.
  static func store(_ root: String) throws -> String {
    let workspace = Workspace(root: root)
    let plan = try workspace.createCollection(named: "Plan", kind: .plan).id.rawValue
    for step in 0..<4 {
      let parent = try workspace.addItem(to: "Plan", text: "Step \(step)").id.rawValue
      for task in 0..<3 {
        _ = try workspace.addItem(
          to: "Plan", text: "Task \(step).\(task)", at: .lastChild(of: parent))
      }
    }
    return plan
  }

  @Test(
    "over seeded runs, drops, deletes and edits of the server interleaved with another process's changes, checkpoints and undos answer what a fresh read gives",
    arguments: 0..<8)
  func interleaved(seed: UInt64) async throws {
    let folder = try TemporaryDirectory(prefix: "offload-memory")
    defer { folder.remove() }
    let root = folder.appending("store")
    let plan = try Self.store(root)
    let service = OrganizeService(workspace: Workspace(root: root))
    var random = SplitMix64(seed: seed)
    for round in 0..<40 {
      let note = Comment(rawValue: "seed \(seed) round \(round)")
      // Another process: a workspace value of its own, keeping nothing.
      let other = Workspace(root: root)
      switch random.next() % 8 {
      case 0, 1, 2:
        guard let drop = try await OrganizeKnownVersionTests.allowedDrop(service, plan, &random)
        else { continue }
        let shown = random.next() % 2 == 0 ? try await service.load(plan).tree : nil
        let saved = try await service.drop(
          drop.target, moving: drop.id.rawValue, in: plan, version: drop.version, shown: shown)
        #expect(service.view(after: saved, of: plan) == (try Self.fresh(root, plan)), note)
      case 3:
        let shown = try await service.collection(plan)
        let row = shown.rows[Int(random.next() % UInt64(shown.rows.count))]
        let command = OrganizeCommand.Items(
          collection: plan, version: shown.version,
          action: .edit(id: row.id, text: "Edited \(round)"))
        let changed = try await service.changeItems(command)
        #expect(changed.view == (try Self.fresh(root, plan)), note)
      case 4:
        _ = try other.addItem(to: "Plan", text: "Added \(round)", at: .firstRoot)
      case 5:
        _ = try other.checkpointIfDue()
        let tree = try other.tree(of: "Plan")
        let id = try #require(tree.rows().last?.item.id)
        _ = try other.editText(id, to: "Elsewhere \(round)")
      case 6:
        await service.checkpointIfDue()
        if random.next() % 2 == 0 { _ = try other.undo() }
      default:
        let shown = try await service.collection(plan)
        if shown.rows.count > 8, let last = shown.rows.last {
          let (_, view, _) = try await service.remove(last.id, in: plan, version: shown.version)
          #expect(view == (try Self.fresh(root, plan)), note)
        }
      }
      // Whatever happened, the service's page and the feed's version are a fresh read's.
      let fresh = try Self.fresh(root, plan)
      #expect(try await service.collection(plan) == fresh, note)
      #expect(service.version(plan) == fresh.version, note)
      #expect(try await service.collections() == (try Self.collections(root)), note)
    }
    #expect(try Workspace(root: root).verify().problems.isEmpty)
  }

  /// The collections page as a process that keeps nothing reads it.
  static func collections(_ root: String) async throws -> OrganizeShapes.Collections {
    try await OrganizeService(workspace: Workspace(root: root)).collections()
  }

  @Test(
    "a change another process commits right after a drop lets go of the store's lock reaches the change feed"
  )
  func changeAfterTheLock() async throws {
    let folder = try TemporaryDirectory(prefix: "offload-memory")
    defer { folder.remove() }
    let root = folder.appending("store")
    let plan = try Self.store(root)
    let files = InterleavingFileSystem(lockSuffix: "/store.lock")
    let service = OrganizeService(workspace: Workspace(root: root, fileSystem: files))
    var random = SplitMix64(seed: 27)
    for round in 0..<4 {
      let drop = try #require(
        try await OrganizeKnownVersionTests.allowedDrop(service, plan, &random))
      let shown = try await service.load(plan).tree
      // The other process commits between the drop's release of the lock and anything after.
      files.armAfterRelease {
        _ = try? Workspace(root: root).addItem(to: "Plan", text: "Between \(round)")
      }
      let saved = try await service.drop(
        drop.target, moving: drop.id.rawValue, in: plan, version: drop.version, shown: shown)
      #expect(files.interleavings == round + 1)
      let view = service.view(after: saved, of: plan)
      let fresh = try Self.fresh(root, plan)
      #expect(view.version != fresh.version)
      #expect(service.version(plan) == fresh.version, "round \(round)")
      #expect(try await service.collection(plan) == fresh, "round \(round)")
    }
  }
}
