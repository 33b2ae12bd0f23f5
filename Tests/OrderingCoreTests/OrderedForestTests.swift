import OffloadTestSupport
import Testing

@testable import OrderingCore

@Suite("OrderedForest: queries")
struct OrderedForestQueryTests {
  @Test func emptyForest() {
    let forest = Forest()
    #expect(forest.isEmpty)
    #expect(forest.count == 0)
    #expect(forest.roots.isEmpty)
    #expect(forest.flattened().isEmpty)
    #expect(forest.height == -1)
    #expect(!forest.contains("a"))
    #expect(forest.placement(of: "a") == nil)
  }

  @Test func structureQueries() throws {
    let forest = try outline("a(b(c d) e) f(g)")
    #expect(render(forest) == "a(b(c d) e) f(g)")
    #expect(forest.count == 7)
    #expect(forest.roots == ["a", "f"])
    #expect(forest.children(of: "a") == ["b", "e"])
    #expect(forest.childCount(of: "b") == 2)
    #expect(forest.parent(of: "c") == "b")
    #expect(forest.parent(of: "a") == nil)
    #expect(forest.depth(of: "a") == 0)
    #expect(forest.depth(of: "d") == 2)
    #expect(forest.ancestors(of: "d") == ["b", "a"])
    #expect(forest.ancestors(of: "f").isEmpty)
    #expect(forest.isAncestor("a", of: "d"))
    #expect(!forest.isAncestor("d", of: "a"))
    #expect(!forest.isAncestor("a", of: "a"))
    #expect(forest.subtree(of: "a") == ["a", "b", "c", "d", "e"])
    #expect(forest.subtree(of: "g") == ["g"])
    #expect(forest.subtreeHeight(of: "a") == 2)
    #expect(forest.subtreeHeight(of: "f") == 1)
    #expect(forest.subtreeHeight(of: "e") == 0)
    #expect(forest.siblingIndex(of: "e") == 1)
    #expect(forest.siblingIndex(of: "f") == 1)
    #expect(forest.previousSibling(of: "e") == "b")
    #expect(forest.previousSibling(of: "b") == nil)
    #expect(forest.nextSibling(of: "b") == "e")
    #expect(forest.nextSibling(of: "f") == nil)
    #expect(forest.height == 2)
    #expect(forest.contains("g"))
    #expect(forest.key(of: "a") == .first)
    #expect(
      forest.placement(of: "e")
        == Forest.Placement(parent: "a", key: try OrderKey(validating: "a1")))
  }

  @Test func flattenAndVisibleRows() throws {
    let forest = try outline("a(b(c d) e) f(g)")
    let rows = forest.flattened()
    #expect(rows.map(\.id) == ["a", "b", "c", "d", "e", "f", "g"])
    #expect(rows.map(\.depth) == [0, 1, 2, 2, 1, 0, 1])
    #expect(rows.map(\.parent) == [nil, "a", "b", "b", "a", nil, "f"])
    #expect(rows.map(\.childCount) == [2, 2, 0, 0, 0, 1, 0])
    #expect(forest.visibleRows(collapsed: []).map(\.id) == rows.map(\.id))
    #expect(forest.visibleRows(collapsed: ["b"]).map(\.id) == ["a", "b", "e", "f", "g"])
    #expect(forest.visibleRows(collapsed: ["a", "g", "zz"]).map(\.id) == ["a", "f", "g"])
    #expect(forest.visibleRows(collapsed: ["b", "a"]).map(\.id) == ["a", "f", "g"])
  }

  @Test func equalityIsStructuralAndIgnoresConstraints() throws {
    var a = try outline("a(b) c")
    let b = try outline("a(b) c", constraints: .init(maximumDepth: 1))
    #expect(a == b)
    try a.move("c", to: .root(at: 0))
    #expect(a != b)
    #expect(try outline("a b") != outline("a(b)"))
    #expect(try outline("a b") != outline("a"))
    #expect(try outline("a b") != outline("a c"))
  }
}

@Suite("OrderedForest: moves")
struct OrderedForestMoveTests {
  @Test(
    arguments: [
      (Forest.Destination.before("a"), "e a(b(c d)) f(g)"),
      (.after("f"), "a(b(c d)) f(g) e"),
      (.after("c"), "a(b(c e d)) f(g)"),
      (.before("c"), "a(b(e c d)) f(g)"),
      (.firstChild(of: "f"), "a(b(c d)) f(e g)"),
      (.lastChild(of: "f"), "a(b(c d)) f(g e)"),
      (.lastChild(of: "g"), "a(b(c d)) f(g(e))"),
      (.root(at: 0), "e a(b(c d)) f(g)"),
      (.root(at: 1), "a(b(c d)) e f(g)"),
      (.root(at: 2), "a(b(c d)) f(g) e"),
      (.lastRoot, "a(b(c d)) f(g) e"),
      (.after("b"), "a(b(c d) e) f(g)"),
      (.before("e"), "a(b(c d) e) f(g)"),
    ])
  func moveLeafEverywhere(destination: Forest.Destination, expected: String) throws {
    var forest = try outline("a(b(c d) e) f(g)")
    let before = forest
    let changes = try forest.move("e", to: destination)
    #expect(render(forest) == expected)
    #expect(publicInvariantProblem(forest) == nil)
    if forest == before {
      #expect(changes.isEmpty, "a move to the same place writes nothing")
    } else {
      #expect(changes.count == 1)
      #expect(changes.changes[0].id == "e")
      #expect(changes.changes[0].old == before.placement(of: "e"))
      #expect(changes.changes[0].new == forest.placement(of: "e"))
    }
    try forest.apply(changes.inverted)
    #expect(forest == before)
    try forest.apply(changes)
    #expect(render(forest) == expected)
  }

  @Test func movesCarryTheSubtreeAndKeepOtherKeys() throws {
    var forest = try outline("a(b(c d) e) f(g)")
    let keys = forest.flattened().map { ($0.id, forest.key(of: $0.id)) }
    let changes = try forest.move("b", to: .lastChild(of: "g"))
    #expect(render(forest) == "a(e) f(g(b(c d)))")
    #expect(changes.count == 1)
    for (id, key) in keys where id != "b" { #expect(forest.key(of: id) == key) }
    #expect(forest.depth(of: "d") == 3)
  }

  @Test func rootMovesCountIndexWithoutTheMovedNode() throws {
    var forest = try outline("a b c d")
    try forest.move("a", to: .root(at: 3))
    #expect(render(forest) == "b c d a")
    try forest.move("a", to: .root(at: 0))
    #expect(render(forest) == "a b c d")
    try forest.move("b", to: .root(at: 2))
    #expect(render(forest) == "a c b d")
    try forest.move(["a", "d"], to: .root(at: 1))
    #expect(render(forest) == "c a d b")
    #expect(try forest.move("b", to: .lastRoot).isEmpty)
    try forest.move("c", to: .lastRoot)
    #expect(render(forest) == "a d b c")
    #expect(forest.resolve("c", to: .lastRoot).map(\.index) == .success(3))
  }

  @Test func newKeysComeFromTheNeighbours() throws {
    var forest = try outline("a b c")
    let changes = try forest.move("c", to: .after("a"))
    let expected = try OrderKey.between(forest.key(of: "a"), forest.key(of: "b"))
    #expect(changes.changes[0].new?.key == expected)
    #expect(forest.key(of: "c") == expected)
  }

  @Test func selectionMovesKeepPreorderAndCarryDescendants() throws {
    var forest = try outline("a(b(c d) e) f(g) h")
    // "c" travels with "b"; "h", "b" and "g" stand in preorder whatever the given order.
    let changes = try forest.move(["h", "c", "g", "b"], to: .firstChild(of: "e"))
    #expect(render(forest) == "a(e(b(c d) g h)) f")
    #expect(Set(changes.changes.map(\.id)) == ["b", "g", "h"])
    #expect(publicInvariantProblem(forest) == nil)
    let resolved = try forest.resolve(["g", "h"], to: .root(at: 0)).get()
    #expect(resolved.nodes == ["g", "h"])
    #expect(resolved.parent == nil)
    #expect(resolved.index == 0)
    #expect(resolved.depth == 0)
    #expect(resolved.clampedBy == nil)
    #expect(!resolved.changesNothing)
    #expect(try forest.resolve(["b", "g", "h"], to: .after("b")).get().changesNothing)
    #expect(try forest.move(["g", "b", "h"], to: .firstChild(of: "e")).isEmpty)
  }

  @Test func selectionMayNameASelectedNodeAsAnchor() throws {
    var forest = try outline("a b c d e")
    try forest.move(["b", "d"], to: .after("d"))
    // `.after(d)` with d selected is the gap after d among the unselected siblings:
    // between c and e.
    #expect(render(forest) == "a c b d e")
    var other = try outline("a b c d e")
    try other.move(["b", "d"], to: .before("b"))
    #expect(render(other) == "a b d c e")
  }

  @Test func indentAndOutdent() throws {
    var forest = try outline("a b c(d e)")
    try forest.indent("b")
    #expect(render(forest) == "a(b) c(d e)")
    try forest.indent("e")
    #expect(render(forest) == "a(b) c(d(e))")
    try forest.outdent("e")
    #expect(render(forest) == "a(b) c(d e)")
    try forest.outdent("d")
    #expect(render(forest) == "a(b) c(e) d")
    let changes = try forest.indent("c")
    #expect(render(forest) == "a(b c(e)) d")
    try forest.apply(changes.inverted)
    #expect(render(forest) == "a(b) c(e) d")
  }

  @Test func selectionIndentNestsEachRunUnderTheSiblingBeforeIt() throws {
    var forest = try outline("a b c d e(f g h)")
    // Two runs (b c, and d alone is not selected), a run inside e, and c's order kept.
    let changes = try forest.indent(["c", "b", "g", "h"])
    #expect(render(forest) == "a(b c) d e(f(g h))")
    #expect(Set(changes.changes.map(\.id)) == ["b", "c", "g", "h"])
    try forest.apply(changes.inverted)
    #expect(render(forest) == "a b c d e(f g h)")
    // Two separate runs under one parent.
    try forest.indent(["b", "d"])
    #expect(render(forest) == "a(b) c(d) e(f g h)")
  }

  @Test func selectionIndentCarriesDescendantsWithTheirAncestor() throws {
    var forest = try outline("a b(c d)")
    try forest.indent(["b", "d"])
    #expect(render(forest) == "a(b(c d))")
  }

  @Test func selectionOutdentKeepsTheOrderAfterTheParent() throws {
    var forest = try outline("a(b c d) e(f)")
    let changes = try forest.outdent(["d", "b", "f"])
    #expect(render(forest) == "a(c) b d e f")
    try forest.apply(changes.inverted)
    #expect(render(forest) == "a(b c d) e(f)")
  }

  @Test func selectionIndentAndOutdentAreAllOrNothing() throws {
    var forest = try outline("a b c(d)")
    let before = forest
    // c can be indented, a cannot: nothing moves, and the refusal names the request.
    #expect {
      try forest.indent(["c", "a"])
    } throws: { error in
      guard let refusal = error as? Forest.Refusal else { return false }
      return refusal.reason == .noPreviousSibling("a")
        && refusal.request == .init(.indent, nodes: ["c", "a"], destination: nil)
    }
    #expect(forest == before)
    #expect {
      try forest.outdent(["d", "b"])
    } throws: { error in
      (error as? Forest.Refusal)?.reason == .alreadyRoot("b")
    }
    #expect(forest == before)
    // A depth limit refuses the second indent after the first was done: both are undone.
    var limited = try outline("a b c(d)", constraints: .init(maximumDepth: 1))
    let limitedBefore = limited
    #expect {
      try limited.indent(["b", "c"])
    } throws: { error in
      guard case .tooDeep(let node, _, _) = (error as? Forest.Refusal)?.reason else {
        return false
      }
      return node == "c"
    }
    #expect(limited == limitedBefore)
    #expect(throws: Forest.Refusal.self) { try forest.indent([String]()) }
    #expect(throws: Forest.Refusal.self) { try forest.outdent(["b", "zz"]) }
    #expect(forest == before)
  }

  @Test func randomSelectionIndentsAndOutdentsKeepInvariantsAndUndo() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(0x1DE_0005))
    let records = (0..<300).map { id in
      OrderedForest<Int>.Record(
        id: id, parent: id == 0 || rng.chance(0.3) ? nil : rng.index(below: id),
        order: .position(rng.index(below: 300)))
    }
    var forest = OrderedForest<Int>.build(
      from: records, constraints: .init(maximumDepth: 8)
    ).forest
    var done = 0
    for step in 0..<600 {
      let picked = (0..<(1 + rng.index(below: 5))).map { _ in rng.index(below: 300) }
      let before = forest
      do {
        let changes =
          rng.chance(0.5) ? try forest.indent(picked) : try forest.outdent(picked)
        done += 1
        #expect(forest.firstInvariantViolation() == nil, "step \(step)")
        var undone = forest
        try undone.apply(changes.inverted)
        #expect(undone == before, "undo, step \(step)")
      } catch let refusal as OrderedForest<Int>.Refusal {
        #expect(forest == before, "\(refusal) changed the forest, step \(step)")
      }
    }
    #expect(done > 100, "only \(done) of 600 selection indents and outdents went through")
  }

  @Test func insertAndRemove() throws {
    var forest = Forest()
    let first = try forest.insert("a", at: .root(at: 0))
    #expect(first.changes == [.init(id: "a", old: nil, new: .init(parent: nil, key: .first))])
    try forest.insert("b", at: .lastChild(of: "a"))
    try forest.insert("c", at: .before("b"))
    try forest.insert("d", at: .root(at: 1))
    #expect(render(forest) == "a(c b) d")
    let before = forest
    let removal = try forest.remove("a")
    #expect(render(forest) == "d")
    #expect(removal.changes.map(\.id) == ["a", "c", "b"])
    #expect(removal.changes.allSatisfy { $0.new == nil })
    try forest.apply(removal.inverted)
    #expect(forest == before)
    #expect(publicInvariantProblem(forest) == nil)
    #expect(throws: OrderingError.self) { try forest.remove("zz") }
    do {
      try forest.remove("zz")
    } catch {
      #expect(error.code == .unknownNode)
      #expect(error.description == "cannot remove zz: the forest holds no such node")
    }
  }

  @Test func removingTheLastSlotsKeepsTheMapConsistent() throws {
    var forest = try outline("a(b c(d)) e(f g)")
    try forest.remove("b")
    try forest.remove("e")
    #expect(render(forest) == "a(c(d))")
    #expect(forest.firstInvariantViolation() == nil)
    try forest.remove("a")
    #expect(forest.isEmpty)
  }
}

@Suite("OrderedForest: flatten and conversions")
struct OrderedForestConversionTests {
  @Test func planToListFlattensInPreorder() throws {
    var forest = try outline("a(b(c d) e) f(g)")
    let before = forest
    let changes = try #require(Optional(forest.convertToList()))
    #expect(render(forest) == "a b c d e f g")
    #expect(
      forest.roots.map { forest.key(of: $0).rawValue } == [
        "a0", "a1", "a2", "a3", "a4", "a5", "a6",
      ])
    // "a" keeps a0 as a root: only the others change.
    #expect(changes.changes.map(\.id) == ["b", "c", "d", "e", "f", "g"])
    try forest.apply(changes.inverted)
    #expect(forest == before)
    // A list stays as it is.
    var list = try outline("x y z")
    #expect(list.convertToList().isEmpty)
  }

  @Test func outlineRoundTripsFlatten() throws {
    let forest = try outline("a(b(c d) e) f(g)")
    let rows = forest.flattened().map { (id: $0.id, depth: $0.depth) }
    #expect(try Forest(outline: rows) == forest)
    #expect(Forest.build(from: forest.records).forest == forest)
    #expect(Forest.build(from: forest.records).report.isClean)
  }

  @Test(
    arguments: [
      (
        [("a", 1)],
        "invalid outline: row 0 (a) has depth 1, but it can be 0...0 after the row before it"
      ),
      (
        [("a", 0), ("b", 2)],
        "invalid outline: row 1 (b) has depth 2, but it can be 0...1 after the row before it"
      ),
      (
        [("a", 0), ("b", -1)],
        "invalid outline: row 1 (b) has depth -1, but it can be 0...1 after the row before it"
      ),
    ] as [([(String, Int)], String)])
  func badOutlines(rows: [(String, Int)], message: String) {
    do {
      _ = try Forest(outline: rows.map { (id: $0.0, depth: $0.1) })
      Issue.record("accepted a bad outline")
    } catch {
      #expect(error.code == .invalidOutline)
      #expect(error.description == message)
    }
  }

  @Test func outlineWithRepeatedID() {
    do {
      _ = try Forest(outline: [(id: "a", depth: 0), (id: "a", depth: 1)])
      Issue.record("accepted a repeated id")
    } catch {
      #expect(error.code == .duplicateNode)
      #expect(error.description == "invalid outline: row 1 repeats the id a")
    }
  }
}

@Suite("OrderedForest: change sets")
struct OrderedForestChangeSetTests {
  @Test func describesChanges() throws {
    var forest = try outline("a b")
    let changes = try forest.move("b", to: .lastChild(of: "a"))
    #expect(changes.description == "b: root at a1 -> under a at a0")
    #expect(changes.inverted.description == "b: under a at a0 -> root at a1")
    let insert = try forest.insert("c", at: .root(at: 1))
    #expect(insert.description == "c: absent -> root at a1")
  }

  @Test func staleChangeSetsAreRefused() throws {
    var forest = try outline("a b c")
    let changes = try forest.move("c", to: .before("a"))
    do {
      try forest.apply(changes)
      Issue.record("applied a change set twice")
    } catch {
      #expect(error.code == .staleChange)
      #expect(
        error.description
          == "cannot apply the change set: node c is root at Zz, not root at a2 as the change expects"
      )
    }
    #expect(render(forest) == "c a b")
  }

  @Test func invalidChangeSetsAreRefusedAndChangeNothing() throws {
    let forest = try outline("a(b) c")
    let a0 = OrderKey.first
    let a1 = try OrderKey(validating: "a1")
    let a5 = try OrderKey(validating: "a5")
    let cases: [(Forest.ChangeSet, OrderingError.Code, String)] = [
      (
        Forest.ChangeSet([
          .init(id: "c", old: .init(parent: nil, key: a1), new: .init(parent: nil, key: a5)),
          .init(id: "c", old: .init(parent: nil, key: a5), new: .init(parent: nil, key: a1)),
        ]), .invalidChange, "cannot apply the change set: node c is listed more than once"
      ),
      (
        Forest.ChangeSet([
          .init(id: "c", old: .init(parent: nil, key: a1), new: .init(parent: "zz", key: a0))
        ]), .invalidChange,
        "cannot apply the change set: c would be under zz, which would not exist"
      ),
      (
        Forest.ChangeSet([
          .init(id: "c", old: .init(parent: nil, key: a1), new: .init(parent: nil, key: a0))
        ]), .invalidChange,
        "cannot apply the change set: c would share key a0 with a under the root"
      ),
      (
        Forest.ChangeSet([
          .init(id: "x", old: nil, new: .init(parent: "a", key: a5)),
          .init(id: "y", old: nil, new: .init(parent: "a", key: a5)),
        ]), .invalidChange, "cannot apply the change set: x and y would share key a5 under a"
      ),
      (
        Forest.ChangeSet([
          .init(id: "a", old: .init(parent: nil, key: a0), new: .init(parent: "b", key: a5))
        ]), .invalidChange, "cannot apply the change set: a would be inside its own subtree"
      ),
      (
        Forest.ChangeSet([.init(id: "a", old: .init(parent: nil, key: a0), new: nil)]),
        .invalidChange,
        "cannot apply the change set: removing a would leave its child b without a parent"
      ),
      (
        Forest.ChangeSet([.init(id: "q", old: .init(parent: nil, key: a0), new: nil)]),
        .staleChange,
        "cannot apply the change set: node q is absent, not root at a0 as the change expects"
      ),
    ]
    for (changes, code, message) in cases {
      var copy = forest
      do {
        try copy.apply(changes)
        Issue.record("applied \(changes)")
      } catch {
        #expect(error.code == code)
        #expect(error.description == message)
      }
      #expect(copy == forest)
    }
  }

  @Test func changeSetsSwapKeysBetweenNodes() throws {
    var forest = try outline("a b")
    let a0 = OrderKey.first
    let a1 = try OrderKey(validating: "a1")
    // Two nodes trade keys in one change set: valid, though no single move makes it.
    try forest.apply(
      Forest.ChangeSet([
        .init(id: "a", old: .init(parent: nil, key: a0), new: .init(parent: nil, key: a1)),
        .init(id: "b", old: .init(parent: nil, key: a1), new: .init(parent: nil, key: a0)),
      ]))
    #expect(render(forest) == "b a")
  }
}

@Suite("OrderedForest: the guide's example")
struct OrderedForestGuideTests {
  @Test func guideExampleRunsAsWritten() throws {
    let rows: [OrderedForest<String>.Record] = [
      .init(id: "trip", parent: nil, order: .key("a0")),
      .init(id: "pack", parent: "trip", order: .key("a0")),
      .init(id: "book", parent: "trip", order: .key("a0")),
      .init(id: "note", parent: "gone", order: .key("a1")),
    ]
    var (forest, report) = OrderedForest<String>.build(from: rows)
    #expect(
      report.description == """
        note names parent gone, which does not exist: it became a root
        pack shares order key "a0" with book: it got a new key right after book
        """)
    #expect(report.rewritten == ["pack", "note"])
    forest.constraints = .init(
      maximumDepth: 3,
      rules: [.fixed("pinned", reason: "the trip stays first") { $0 == "trip" }])
    let before = forest
    let moved = try forest.move("note", to: .lastChild(of: "trip"))
    #expect(moved.count == 1)
    let indented = try forest.indent("note")
    #expect(render(forest) == "trip(book pack(note))")
    try forest.apply(indented.inverted)
    try forest.apply(moved.inverted)
    #expect(forest == before)
    #expect(forest.visibleRows(collapsed: ["trip"]).map(\.id) == ["trip", "note"])
    #expect(forest.convertToList().count == 3)
    #expect(render(forest) == "trip book pack note")
  }
}
