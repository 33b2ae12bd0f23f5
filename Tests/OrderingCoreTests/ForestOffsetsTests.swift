import OffloadTestSupport
import Testing

@testable import OrderingCore

@Suite("OrderedForest: SwiftUI offsets within one parent, and refusals as OrderingError")
struct ForestOffsetsTests {
  /// A random forest of `count` nodes, ids 1…count.
  static func forest(_ count: Int, rng: inout SplitMix64) throws -> OrderedForest<Int> {
    var forest = OrderedForest<Int>()
    for id in 1...count {
      if id == 1 || rng.chance(0.3) {
        try forest.insert(id, at: .lastRoot)
      } else {
        try forest.insert(id, at: .lastChild(of: 1 + rng.index(below: id - 1)))
      }
    }
    return forest
  }

  @Test("A move by offsets reorders one parent's children as Array.move does, and undoes")
  func offsetsFollowArrayMove() throws {
    for seed in 0..<UInt64(150) {
      var rng = SplitMix64(seed: SplitMix64.testSeed(0xF0 + seed))
      var forest = try Self.forest(2 + rng.index(below: 30), rng: &rng)
      for step in 0..<20 {
        let parents = [nil] + (1...forest.count).filter { forest.childCount(of: $0) > 0 }
        let parent = parents[rng.index(below: parents.count)]
        let siblings = parent.map { forest.children(of: $0) } ?? forest.roots
        let k = 1 + rng.index(below: siblings.count)
        let offsets = Array(Array(siblings.indices).shuffled(using: &rng).prefix(k))
        let to = rng.index(below: siblings.count + 1)
        let before = forest
        let changes = try forest.move(fromOffsets: offsets, toOffset: to, under: parent)
        let after = parent.map { forest.children(of: $0) } ?? forest.roots
        let expected = arrayMove(siblings, fromOffsets: offsets, toOffset: to)
        #expect(after == expected, "\(rng) step \(step)")
        let moved = Set(offsets.map { siblings[$0] })
        #expect(changes.changes.allSatisfy { moved.contains($0.id) }, "\(rng) step \(step)")
        #expect(changes.isEmpty == (after == siblings), "\(rng) step \(step)")
        for id in 1...forest.count where !moved.contains(id) {
          #expect(forest.placement(of: id) == before.placement(of: id), "\(rng) step \(step)")
        }
        var undone = forest
        try undone.apply(changes.inverted)
        #expect(undone == before, "\(rng) step \(step)")
      }
    }
  }

  @Test("A moved node whose key still fits keeps it: only the others are written")
  func keptKeysAreNotWritten() throws {
    var forest = OrderedForest<String>()
    try forest.insert("trip", at: .lastRoot)
    for id in ["a", "b", "c", "d", "e"] { try forest.insert(id, at: .lastChild(of: "trip")) }
    let keyOfB = forest.key(of: "b")
    // b and d to before c: b already sits right before c, so only d is written.
    let changes = try forest.move(fromOffsets: [3, 1], toOffset: 2, under: "trip")
    #expect(forest.children(of: "trip") == ["a", "b", "d", "c", "e"])
    #expect(changes.changes.map(\.id) == ["d"])
    #expect(forest.key(of: "b") == keyOfB)
    // a, c and e to the end, after d: c and e already sort after d, so only a is written.
    let more = try forest.move(fromOffsets: [0, 3, 4], toOffset: 5, under: "trip")
    #expect(forest.children(of: "trip") == ["b", "d", "a", "c", "e"])
    #expect(more.changes.map(\.id) == ["a"])
  }

  @Test("Bad offsets, an unknown parent and a refusal throw OrderingError naming them")
  func badInput() throws {
    var forest = OrderedForest<String>()
    try forest.insert("trip", at: .lastRoot)
    try forest.insert("home", at: .lastRoot)
    for id in ["a", "b", "c"] { try forest.insert(id, at: .lastChild(of: "trip")) }
    let before = forest
    func failure(_ body: (inout OrderedForest<String>) throws -> Void) -> OrderingError? {
      do {
        try body(&forest)
        return nil
      } catch { return error as? OrderingError }
    }
    let unknown = try #require(
      failure { _ = try $0.move(fromOffsets: [0], toOffset: 1, under: "x") })
    #expect(unknown.code == .unknownNode)
    #expect(unknown.description == "cannot move the children of x: the forest holds no node x")
    let outside = try #require(
      failure { _ = try $0.move(fromOffsets: [3], toOffset: 0, under: "trip") })
    #expect(outside.code == .offsetOutOfRange)
    #expect(
      outside.description
        == "cannot move the child at offset 3: trip has 3 children, at offsets 0..<3")
    let twice = try #require(
      failure { _ = try $0.move(fromOffsets: [1, 1], toOffset: 0, under: nil) })
    #expect(twice.code == .duplicateOffset)
    #expect(twice.description == "cannot move roots: offset 1 is given twice")
    let far = try #require(failure { _ = try $0.move(fromOffsets: [0], toOffset: 3, under: nil) })
    #expect(
      far.description
        == "cannot move roots to offset 3: the forest has 2 roots, so a destination is in 0...2")
    // A rule's refusal is wrapped.
    forest.constraints.rules = [.fixed("home", reason: "home stays") { $0 == "home" }]
    let refused = try #require(
      failure { _ = try $0.move(fromOffsets: [1], toOffset: 0, under: nil) })
    #expect(refused.code == .refused)
    #expect(refused.refusal(of: String.self)?.reason.isRuleRefusal == true)
    forest.constraints.rules = []
    #expect(forest == before)
  }
}

extension OrderedForest.Refusal.Reason {
  /// Whether a rule refused (keeps a node or refuses a place).
  var isRuleRefusal: Bool {
    switch self {
    case .notMovable, .ruleRefused, .noAllowedPlace: true
    default: false
    }
  }
}
