import Editing
import OffloadTestSupport
import OrderingCore
import Testing

/// Builds an editor over a plan of `(id, parent)` rows with roles.
private func editor(
  _ rows: [(String, String?)], roles: [String: PlacementRole], kind list: Bool = false
) -> Editor<String> {
  let records = rows.enumerated().map { index, row in
    OrderedForest<String>.Record(id: row.0, parent: row.1, order: .position(index))
  }
  let forest = OrderedForest.build(from: records, constraints: .init(keyBudget: 16)).forest
  let rules: PlacementRules<String> =
    list ? .list() : .plan(roots: forest.roots, roles: roles, maximumDepth: 3)
  return Editor(forest: forest, rules: rules)
}

private let trip: [(String, String?)] = [
  ("d1", nil), ("game", "d1"), ("travel", "d1"), ("d2", nil), ("museum", "d2"),
]
private let tripRoles: [String: PlacementRole] = [
  "d1": .day(nil), "game": .fixed, "travel": .segment(1...1), "d2": .day(nil),
]

@Suite("Editor: text and role edits, moves to another collection")
struct EditorFieldsTests {
  @Test(
    "text: trimmed, or refused with one line naming what is wrong",
    arguments: [
      ("  Oat milk\t", "Oat milk", nil),
      ("", nil, "an item's text cannot be empty"),
      (" \t ", nil, "an item's text cannot be empty"),
      ("a\nb", nil, "an item's text must fit on one line"),
      ("a\u{1B}[2J", nil, "an item's text cannot hold the control character U+001B (column 2)"),
      ("x\u{202E}y", nil, "an item's text cannot hold the control character U+202E (column 2)"),
    ] as [(String, String?, String?)])
  func text(input: String, kept: String?, reason: String?) throws {
    let editor = editor(trip, roles: tripRoles)
    do throws(EditRefusal) {
      let change = try editor.editText("museum", to: input, from: "Museum")
      #expect(reason == nil)
      #expect(change.fields.count == 1)
      let field = change.fields.first
      #expect(field?.id == "museum" && field?.name == "text")
      #expect(field?.before == "Museum" && field?.after == kept)
    } catch {
      #expect(error.code == "text")
      #expect(error.reason == reason)
    }
  }

  @Test func textOfAnUnknownItemIsRefused() {
    #expect(throws: EditRefusal(code: "unknown", reason: "no such item in this collection")) {
      try editor(trip, roles: tripRoles).editText("nope", to: "x", from: "")
    }
  }

  @Test(
    "a role that would refuse the item's own place is refused with the rule's reason",
    arguments: [
      ("travel", PlacementRole.segment(2...3), false),
      ("museum", .day(nil), false),
      ("travel", .segment(1...2), true),
      ("museum", .fixed, true),
      ("museum", nil, true),
      ("d1", .day(1), true),
    ] as [(String, PlacementRole?, Bool)])
  func role(id: String, role: PlacementRole?, allowed: Bool) throws {
    var editor = editor(trip, roles: tripRoles)
    let before = editor.rules.roles
    do throws(EditRefusal) {
      let change = try editor.setRole(id, to: role) { tripRoles[$0] }
      #expect(allowed)
      #expect(editor.rules.roles[id] == role)
      #expect(change.fields.map(\.id) == (tripRoles[id] == role ? [] : [id]))
    } catch {
      #expect(!allowed)
      #expect(error.reason == PlacementRules<String>.itineraryReason)
      #expect(editor.rules.roles == before, "a refused role leaves the rules")
    }
  }

  @Test func aRoleSetInAConventionalPlanWritesTheConventionsRoles() throws {
    var editor = editor(trip, roles: tripRoles)
    // No role is stored: the rules came from the text convention.
    let change = try editor.setRole("museum", to: .fixed) { _ in nil }
    #expect(change.fields.count == tripRoles.count + 1)
    #expect(Set(change.fields.map(\.id)) == Set(tripRoles.keys).union(["museum"]))
    #expect(editor.rules.isItinerary)
  }

  @Test func aFixedRowStaysInItsCollection() {
    var source = editor(trip, roles: tripRoles)
    var target = editor([("a", nil)], roles: [:], kind: true)
    #expect(throws: EditRefusal(code: "fixed", reason: PlacementRules<String>.fixedReason)) {
      try source.move(["game"], into: &target, at: .lastRoot)
    }
    #expect(source.forest.contains("game") && !target.forest.contains("game"))
  }

  @Test func anItineraryTakesRowsOnlyOnADay() throws {
    var source = editor([("milk", nil), ("eggs", nil)], roles: [:], kind: true)
    var target = editor(trip, roles: tripRoles)
    #expect(
      throws: EditRefusal(code: "placement", reason: PlacementRules<String>.itineraryReason)
    ) { try source.move(["milk"], into: &target, at: .lastRoot) }
    #expect(source.forest.contains("milk") && !target.forest.contains("milk"))
    let moved = try source.move(["milk", "eggs"], into: &target, at: .lastChild(of: "d2"))
    #expect(moved.count == 2)
    #expect(target.forest.children(of: "d2") == ["museum", "milk", "eggs"])
    #expect(!source.forest.contains("milk") && !source.forest.contains("eggs"))
  }

  @Test("subtrees move whole, in preorder, over many seeded plans", arguments: 0..<40)
  func subtreesMoveWhole(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    var rows: [(String, String?)] = []
    var depth: [String: Int] = [:]
    for index in 0..<Int(random.next() % 20 + 2) {
      let shallow = rows.map(\.0).filter { depth[$0, default: 0] < 2 }
      let parent =
        index == 0 || random.next() % 3 == 0 ? nil : shallow.randomElement(using: &random)
      depth["n\(index)"] = parent.map { depth[$0, default: 0] + 1 } ?? 0
      rows.append(("n\(index)", parent))
    }
    var source = editor(rows, roles: [:])
    var target = editor([("t", nil)], roles: [:])
    let roots = source.forest.roots
    let tops = Array(roots.prefix(Int(random.next() % UInt64(roots.count)) + 1))
    let subtrees = tops.flatMap { source.forest.subtree(of: $0) }
    let depths = subtrees.map { source.forest.depth(of: $0) }
    let moved = try source.move(tops, into: &target, at: .lastRoot)
    #expect(moved.count == subtrees.count, "seed \(seed)")
    #expect(target.forest.flattened().map(\.id) == ["t"] + subtrees, "seed \(seed)")
    #expect(subtrees.map { target.forest.depth(of: $0) } == depths, "seed \(seed)")
    #expect(subtrees.allSatisfy { !source.forest.contains($0) }, "seed \(seed)")
  }
}
