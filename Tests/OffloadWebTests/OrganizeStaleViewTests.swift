import Foundation
import Gestures
import Offload
import OffloadTestSupport
import Synchronization
import Testing

@testable import OffloadWeb

/// A change posted against a view is compared with the store inside the change's own lock: a
/// second writer that commits between the page's read and its write is always caught, for
/// every mutating route of the organize pages.
@Suite("OrganizeService: stale views refused inside the change's lock")
struct OrganizeStaleViewTests {
  /// What one seeded case does on the page's side.
  enum Route: CaseIterable {
    case add, edit, done, doneAllExcept, delete, moveTo, keyboardMove, drop
    case createCollection, renameCollection, deleteCollection, moveCollection
  }

  /// The store the page's service works on (its file system lets the second writer in just
  /// before the service's exclusive lock), and a plain workspace for the second writer.
  struct Store: Sendable {
    let folder: TemporaryDirectory
    let files = InterleavingFileSystem(lockSuffix: "/store.lock")
    let mine: Workspace
    let other: Workspace
    let service: OrganizeService
    var house = ""
    var groceries = ""

    init() throws {
      folder = try TemporaryDirectory(prefix: "offload-stale")
      mine = Workspace(root: folder.appending("store"), fileSystem: files)
      other = Workspace(root: folder.appending("store"))
      service = OrganizeService(workspace: mine)
      house = try other.createCollection(named: "House", kind: .plan).id.rawValue
      groceries = try other.createCollection(named: "Groceries", kind: .list).id.rawValue
      for text in ["Paint", "Fix the tap", "Clean"] { try other.addItem(to: "House", text: text) }
      let paint = try other.tree(of: "House").rows()[0].item.id.rawValue
      try other.addItem(to: "House", text: "Buy brushes", at: .lastChild(of: paint))
      for text in ["Milk", "Eggs", "Bread"] { try other.addItem(to: "Groceries", text: text) }
    }

    /// Everything a page or a command can see: every collection's items, and the last history
    /// entry.
    func state() throws -> String {
      var lines: [String] = []
      for entry in try other.collections() {
        lines.append("\(entry.id) \(entry.name) \(entry.kind) \(entry.itemCount)")
        for item in try other.tree(of: "id:" + entry.id.rawValue).collection.items.sorted(by: {
          $0.id < $1.id
        }) {
          lines.append("  \(item)")
        }
      }
      let last = try other.history(limit: 1).first
      lines.append("last: \(String(describing: last))")
      return lines.joined(separator: "\n")
    }
  }

  @Test(
    "a second writer between the read and the write: refused with 409, the store holds its change alone",
    arguments: 0..<4)
  func secondWriterIsCaught(batch: UInt64) async throws {
    var random = SplitMix64(seed: SplitMix64.testSeed(0x57a1e + batch))
    var store = try Store()
    defer { store.folder.remove() }
    var refused = 0
    var accepted = 0
    for step in 0..<30 {
      let route = Route.allCases[random.index(below: Route.allCases.count)]
      // One case in four lets the second writer only read: the same change then goes through,
      // so a refusal is the interleaved change's doing and not the route's.
      let interleaves = random.index(below: 4) != 0
      let context = "seed \(random.seed) step \(step) \(route) interleaves \(interleaves)"
      let (expected, outcome) = try await run(
        route, interleaves: interleaves, in: &store, random: &random, step: step)
      #expect(store.files.interleavings == 1 + refused + accepted, "\(context)")
      switch outcome {
      case .failure(let failure) where interleaves:
        refused += 1
        #expect(failure.status == 409, "\(context): \(failure)")
        #expect(
          failure.description.contains("changed since the page showed it")
            && failure.description.contains("nothing was changed"), "\(context): \(failure)")
        #expect(try store.state() == expected, "\(context): the store lost the other change")
      case .success where !interleaves:
        accepted += 1
        #expect(try store.state() != expected, "\(context): the change was not made")
      case .success:
        Issue.record("\(context): a change against a stale view went through")
        return
      case .failure(let failure):
        Issue.record("\(context): refused without a second writer: \(failure)")
        return
      }
    }
    #expect(refused > 0 && accepted > 0)
  }

  /// Runs one route against the view as the page read it, with the second writer let in
  /// between; returns the store's state right after the second writer, and the outcome.
  private func run(
    _ route: Route, interleaves: Bool, in store: inout Store, random: inout SplitMix64, step: Int
  ) async throws -> (String, Result<Void, DeckFailure>) {
    let other = store.other
    let expected = Captured()
    let onItems = random.chance(0.5) ? store.house : store.groceries
    // Keep enough rows to work on.
    while try other.tree(of: "id:" + onItems).collection.items.count < 4 {
      try other.addItem(to: "id:" + onItems, text: "Filler \(step)")
    }
    let otherChange = random.index(below: 4)
    let isCollectionsRoute = [
      .createCollection, .renameCollection, .deleteCollection, .moveCollection,
    ]
    .contains(route)
    let snapshot = store
    store.files.arm {
      do {
        if interleaves {
          if isCollectionsRoute {
            try Self.changeCollections(other, otherChange, step: step)
          } else {
            try Self.changeItems(other, in: onItems, otherChange, step: step)
          }
        }
        expected.set((try? snapshot.state()) ?? "")
      } catch {
        expected.set("the second writer failed: \(error)")
      }
    }
    let service = store.service
    do {
      if isCollectionsRoute {
        try await changeCollections(route, service: service, random: &random, step: step)
      } else {
        try await changeItems(
          route, service: service, collection: onItems,
          target: onItems == store.house ? store.groceries : store.house, random: &random,
          step: step)
      }
      store.files.disarm()
      return (expected.get(), .success(()))
    } catch let failure as DeckFailure {
      store.files.disarm()
      return (expected.get(), .failure(failure))
    }
  }

  /// What the second writer saw right after its change, handed from the lock hook to the test.
  final class Captured: Sendable {
    private let value = Mutex("")
    func set(_ text: String) { value.withLock { $0 = text } }
    func get() -> String { value.withLock { $0 } }
  }

  /// The second writer's change to a collection's items: each changes the view's version.
  static func changeItems(_ other: Workspace, in collection: String, _ kind: Int, step: Int)
    throws
  {
    let rows = try other.tree(of: "id:" + collection).rows()
    let last = rows[rows.count - 1].item.id.rawValue
    switch kind {
    case 0: try other.addItem(to: "id:" + collection, text: "From the command line \(step)")
    case 1: try other.editText(last, to: "Edited elsewhere \(step)")
    case 2: try other.moveItem(last, to: .firstRoot)
    default: _ = try other.setDone(last, !rows[rows.count - 1].item.done)
    }
  }

  /// The second writer's change to the collections: each changes the collections' version.
  static func changeCollections(_ other: Workspace, _ kind: Int, step: Int) throws {
    switch kind {
    case 0: try other.createCollection(named: "Extra \(step)", kind: .list)
    case 1: try other.capture("Thought \(step)")
    case 2:
      let last = try other.collections().last?.id.rawValue ?? ""
      try other.moveCollection("id:" + last, to: .first)
    default:
      let last = try other.collections().last?.id.rawValue ?? ""
      try other.renameCollection("id:" + last, to: "Renamed elsewhere \(step)")
    }
  }

  private func changeItems(
    _ route: Route, service: OrganizeService, collection: String, target: String,
    random: inout SplitMix64, step: Int
  ) async throws {
    let seen = try await service.collection(collection)
    let (tree, rules, _) = try await service.load(collection)
    let leaves = seen.rows.filter { $0.childCount == 0 }
    let leaf = leaves[random.index(below: leaves.count)].id
    let action: OrganizeCommand.Items.Action
    switch route {
    case .add:
      action = .add(text: "Added in the page \(step)", after: random.chance(0.5) ? leaf : nil)
    case .edit:
      action = .edit(id: leaf, text: "Edited in the page \(step)")
    case .done:
      action = .done(.ids([leaf]), seen.rows.first { $0.id == leaf }?.done == false)
    case .doneAllExcept:
      action = .done(
        .all(except: [leaf]), seen.rows.contains { $0.id != leaf && !$0.done })
    case .delete:
      action = .delete(.ids([leaf]))
    case .moveTo:
      action = .moveTo(.ids([leaf]), target: target)
    case .keyboardMove, .drop:
      // A move the rules allow on the rows the page shows.
      let rows = tree.editor.dropRows()
      var found: (ShortID, KeyboardMove, DropTarget<ShortID>)?
      for row in rows.shuffled(using: &random) where found == nil {
        for move in KeyboardMove.allCases.shuffled(using: &random) where found == nil {
          let target = DropTargetResolver.keyboardMove(
            move, of: row.id, in: rows, rules: rules.policy,
            configuration: DropConfiguration(maximumDepth: rules.maximumDepth))
          if !target.isBlocked { found = (row.id, move, target) }
        }
      }
      let (id, move, target) = try #require(found)
      if route == .drop {
        try await service.drop(
          target, moving: id.rawValue, in: collection, version: seen.version)
        return
      }
      action = .move(id: id.rawValue, move, collapsed: [])
    default:
      Issue.record("not an items route: \(route)")
      return
    }
    let command = OrganizeCommand.Items(
      collection: collection, version: seen.version, action: action)
    _ = try await service.changeItems(command)
  }

  private func changeCollections(
    _ route: Route, service: OrganizeService, random: inout SplitMix64, step: Int
  ) async throws {
    let seen = try await service.collections()
    let movable = seen.collections.filter { !$0.isInbox }
    let extras = movable.filter { $0.name.hasPrefix("Extra") || $0.name.hasPrefix("New") }
    let action: OrganizeCommand.Collections.Action
    switch route {
    case .renameCollection:
      action = .rename(
        id: movable[random.index(below: movable.count)].id, name: "Renamed in the page \(step)")
    case .deleteCollection where !extras.isEmpty:
      action = .delete(ids: [extras[random.index(below: extras.count)].id])
    case .moveCollection:
      let index = random.index(below: movable.count - 1) + 1
      action = .move(id: movable[index].id, to: random.chance(0.5) ? .up : .first)
    default:
      action = .create(name: "New \(step)", kind: random.chance(0.5) ? .list : .plan)
    }
    let command = OrganizeCommand.Collections(version: seen.version, action: action)
    _ = try await service.changeCollections(command)
  }
}
