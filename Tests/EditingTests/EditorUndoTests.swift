import Editing
import OffloadTestSupport
import OrderingCore
import Testing

/// An itinerary of `(id, parent)` rows: two days, a game, a travel segment, a museum.
private func itinerary() -> Editor<String> {
  let rows: [(String, String?)] = [
    ("d1", nil), ("game", "d1"), ("travel", "d1"), ("d2", nil), ("museum", "d2"),
  ]
  let roles: [String: PlacementRole] = [
    "d1": .day(nil), "game": .fixed, "travel": .segment(1...1), "d2": .day(nil),
  ]
  let records = rows.enumerated().map { index, row in
    OrderedForest<String>.Record(id: row.0, parent: row.1, order: .position(index))
  }
  let forest = OrderedForest.build(from: records, constraints: .init(keyBudget: 16)).forest
  return Editor(
    forest: forest, rules: .plan(roots: forest.roots, roles: roles, maximumDepth: 3))
}

@Suite("Editor: undo checks what changed since and the rules, then takes a change back")
struct EditorUndoTests {
  @Test("a removal comes back whole, with its fields, and a seeded run of moves undoes")
  func removalsAndMovesComeBack() throws {
    var editor = itinerary()
    let start = editor.forest.flattened()
    var removed = editor.remove(["d1"])
    removed.fields = [.init(id: "game", name: "text", before: "Game", after: nil)]
    let inverse = try editor.undo(removed) { _, _ in nil }
    #expect(editor.forest.flattened() == start)
    #expect(inverse.intent == .undo)
    #expect(inverse.fields == [.init(id: "game", name: "text", before: nil, after: "Game")])
    var random = SplitMix64(seed: 27)
    var changes: [EditChange<String>] = []
    for _ in 0..<40 {
      let id = ["museum", "travel"][random.index(below: 2)]
      let day = ["d1", "d2"][random.index(below: 2)]
      if let change = try? editor.move([id], to: .lastChild(of: day)), !change.isEmpty {
        changes.append(change)
      }
    }
    #expect(changes.count > 10)
    for change in changes.reversed() { _ = try editor.undo(change) { _, _ in nil } }
    #expect(editor.forest.flattened() == start)
  }

  @Test("an item moved or edited since refuses, naming the first such item by id")
  func staleRefuses() throws {
    var editor = itinerary()
    let moved = try editor.move(["museum"], to: .lastChild(of: "d1"))
    _ = try editor.move(["museum"], to: .firstChild(of: "d1"))
    let after = editor.forest.flattened()
    #expect(throws: EditRefusal(code: "stale", reason: stale("museum"))) {
      _ = try editor.undo(moved) { _, _ in nil }
    }
    #expect(editor.forest.flattened() == after)
    let marked = editor.mark(["travel", "museum"], done: true) { _ in false }
    // Both were marked not done since: the first by id is named.
    #expect(throws: EditRefusal(code: "stale", reason: stale("museum"))) {
      _ = try editor.undo(marked) { _, name in name == "done" ? "false" : nil }
    }
    #expect(try editor.undo(marked) { _, name in name == "done" ? "true" : nil }.fields.count == 2)
  }

  @Test("a row that would return under a day header no longer a day refuses with the rule")
  func rulesRefuse() throws {
    var editor = itinerary()
    let moved = try editor.move(["museum"], to: .lastChild(of: "d1"))
    // Since, d2 stopped being a day header (another device cleared its role).
    var later = Editor(
      forest: editor.forest,
      rules: .plan(
        roots: editor.forest.roots, roles: ["d1": .day(nil), "game": .fixed],
        maximumDepth: 3))
    let before = later.forest.flattened()
    #expect(
      throws: EditRefusal(code: "placement", reason: PlacementRules<String>.itineraryReason)
    ) { _ = try later.undo(moved) { _, _ in nil } }
    #expect(later.forest.flattened() == before)
    #expect(later.rules.days.count == 1)
    // With the change's own role taken back too, the row returns.
    var roleBack = moved
    roleBack.fields = [.init(id: "d2", name: "role", before: "day", after: nil)]
    _ = try later.undo(roleBack) { _, _ in nil }
    #expect(later.forest.parent(of: "museum") == "d2")
  }
}

private func stale(_ id: String) -> String {
  "item \(id) changed since, and undo would overwrite that"
}
