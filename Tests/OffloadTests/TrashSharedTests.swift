import Foundation
import OffloadTestSupport
import OrderingCore
import Testing

@testable import Offload

/// The trash of a shared store across devices, and a seeded run of removes and restores
/// against a model.
@Suite("Trash: across devices and over seeded runs")
struct TrashSharedTests {
  @Test("device B lists and restores what device A removed; A sees it back")
  func restoresAnotherDevicesRemoval() throws {
    let folder = try TemporaryDirectory(prefix: "offload-trash-devices")
    defer { folder.remove() }
    let state = folder.appending("state")
    let a = try Workspace(root: folder.appending("a"), stateDirectory: state).share()
    try a.createCollection(named: "Trip", kind: .plan)
    let pack = try a.addItem(to: "Trip", text: "Pack")
    try a.addItem(to: "Trip", text: "Tent")
    let socks = try a.addItem(to: "Trip", text: "Socks", at: .lastChild(of: pack.id.rawValue))
    try FileManager.default.copyItem(atPath: a.root, toPath: folder.appending("b"))
    let b = Workspace(root: folder.appending("b"), stateDirectory: state)
    let before = try TrashTests.rows(b, "Trip")
    try a.removeItems([pack.id.rawValue])
    try carryOwnFolder(from: a, to: b)
    let aName = try #require(a.device).name
    let listed = try b.deletedItems()
    #expect(listed.map(\.item.id) == [pack.id])
    #expect(listed.first?.nestedCount == 1)
    #expect(listed.first?.removedBy == (aName.isEmpty ? a.device?.replica.rawValue : aName))
    #expect(b.device?.replica != a.device?.replica)
    let result = try b.restoreItems([pack.id.rawValue])
    #expect(result.restored.first?.place == .formerPlace)
    #expect(try TrashTests.rows(b, "Trip") == before)
    try carryOwnFolder(from: b, to: a)
    #expect(try TrashTests.rows(a, "Trip") == before)
    #expect(try a.deletedItems().isEmpty)
    #expect(try a.tree(of: "Trip").collection.items.contains { $0.id == socks.id })
    // Undo on B takes back B's restore, not A's removal.
    try b.undo()
    #expect(try b.deletedItems().map(\.item.id) == [pack.id])
  }

  /// An item's fields without its order key (a restore may give it a new key).
  struct Fields: Hashable {
    var id: ShortID
    var text: String
    var done: Bool
    var note: String?
    var role: PlacementRole?
    init(_ item: Item) {
      (id, text, done, note, role) = (item.id, item.text, item.done, item.note, item.role)
    }
  }

  @Test(
    "seeded removes and restores: nothing is ever lost, every restored item is as removed",
    arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
  func seeded(seed: UInt64) throws {
    let shared = seed % 2 == 0
    let (workspace, folder) = try TrashTests.workspace(shared: shared)
    defer { folder.remove() }
    var random = SplitMix64(seed: seed)
    try workspace.createCollection(named: "Trip", kind: .plan)
    try workspace.createCollection(named: "Shop", kind: .list)
    var created: Set<ShortID> = []
    var removedFields: [ShortID: Fields] = [:]
    for step in 0..<40 {
      let live = try ["Trip", "Shop", "Inbox"].flatMap { name in
        try workspace.tree(of: name).collection.items.map { ($0, name) }
      }
      let listed = try workspace.deletedItems()
      switch random.index(below: 6) {
      case 0, 1:
        let trip = live.filter { $0.1 == "Trip" }
        let placement: ItemPlacement =
          trip.isEmpty || random.index(below: 2) == 0
          ? .lastRoot : .lastChild(of: trip[random.index(below: trip.count)].0.id.rawValue)
        let item = try workspace.addItem(to: "Trip", text: "t\(step)", at: placement)
        if random.index(below: 3) == 0 { try workspace.setDone(item.id.rawValue, true) }
        created.insert(item.id)
      case 2:
        created.insert(try workspace.addItem(to: "Shop", text: "s\(step)").id)
      case 3 where !live.isEmpty:
        let (item, _) = live[random.index(below: live.count)]
        for (other, _) in live { removedFields[other.id] = Fields(other) }
        try workspace.removeItems([item.id.rawValue])
      case 4 where !listed.isEmpty, 5 where !listed.isEmpty:
        let chosen = (0..<(1 + random.index(below: 2))).map { _ in
          listed[random.index(below: listed.count)].item.id.rawValue
        }
        try workspace.restoreItems(chosen)
      default:
        continue
      }
      // Nothing lost: every item made is in the store or counted in the trash.
      let now = try ["Trip", "Shop", "Inbox"].flatMap { name in
        try workspace.tree(of: name).collection.items
      }
      let trashed = try workspace.deletedItems().reduce(0) { $0 + 1 + $1.nestedCount }
      #expect(now.count + trashed == created.count, "seed \(seed) step \(step)")
      #expect(Set(now.map(\.id)).isSubset(of: created), "seed \(seed) step \(step)")
      for item in now where removedFields[item.id] != nil {
        #expect(Fields(item) == removedFields[item.id], "seed \(seed) step \(step) \(item.id)")
      }
    }
  }
}
