import OffloadTestSupport
import OrderingCore
import Testing

@Suite("OrderedForest: the key budget holds on every path")
struct OrderedForestKeyBudgetTests {
  /// A forest of `count` roots with a budget of 8 bytes.
  func forest(_ count: Int, budget: Int = 8) throws -> OrderedForest<Int> {
    var forest = OrderedForest<Int>(constraints: .init(keyBudget: budget))
    for id in 0..<count { try forest.insert(id, at: .root(at: id)) }
    return forest
  }

  func longestKey(_ forest: OrderedForest<Int>) -> Int {
    forest.flattened().map { forest.key(of: $0.id).length }.max() ?? 0
  }

  @Test func singleMovesIntoOneGapStayWithinTheBudget() throws {
    var forest = try forest(40)
    // Always between the first two roots: without a budget keys grow a byte per six moves.
    for id in 2..<40 { try forest.move(id, to: .after(0)) }
    #expect(longestKey(forest) <= 8)
    forest.checkInvariants()
  }

  @Test func selectionMovesAndInsertsStayWithinTheBudget() throws {
    var forest = try forest(60)
    var next = 1_000
    for round in 0..<120 {
      if round.isMultiple(of: 2) {
        try forest.move([2 + round % 50, 3 + round % 50], to: .after(0))
      } else {
        try forest.insert(next, at: .after(0))
        next += 1
      }
      #expect(longestKey(forest) <= 8, "round \(round)")
    }
    forest.checkInvariants()
  }

  @Test func theChangeSetListsEveryReKeyedNodeOnce() throws {
    var forest = try forest(30)
    var replica = forest
    for id in 2..<30 {
      let changes = try forest.move(id, to: .after(0))
      #expect(Set(changes.changes.map(\.id)).count == changes.changes.count)
      // Applying the change set to a copy gives the same forest: it says every re-key.
      try replica.apply(changes)
      #expect(replica == forest)
    }
  }

  @Test func withoutABudgetKeysGrow() throws {
    var forest = OrderedForest<Int>()
    for id in 0..<40 { try forest.insert(id, at: .root(at: id)) }
    for id in 2..<40 { try forest.move(id, to: .after(0)) }
    #expect(longestKey(forest) > 8)
  }
}
