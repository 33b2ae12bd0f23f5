import OrderingCore
import Testing

/// The code examples of OrderingCore's documentation, compiled: each test body holds one
/// example verbatim (between the `Example` comments), after the few declarations it
/// assumes, and then checks what the example's comments say it gives. An example that
/// stops compiling or says something untrue fails here.
///
/// Keep each example here identical to its doc comment (named above it): change both.
@Suite("OrderingCore: documentation examples")
struct DocExampleTests {
  /// What the examples' `save` and `store.write` calls were given.
  final class Saved {
    var writes: [String] = []
    func write<Value>(_ id: String, _ value: Value) { writes.append("\(id) \(value)") }
  }

  // MARK: OrderKey

  @Test func orderKey() throws {
    // Example: Sources/OrderingCore/OrderKey/OrderKey.swift
    let first = try OrderKey.between(nil, nil)  // "a0"
    let second = try OrderKey.between(first, nil)  // "a1"
    let middle = try OrderKey.between(first, second)  // "a0V"
    // End of example.
    #expect([first, second, middle].map(\.rawValue) == ["a0", "a1", "a0V"])
  }

  @Test func orderKeyBetween() throws {
    // Example: Sources/OrderingCore/OrderKey/OrderKey+Between.swift, between(_:_:)
    let a = OrderKey.first  // "a0"
    let b = try OrderKey.between(a, nil)  // "a1"
    let c = try OrderKey.between(a, b)  // "a0V"
    // End of example.
    #expect([a, b, c].map(\.rawValue) == ["a0", "a1", "a0V"])
  }

  @Test func orderKeySpread() throws {
    // Example: Sources/OrderingCore/OrderKey/OrderKey+Between.swift, spread(_:between:and:)
    let keys = try OrderKey.spread(3, between: nil, and: nil)  // a0 a1 a2
    // End of example.
    #expect(keys.map(\.rawValue) == ["a0", "a1", "a2"])
  }

  @Test func orderKeyJitter() throws {
    let a = OrderKey.first
    let b = try OrderKey.between(a, nil)
    // Example: Sources/OrderingCore/OrderKey/OrderKey+Jitter.swift
    var rng = SystemRandomNumberGenerator()
    let key = try OrderKey.between(a, b, jitter: &rng)
    // End of example.
    #expect(a < key && key < b)
  }

  @Test func orderKeyValidating() throws {
    // Example: Sources/OrderingCore/OrderKey/OrderKey+Validation.swift
    let key = try OrderKey(validating: "a0V")
    // End of example.
    #expect(key.rawValue == "a0V")
  }

  @Test func orderingError() {
    var printed = ""
    func print(_ item: Any) { printed = "\(item)" }
    // Example: Sources/OrderingCore/OrderingError.swift
    do {
      _ = try OrderKey(validating: "a00")
    } catch {
      print(error)  // invalid order key "a00": the fraction ends in '0' at byte 2 ...
    }
    // End of example.
    #expect(printed.hasPrefix("invalid order key \"a00\": the fraction ends in '0' at byte 2"))
  }

  @Test func catalogOverview() throws {
    // Example: Sources/OrderingCore/OrderingCore.docc/OrderingCore.md
    var keys = try OrderKey.spread(3, between: nil, and: nil)  // a0 a1 a2
    let moved = try OrderKey.between(keys[0], keys[1])  // a0V: goes between a0 and a1
    keys.insert(moved, at: 1)
    // End of example.
    #expect(keys.map(\.rawValue) == ["a0", "a0V", "a1", "a2"])
  }

  // MARK: ListLabeling and OrderKeyList

  @Test func listLabeling() throws {
    let saved = Saved()
    func save<Value>(_ id: String, _ value: Value) { saved.write(id, value) }
    // Example: Sources/OrderingCore/ListLabeling/ListLabeling.swift
    var list = ListLabeling<String>()
    let a = try list.insert("milk", at: 0)  // a.position, a.changes == []
    let b = try list.insert("eggs", at: 0)  // before "milk"
    let moved = list.move(from: 1, to: 0)  // "milk" first again
    for change in moved.changes { save(change.id, change.new) }
    // End of example.
    #expect(a.changes.isEmpty)
    #expect(b.position < a.position)
    #expect((0..<list.count).map { list[$0].id } == ["milk", "eggs"])
    #expect(saved.writes.count == moved.changes.count)
  }

  @Test func listLabelingInsert() throws {
    let saved = Saved()
    func save<Value>(_ id: String, _ value: Value) { saved.write(id, value) }
    var list = ListLabeling<String>()
    _ = try list.insert("milk", at: 0)
    _ = try list.insert("eggs", at: 1)
    // Example: Sources/OrderingCore/Storage/LabeledList+Rows.swift
    let update = try list.insert("bread", at: 1)
    save("bread", update.label)  // update.key, or update.position
    for change in update.changes { save(change.id, change.new) }
    // End of example.
    #expect(list[1].id == "bread" && list[1].position == update.position)
    #expect(saved.writes.first == "bread \(update.position)")
  }

  @Test func listLabelingBackfill() throws {
    // Example: Sources/OrderingCore/ListLabeling/ListLabeling+Backfill.swift
    let repaired = try ListLabeling.backfill([
      .init(id: "a", position: 10, creationOrder: 1),
      .init(id: "b", position: 10, creationOrder: 2),  // duplicate: placed after "a"
      .init(id: "c", position: nil, creationOrder: 3),  // missing: placed last
    ])
    // End of example.
    let list = repaired.labeling
    #expect((0..<list.count).map { list[$0].id } == ["a", "b", "c"])
    #expect(list[0].position == 10)
  }

  @Test func orderKeyList() throws {
    let saved = Saved()
    func save<Value>(_ id: String, _ value: Value) { saved.write(id, value) }
    // Example: Sources/OrderingCore/OrderKeyList/OrderKeyList.swift
    var list = OrderKeyList<String>()
    let milk = try list.insert("milk", at: 0)  // milk.key == "a0"
    let eggs = try list.insert("eggs", at: 1)  // "a1"
    let bread = try list.insert("bread", at: 1)  // "a0V", between them
    for change in bread.changes { save(change.id, change.new) }  // usually none
    // End of example.
    #expect([milk.key, eggs.key, bread.key].map(\.rawValue) == ["a0", "a1", "a0V"])
    #expect(saved.writes.isEmpty)
  }

  @Test func orderKeyListInsert() throws {
    let saved = Saved()
    func save<Value>(_ id: String, _ value: Value) { saved.write(id, value) }
    var list = OrderKeyList<String>()
    _ = try list.insert("milk", at: 0)
    _ = try list.insert("eggs", at: 1)
    // The same example (Sources/OrderingCore/Storage/LabeledList+Rows.swift) on keys.
    let update = try list.insert("bread", at: 1)
    save("bread", update.label)  // update.key, or update.position
    for change in update.changes { save(change.id, change.new) }
    #expect(update.label == update.key)
    #expect(saved.writes == ["bread a0V"])
  }

  @Test func orderKeyListRepairingDuplicates() throws {
    let saved = Saved()
    func save<Value>(_ id: String, _ value: Value) { saved.write(id, value) }
    let storedRows: [OrderKeyList<String>.Row] = [
      .init(id: "a", key: .first), .init(id: "b", key: .first),
    ]
    // Example: Sources/OrderingCore/OrderKeyList/OrderKeyList+Duplicates.swift
    let repair = try OrderKeyList.repairingDuplicates(storedRows)
    for change in repair.changes { save(change.id, change.new) }
    var list = try OrderKeyList(rows: repair.rows)
    // End of example.
    _ = try list.insert("c", at: 2)
    #expect((0..<list.count).map { list[$0].id } == ["a", "b", "c"])
    #expect(saved.writes.count == 1)
  }

  // MARK: OrderedForest

  @Test func orderedForest() throws {
    var printed: [String] = []
    func print(_ item: Any) { printed.append("\(item)") }
    // Example: Sources/OrderingCore/Forest/OrderedForest.swift
    var forest = OrderedForest<String>()
    try forest.insert("trip", at: .root(at: 0))
    try forest.insert("pack", at: .lastChild(of: "trip"))
    try forest.insert("book", at: .lastChild(of: "trip"))
    let changes = try forest.move("book", to: .before("pack"))
    print(forest.children(of: "trip"))  // ["book", "pack"]
    try forest.apply(changes.inverted)  // undo
    // End of example.
    #expect(printed == [#"["book", "pack"]"#])
    #expect(forest.children(of: "trip") == ["pack", "book"])
  }

  /// A forest of string ids from an outline of (id, depth) rows.
  static func forest(
    _ rows: [(String, Int)], rules: [OrderedForest<String>.Rule] = []
  ) throws -> OrderedForest<String> {
    try OrderedForest(
      outline: rows.map { (id: $0.0, depth: $0.1) }, constraints: .init(rules: rules))
  }

  /// A forest the move and nesting examples work on: trip(pack, book, tickets), done, and
  /// the roots a, b, c, d.
  static func tripForest() throws -> OrderedForest<String> {
    try forest([
      ("trip", 0), ("pack", 1), ("book", 1), ("tickets", 1), ("done", 0),
      ("a", 0), ("b", 0), ("c", 0), ("d", 0),
    ])
  }

  @Test func move() throws {
    var forest = try Self.tripForest()
    // Example: Sources/OrderingCore/Forest/OrderedForest+Move.swift, move(_:to:)
    try forest.move("book", to: .before("pack"))
    try forest.move("book", to: .lastChild(of: "trip"))
    try forest.move("book", to: .root(at: 0))
    // End of example.
    #expect(forest.roots.first == "book")
    #expect(forest.children(of: "trip") == ["pack", "tickets"])
  }

  @Test func moveSelection() throws {
    var forest = try Self.tripForest()
    // Example: Sources/OrderingCore/Forest/OrderedForest+Move.swift, move(_:to:) of a selection
    try forest.move(["pack", "book", "tickets"], to: .lastChild(of: "done"))
    // End of example.
    #expect(forest.children(of: "done") == ["pack", "book", "tickets"])
  }

  @Test func indentSelection() throws {
    var forest = try Self.tripForest()
    // Example: Sources/OrderingCore/Forest/OrderedForest+Nesting.swift
    // a b c d  →  a(b c) d   (b and c selected)
    try forest.indent(["b", "c"])
    // End of example.
    #expect(forest.children(of: "a") == ["b", "c"])
    #expect(forest.roots.suffix(2) == ["a", "d"])
  }

  @Test func changeSet() throws {
    let store = Saved()
    var forest = try Self.forest([("trip", 0), ("book", 1), ("pack", 1)])
    let before = forest
    // Example: Sources/OrderingCore/Forest/OrderedForest+ChangeSet.swift
    let changes = try forest.indent("pack")
    for change in changes.changes { store.write(change.id, change.new) }
    try forest.apply(changes.inverted)  // undo
    // End of example.
    #expect(forest == before)
    #expect(store.writes.count == 1)
  }

  @Test func refusal() throws {
    var forest = try Self.tripForest()
    var printed: [String] = []
    func print(_ item: Any) { printed.append("\(item)") }
    // Example: Sources/OrderingCore/Forest/OrderedForest+Refusal.swift
    do {
      try forest.move("trip", to: .lastChild(of: "pack"))
    } catch {
      print(error.reason)  // intoOwnSubtree(node: "trip", target: "pack")
      print(error)  // cannot move trip as the last child of pack: ...
    }
    // End of example.
    #expect(
      printed == [
        #"intoOwnSubtree(node: "trip", target: "pack")"#,
        "cannot move trip as the last child of pack: pack is inside trip's subtree, and a node cannot go inside its own subtree",
      ])
  }

  // The example's line breaks, kept so the lines match its doc comment:
  // swift-format-ignore
  @Test func rule() throws {
    enum Kind { case plan, task }
    let kind: [String: Kind] = ["trip": .plan, "pack": .task, "book": .plan]
    // Example: Sources/OrderingCore/Forest/OrderedForest+Rule.swift, Rule
    let rule = OrderedForest<String>.Rule("tasks hold no plans", allows: { proposal, _ in
      kind[proposal.node] == .plan && proposal.parent.map { kind[$0] == .task } == true
        ? .refuse("a task may not contain a plan") : .allow
    })
    // End of example.
    var forest = try Self.forest([("trip", 0), ("pack", 0), ("book", 0)], rules: [rule])
    #expect(throws: OrderedForest<String>.Refusal.self) {
      try forest.move("book", to: .lastChild(of: "pack"))
    }
    try forest.move("pack", to: .lastChild(of: "trip"))
  }

  @Test func parentsRule() throws {
    let travel: [String: ClosedRange<Int>] = ["flight": 2...3]
    let day: [String: Int] = ["day1": 1, "day2": 2, "day3": 3, "day5": 5]
    let rule: OrderedForest<String>.Rule =
      // Example: Sources/OrderingCore/Forest/OrderedForest+Rule.swift, parents(_:resolution:reason:accepts:)
      // A travel segment may only go under the days of its valid range.
      .parents("travel days", resolution: .clamp, reason: "outside its days") { node, parent in
        guard let range = travel[node] else { return true }
        return parent.flatMap { day[$0] }.map(range.contains) ?? false
      }
    // End of example.
    var forest = try Self.forest(
      [("day1", 0), ("day2", 0), ("day3", 0), ("flight", 1), ("day5", 0)], rules: [rule])
    try forest.move("flight", to: .lastChild(of: "day5"))
    #expect(forest.placement(of: "flight")?.parent == "day3")
  }

  @Test func constraints() throws {
    let noPlansInTasks = OrderedForest<Int>.Rule("none", allows: { _, _ in .allow })
    // Example: Sources/OrderingCore/Forest/OrderedForest.swift, Constraints
    var forest = OrderedForest<Int>(
      constraints: .init(maximumDepth: 3, rules: [noPlansInTasks]))
    // End of example.
    try forest.insert(1, at: .lastRoot)
    #expect(forest.constraints.maximumDepth == 3)
  }

  @Test func outline() throws {
    // Example: Sources/OrderingCore/Forest/OrderedForest+Flatten.swift
    let plan = try OrderedForest(outline: [
      (id: "trip", depth: 0), (id: "pack", depth: 1), (id: "book", depth: 1),
    ])
    // End of example.
    #expect(plan.children(of: "trip") == ["pack", "book"])
  }

  @Test func build() throws {
    let store = Saved()
    let rows: [OrderedForest<String>.Record] = [
      .init(id: "trip", parent: nil, order: .key("a0")),
      .init(id: "note", parent: "gone", order: .key("a1")),
    ]
    // Example: Sources/OrderingCore/Forest/OrderedForest+Build.swift
    let (forest, report) = OrderedForest<String>.build(from: rows)
    for id in report.rewritten { store.write(id, forest.placement(of: id)) }
    // End of example.
    #expect(report.rewritten == ["note"])
    #expect(store.writes.count == 1)
  }

  // MARK: Moves by id and SwiftUI offsets

  @Test func orderKeyListMoveFromOffsets() throws {
    let saved = Saved()
    func save(_ id: String, _ key: OrderKey) { saved.write(id, key) }
    var list = OrderKeyList<String>()
    _ = try list.insert(contentsOf: ["a", "b", "c", "d", "e"], at: 0)
    // Example: Sources/OrderingCore/Storage/LabeledList.swift
    // .onMove { offsets, toOffset in model.move(Array(offsets), toOffset) }
    let changes = try list.move(fromOffsets: [0, 2], toOffset: 4)
    for change in changes { save(change.id, change.new) }
    // End of example.
    #expect(list.rows.map(\.id) == ["b", "d", "a", "c", "e"])
    #expect(saved.writes.count == 2)
  }

  @Test func listLabelingMoveFromOffsets() throws {
    let saved = Saved()
    func save(_ id: String, _ position: Int64) { saved.write(id, position) }
    var list = try ListLabeling<String>(ids: ["a", "b", "c", "d", "e"])
    // Example: Sources/OrderingCore/Storage/LabeledList.swift, on a ListLabeling
    // .onMove { offsets, toOffset in model.move(Array(offsets), toOffset) }
    let changes = try list.move(fromOffsets: [0, 2], toOffset: 4)
    for change in changes { save(change.id, change.new) }
    // End of example.
    #expect(list.rows.map(\.id) == ["b", "d", "a", "c", "e"])
    #expect(saved.writes.count == 2)
  }

  @Test func orderKeyListLoading() throws {
    let saved = Saved()
    func save(_ id: String, _ key: OrderKey) { saved.write(id, key) }
    let storedRows: [OrderKeyList<String>.Row] = [
      .init(id: "eggs", key: try OrderKey(validating: "a1")),
      .init(id: "milk", key: try OrderKey(validating: "a0")),
    ]
    // Example: Sources/OrderingCore/OrderKeyList/OrderKeyList+Moves.swift, loading(_:budget:)
    let (list, repairs) = try OrderKeyList.loading(storedRows)
    for change in repairs { save(change.id, change.new) }  // usually none
    // End of example.
    #expect(list.rows.map(\.id) == ["milk", "eggs"])
    #expect(saved.writes.isEmpty)
  }

  /// A forest of `trip` with the children a…e.
  static func trip() throws -> OrderedForest<String> {
    var forest = OrderedForest<String>()
    try forest.insert("trip", at: .lastRoot)
    for id in ["a", "b", "c", "d", "e"] { try forest.insert(id, at: .lastChild(of: "trip")) }
    return forest
  }

  @Test func forestMoveFromOffsets() throws {
    var forest = try Self.trip()
    // Example: Sources/OrderingCore/Forest/OrderedForest+Offsets.swift, move(fromOffsets:…)
    // ForEach(forest.children(of: trip)) { … }.onMove { offsets, to in
    let changes = try forest.move(fromOffsets: [0, 2], toOffset: 4, under: "trip")
    // End of example.
    #expect(forest.children(of: "trip") == ["b", "d", "a", "c", "e"])
    #expect(changes.count == 2)
  }

  /// A view model that moves (refusals) and applies (ordering errors) under one typed throws.
  final class PlanModel {
    var forest: OrderedForest<String>
    var mirror: OrderedForest<String>
    var shaken = false

    init() throws {
      forest = try DocExampleTests.trip()
      mirror = forest
    }

    func shake() { shaken = true }

    // Example: Sources/OrderingCore/Forest/OrderedForest+Offsets.swift, init(_:)
    func drop(_ id: String, on target: String) throws(OrderingError) {
      let changes: ForestChangeSet<String>
      do { changes = try forest.move(id, to: .lastChild(of: target)) } catch {
        throw OrderingError(error)
      }
      try mirror.apply(changes)
    }
    // End of example.

    func dropAndShake(_ id: String, on target: String) {
      do throws(OrderingError) {
        try drop(id, on: target)
      } catch {
        // Example: Sources/OrderingCore/Forest/OrderedForest+Offsets.swift, refusal(of:)
        if case .intoOwnSubtree? = error.refusal(of: String.self)?.reason { shake() }
        // End of example.
      }
    }
  }

  @Test func oneTypedThrowsForMovingAndApplying() throws {
    let model = try PlanModel()
    try model.drop("a", on: "b")
    #expect(model.forest.children(of: "b") == ["a"])
    #expect(model.mirror == model.forest)
    model.dropAndShake("trip", on: "c")
    #expect(model.shaken)
    do throws(OrderingError) {
      try model.drop("trip", on: "trip")
      Issue.record("a node was dropped into itself")
    } catch {
      #expect(error.code == .refused)
      #expect(
        error.description
          == "cannot move trip as the last child of trip: a node cannot go inside itself")
      #expect(
        error.refusal(of: String.self)?.reason == .intoOwnSubtree(node: "trip", target: "trip"))
      #expect(error.refusal(of: Int.self) == nil)
    }
    #expect(model.mirror == model.forest)
  }
}
