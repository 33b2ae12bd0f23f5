import Foundation
import OffloadTestSupport
import Testing

@testable import Offload

/// `Workspace.undo()` takes an item change back through the collection's editor: random
/// intents, then as many undos, give back every collection byte for byte (as `collection show
/// --json` prints it: rows in order, every field), on a store never shared and on a shared
/// one; and in a shared store an undo refuses when another device changed an item since.
@Suite("Undo through the editor")
struct UndoThroughEditorTests {
  /// Every collection in order with its rows (depth, number, every field), as JSON.
  static func shown(_ workspace: Workspace) throws -> String {
    struct Row: Encodable {
      var item: Item
      var depth: Int
      var number: String
    }
    struct Shown: Encodable {
      var name: String
      var kind: CollectionKind
      var rows: [Row]
    }
    var all: [Shown] = []
    for entry in try workspace.collections() {
      let tree = try workspace.tree(of: "id:" + entry.id.rawValue)
      all.append(
        Shown(
          name: entry.name, kind: entry.kind,
          rows: tree.rows().map { Row(item: $0.item, depth: $0.depth, number: $0.number) }))
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.dateEncodingStrategy = .secondsSince1970
    return String(decoding: try encoder.encode(all), as: UTF8.self)
  }

  /// A plan and a list with a few items, some nested, one done, one with a note-free role.
  static func seedCollections(_ workspace: Workspace) throws {
    try workspace.createCollection(named: "Trip", kind: .plan)
    let pack = try workspace.addItem(to: "Trip", text: "Pack")
    try workspace.addItem(to: "Trip", text: "Tent", at: .lastChild(of: pack.id.rawValue))
    try workspace.addItem(to: "Trip", text: "Stove", at: .lastChild(of: pack.id.rawValue))
    try workspace.addItem(to: "Trip", text: "Drive")
    try workspace.createCollection(named: "Shop", kind: .list)
    for text in ["Bread", "Eggs", "Milk"] { try workspace.addItem(to: "Shop", text: text) }
    try workspace.capture("Call the plumber")
  }

  /// One random item intent (single or bulk); true when it made a change.
  static func act(_ workspace: Workspace, _ random: inout SplitMix64, step: Int) -> Bool {
    guard let state = try? workspace.readState() else { return false }
    let items = state.index.itemLocations.keys.sorted().map(\.rawValue)
    guard !items.isEmpty else {
      return (try? workspace.addItem(to: "Trip", text: "Item \(step)")) != nil
    }
    func pick() -> String { items[random.index(below: items.count)] }
    func some() -> ItemSelection {
      var chosen: [String] = []
      for _ in 0...random.index(below: 3) { chosen.append(pick()) }
      return ItemSelection(terms: Array(Set(chosen)).sorted().map { .id($0) })
    }
    let before = (try? workspace.history(limit: 1).first?.sequence) ?? nil
    do {
      switch random.index(below: 13) {
      case 0: _ = try workspace.capture("note \(step)")
      case 1:
        let placement: ItemPlacement =
          random.chance(0.5) ? .lastRoot : .lastChild(of: pick())
        _ = try workspace.addItem(
          to: random.chance(0.5) ? "Trip" : "Shop", text: "item \(step)", at: placement)
      case 2:
        try workspace.moveItem(pick(), to: random.chance(0.5) ? .after(pick()) : .firstRoot)
      case 3: try workspace.moveItem(pick(), toCollection: "Trip", to: .lastRoot)
      case 4: _ = try workspace.moveItems(some(), to: .lastChild(of: pick()))
      case 5: try workspace.indent(pick())
      case 6: try workspace.outdent(pick())
      case 7: _ = try workspace.setDone(pick(), random.chance(0.5))
      case 8: _ = try workspace.setDone(some(), random.chance(0.5))
      case 9: try workspace.editText(pick(), to: "edited \(step)")
      case 10: _ = try workspace.removeItems([pick()])
      case 11: _ = try workspace.removeItems(some())
      default:
        try workspace.setRole(pick(), to: random.chance(0.5) ? .fixed : nil)
      }
    } catch {
      return false
    }
    return ((try? workspace.history(limit: 1).first?.sequence) ?? nil) != before
  }

  /// Random intents, then one undo per change made: every collection is back byte for byte,
  /// and each undo left the history one entry shorter.
  static func roundTrip(_ workspace: Workspace, seed: UInt64, steps: Int) throws {
    let start = try shown(workspace)
    let depth = try workspace.history(limit: 10_000).count
    var random = SplitMix64(seed: seed)
    var made = 0
    for step in 0..<steps where act(workspace, &random, step: step) { made += 1 }
    #expect(made > steps / 3, "seed \(seed): only \(made) of \(steps) intents changed anything")
    #expect(try workspace.history(limit: 10_000).count == depth + made, "seed \(seed)")
    for _ in 0..<made { try workspace.undo() }
    #expect(try shown(workspace) == start, "seed \(seed): \(made) changes undone")
    #expect(try workspace.history(limit: 10_000).count == depth, "seed \(seed)")
  }

  @Test("random intents and their undos give every collection back, store never shared")
  func roundTripsUnshared() throws {
    for seed in UInt64(1)...12 {
      let (workspace, folder) = try makeWorkspace()
      defer { folder.remove() }
      try Self.seedCollections(workspace)
      try Self.roundTrip(workspace, seed: seed, steps: 25)
    }
  }

  @Test("random intents and their undos give every collection back, shared store")
  func roundTripsShared() throws {
    for seed in UInt64(1)...6 {
      let folder = try TemporaryDirectory(prefix: "offload-undo-shared")
      defer { folder.remove() }
      let workspace = try Workspace(
        root: folder.appending("store"), historyLimit: 1_000,
        stateDirectory: folder.appending("state")
      ).share()
      try Self.seedCollections(workspace)
      try Self.roundTrip(workspace, seed: seed, steps: 20)
      // Another device that reads the logs shows the same collections.
      let other = folder.appending("copy")
      try FileManager.default.copyItem(atPath: workspace.root, toPath: other)
      let copy = Workspace(root: other, stateDirectory: folder.appending("state"))
      #expect(try Self.shown(copy) == (try Self.shown(workspace)), "seed \(seed)")
    }
  }

  @Test("item changes take the editor's path, collection changes the records'")
  func paths() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    try Self.seedCollections(workspace)
    let created = try #require(
      try workspace.history(limit: 20).last { $0.summary.hasPrefix("create") })
    #expect(!created.changesItemsOnly)
    let rows = try workspace.tree(of: "Trip").rows().map(\.item)
    let drive = try #require(rows.last)
    try workspace.moveItem(drive.id.rawValue, to: .firstRoot)
    try workspace.editText(drive.id.rawValue, to: "Drive north")
    let entries = try workspace.history(limit: 2)
    #expect(entries.allSatisfy { $0.changesItemsOnly })
    let (edit, restored) = Workspace.editChange(try #require(entries.first?.changes.first))
    #expect(restored.isEmpty)
    #expect(edit.placements.map(\.id) == [drive.id])
    #expect(edit.placements.first.map { $0.before == $0.after } == true)
    #expect(
      edit.fields.filter { $0.before != $0.after }
        == [.init(id: drive.id, name: "text", before: "Drive", after: "Drive north")])
    _ = try workspace.removeItems([rows[0].id.rawValue])
    let removal = Workspace.editChange(
      try #require(try workspace.history(limit: 1).first?.changes.first))
    #expect(removal.restored.keys.sorted() == [rows[0].id, rows[1].id, rows[2].id].sorted())
    #expect(removal.0.placements.allSatisfy { $0.after == nil })
  }

  @Test("an undo whose item another device changed since refuses with one line")
  func refusesAnotherDevicesChange() throws {
    let devices = try ReplicaConvergenceTests.Devices(count: 2)
    let (laptop, phone) = (devices.stores[0], devices.stores[1])
    let rows = try laptop.tree(of: "Trip").rows().map(\.item)
    let pack = try #require(rows.first { $0.text == "Pack" }).id.rawValue
    let tent = try #require(rows.first { $0.text == "Tent" }).id.rawValue
    let start = try Self.shown(laptop)
    // The laptop moves Tent, then Pack; the phone then edits Pack.
    try laptop.moveItem(tent, to: .firstRoot)
    try laptop.moveItem(pack, to: .firstRoot)
    try devices.carry(from: 0, to: 1, cut: nil)
    try phone.editText(pack, to: "Pack the car")
    try devices.carry(from: 1, to: 0, cut: nil)
    #expect(try laptop.tree(of: "Trip").rows().contains { $0.item.text == "Pack the car" })
    #expect(try phone.tree(of: "Trip").rows().map(\.item.text) == ["Pack the car", "Tent"])
    let refused = #expect(throws: WorkspaceError.self) { try laptop.undo() }
    #expect(refused?.code == .conflict)
    #expect(
      refused?.description
        == "cannot undo \"move \(pack) in \"Trip\"\": item \(pack) changed since, and undo would overwrite that"
    )
    // The phone's own change is the phone's to undo; the laptop's history holds only its own.
    #expect(try laptop.history(limit: 10).map(\.summary).allSatisfy { !$0.hasPrefix("edit") })
    try phone.undo()
    try devices.carry(from: 1, to: 0, cut: nil)
    try laptop.undo()
    try laptop.undo()
    #expect(try Self.shown(laptop) == start)
    try devices.carry(from: 0, to: 1, cut: nil)
    #expect(try Self.shown(phone) == start)
  }
}
