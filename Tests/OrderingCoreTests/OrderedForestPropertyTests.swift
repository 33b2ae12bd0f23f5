import OffloadTestSupport
import Testing

@testable import OrderingCore

/// Seeded random operations on forests up to 5,000 nodes; after every operation the
/// invariants hold and the change set's inverse restores the previous forest.
@Suite("OrderedForest: properties over seeded random operations")
struct OrderedForestPropertyTests {
  typealias IntForest = OrderedForest<Int>

  /// One run: forest size, number of operations, whether constraints are on, seed.
  struct Run: CustomStringConvertible, Sendable {
    var size: Int
    var operations: Int
    var constrained: Bool
    var seed: UInt64
    var description: String {
      "\(size) nodes, \(operations) ops, constrained \(constrained), seed \(seed)"
    }
  }

  // 10,500 operations in all.
  static let runs: [Run] = [
    Run(size: 6, operations: 3000, constrained: false, seed: 1),
    Run(size: 30, operations: 3000, constrained: true, seed: 2),
    Run(size: 200, operations: 2700, constrained: false, seed: 3),
    Run(size: 1000, operations: 1300, constrained: true, seed: 4),
    Run(size: 5000, operations: 500, constrained: false, seed: 5),
  ]

  static func constraints(_ on: Bool) -> IntForest.Constraints {
    guard on else { return .init() }
    return .init(
      maximumDepth: 5,
      rules: [
        .fixed("every 13th stays", reason: "it is pinned") { $0 % 13 == 0 },
        .parents("multiples of 7 hold no children", resolution: .clamp, reason: "7s are leaves") {
          _, parent in parent.map { $0 % 7 != 0 } ?? true
        },
      ],
      clampSearchLimit: 64)
  }

  /// A random destination among the forest's nodes.
  static func destination(_ forest: IntForest, _ nodes: [Int], _ rng: inout SplitMix64)
    -> IntForest.Destination
  {
    guard !nodes.isEmpty else { return .root(at: 0) }
    let anchor = nodes[rng.index(below: nodes.count)]
    switch rng.index(below: 5) {
    case 0: return .before(anchor)
    case 1: return .after(anchor)
    case 2: return .firstChild(of: anchor)
    case 3: return .lastChild(of: anchor)
    default: return .root(at: rng.index(below: forest.roots.count + 2))
    }
  }

  @Test(arguments: runs)
  func randomOperationsKeepInvariantsAndUndo(run: Run) throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(run.seed))
    // A random forest from records: each node's parent is an earlier node (depth < 5) or
    // none, ordered by random positions.
    var records: [IntForest.Record] = []
    var depths: [Int] = []
    for id in 1...run.size {
      let parentIndex =
        rng.chance(0.2) ? nil : (records.isEmpty ? nil : rng.index(below: records.count))
      let parent = parentIndex.flatMap { depths[$0] < 5 ? records[$0].id : nil }
      depths.append(parent == nil ? 0 : depths[parentIndex ?? 0] + 1)
      records.append(.init(id: id, parent: parent, order: .position(rng.index(below: run.size))))
    }
    var forest = IntForest.build(from: records, constraints: Self.constraints(run.constrained))
      .forest
    var nodes = Array(1...run.size)
    var nextID = run.size + 1
    #expect(forest.firstInvariantViolation() == nil, "\(run)")
    var refusals = Set<String>()
    var applied = 0
    for step in 0..<run.operations {
      let before = forest
      var changes: IntForest.ChangeSet?
      let choice = rng.index(below: 100)
      do {
        switch choice {
        case 0..<40:
          // What a hovering pointer is told is what the drop does.
          let node = nodes[rng.index(below: nodes.count)]
          let destination = Self.destination(forest, nodes, &rng)
          let resolved = forest.resolve(node, to: destination)
          do {
            changes = try forest.move(node, to: destination)
          } catch {
            #expect(resolved.failure == error, "\(run) step \(step)")
            throw error
          }
          let place = try resolved.get()
          #expect(place.parent == forest.parent(of: node), "\(run) step \(step)")
          #expect(place.index == forest.siblingIndex(of: node), "\(run) step \(step)")
          #expect(place.depth == forest.depth(of: node), "\(run) step \(step)")
          #expect(place.changesNothing == changes?.isEmpty, "\(run) step \(step)")
        case 40..<55:
          let picked = (0..<(1 + rng.index(below: 6))).map { _ in
            nodes[rng.index(below: nodes.count)]
          }
          changes = try forest.move(picked, to: Self.destination(forest, nodes, &rng))
        case 55..<70:
          changes = try forest.indent(nodes[rng.index(below: nodes.count)])
        case 70..<85:
          changes = try forest.outdent(nodes[rng.index(below: nodes.count)])
        case 85..<93:
          changes = try forest.insert(nextID, at: Self.destination(forest, nodes, &rng))
          nodes.append(nextID)
          nextID += 1
        case 93..<99:
          // Remove a small subtree, keeping the forest near its size.
          let node = nodes[rng.index(below: nodes.count)]
          if forest.subtree(of: node).count <= 3 && nodes.count > 2 {
            let removed = Set(forest.subtree(of: node))
            changes = try forest.remove(node)
            nodes.removeAll { removed.contains($0) }
          }
        default:
          if run.size <= 200 { changes = forest.convertToList() }
        }
      } catch let refusal as IntForest.Refusal {
        refusals.insert("\(refusal.reason)".prefix { $0 != "(" }.description)
        #expect(forest == before, "a refusal changed the forest: \(run) step \(step)")
        continue
      }
      guard let changes else { continue }
      applied += 1
      // Invariants: no cycle, every parent exists, sibling keys increase, every node once.
      // (Debug builds also check them inside every mutation.)
      if step % 5 == 0, let problem = forest.firstInvariantViolation() {
        Issue.record("\(problem): \(run) step \(step)")
        return
      }
      let rows = forest.flattened()
      #expect(rows.count == forest.count && rows.count == nodes.count, "\(run) step \(step)")
      if step % 250 == 0 || run.size <= 30 {
        #expect(publicInvariantProblem(forest) == nil, "\(run) step \(step)")
        #expect(Set(rows.map(\.id)) == Set(nodes), "\(run) step \(step)")
      }
      // The change set lists only changed nodes and undoes exactly.
      for change in changes.changes { #expect(change.old != change.new) }
      var undone = forest
      try undone.apply(changes.inverted)
      #expect(undone == before, "undo did not restore: \(run) step \(step)")
      if step % 10 == 0 {
        try undone.apply(changes)
        #expect(undone == forest, "redo did not reapply: \(run) step \(step)")
      }
    }
    #expect(applied > run.operations / 3, "\(run): too few operations applied")
    if run.constrained {
      #expect(refusals.isSuperset(of: ["notMovable", "tooDeep", "alreadyRoot"]), "\(refusals)")
    }
  }
}
