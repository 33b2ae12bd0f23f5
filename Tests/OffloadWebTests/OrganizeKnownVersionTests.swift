import Foundation
import Gestures
import Offload
import OffloadTestSupport
import Testing

@testable import OffloadWeb

/// A drop answers with the view the change left without reading the store again, and the
/// change feed knows a collection's version from the service's memory only while nothing else
/// changed the store.
@Suite("OrganizeService: the view after a drop and the feed's remembered versions")
struct OrganizeKnownVersionTests {
  /// An allowed drop of one row of `collection`, chosen with `random`, or nil when none.
  static func allowedDrop(
    _ service: OrganizeService, _ collection: String, _ random: inout SplitMix64
  ) async throws -> (target: DropTarget<ShortID>, id: ShortID, version: String)? {
    let (tree, rules, version) = try await service.load(collection)
    let rows = tree.editor.dropRows()
    guard !rows.isEmpty else { return nil }
    for _ in 0..<20 {
      let row = rows[Int(random.next() % UInt64(rows.count))]
      let move = KeyboardMove.allCases[Int(random.next() % UInt64(KeyboardMove.allCases.count))]
      let target = DropTargetResolver.keyboardMove(
        move, of: row.id, in: rows, rules: rules.policy, configuration: rules.dropConfiguration)
      if !target.isBlocked { return (target, row.id, version) }
    }
    return nil
  }

  @Test(
    "over seeded runs of drops and other processes' changes, the view after a drop is the stored view and the feed's version is the store's",
    arguments: 0..<6)
  func knownVersions(seed: UInt64) async throws {
    let folder = try TemporaryDirectory(prefix: "offload-known")
    defer { folder.remove() }
    let root = folder.appending("store")
    let workspace = Workspace(root: root)
    let plan = try workspace.createCollection(named: "Plan", kind: .plan).id.rawValue
    var random = SplitMix64(seed: seed)
    for step in 0..<4 {
      let parent = try workspace.addItem(to: "Plan", text: "Step \(step)").id.rawValue
      for task in 0..<3 {
        _ = try workspace.addItem(
          to: "Plan", text: "Task \(step).\(task)", at: .lastChild(of: parent))
      }
    }
    let service = OrganizeService(workspace: workspace)
    // Another process: its own workspace value over the same folder.
    let other = Workspace(root: root)
    for round in 0..<12 {
      switch random.next() % 3 {
      case 0:
        guard let drop = try await Self.allowedDrop(service, plan, &random) else { continue }
        let saved = try await service.drop(
          drop.target, moving: drop.id.rawValue, in: plan, version: drop.version)
        let view = service.view(after: saved, of: plan)
        #expect(service.version(plan) == view.version, "seed \(seed) round \(round)")
        #expect(try await service.collection(plan) == view, "seed \(seed) round \(round)")
      case 1:
        _ = try other.addItem(to: "Plan", text: "Added \(round)")
      default:
        _ = try other.checkpointIfDue()
        _ = try other.addItem(to: "Plan", text: "Also \(round)", at: .firstRoot)
      }
      // Whatever happened, the feed's answer is the version a fresh read gives.
      let fresh = try OrganizeService.version(of: other.storedCollection("id:" + plan))
      #expect(service.version(plan) == fresh, "seed \(seed) round \(round)")
    }
  }

  @Test(
    "a swipe-delete answers with the stored view; a stale drop is refused and remembers nothing")
  func deleteAndStale() async throws {
    let folder = try TemporaryDirectory(prefix: "offload-known")
    defer { folder.remove() }
    let workspace = Workspace(root: folder.appending("store"))
    let list = try workspace.createCollection(named: "Groceries", kind: .list).id.rawValue
    for text in ["Milk", "Eggs", "Bread"] { _ = try workspace.addItem(to: "Groceries", text: text) }
    let service = OrganizeService(workspace: workspace)
    let shown = try await service.collection(list)
    let (done, view, _) = try await service.remove(
      shown.rows[0].id, in: list, version: shown.version)
    #expect(done == "Deleted 1 item")
    #expect(view.rows.map(\.text) == ["Eggs", "Bread"])
    #expect(try await service.collection(list) == view)
    #expect(service.version(list) == view.version)
    // The page's old version is stale now: the drop is refused, nothing changes.
    var random = SplitMix64(seed: 7)
    let drop = try #require(try await Self.allowedDrop(service, list, &random))
    await #expect(throws: DeckFailure.self) {
      try await service.drop(
        drop.target, moving: drop.id.rawValue, in: list, version: shown.version)
    }
    #expect(service.version(list) == view.version)
  }
}
