import OffloadTestSupport
import Testing

@testable import OrderingCore

/// An id whose hash takes only four values, so every lookup walks a long probe run and
/// every removal shifts entries back.
struct ClashingID: Hashable, Comparable, Sendable, CustomStringConvertible {
  var value: Int

  func hash(into hasher: inout Hasher) { hasher.combine(value % 4) }

  static func < (a: ClashingID, b: ClashingID) -> Bool { a.value < b.value }

  var description: String { "#\(value)" }
}

@Suite("OrderedForest: storage (pooled sibling lists, id table, key prefixes)")
struct OrderedForestStorageTests {
  /// Keys from seeded random inserts between neighbours, in order.
  static func orderedKeys(count: Int, rng: inout SplitMix64) throws -> [OrderKey] {
    var keys: [OrderKey] = []
    for _ in 0..<count {
      let gap = rng.index(below: keys.count + 1)
      let key = try OrderKey.between(
        gap > 0 ? keys[gap - 1] : nil, gap < keys.count ? keys[gap] : nil)
      keys.insert(key, at: gap)
    }
    return keys
  }

  @Test func theForestsKeyPathMakesThePublicKeysAndTheirPrefixes() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(0x5EED_0001))
    let keys = try Self.orderedKeys(count: 2_000, rng: &rng)
    for _ in 0..<5_000 {
      let i = rng.index(below: keys.count + 1)
      let j = i + rng.index(below: 4)
      let lower = i > 0 ? keys[i - 1] : nil
      let upper = j < keys.count ? keys[j] : nil
      let made = try #require(OrderKey.betweenWithPrefix(lower, upper))
      #expect(made.key == (try OrderKey.between(lower, upper)), "\(lower as Any) \(upper as Any)")
      #expect(made.prefix == made.key.prefix)
    }
    // Bounds out of order: no key (the public function throws instead).
    #expect(OrderKey.betweenWithPrefix(keys[5], keys[4]) == nil)
    #expect(OrderKey.betweenWithPrefix(keys[5], keys[5]) == nil)
  }

  @Test func prefixesOrderAsTheKeysDoUpToTies() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(0x5EED_0002))
    let keys = try Self.orderedKeys(count: 3_000, rng: &rng)
    for (a, b) in zip(keys, keys.dropFirst()) {
      #expect(a.prefix <= b.prefix, "\(a) \(b)")
    }
    #expect(OrderKey(rawValue: "a0")?.prefix == 0x6130_0000_0000_0000)
    #expect(OrderKey(rawValue: "a0123456789")?.prefix == 0x6130_3132_3334_3536)
  }

  @Test func sustainedMovesCompactThePoolAndKeepEveryNode() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(0x5EED_0003))
    let size = 1_000
    let records = (0..<size).map { id in
      OrderedForest<Int>.Record(
        id: id, parent: id == 0 || rng.chance(0.05) ? nil : rng.index(below: id),
        order: .position(id))
    }
    var forest = OrderedForest<Int>.build(from: records).forest
    var compactions = 0
    var largestPool = forest.pool.cells.count
    for step in 0..<6_000 {
      let node = rng.index(below: size)
      let anchor = rng.index(below: size)
      let destination: OrderedForest<Int>.Destination =
        switch rng.index(below: 4) {
        case 0: .before(anchor)
        case 1: .after(anchor)
        case 2: .firstChild(of: anchor)
        default: .lastChild(of: anchor)
        }
      let garbage = forest.pool.garbage
      _ = try? forest.move(node, to: destination)
      if forest.pool.garbage < garbage { compactions += 1 }
      largestPool = max(largestPool, forest.pool.cells.count)
      if step % 1_000 == 0, let problem = forest.firstInvariantViolation() {
        Issue.record("\(problem) at step \(step)")
        return
      }
    }
    #expect(compactions > 0, "6,000 moves never compacted the pool")
    // Garbage is bounded: the pool stays near three times the live cells.
    #expect(largestPool <= 3 * size + 1_024 + 64, "the pool grew to \(largestPool) cells")
    #expect(forest.firstInvariantViolation() == nil)
    let rebuilt = OrderedForest<Int>.build(from: forest.records)
    #expect(rebuilt.report.isClean)
    #expect(rebuilt.forest == forest)
    #expect(forest.flattened().map(\.id).sorted() == Array(0..<size))
  }

  @Test func clashingHashesKeepLookupsAndRemovalsRight() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(0x5EED_0004))
    var forest = OrderedForest<ClashingID>()
    var present = Set<Int>()
    // Picks from the sorted ids, so the run does not depend on the set's hash order.
    func pick() -> ClashingID {
      let alive = present.sorted()
      return ClashingID(value: alive[rng.index(below: alive.count)])
    }
    var next = 0
    for step in 0..<3_000 {
      if present.count < 5 || rng.chance(0.6) {
        let id = ClashingID(value: next)
        next += 1
        let destination: OrderedForest<ClashingID>.Destination =
          present.isEmpty
          ? .lastRoot
          : rng.chance(0.5)
            ? .lastChild(of: pick()) : .after(pick())
        let changes = try forest.insert(id, at: destination)
        #expect(changes.count == 1)
        present.insert(id.value)
      } else {
        let victim = pick()
        let removed = forest.subtree(of: victim)
        let changes = try forest.remove(victim)
        for id in removed { present.remove(id.value) }
        // Undo and redo through the table as well.
        try forest.apply(changes.inverted)
        #expect(removed.allSatisfy { forest.contains($0) }, "step \(step)")
        try forest.apply(changes)
      }
      if step % 50 == 0 {
        #expect(forest.firstInvariantViolation() == nil, "step \(step)")
        for value in 0..<next {
          #expect(forest.contains(ClashingID(value: value)) == present.contains(value))
        }
      }
    }
    #expect(forest.count == present.count)
  }
}
