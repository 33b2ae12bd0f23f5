import OffloadTestSupport
import Testing

@testable import OrderingCore

/// A plain model of an `OrderKeyList` that only changes through returned changes.
struct KeyListModel {
  var ids: [Int] = []
  var keys: [OrderKey] = []

  /// Applies an operation's result; returns a problem, or nil. Checks locally that the
  /// changed and inserted rows hold the announced keys, within the budget.
  mutating func apply(
    inserting newIDs: [Int], at index: Int, keys newKeys: [OrderKey],
    changes: [OrderKeyList<Int>.Change], list: OrderKeyList<Int>, budget: Int?
  ) -> String? {
    var cursor: Int?
    for change in changes {
      let found =
        cursor.map { ids[($0 + 1)...].firstIndex(of: change.id) }
        ?? ids.firstIndex(of: change.id)
      guard let row = found else { return "change of unknown row (or out of order) \(change)" }
      cursor = row
      guard keys[row] == change.old else { return "change \(change) has old \(keys[row])" }
      guard change.old != change.new else { return "change \(change) changes nothing" }
      if let budget, change.new.length > budget { return "change \(change) is over budget" }
      keys[row] = change.new
      guard list.key(at: row >= index ? row + newIDs.count : row) == change.new else {
        return "change \(change) is not what the list holds"
      }
    }
    if let budget, let long = newKeys.first(where: { $0.length > budget }) {
      return "new key \(long) is over budget"
    }
    ids.insert(contentsOf: newIDs, at: index)
    keys.insert(contentsOf: newKeys, at: index)
    let low = Swift.max(0, index - 2)
    let high = Swift.min(ids.count, index + newIDs.count + 2)
    for row in low..<high {
      guard list[row] == .init(id: ids[row], key: keys[row]) else {
        return "row \(row) is \(list[row]), model \(ids[row]) \(keys[row])"
      }
      if row > low && !(keys[row - 1] < keys[row]) { return "keys not increasing at \(row)" }
    }
    return nil
  }

  /// Compares with the whole list: same ids, same keys, strictly increasing.
  func mismatch(_ list: OrderKeyList<Int>) -> String? {
    guard list.count == ids.count else { return "count \(list.count), model \(ids.count)" }
    guard list.table.storage.allIDs == ids else { return "ids differ from the model" }
    let actual = list.storage.allValues
    if let row = keys.indices.first(where: { actual[$0] != keys[$0] }) {
      return "keys differ from the model first at row \(row)"
    }
    for row in keys.indices.dropFirst() where !(keys[row - 1] < keys[row]) {
      return "keys not increasing at \(row): \(keys[row - 1]), \(keys[row])"
    }
    return nil
  }
}

/// Runs a workload through an `OrderKeyList`, checking every operation against the model.
func runKeyList(_ workload: LabelingWorkload, budget: Int, operations: Int, seed: UInt64) throws
  -> (rewritten: Int, longest: Int)
{
  var rng = SplitMix64(seed: SplitMix64.testSeed(seed))
  var list = OrderKeyList<Int>(budget: budget)
  var model = KeyListModel()
  var nextID = 0
  for _ in 0..<workload.prefill {
    let index = rng.index(below: list.count + 1)
    let update = try list.insert(nextID, at: index)
    if let problem = model.apply(
      inserting: [nextID], at: index, keys: [update.key], changes: update.changes, list: list,
      budget: budget)
    {
      Issue.record("prefill: \(problem), \(rng)")
      return (0, 0)
    }
    nextID += 1
  }
  var rewritten = 0
  var longest = 0
  for step in 0..<operations {
    var problem: String?
    switch workload.next(count: list.count, rng: &rng) {
    case .insert(let index):
      let update = try list.insert(nextID, at: index)
      rewritten += update.changes.count
      longest = max(longest, update.key.length)
      problem = model.apply(
        inserting: [nextID], at: index, keys: [update.key], changes: update.changes, list: list,
        budget: budget)
      nextID += 1
    case .move(let source, let destination):
      let id = model.ids.remove(at: source)
      let old = model.keys.remove(at: source)
      let update = try list.move(from: source, to: destination)
      rewritten += update.changes.count
      if update.changes.contains(where: { $0.id == id }) {
        problem = "the moved row is among the changes"
      } else if source == destination && update.key != old {
        problem = "a move to the same index changed the key"
      } else {
        problem = model.apply(
          inserting: [id], at: destination, keys: [update.key], changes: update.changes,
          list: list, budget: source == destination ? nil : budget)
      }
    case .remove(let index):
      let id = model.ids.remove(at: index)
      let key = model.keys.remove(at: index)
      let removed = list.remove(at: index)
      if removed != .init(id: id, key: key) { problem = "removed \(removed), model \(id) \(key)" }
    }
    if problem == nil && (step < 300 || step % 100 == 0 || step == operations - 1) {
      problem = model.mismatch(list)
    }
    if let problem {
      Issue.record("\(workload) step \(step): \(problem), \(rng)")
      break
    }
  }
  return (rewritten, longest)
}

@Suite("OrderKeyList: properties over seeded workloads")
struct OrderKeyListPropertyTests {
  @Test(arguments: LabelingWorkload.allCases)
  func defaultBudgetKeepsKeysShortAndChangesExact(_ workload: LabelingWorkload) throws {
    let (rewritten, longest) = try runKeyList(
      workload, budget: 16, operations: 10_000, seed: 0x0CE_0001)
    #expect(longest <= 16)
    switch workload {
    case .front, .random, .moveChurn:
      #expect(rewritten == 0, "\(workload) rewrote \(rewritten) rows")
    case .afterFirst:
      // Without the budget these keys would reach about 1,700 bytes.
      #expect(rewritten > 0 && rewritten < 1_000, "after-first rewrote \(rewritten) rows")
    case .middle:
      #expect(rewritten > 0 && rewritten <= 20 * 10_000, "middle rewrote \(rewritten) rows")
    case .removeHeavy:
      break
    }
  }

  @Test(arguments: [LabelingWorkload.afterFirst, .middle, .removeHeavy])
  func smallBudgetKeepsKeysShortAndChangesExact(_ workload: LabelingWorkload) throws {
    // A 6-byte budget rebalances far more often (and over wider windows): fewer operations
    // keep the debug-build test fast while still rebalancing thousands of times.
    let (rewritten, longest) = try runKeyList(
      workload, budget: 6, operations: 2_000, seed: 0x0CE_0002)
    #expect(longest <= 6)
    #expect(rewritten > 0)
  }
}

@Suite("OrderKeyList: operations")
struct OrderKeyListOperationTests {
  @Test func keysAreTheReferenceKeysWhileWithinBudget() throws {
    var list = OrderKeyList<String>()
    #expect(try list.insert("a", at: 0).key.rawValue == "a0")
    #expect(try list.insert("b", at: 1).key.rawValue == "a1")
    #expect(try list.insert("c", at: 1).key.rawValue == "a0V")
    #expect(try list.insert("d", at: 0).key.rawValue == "Zz")
    #expect(list.rows.map(\.id) == ["d", "a", "c", "b"])
    #expect(list[2] == .init(id: "c", key: try OrderKey(validating: "a0V")))
    #expect(list.firstIndex(of: "b") == 3 && list.firstIndex(of: "z") == nil)
    #expect(list.contains("a") && !list.contains("z") && !list.isEmpty)
    #expect(list.budget == 16 && OrderKeyList<String>.defaultBudget == 16)
  }

  @Test func oneHotGapIsRebalancedWithinTheBudget() throws {
    var list = OrderKeyList<Int>()
    _ = try list.insert(0, at: 0)
    _ = try list.insert(1, at: 1)
    var model = KeyListModel(ids: [0, 1], keys: list.rows.map(\.key))
    var rebalanced = 0
    for id in 2..<2_000 {
      let update = try list.insert(id, at: 1)
      if !update.changes.isEmpty { rebalanced += 1 }
      #expect(
        model.apply(
          inserting: [id], at: 1, keys: [update.key], changes: update.changes, list: list,
          budget: 16) == nil)
    }
    #expect(rebalanced > 0)
    #expect(model.mismatch(list) == nil)
    #expect(list.rows.map(\.key.length).max()! <= 16)
  }

  @Test(arguments: [1, 10, 1_000, 10_000])
  func bulkInsertIntoOneGapGivesLogarithmicKeys(count: Int) throws {
    var list = OrderKeyList<Int>()
    _ = try list.insert(-1, at: 0)
    _ = try list.insert(-2, at: 1)
    let bulk = try list.insert(contentsOf: 0..<count, at: 1)
    #expect(bulk.changes.isEmpty)
    #expect(bulk.keys.count == count)
    // Between "a0" and "a1": 2 bytes of integer plus about log62(count) + 1 digits.
    var digits = 1
    var capacity = 62
    while capacity < count + 1 {
      capacity *= 62
      digits += 1
    }
    #expect(bulk.keys.map(\.length).max()! <= 2 + digits + 1, "\(count)")
    #expect(list.rows.map(\.id) == [-1] + Array(0..<count) + [-2])
    let keys = list.rows.map(\.key)
    #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 })
  }

  @Test func bulkInsertOverBudgetRebalancesAWindow() throws {
    // Neighbours 5 bytes long with a 6-byte budget leave no room for 100 keys between them.
    let rows = try ["a0", "a0V", "a0VV", "a0VVV", "a0VVW", "a1"].enumerated().map {
      OrderKeyList<Int>.Row(id: $0.offset, key: try OrderKey(validating: $0.element))
    }
    var list = try OrderKeyList(rows: rows, budget: 6)
    var model = KeyListModel(ids: rows.map(\.id), keys: rows.map(\.key))
    let bulk = try list.insert(contentsOf: 100..<200, at: 4)
    #expect(!bulk.changes.isEmpty)
    #expect(
      model.apply(
        inserting: Array(100..<200), at: 4, keys: bulk.keys, changes: bulk.changes, list: list,
        budget: 6) == nil)
    #expect(model.mismatch(list) == nil)
  }

  @Test func moveAndRemove() throws {
    var list = OrderKeyList<Int>()
    _ = try list.insert(contentsOf: 0..<10, at: 0)
    var array = Array(0..<10)
    var rng = SplitMix64(seed: SplitMix64.testSeed(0x0CE_0010))
    for _ in 0..<300 {
      let source = rng.index(below: 10)
      let destination = rng.index(below: 10)
      let before = list.key(at: source)
      let update = try list.move(from: source, to: destination)
      array.insert(array.remove(at: source), at: destination)
      #expect(list.rows.map(\.id) == array, "\(rng)")
      #expect(list.key(at: destination) == update.key)
      if source == destination { #expect(update.key == before && update.changes.isEmpty) }
    }
    let removed = list.remove(at: 3)
    #expect(removed.id == array[3])
    #expect(!list.contains(removed.id) && list.count == 9)
  }

  @Test func aBudgetTooSmallForTheListStillInserts() throws {
    // 5,000 rows need 4-byte integer keys: a 4-byte budget can still hold them, and a hot
    // gap falls back to re-keying the whole list with the shortest keys there are.
    var list = OrderKeyList<Int>(budget: 4)
    _ = try list.insert(contentsOf: 0..<5_000, at: 0)
    for id in 5_000..<5_050 { _ = try list.insert(id, at: 2_500) }
    let keys = list.rows.map(\.key)
    #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 })
    #expect(keys.map(\.length).max()! <= 4)
  }

  @Test func changeDescription() throws {
    let change = OrderKeyList<String>.Change(
      id: "a", old: try OrderKey(validating: "a0"), new: try OrderKey(validating: "a1"))
    #expect(change.description == "a: a0 -> a1")
  }
}

@Suite("OrderKeyList: duplicates and errors")
struct OrderKeyListDuplicateTests {
  typealias Row = OrderKeyList<String>.Row

  func key(_ text: String) throws(OrderingError) -> OrderKey { try OrderKey(validating: text) }

  @Test func replicasThatChoseTheSameKeyAreSortedAndRepaired() throws {
    let rows = [
      Row(id: "z", key: try key("a1")),
      Row(id: "c", key: try key("a0V")),  // three replicas inserted between a0 and a1
      Row(id: "b", key: try key("a0V")),
      Row(id: "a", key: try key("a0")),
      Row(id: "d", key: try key("a0V")),
    ]
    let sorted = OrderKeyList.sortedByKeyThenID(rows)
    #expect(sorted.map(\.id) == ["a", "b", "c", "d", "z"])
    let repair = try OrderKeyList.repairingDuplicates(rows)
    #expect(repair.rows.map(\.id) == ["a", "b", "c", "d", "z"])
    #expect(repair.changes.map(\.id) == ["c", "d"], "the first of the run keeps its key")
    #expect(repair.rows[1].key.rawValue == "a0V")
    let keys = repair.rows.map(\.key)
    #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 })
    for change in repair.changes {
      #expect(change.old.rawValue == "a0V")
      #expect(try key("a0V") < change.new && change.new < key("a1"))
    }
    // The repaired rows load; the raw ones do not.
    #expect(try OrderKeyList(rows: repair.rows).count == 5)
    let again = try OrderKeyList.repairingDuplicates(repair.rows)
    #expect(again.changes.isEmpty && again.rows == repair.rows)
  }

  @Test func repairAtTheEndOfTheListUsesAnOpenBound() throws {
    let rows = [Row(id: "b", key: try key("a5")), Row(id: "a", key: try key("a5"))]
    let repair = try OrderKeyList.repairingDuplicates(rows)
    #expect(repair.rows.map(\.id) == ["a", "b"])
    #expect(repair.changes == [.init(id: "b", old: try key("a5"), new: try key("a6"))])
  }

  @Test func duplicatesSeededAcrossManyLists() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(0x0CE_0020))
    for _ in 0..<200 {
      var keys = try OrderKey.spread(20, between: nil, and: nil)
      // Replicas copy some keys onto other rows.
      for index in keys.indices where rng.chance(0.3) { keys[index] = keys[rng.index(below: 20)] }
      let rows = keys.enumerated().map { Row(id: "r\($0.offset)", key: $0.element) }
      let repair = try OrderKeyList.repairingDuplicates(rows.shuffled(using: &rng))
      let repaired = repair.rows.map(\.key)
      #expect(zip(repaired, repaired.dropFirst()).allSatisfy { $0 < $1 }, "\(rng)")
      // Exactly the rows whose key changed are reported, with their old keys.
      let original = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0.key) })
      let changed = repair.rows.filter { original[$0.id] != $0.key }
      #expect(changed.map(\.id) == repair.changes.map(\.id), "\(rng)")
      #expect(repair.changes.allSatisfy { original[$0.id] == $0.old }, "\(rng)")
    }
  }

  @Test func storedRowsAreChecked() throws {
    let cases: [([Row], OrderingError.Code, Int, String)] = [
      (
        [Row(id: "a", key: try key("a0V")), Row(id: "b", key: try key("a0V"))],
        .keysNotIncreasing, 1,
        "row 1 (\"b\") has the same key as the previous row, \"a0V\"; sort by key and id and repair duplicates first, or load the rows with loading(_:budget:)"
      ),
      (
        [Row(id: "a", key: try key("a1")), Row(id: "b", key: try key("a0"))], .keysNotIncreasing,
        1,
        "row 1 (\"b\") has a key sorting before the previous row, \"a0\"; sort by key and id and repair duplicates first, or load the rows with loading(_:budget:)"
      ),
      (
        [Row(id: "a", key: try key("a0")), Row(id: "a", key: try key("a1"))], .duplicateID, 1,
        "row 1 has id \"a\", which an earlier row already has"
      ),
    ]
    for (rows, code, index, message) in cases {
      do {
        _ = try OrderKeyList(rows: rows)
        Issue.record("accepted \(rows)")
      } catch {
        #expect(error.code == code)
        #expect(error.index == index)
        #expect(error.description == message)
      }
    }
  }

  @Test func duplicateIDsAreRefused() throws {
    var list = OrderKeyList<String>()
    _ = try list.insert("a", at: 0)
    do {
      _ = try list.insert("a", at: 1)
      Issue.record("inserted a duplicate id")
    } catch {
      #expect(error.code == .duplicateID)
      #expect(
        error.description == "cannot insert row \"a\": the list already has a row with that id")
    }
    do {
      _ = try list.insert(contentsOf: ["b", "b"], at: 1)
      Issue.record("inserted a duplicate id")
    } catch {
      #expect(
        error.description == "cannot insert row \"b\": it appears twice in the rows to insert")
    }
    #expect(throws: OrderingError.self) { try list.insert(contentsOf: ["c", "a"], at: 0) }
    #expect(list.rows.map(\.id) == ["a"])
    do {
      _ = try OrderKeyList.repairingDuplicates([
        Row(id: "x", key: try key("a0")), Row(id: "x", key: try key("a1")),
      ])
      Issue.record("repaired rows with one id twice")
    } catch {
      #expect(error.code == .duplicateID)
      #expect(error.description == "two rows have id \"x\"; ids must be unique")
    }
  }
}
