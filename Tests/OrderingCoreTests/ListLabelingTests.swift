import OffloadTestSupport
import Testing

@testable import OrderingCore

/// The workloads of the property tests: what the next operation is.
enum LabelingWorkload: String, CaseIterable, CustomStringConvertible {
  case front, afterFirst, random, moveChurn, removeHeavy, middle

  var description: String { rawValue }

  /// How many rows are inserted (not counted as operations) before the workload starts.
  var prefill: Int {
    switch self {
    case .moveChurn: 1_000
    case .removeHeavy: 2_000
    default: 0
    }
  }

  enum Operation {
    case insert(Int)
    case move(Int, Int)
    case remove(Int)
  }

  func next(count: Int, rng: inout SplitMix64) -> Operation {
    switch self {
    case .front: return .insert(0)
    case .afterFirst: return .insert(Swift.min(1, count))
    case .random: return .insert(rng.index(below: count + 1))
    case .middle: return .insert(count / 2)
    case .moveChurn:
      return .move(rng.index(below: count), rng.index(below: count))
    case .removeHeavy:
      // Three removes for every two inserts, with bursts at one spot.
      if count > 0 && rng.chance(0.6) { return .remove(rng.index(below: count)) }
      return .insert(rng.chance(0.5) ? rng.index(below: count + 1) : Swift.min(1, count))
    }
  }
}

/// A plain model of a labeling that only changes through the changes an operation returns.
struct LabelingModel {
  var ids: [Int] = []
  var positions: [Int64] = []

  /// The model's index of `id`, searched outward from `near`.
  func index(of id: Int, near: Int) -> Int? {
    var distance = 0
    while near - distance >= 0 || near + distance < ids.count {
      if near - distance >= 0 && near - distance < ids.count && ids[near - distance] == id {
        return near - distance
      }
      if near + distance < ids.count && ids[near + distance] == id { return near + distance }
      distance += 1
    }
    return nil
  }

  /// Applies an operation's result; returns a problem, or nil.
  ///
  /// Checks locally that every changed row and the inserted rows have, in the labeling, the
  /// positions the result announced, and that the rows around them are in order.
  mutating func apply(
    inserting newIDs: [Int], at index: Int, positions newPositions: [Int64],
    changes: [ListLabeling<Int>.Change], labeling: ListLabeling<Int>
  ) -> String? {
    // Changes come in list order: find the first near the insertion point, the rest after it.
    var cursor: Int?
    for change in changes {
      var found: Int?
      if let previous = cursor {
        found = ids[(previous + 1)...].firstIndex(of: change.id)
      } else {
        found = self.index(of: change.id, near: index)
      }
      guard let row = found else { return "change of unknown row (or out of order) \(change)" }
      cursor = row
      guard positions[row] == change.old else {
        return "change \(change) has old \(change.old), not \(positions[row])"
      }
      guard change.old != change.new else { return "change \(change) changes nothing" }
      positions[row] = change.new
      let labelingRow = row >= index ? row + newIDs.count : row
      guard labeling.position(at: labelingRow) == change.new else {
        return "change \(change) is not what the labeling holds"
      }
    }
    ids.insert(contentsOf: newIDs, at: index)
    positions.insert(contentsOf: newPositions, at: index)
    let low = Swift.max(0, index - 2)
    let high = Swift.min(ids.count, index + newIDs.count + 2)
    for row in low..<high {
      guard labeling[row].id == ids[row], labeling[row].position == positions[row] else {
        return "row \(row) is \(labeling[row]), model \(ids[row]) at \(positions[row])"
      }
      if row > low && positions[row] <= positions[row - 1] {
        return "positions not increasing at \(row)"
      }
    }
    return nil
  }

  /// Compares with the whole labeling: same ids in order, same positions, strictly
  /// increasing, inside the range.
  func mismatch(_ labeling: ListLabeling<Int>) -> String? {
    guard labeling.count == ids.count else { return "count \(labeling.count), model \(ids.count)" }
    guard labeling.table.storage.allIDs == ids else { return "ids differ from the model" }
    let actual = labeling.table.storage.allValues
    guard actual == positions else {
      let row = positions.indices.first { actual[$0] != positions[$0] } ?? -1
      return "positions differ from the model first at row \(row)"
    }
    for row in positions.indices.dropFirst() where positions[row] <= positions[row - 1] {
      return "positions not increasing at \(row)"
    }
    if let first = positions.first, let last = positions.last,
      !labeling.configuration.range.contains(first) || !labeling.configuration.range.contains(last)
    {
      return "positions outside the range"
    }
    return nil
  }
}

/// Runs `operations` operations of a workload, checking after each one that the returned
/// changes applied to the previous state give the new state: locally after every
/// operation, and over the whole list after each of the first 500 operations, every 100th
/// and the last.
func runLabeling(
  _ workload: LabelingWorkload, configuration: ListLabelingConfiguration, operations: Int,
  seed: UInt64
) throws -> (relabels: Int, labeling: ListLabeling<Int>) {
  var rng = SplitMix64(seed: SplitMix64.testSeed(seed))
  var labeling = ListLabeling<Int>(configuration: configuration)
  var model = LabelingModel()
  var nextID = 0
  for _ in 0..<workload.prefill {
    let index = rng.index(below: labeling.count + 1)
    let update = try labeling.insert(nextID, at: index)
    if let problem = model.apply(
      inserting: [nextID], at: index, positions: [update.position], changes: update.changes,
      labeling: labeling)
    {
      Issue.record("prefill: \(problem), \(rng)")
      return (0, labeling)
    }
    nextID += 1
  }
  var relabels = 0
  for step in 0..<operations {
    var problem: String?
    switch workload.next(count: labeling.count, rng: &rng) {
    case .insert(let index):
      let update = try labeling.insert(nextID, at: index)
      relabels += update.changes.count
      problem = model.apply(
        inserting: [nextID], at: index, positions: [update.position], changes: update.changes,
        labeling: labeling)
      nextID += 1
    case .move(let source, let destination):
      let id = model.ids[source]
      let old = labeling.position(at: source)
      let update = labeling.move(from: source, to: destination)
      relabels += update.changes.count
      model.ids.remove(at: source)
      model.positions.remove(at: source)
      if update.changes.contains(where: { $0.id == id }) {
        problem = "the moved row is among the changes"
      } else if source == destination && update.position != old {
        problem = "a move to the same index changed the position"
      } else {
        problem = model.apply(
          inserting: [id], at: destination, positions: [update.position],
          changes: update.changes, labeling: labeling)
      }
    case .remove(let index):
      let id = model.ids.remove(at: index)
      let position = model.positions.remove(at: index)
      let removed = labeling.remove(at: index)
      if removed.id != id || removed.position != position {
        problem = "removed \(removed), model \(id) at \(position)"
      }
    }
    if problem == nil && (step < 500 || step % 100 == 0 || step == operations - 1) {
      problem = model.mismatch(labeling)
    }
    if let problem {
      Issue.record("\(workload) step \(step): \(problem), \(rng)")
      break
    }
  }
  return (relabels, labeling)
}

@Suite("ListLabeling: properties over seeded workloads")
struct ListLabelingPropertyTests {
  /// A small range and end gap, so relabels, end exhaustion and wide relabels happen often.
  static let tight = ListLabelingConfiguration(range: 0...(1 << 18), endGap: 1 << 4)
  /// Front inserts share the room below the first row, so they need an even smaller range
  /// (about three positions per row) to reach the bottom and relabel.
  static let tighter = ListLabelingConfiguration(range: 0...30_000, endGap: 1 << 4)

  @Test(arguments: LabelingWorkload.allCases)
  func tightRangeKeepsChangesExact(_ workload: LabelingWorkload) throws {
    let (relabels, labeling) = try runLabeling(
      workload, configuration: workload == .front ? Self.tighter : Self.tight,
      operations: 10_000, seed: 0x1AB_0001)
    #expect(labeling.count > 0)
    // The tight range forces relabels in every growing workload: the test exercises them.
    if workload != .moveChurn { #expect(relabels > 0, "\(workload) never relabeled") }
  }

  @Test(arguments: [LabelingWorkload.front, .afterFirst, .random, .removeHeavy])
  func defaultRangeKeepsChangesExact(_ workload: LabelingWorkload) throws {
    _ = try runLabeling(
      workload, configuration: .default, operations: 10_000, seed: 0x1AB_0002)
  }

  @Test func fullRangeOfInt64Works() throws {
    // Differences across Int64.min...Int64.max do not overflow.
    let configuration = ListLabelingConfiguration(range: Int64.min...Int64.max, endGap: 1 << 62)
    _ = try runLabeling(.random, configuration: configuration, operations: 2_000, seed: 0x1AB_0003)
    _ = try runLabeling(.front, configuration: configuration, operations: 200, seed: 0x1AB_0004)
  }

  @Test func relabelsStayLocalInALargeList() throws {
    // 20,000 rows spread evenly, then 2,000 inserts at one spot: no operation rewrites more
    // than a small fraction of the list.
    var labeling = try ListLabeling<Int>(ids: 0..<20_000)
    var most = 0
    for id in 20_000..<22_000 {
      most = max(most, try labeling.insert(id, at: 10_000).changes.count)
    }
    #expect(most < 2_000, "one insert relabeled \(most) rows")
  }
}

@Suite("ListLabeling: operations")
struct ListLabelingOperationTests {
  @Test func firstRowsAndGaps() throws {
    var labeling = ListLabeling<String>()
    let a = try labeling.insert("a", at: 0)
    #expect(a.position == Int64.max / 2)
    #expect(a.changes.isEmpty)
    let b = try labeling.insert("b", at: 1)
    #expect(b.position == a.position + (1 << 40))
    let c = try labeling.insert("c", at: 0)
    #expect(c.position == a.position - (1 << 40))
    let d = try labeling.insert("d", at: 1)
    #expect(d.position == c.position + (1 << 39))
    #expect(labeling.rows.map(\.id) == ["c", "d", "a", "b"])
    #expect(labeling[1] == .init(id: "d", position: d.position))
    #expect(labeling.firstIndex(of: "a") == 2)
    #expect(labeling.firstIndex(of: "z") == nil)
    #expect(labeling.contains("b") && !labeling.contains("z"))
    #expect(!labeling.isEmpty)
  }

  @Test func moveIsRemoveThenInsert() throws {
    var labeling = try ListLabeling<Int>(ids: 0..<10)
    var array = Array(0..<10)
    var rng = SplitMix64(seed: SplitMix64.testSeed(0x1AB_0010))
    for _ in 0..<500 {
      let source = rng.index(below: 10)
      let destination = rng.index(below: 10)
      let before = labeling.position(at: source)
      let update = labeling.move(from: source, to: destination)
      array.insert(array.remove(at: source), at: destination)
      #expect(labeling.rows.map(\.id) == array, "\(rng)")
      #expect(labeling.position(at: destination) == update.position)
      if source == destination { #expect(update.position == before && update.changes.isEmpty) }
    }
  }

  @Test func removeChangesNothingElse() throws {
    var labeling = try ListLabeling<Int>(ids: 0..<5)
    let before = labeling.rows
    let removed = labeling.remove(at: 2)
    #expect(removed == before[2])
    #expect(labeling.rows == before.enumerated().filter { $0.offset != 2 }.map(\.element))
    #expect(!labeling.contains(2))
    // The id can come back.
    _ = try labeling.insert(2, at: 2)
    #expect(labeling.rows.map(\.id) == [0, 1, 2, 3, 4])
  }

  @Test func bulkInsertSpreadsEvenlyInOneGap() throws {
    var labeling = ListLabeling<Int>()
    _ = try labeling.insert(-1, at: 0)
    _ = try labeling.insert(-2, at: 1)
    let lower = labeling.position(at: 0)
    let upper = labeling.position(at: 1)
    let bulk = try labeling.insert(contentsOf: 0..<1_000, at: 1)
    #expect(bulk.changes.isEmpty)
    #expect(bulk.positions.count == 1_000)
    #expect(bulk.positions.first.map { $0 > lower } == true)
    #expect(bulk.positions.last.map { $0 < upper } == true)
    let gaps = zip(bulk.positions, bulk.positions.dropFirst()).map { $1 - $0 }
    #expect(gaps.max()! - gaps.min()! <= 1, "the gap is split evenly")
    #expect(labeling.rows.map(\.id) == [-1] + Array(0..<1_000) + [-2])
  }

  @Test func bulkInsertRelabelsWhenTheGapIsTooSmall() throws {
    let configuration = ListLabelingConfiguration(range: 0...1_000, endGap: 10)
    var labeling = try ListLabeling<Int>(ids: 0..<10, configuration: configuration)
    var model = LabelingModel(
      ids: labeling.rows.map(\.id), positions: labeling.rows.map(\.position))
    let bulk = try labeling.insert(contentsOf: 100..<150, at: 5)
    #expect(!bulk.changes.isEmpty)
    #expect(
      model.apply(
        inserting: Array(100..<150), at: 5, positions: bulk.positions, changes: bulk.changes,
        labeling: labeling)
        == nil)
    #expect(model.mismatch(labeling) == nil)
  }

  @Test func normalizeSpreadsEvenlyAndReportsEveryMove() throws {
    var labeling = ListLabeling<Int>()
    for id in 0..<300 { _ = try labeling.insert(id, at: min(1, labeling.count)) }
    let before = labeling.rows
    let changes = labeling.normalize()
    let after = labeling.rows
    #expect(after.map(\.id) == before.map(\.id))
    let gaps = Set(zip(after, after.dropFirst()).map { $1.position - $0.position })
    #expect(gaps == [1 << 40])
    var expected: [ListLabeling<Int>.Change] = []
    for (old, new) in zip(before, after) where old.position != new.position {
      expected.append(.init(id: old.id, old: old.position, new: new.position))
    }
    #expect(changes == expected)
    #expect(labeling.normalize().isEmpty, "normalizing twice changes nothing")
    var empty = ListLabeling<Int>()
    #expect(empty.normalize().isEmpty)
  }

  @Test func smallRangesPackRowsAsEvenlyAsTheyCan() throws {
    let configuration = ListLabelingConfiguration(range: 0...9, endGap: 3)
    var labeling = ListLabeling<Int>(configuration: configuration)
    var model = LabelingModel()
    // Ten rows fill the ten positions through relabels, never a crash.
    for id in 0..<10 {
      let index = id % 2 == 0 ? 0 : min(1, labeling.count)
      let update = try labeling.insert(id, at: index)
      #expect(
        model.apply(
          inserting: [id], at: index, positions: [update.position], changes: update.changes,
          labeling: labeling)
          == nil)
      #expect(model.mismatch(labeling) == nil)
    }
    #expect(labeling.rows.map(\.position) == Array(0...9))
    #expect(labeling.normalize().isEmpty)
    // Moves still work in a full range.
    for _ in 0..<20 { _ = labeling.move(from: 0, to: 9) }
    #expect(labeling.rows.map(\.position) == Array(0...9))
  }

  @Test func changeDescription() {
    #expect(ListLabeling<String>.Change(id: "a", old: 1, new: 2).description == "a: 1 -> 2")
  }
}

@Suite("ListLabeling: errors")
struct ListLabelingErrorTests {
  @Test func exhaustedRangeThrowsAndLeavesTheListUnchanged() throws {
    let configuration = ListLabelingConfiguration(range: 10...13, endGap: 1)
    var labeling = try ListLabeling<Int>(ids: 0..<4, configuration: configuration)
    let before = labeling.rows
    do {
      _ = try labeling.insert(4, at: 2)
      Issue.record("a fifth row fit in four positions")
    } catch {
      #expect(error.code == .positionSpaceExhausted)
      #expect(error.index == 2)
      #expect(
        error.description
          == "cannot place 5 rows in positions 10...13: the range has only 4 positions")
    }
    #expect(throws: OrderingError.self) { try labeling.insert(contentsOf: [7, 8], at: 0) }
    #expect(labeling.rows == before)
    #expect(!labeling.contains(4))
  }

  @Test func duplicateIDsAreRefused() throws {
    var labeling = try ListLabeling<String>(ids: ["a", "b"])
    do {
      _ = try labeling.insert("a", at: 0)
      Issue.record("inserted a duplicate id")
    } catch {
      #expect(error.code == .duplicateID)
      #expect(
        error.description == "cannot insert row \"a\": the list already has a row with that id")
    }
    do {
      _ = try labeling.insert(contentsOf: ["c", "d", "c"], at: 1)
      Issue.record("inserted a duplicate id")
    } catch {
      #expect(error.code == .duplicateID)
      #expect(error.description.hasSuffix("it appears twice in the rows to insert"))
    }
    #expect(labeling.rows.map(\.id) == ["a", "b"])
    #expect(throws: OrderingError.self) { try ListLabeling<String>(ids: ["x", "x"]) }
  }

  @Test func storedRowsAreChecked() throws {
    typealias Row = ListLabeling<String>.Row
    let good = try ListLabeling(rows: [Row(id: "a", position: 5), Row(id: "b", position: 9)])
    #expect(good.rows.map(\.position) == [5, 9])
    let cases: [([Row], OrderingError.Code, Int, String)] = [
      (
        [Row(id: "a", position: 5), Row(id: "b", position: 5)], .positionsNotIncreasing, 1,
        "row 1 (\"b\") has position 5, not above the previous row's 5; backfill the list to repair it"
      ),
      (
        [Row(id: "a", position: -1)], .positionOutOfRange, 0,
        "row 0 (\"a\") has position -1, outside 0...9223372036854775807"
      ),
      (
        [Row(id: "a", position: 1), Row(id: "a", position: 2)], .duplicateID, 1,
        "row 1 has id \"a\", which an earlier row already has"
      ),
    ]
    for (rows, code, index, message) in cases {
      do {
        _ = try ListLabeling(rows: rows)
        Issue.record("accepted \(rows)")
      } catch {
        #expect(error.code == code)
        #expect(error.index == index)
        #expect(error.description == message)
      }
    }
  }
}

@Suite("ListLabeling: backfill")
struct ListLabelingBackfillTests {
  typealias Stored = ListLabeling<String>.StoredRow

  @Test func missingAndDuplicatePositionsAreAssignedDeterministically() throws {
    let rows = [
      Stored(id: "c", position: 200, creationOrder: 3),
      Stored(id: "a", position: 100, creationOrder: 1),
      Stored(id: "b", position: 100, creationOrder: 2),  // duplicate of a: placed after it
      Stored(id: "e", position: nil, creationOrder: 5),  // missing: after every position
      Stored(id: "d", position: nil, creationOrder: 4),
      Stored(id: "f", position: -7, creationOrder: 6),  // outside the range: sorts first
    ]
    let result = try ListLabeling.backfill(rows)
    #expect(result.labeling.rows.map(\.id) == ["f", "a", "b", "c", "d", "e"])
    let positions = result.labeling.rows.map(\.position)
    #expect(zip(positions, positions.dropFirst()).allSatisfy { $0 < $1 })
    #expect(result.labeling[1].position == 100)
    #expect(result.labeling[3].position == 200)
    #expect(result.assignments.map(\.id) == ["f", "b", "d", "e"])
    #expect(result.assignments.map(\.old) == [-7, 100, nil, nil])
    // Every assignment is the row's final position; every other row kept its own.
    let final = Dictionary(uniqueKeysWithValues: result.labeling.rows.map { ($0.id, $0.position) })
    for assignment in result.assignments { #expect(final[assignment.id] == assignment.new) }
    for row in rows where !result.assignments.contains(where: { $0.id == row.id }) {
      #expect(final[row.id] == row.position)
    }
  }

  @Test func tiesBreakByCreationOrderThenID() throws {
    let rows = [
      Stored(id: "y", position: 7, creationOrder: 1),
      Stored(id: "x", position: 7, creationOrder: 1),
      Stored(id: "w", position: 7, creationOrder: 0),
    ]
    let result = try ListLabeling.backfill(rows)
    #expect(result.labeling.rows.map(\.id) == ["w", "x", "y"])
    #expect(result.assignments.map(\.id) == ["x", "y"])
  }

  @Test func theSameRowsInAnyOrderGiveTheSameResult() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(0x1AB_0020))
    for _ in 0..<50 {
      var rows: [Stored] = []
      for id in 0..<200 {
        let position: Int64? = rng.chance(0.2) ? nil : Int64(rng.index(below: 150))
        rows.append(
          Stored(id: "r\(id)", position: position, creationOrder: Int64(rng.index(below: 20))))
      }
      let first = try ListLabeling.backfill(rows)
      rows.shuffle(using: &rng)
      let second = try ListLabeling.backfill(rows)
      #expect(first.labeling.rows == second.labeling.rows, "\(rng)")
      #expect(first.assignments == second.assignments, "\(rng)")
      let positions = first.labeling.rows.map(\.position)
      #expect(zip(positions, positions.dropFirst()).allSatisfy { $0 < $1 }, "\(rng)")
      // Exactly the rows whose stored position differs from the result are reported.
      let stored = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0.position) })
      let changed = first.labeling.rows.filter { stored[$0.id] != $0.position }.map(\.id)
      #expect(first.assignments.map(\.id) == changed, "\(rng)")
    }
  }

  @Test func tightRangesRelabelKeptRowsAndReportThem() throws {
    let configuration = ListLabelingConfiguration(range: 0...20, endGap: 2)
    let rows = (0..<10).map {
      Stored(id: "r\($0)", position: $0 < 5 ? Int64($0) : nil, creationOrder: Int64($0))
    }
    let result = try ListLabeling.backfill(rows, configuration: configuration)
    #expect(result.labeling.rows.map(\.id) == rows.map(\.id))
    let final = result.labeling.rows.map(\.position)
    #expect(zip(final, final.dropFirst()).allSatisfy { $0 < $1 })
    #expect(result.assignments.count >= 5)
  }

  @Test func backfillErrors() throws {
    do {
      _ = try ListLabeling.backfill([
        Stored(id: "a", position: 1, creationOrder: 0),
        Stored(id: "a", position: 2, creationOrder: 1),
      ])
      Issue.record("accepted a duplicate id")
    } catch {
      #expect(error.code == .duplicateID)
      #expect(error.description == "row 1 has id \"a\", which an earlier row already has")
    }
    let tiny = ListLabelingConfiguration(range: 0...1, endGap: 1)
    #expect {
      try ListLabeling.backfill(
        (0..<3).map { Stored(id: "\($0)", position: nil, creationOrder: Int64($0)) },
        configuration: tiny)
    } throws: { error in
      (error as? OrderingError)?.code == .positionSpaceExhausted
    }
    let empty = try ListLabeling<String>.backfill([])
    #expect(empty.labeling.isEmpty && empty.assignments.isEmpty)
  }
}

@Suite("ChunkedRows: the storage under both lists")
struct ChunkedRowsTests {
  /// Checks the chunk bookkeeping: starts are prefix sums, chunks stay under the split size,
  /// and only a lone chunk may be empty.
  func invariantProblem(_ rows: ChunkedRows<Int, Int>) -> String? {
    var start = 0
    for (index, chunk) in rows.chunks.enumerated() {
      if rows.starts[index] != start { return "chunk \(index) starts at \(rows.starts[index])" }
      if chunk.ids.count != chunk.values.count { return "chunk \(index) columns differ" }
      if chunk.ids.count >= 2 * ChunkedRows<Int, Int>.chunkSize { return "chunk \(index) too big" }
      if chunk.ids.isEmpty && rows.chunks.count > 1 { return "chunk \(index) is empty" }
      start += chunk.ids.count
    }
    return start == rows.count ? nil : "count \(rows.count), chunks hold \(start)"
  }

  @Test func randomInsertsAndRemovesMatchAnArray() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(0x1AB_0030))
    var rows = ChunkedRows<Int, Int>()
    var model: [Int] = []
    for step in 0..<20_000 {
      // Grow to about 5,000 rows, then shrink to nothing, splitting and merging chunks.
      let growing = step < 10_000
      if !model.isEmpty && rng.chance(growing ? 0.3 : 0.8) {
        let index = rng.index(below: model.count)
        let removed = rows.remove(at: index)
        #expect(removed.id == model.remove(at: index) && removed.value == removed.id * 2)
      } else {
        let index = rng.index(below: model.count + 1)
        rows.insert(id: step, value: step * 2, at: index)
        model.insert(step, at: index)
      }
      if step % 250 == 0 || step == 19_999 {
        #expect(rows.allIDs == model, "step \(step), \(rng)")
        #expect(rows.allValues == model.map { $0 * 2 }, "step \(step), \(rng)")
        #expect(
          invariantProblem(rows) == nil, "step \(step): \(invariantProblem(rows) ?? ""), \(rng)")
      }
    }
    let built = ChunkedRows(ids: Array(0..<3_000), values: Array(0..<3_000))
    #expect(invariantProblem(built) == nil)
    #expect(built.id(at: 2_999) == 2_999 && built.value(at: 1_024) == 1_024)
    var visited: [Int] = []
    built.forEach(in: 500..<2_100) { index, id, _ in
      #expect(index == id)
      visited.append(id)
    }
    #expect(visited == Array(500..<2_100))
  }
}

@Suite("ListLabeling and OrderKeyList: broken preconditions trap")
struct LabelingPreconditionTests {
  @Test func insertingPastTheEndTraps() async {
    await #expect(processExitsWith: .failure) {
      var labeling = ListLabeling<Int>()
      _ = try? labeling.insert(1, at: 1)
    }
  }

  @Test func movingFromAMissingRowTraps() async {
    await #expect(processExitsWith: .failure) {
      var list = OrderKeyList<Int>()
      _ = try? list.insert(1, at: 0)
      _ = try? list.move(from: 1, to: 0)
    }
  }

  @Test func aTinyBudgetTraps() async {
    await #expect(processExitsWith: .failure) {
      _ = OrderKeyList<Int>(budget: 3)
    }
  }
}
