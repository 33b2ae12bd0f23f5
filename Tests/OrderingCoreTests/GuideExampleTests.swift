import Foundation
import OffloadTestSupport
import OrderingCore
import Testing

/// The examples of OrderingCore's guides (Docs/Guides/ListLabeling.md, OrderKeys.md and
/// OrderedForest.md), compiled and run here after the few declarations each takes as given,
/// then checked against what the guide says. `everyExampleIsHere` also covers the doc comments
/// and the DocC catalog, whose examples `DocExampleTests.swift` holds.
@Suite("OrderingCore: guide examples compile and do what they say")
struct GuideExampleTests {
  @Test func everyExampleIsHere() {
    let root = DocExamples.packageRoot(from: #filePath)
    let blocks = DocExamples.blocks(
      module: "OrderingCore",
      guides: [
        "Docs/Guides/ListLabeling.md", "Docs/Guides/OrderKeys.md", "Docs/Guides/OrderedForest.md",
      ], root: root)
    #expect(blocks.count >= 28)
    let missing = DocExamples.missing(
      blocks,
      in: [
        "Tests/OrderingCoreTests/DocExampleTests.swift",
        "Tests/OrderingCoreTests/GuideExampleTests.swift",
      ], root: root)
    #expect(missing.isEmpty, "examples not compiled by a test: \(missing)")
  }

  /// The app's table of rows, as the examples' `repository` writes it.
  final class Repository<Value> {
    var values: [UUID: Value] = [:]
    var writes = 0
    func setPosition(_ value: Value, for id: UUID) { set(value, id) }
    func setKey(_ value: Value, for id: UUID) { set(value, id) }
    private func set(_ value: Value, _ id: UUID) {
      values[id] = value
      writes += 1
    }
  }

  /// Ids in a fixed order, so a failure reproduces.
  static func ids(_ count: Int, from first: Int = 0) -> [UUID] {
    (first..<first + count).map { number in
      UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", number)) ?? UUID()
    }
  }

  // MARK: ListLabeling

  @Test func listLabeling() throws {
    struct Item { var id: UUID }
    struct StoredRow {
      var id: UUID
      var position: Int64?
      var createdAt: Int64
    }
    let ids = Self.ids(10)
    let item = Item(id: Self.ids(1, from: 100)[0])
    let repository = Repository<Int64>()
    let seeded = try ListLabeling(ids: ids)
    for index in 0..<seeded.count { repository.values[seeded[index].id] = seeded[index].position }
    // Two devices gave two rows one position; one row never got a position.
    let storedIDs = Self.ids(4, from: 200)
    let stored = [
      StoredRow(id: storedIDs[0], position: 10, createdAt: 1),
      StoredRow(id: storedIDs[1], position: 10, createdAt: 2),
      StoredRow(id: storedIDs[2], position: nil, createdAt: 3),
      StoredRow(id: storedIDs[3], position: 5, createdAt: 4),
    ]
    for row in stored { repository.values[row.id] = row.position }

    var list = try ListLabeling(ids: ids)  // or ListLabeling(rows:) from the store
    let added = try list.insert(item.id, at: 0)
    repository.setPosition(added.position, for: item.id)

    // The user drags row 7 to index 2.
    let moved = list.move(from: 7, to: 2)
    repository.setPosition(moved.position, for: list[2].id)
    for change in moved.changes {  // usually empty
      repository.setPosition(change.new, for: change.id)
    }

    // Loading rows whose positions were never set, or were set twice by two devices.
    let repaired = try ListLabeling.backfill(
      stored.map { .init(id: $0.id, position: $0.position, creationOrder: $0.createdAt) })
    for assignment in repaired.assignments {
      repository.setPosition(assignment.new, for: assignment.id)
    }
    list = repaired.labeling

    // One write for the insert and one for the move: no other row changed.
    #expect(added.changes.isEmpty && moved.changes.isEmpty)
    #expect(repository.writes == 2 + repaired.assignments.count)
    // The repository agrees with the list the user saw before the load (rebuilt here).
    var shown = try ListLabeling(ids: ids)
    _ = try shown.insert(item.id, at: 0)
    _ = shown.move(from: 7, to: 2)
    #expect(shown[0].id == item.id && shown[2].id == ids[6])
    for index in 0..<shown.count {
      #expect(repository.values[shown[index].id] == shown[index].position)
    }
    // The load: position order, a tie by creation order, the missing position last; every
    // position it wrote was reported, so the repository agrees with the list.
    #expect(
      (0..<list.count).map { list[$0].id } == [
        storedIDs[3], storedIDs[0], storedIDs[1], storedIDs[2],
      ])
    #expect(repaired.assignments.contains { $0.id == storedIDs[2] && $0.old == nil })
    for index in 0..<list.count {
      #expect(repository.values[list[index].id] == list[index].position)
    }
  }

  // MARK: OrderKeys

  @Test func orderKeys() throws {
    struct Row { var orderKey: String }
    let row = Row(orderKey: "a0V")

    var list = try OrderKey.spread(3, between: nil, and: nil)  // a0 a1 a2
    let key = try OrderKey.between(list[0], list[1])  // a0V
    list.insert(key, at: 1)  // a0 a0V a1 a2

    let stored = try OrderKey(validating: row.orderKey)  // from a database

    #expect(key.rawValue == "a0V")
    #expect(list.map(\.rawValue) == ["a0", "a0V", "a1", "a2"])
    #expect(stored == key)
    #expect(throws: OrderingError.self) { try OrderKey(validating: "a00") }
  }

  @Test func orderKeyList() throws {
    struct Row { var id: UUID }
    let row = Row(id: Self.ids(1, from: 500)[0])
    let ids = Self.ids(5_000, from: 1_000)
    let storedKeys = try OrderKey.spread(3, between: nil, and: nil)
    let rows = zip(Self.ids(3), storedKeys).map { OrderKeyList<UUID>.Row(id: $0, key: $1) }
    let repository = Repository<OrderKey>()
    for stored in rows { repository.values[stored.id] = stored.key }

    var list = try OrderKeyList(rows: rows, budget: 16)  // the rows as stored, in key order
    let update = try list.insert(row.id, at: 1)
    repository.setKey(update.key, for: row.id)
    for change in update.changes {  // almost always empty
      repository.setKey(change.new, for: change.id)
    }

    // A paste of 5,000 rows into one gap: keys about three bytes longer than the neighbours.
    let pasted = try list.insert(contentsOf: ids, at: 1)

    #expect(update.changes.isEmpty && repository.writes == 1)
    #expect(rows[0].key < update.key && update.key < rows[1].key)
    #expect(pasted.keys.count == 5_000 && pasted.changes.isEmpty)
    #expect(zip(pasted.keys, pasted.keys.dropFirst()).allSatisfy { $0 < $1 })
    #expect(rows[0].key < pasted.keys[0] && pasted.keys[4_999] < update.key)
    let neighbours = max(rows[0].key.rawValue.utf8.count, update.key.rawValue.utf8.count)
    let longest = pasted.keys.map(\.rawValue.utf8.count).max() ?? 0
    #expect((neighbours + 2...neighbours + 4).contains(longest), "\(neighbours) \(longest)")
    #expect(longest <= 16)
  }

  // MARK: OrderedForest

  @Test func orderedForest() throws {
    final class Store {
      var writes: [String] = []
      func write(_ id: String, _ placement: Any) { writes.append(id) }
    }
    let store = Store()
    var printed: [String] = []
    func print(_ value: Any) { printed.append("\(value)") }

    // Build from stored rows: a missing parent, a cycle and a duplicate key are repaired and
    // reported, never dropped.
    let rows: [OrderedForest<String>.Record] = [
      .init(id: "trip", parent: nil, order: .key("a0")),
      .init(id: "pack", parent: "trip", order: .key("a0")),
      .init(id: "book", parent: "trip", order: .key("a0")),  // the same key as "pack"
      .init(id: "note", parent: "gone", order: .key("a1")),  // the parent does not exist
    ]
    var (forest, report) = OrderedForest<String>.build(from: rows)
    print(report)
    // note names parent gone, which does not exist: it became a root
    // pack shares order key "a0" with book: it got a new key right after book
    for id in report.rewritten { store.write(id, forest.placement(of: id)) }  // pack, note

    // Constraints: one set of rules for pointer, keyboard and programmatic moves.
    forest.constraints = .init(
      maximumDepth: 3,
      rules: [.fixed("pinned", reason: "the trip stays first") { $0 == "trip" }])

    let moved = try forest.move("note", to: .lastChild(of: "trip"))  // one row to write
    let indented = try forest.indent("note")  // last child of its previous sibling, "pack"
    try forest.apply(indented.inverted)  // undo the indent,
    try forest.apply(moved.inverted)  // then the move

    forest.flattened()  // preorder rows with depth
    forest.visibleRows(collapsed: ["trip"])  // trip, note
    forest.convertToList()  // plan -> list, preorder, deterministic

    #expect(printed.count == 1)
    let printedReport = printed.first ?? ""
    #expect(
      printedReport.contains("note names parent gone, which does not exist: it became a root"))
    #expect(
      printedReport.contains(
        "pack shares order key \"a0\" with book: it got a new key right after book"))
    #expect(store.writes == ["pack", "note"])
    #expect(moved.changes.count == 1)
    #expect(indented.changes.count == 1)
    // After both undos the forest is as built, then flattened into a list in preorder.
    #expect(forest.roots == ["trip", "book", "pack", "note"])
    #expect(forest.children(of: "trip").isEmpty)
  }

  @Test func orderedForestSteps() throws {
    // The same steps as the guide's example, checked one by one.
    var (forest, report) = OrderedForest<String>.build(from: [
      .init(id: "trip", parent: nil, order: .key("a0")),
      .init(id: "pack", parent: "trip", order: .key("a0")),
      .init(id: "book", parent: "trip", order: .key("a0")),
      .init(id: "note", parent: "gone", order: .key("a1")),
    ])
    #expect(report.rewritten == ["pack", "note"])
    #expect(forest.roots == ["trip", "note"] && forest.children(of: "trip") == ["book", "pack"])
    forest.constraints = .init(
      maximumDepth: 3,
      rules: [.fixed("pinned", reason: "the trip stays first") { $0 == "trip" }])
    #expect(throws: OrderedForest<String>.Refusal.self) {
      try forest.move("trip", to: .root(at: 1))
    }
    let moved = try forest.move("note", to: .lastChild(of: "trip"))
    #expect(forest.children(of: "trip") == ["book", "pack", "note"])
    let indented = try forest.indent("note")
    #expect(forest.children(of: "pack") == ["note"])
    try forest.apply(indented.inverted)
    #expect(forest.children(of: "trip") == ["book", "pack", "note"])
    try forest.apply(moved.inverted)
    #expect(forest.roots == ["trip", "note"] && forest.children(of: "trip") == ["book", "pack"])
    #expect(forest.flattened().map(\.depth) == [0, 1, 1, 0])
    #expect(forest.visibleRows(collapsed: ["trip"]).map(\.id) == ["trip", "note"])
  }

  // MARK: An app's list and the forest's onMove

  @Test func orderKeyListInAnApp() throws {
    let ids = Self.ids(6)
    let milkID = ids[0]
    let selectedIDs = [ids[4], ids[2]]
    let repository = Repository<OrderKey>()
    var keys = try OrderKey.spread(6, between: nil, and: nil)
    keys[3] = keys[2]  // two devices chose one key
    let storedRows = zip(ids, keys).map { OrderKeyList<UUID>.Row(id: $0, key: $1) }.reversed()
    let offsets = IndexSet([1, 5])
    let toOffset = 0
    // Example: Docs/Guides/OrderKeys.md, In an app's list
    let loaded = try OrderKeyList.loading(storedRows)  // any order; ties broken by id
    for change in loaded.changes { repository.setKey(change.new, for: change.id) }
    var list = loaded.list

    // List { ForEach … }.onMove { offsets, toOffset in … }: offsets as SwiftUI gives them.
    for change in try list.move(fromOffsets: offsets, toOffset: toOffset) {
      repository.setKey(change.new, for: change.id)
    }
    // The same by id: the selected rows, kept in list order, go right after "milk".
    let written = try list.move(selectedIDs, after: milkID)
    let removed = try list.remove(selectedIDs)  // the rows to delete
    let row = list.firstIndex(of: milkID)  // O(log n)
    // End of example.
    #expect(loaded.changes.map(\.id) == [ids[3]])
    #expect(repository.writes == 3)
    #expect(written.map(\.id) == [ids[4]])
    #expect(removed.map(\.id) == [ids[2], ids[4]])
    #expect(row == 2)
    #expect(list.rows.map(\.id) == [ids[1], ids[5], ids[0], ids[3]])
  }

  @Test func forestOnMove() throws {
    var forest = OrderedForest<String>()
    try forest.insert("trip", at: .lastRoot)
    for id in ["a", "b", "c"] { try forest.insert(id, at: .lastChild(of: "trip")) }
    var store = forest
    let offsets = IndexSet([0])
    let toOffset = 3
    // Example: Docs/Guides/OrderedForest.md, SwiftUI's onMove within one parent
    // ForEach(forest.children(of: "trip"), id: \.self) { … }.onMove { offsets, toOffset in
    let changes = try forest.move(fromOffsets: offsets, toOffset: toOffset, under: "trip")
    try store.apply(changes)
    // End of example.
    #expect(forest.children(of: "trip") == ["b", "c", "a"])
    #expect(store == forest)
  }
}
