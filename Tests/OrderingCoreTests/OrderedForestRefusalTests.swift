import OffloadTestSupport
import Testing

@testable import OrderingCore

@Suite("OrderedForest: refusals")
struct OrderedForestRefusalTests {
  /// Runs `body`, which must throw a refusal; checks reason, request and message, and that
  /// the forest did not change.
  func expectRefusal(
    _ forest: Forest, _ reason: Forest.Refusal.Reason, _ message: String,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (inout Forest) throws(Forest.Refusal) -> Forest.ChangeSet
  ) {
    var copy = forest
    do {
      let changes = try body(&copy)
      Issue.record("not refused: \(changes)", sourceLocation: sourceLocation)
    } catch {
      #expect(error.reason == reason, sourceLocation: sourceLocation)
      #expect(error.description == message, sourceLocation: sourceLocation)
    }
    #expect(copy == forest, sourceLocation: sourceLocation)
  }

  @Test func everyReasonIsReachedWithItsMessage() throws {
    var constraints = Forest.Constraints(maximumDepth: 3)
    constraints.rules = [
      .fixed("pinned", reason: "it is pinned", where: { $0 == "pin" }),
      .parents("no nesting under leaves", reason: "x holds no children") { _, parent in
        parent != "x"
      },
      .parents("clamped", resolution: .clamp, reason: "q never goes under y") { node, parent in
        !(node == "q" && parent != nil)
      },
    ]
    constraints.clampSearchLimit = 2
    let forest = try outline("a(b(c(d))) pin x q y(z)", constraints: constraints)

    expectRefusal(
      forest, .unknownNode("nope"), "cannot move nope after a: the forest holds no node nope"
    ) {
      (f) throws(Forest.Refusal) in try f.move("nope", to: .after("a"))
    }
    expectRefusal(
      forest, .unknownNode("nope"), "cannot move b before nope: the forest holds no node nope"
    ) {
      (f) throws(Forest.Refusal) in try f.move("b", to: .before("nope"))
    }
    expectRefusal(forest, .unknownNode("nope"), "cannot indent nope: the forest holds no node nope")
    {
      (f) throws(Forest.Refusal) in try f.indent("nope")
    }
    expectRefusal(
      forest, .unknownNode("nope"), "cannot outdent nope: the forest holds no node nope"
    ) {
      (f) throws(Forest.Refusal) in try f.outdent("nope")
    }
    expectRefusal(
      forest, .duplicateNode("a"),
      "cannot insert a at root index 0: the forest already holds a node a"
    ) {
      (f) throws(Forest.Refusal) in try f.insert("a", at: .root(at: 0))
    }
    expectRefusal(forest, .emptySelection, "cannot move 0 nodes () after a: no node is selected") {
      (f) throws(Forest.Refusal) in try f.move([String](), to: .after("a"))
    }
    expectRefusal(
      forest, .intoOwnSubtree(node: "a", target: "c"),
      "cannot move a as the last child of c: c is inside a's subtree, and a node cannot go inside its own subtree"
    ) { (f) throws(Forest.Refusal) in try f.move("a", to: .lastChild(of: "c")) }
    expectRefusal(
      forest, .intoOwnSubtree(node: "b", target: "b"),
      "cannot move b as the first child of b: a node cannot go inside itself"
    ) { (f) throws(Forest.Refusal) in try f.move("b", to: .firstChild(of: "b")) }
    expectRefusal(
      forest, .intoOwnSubtree(node: "a", target: "d"),
      "cannot move 2 nodes (x, a) before d: d is inside a's subtree, and a node cannot go inside its own subtree"
    ) { (f) throws(Forest.Refusal) in try f.move(["x", "a"], to: .before("d")) }
    expectRefusal(
      forest, .rootIndexOutOfRange(index: 6, rootCount: 4),
      "cannot move a at root index 6: root index 6 is outside 0...4"
    ) { (f) throws(Forest.Refusal) in try f.move("a", to: .root(at: 6)) }
    expectRefusal(
      forest, .rootIndexOutOfRange(index: -1, rootCount: 5),
      "cannot move d at root index -1: root index -1 is outside 0...5"
    ) { (f) throws(Forest.Refusal) in try f.move("d", to: .root(at: -1)) }
    // The moved subtree's own height counts: b's subtree is 2 deep, so under z it reaches 4.
    expectRefusal(
      forest, .tooDeep(node: "b", depth: 4, limit: 3),
      "cannot move b as the last child of z: b's subtree would reach depth 4, deeper than the maximum depth 3"
    ) { (f) throws(Forest.Refusal) in try f.move("b", to: .lastChild(of: "z")) }
    expectRefusal(
      forest, .tooDeep(node: "z", depth: 4, limit: 3),
      "cannot move z as the last child of d: z's subtree would reach depth 4, deeper than the maximum depth 3"
    ) { (f) throws(Forest.Refusal) in try f.move("z", to: .lastChild(of: "d")) }
    expectRefusal(
      forest, .notMovable(node: "pin", rule: "pinned", reason: "it is pinned"),
      "cannot move pin after x: pin cannot be moved (rule \"pinned\": it is pinned)"
    ) { (f) throws(Forest.Refusal) in try f.move("pin", to: .after("x")) }
    expectRefusal(
      forest,
      .ruleRefused(node: "y", rule: "no nesting under leaves", reason: "x holds no children"),
      "cannot move y as the last child of x: y may not go there (rule \"no nesting under leaves\": x holds no children)"
    ) { (f) throws(Forest.Refusal) in try f.move("y", to: .lastChild(of: "x")) }
    expectRefusal(
      forest, .noAllowedPlace(node: "q", rule: "clamped", reason: "q never goes under y"),
      "cannot move q as the last child of c: q may not go there (rule \"clamped\": q never goes under y) and no allowed place is near"
    ) { (f) throws(Forest.Refusal) in try f.move("q", to: .lastChild(of: "c")) }
    expectRefusal(
      forest, .noPreviousSibling("b"),
      "cannot indent b: b is the first of its siblings, so there is no sibling to indent under"
    ) { (f) throws(Forest.Refusal) in try f.indent("b") }
    expectRefusal(
      forest, .alreadyRoot("a"),
      "cannot outdent a: a is a root, so there is no parent to outdent from"
    ) { (f) throws(Forest.Refusal) in try f.outdent("a") }
    expectRefusal(
      forest,
      .ruleRefused(node: "q", rule: "no nesting under leaves", reason: "x holds no children"),
      "cannot indent q: q may not go there (rule \"no nesting under leaves\": x holds no children)"
    ) { (f) throws(Forest.Refusal) in try f.indent("q") }
    expectRefusal(
      forest, .tooDeep(node: "e", depth: 4, limit: 3),
      "cannot insert e as the first child of d: e's subtree would reach depth 4, deeper than the maximum depth 3"
    ) { (f) throws(Forest.Refusal) in try f.insert("e", at: .firstChild(of: "d")) }
  }

  @Test func refusalCarriesTheRequest() throws {
    var forest = try outline("a(b)")
    do {
      try forest.move(["b", "a"], to: .lastChild(of: "b"))
      Issue.record("moved a node into itself")
    } catch {
      #expect(
        error.request == Forest.Request(.move, nodes: ["b", "a"], destination: .lastChild(of: "b")))
      #expect(error.request.operation == .move)
    }
    #expect(
      forest.resolve("a", to: .lastChild(of: "b")).failure?.reason
        == .intoOwnSubtree(node: "a", target: "b"))
  }

  @Test func aClampingRuleMovesToTheNearestAllowedPlace() throws {
    // "q" may only be a root: dropped deep inside "a", it goes to the nearest root gap.
    let onlyRoots = Forest.Rule.parents("roots only", resolution: .clamp, reason: "q stays a root")
    {
      node, parent in node != "q" || parent == nil
    }
    var forest = try outline("a(b(c d) e) q f", constraints: .init(rules: [onlyRoots]))
    // Places in preorder: (root 0) (a 0) (b 0) (c 0) (b 1) (d 0) (b 2) (a 1) (e 0) (a 2)
    // (root 1) (f 0) (root 2), with q's own gap at root 1. After c is (b 1): the root gap
    // before a is 4 places back, the one after a 6 places forward.
    let resolved = try forest.resolve("q", to: .after("c")).get()
    #expect(resolved.clampedBy == "roots only")
    #expect(resolved.parent == nil)
    #expect(resolved.index == 0)
    #expect(!resolved.changesNothing)
    // After e is (a 2): one place forward is q's own gap, so nothing changes.
    let stay = try forest.resolve("q", to: .after("e")).get()
    #expect(stay.index == 1 && stay.changesNothing && stay.clampedBy == "roots only")
    #expect(try forest.move("q", to: .after("e")).isEmpty)
    #expect(forest.resolve("q", to: .after("f")).map(\.clampedBy) == .success(nil))
    let changes = try forest.move("q", to: .after("c"))
    #expect(render(forest) == "q a(b(c d) e) f")
    #expect(changes.changes.first?.new?.parent == nil)
  }
}
