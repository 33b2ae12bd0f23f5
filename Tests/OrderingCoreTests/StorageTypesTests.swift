import OffloadTestSupport
import Testing

@testable import OrderingCore

/// The forest's two storage parts on their own: the pool of runs against a model of plain
/// arrays, and the id table against a dictionary, each checked by its own invariants after
/// every step of a seeded random sequence.
@Suite("OrderingCore storage: RunPool and SlotTable")
struct StorageTypesTests {
  /// Inserts, removals, growth, releases and compactions on many runs of one pool.
  @Test(arguments: [UInt64(1), 2, 3])
  func aRunPoolKeepsEveryListAndCountsItsGarbage(seed: UInt64) {
    var rng = SplitMix64(seed: SplitMix64.testSeed(0x9001_0000 + seed))
    var pool = RunPool()
    var runs = [RunPool.Run](repeating: RunPool.Run(), count: 40)
    var model = [[Int32]](repeating: [], count: runs.count)
    var live = 0
    var grown = 0
    var compactions = 0
    for step in 0..<6_000 {
      let list = rng.index(below: runs.count)
      switch rng.index(below: 10) {
      case 0..<6:
        let value = Int32(step)
        let index = rng.index(below: model[list].count + 1)
        if pool.isFull(runs[list]) {
          if pool.needsCompaction(toGrow: runs[list], liveCells: live) {
            var fresh = RunPool()
            for other in runs.indices { runs[other] = pool.copy(runs[other], into: &fresh) }
            pool = fresh
            compactions += 1
          }
          pool.grow(&runs[list])
          grown += 1
        }
        pool.insert(value, at: index, in: &runs[list])
        model[list].insert(value, at: index)
        live += 1
      case 6..<9:
        guard !model[list].isEmpty else { continue }
        let index = rng.index(below: model[list].count)
        pool.remove(at: index, in: &runs[list])
        model[list].remove(at: index)
        live -= 1
      default:
        // The list goes away (as a removed node's children do) and starts again empty.
        pool.release(runs[list])
        live -= model[list].count
        runs[list] = RunPool.Run()
        model[list] = []
      }
      #expect(pool.invariantViolation(runs: runs) == nil, "step \(step)")
      for (run, values) in zip(runs, model) {
        #expect((0..<values.count).map { pool[$0, in: run] } == values, "step \(step)")
      }
    }
    #expect(grown > 100)
    #expect(compactions > 0)
  }

  @Test func aRunPoolNamesEachBrokenInvariant() {
    var pool = RunPool(cells: [1, 2, 3, 4])
    let whole = RunPool.Run(start: 0, count: 4, capacity: 4)
    #expect(pool.invariantViolation(runs: [whole]) == nil)
    #expect(
      pool.invariantViolation(runs: [RunPool.Run(start: 2, count: 1, capacity: 4)])
        == "the run 2+1/4 is out of the pool")
    #expect(
      pool.invariantViolation(runs: [whole, RunPool.Run(start: 3, count: 1, capacity: 1)])
        == "pool cell 3 belongs to two runs")
    #expect(
      pool.invariantViolation(runs: [RunPool.Run(start: 0, count: 2, capacity: 2)])
        == "the pool counts 0 garbage cells, but 2 are unowned")
    pool.release(RunPool.Run(start: 2, count: 2, capacity: 2))
    #expect(pool.invariantViolation(runs: [RunPool.Run(start: 0, count: 2, capacity: 2)]) == nil)
  }

  /// Insertions, removals (with back-shifting) and repointing on a table whose ids clash
  /// on purpose, so probe runs are long.
  @Test(arguments: [UInt64(1), 2, 3])
  func aSlotTableFindsEveryIDAfterEveryChange(seed: UInt64) {
    var rng = SplitMix64(seed: SplitMix64.testSeed(0x9002_0000 + seed))
    var ids: [ClashingID] = []  // The records: slot → id.
    var table = SlotTable()
    var nextID = 0
    for step in 0..<3_000 {
      if ids.isEmpty || rng.index(below: 10) < 6 {
        ids.append(ClashingID(value: nextID))
        nextID += 1
        let records = ids
        table.insert(records.count - 1, count: records.count) { records[$0].id }
      } else {
        // Remove a slot and move the last one into its place, as the forest does.
        let slot = rng.index(below: ids.count)
        let last = ids.count - 1
        let records = ids
        table.remove(slot) { records[$0].id }
        if slot != last {
          table.repoint(last, to: slot) { records[$0].id }
          ids[slot] = ids[last]
        }
        ids.removeLast()
      }
      let records = ids
      #expect(table.invariantViolation(count: records.count) { records[$0].id } == nil, "\(step)")
      if step % 50 == 0 {
        for (slot, id) in records.enumerated() {
          #expect(table.slot(of: id) { records[$0].id } == slot)
        }
        #expect(table.slot(of: ClashingID(value: -1)) { records[$0].id } == nil)
        let (a, b) = table.slots(of: records.first ?? ClashingID(value: -1), ClashingID(value: -2))
        {
          records[$0].id
        }
        #expect(a == (records.isEmpty ? nil : 0))
        #expect(b == nil)
      }
    }
  }

  @Test func aSlotTableNamesEachBrokenInvariant() {
    let ids = [10, 11, 12]
    var table = SlotTable(count: 3, bucketCount: 16) { ids[$0] }
    #expect(table.invariantViolation(count: 3) { ids[$0] } == nil)
    #expect(
      table.invariantViolation(count: 9) { ids[min($0, 2)] }
        == "the id table has 16 buckets for 9 entries")
    #expect(table.invariantViolation(count: 4) { ids[min($0, 2)] } == "slot 3 has no entry")
    let bucket = table.bucket(of: 1) { ids[$0] }
    table.buckets[bucket] = 0
    // Slot 0 twice (and slot 1 nowhere): reported, whichever the check meets first.
    #expect(table.invariantViolation(count: 3) { ids[$0] } != nil)
    table.buckets[bucket] = 7
    #expect(table.invariantViolation(count: 3) { ids[$0] } == "bucket \(bucket) holds slot 7 of 3")
  }
}

extension ClashingID {
  /// The id itself, so a test's records can be an array of ids.
  var id: ClashingID { self }
}
