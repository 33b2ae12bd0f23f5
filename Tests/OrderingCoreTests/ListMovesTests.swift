import OffloadTestSupport
import Testing

@testable import OrderingCore

/// The id-based and offset-based operations both labelings share, seen through one face so
/// one property test runs over both.
protocol MovableList {
  associatedtype Label: Hashable & Comparable
  var count: Int { get }
  var pairs: [(id: Int, label: Label)] { get }
  func index(of id: Int) -> Int?
  mutating func moveOffsets(_ offsets: [Int], to toOffset: Int) throws(OrderingError)
    -> [RowChange<Int, Label>]
  mutating func moveIDs(_ ids: [Int], to toOffset: Int) throws(OrderingError)
    -> [RowChange<Int, Label>]
  mutating func moveIDs(_ ids: [Int], before anchor: Int) throws(OrderingError)
    -> [RowChange<Int, Label>]
  mutating func moveIDs(_ ids: [Int], after anchor: Int) throws(OrderingError)
    -> [RowChange<Int, Label>]
  mutating func removeIDs(_ ids: [Int]) throws(OrderingError) -> [Int]
  mutating func removeOffsets(_ offsets: [Int]) throws(OrderingError) -> [Int]
  mutating func insertID(_ id: Int, at index: Int) throws(OrderingError)
    -> [RowChange<Int, Label>]
}

extension OrderKeyList<Int>: MovableList {
  var pairs: [(id: Int, label: OrderKey)] { rows.map { ($0.id, $0.key) } }
  func index(of id: Int) -> Int? { firstIndex(of: id) }
  mutating func moveOffsets(_ offsets: [Int], to toOffset: Int) throws(OrderingError)
    -> [Change]
  { try move(fromOffsets: offsets, toOffset: toOffset) }
  mutating func moveIDs(_ ids: [Int], to toOffset: Int) throws(OrderingError) -> [Change] {
    ids.count == 1 ? try move(ids[0], toOffset: toOffset) : try move(ids, toOffset: toOffset)
  }
  mutating func moveIDs(_ ids: [Int], before anchor: Int) throws(OrderingError) -> [Change] {
    try move(ids, before: anchor)
  }
  mutating func moveIDs(_ ids: [Int], after anchor: Int) throws(OrderingError) -> [Change] {
    try move(ids, after: anchor)
  }
  mutating func removeIDs(_ ids: [Int]) throws(OrderingError) -> [Int] {
    ids.count == 1 ? [try remove(ids[0]).id] : try remove(ids).map(\.id)
  }
  mutating func removeOffsets(_ offsets: [Int]) throws(OrderingError) -> [Int] {
    try remove(atOffsets: offsets).map(\.id)
  }
  mutating func insertID(_ id: Int, at index: Int) throws(OrderingError) -> [Change] {
    try insert(id, at: index).changes
  }
}

extension ListLabeling<Int>: MovableList {
  var pairs: [(id: Int, label: Int64)] { rows.map { ($0.id, $0.position) } }
  func index(of id: Int) -> Int? { firstIndex(of: id) }
  mutating func moveOffsets(_ offsets: [Int], to toOffset: Int) throws(OrderingError)
    -> [Change]
  { try move(fromOffsets: offsets, toOffset: toOffset) }
  mutating func moveIDs(_ ids: [Int], to toOffset: Int) throws(OrderingError) -> [Change] {
    ids.count == 1 ? try move(ids[0], toOffset: toOffset) : try move(ids, toOffset: toOffset)
  }
  mutating func moveIDs(_ ids: [Int], before anchor: Int) throws(OrderingError) -> [Change] {
    try move(ids, before: anchor)
  }
  mutating func moveIDs(_ ids: [Int], after anchor: Int) throws(OrderingError) -> [Change] {
    try move(ids, after: anchor)
  }
  mutating func removeIDs(_ ids: [Int]) throws(OrderingError) -> [Int] {
    ids.count == 1 ? [try remove(ids[0]).id] : try remove(ids).map(\.id)
  }
  mutating func removeOffsets(_ offsets: [Int]) throws(OrderingError) -> [Int] {
    try remove(atOffsets: offsets).map(\.id)
  }
  mutating func insertID(_ id: Int, at index: Int) throws(OrderingError) -> [Change] {
    try insert(id, at: index).changes
  }
}

/// `Array.move(fromOffsets:toOffset:)` as SwiftUI defines it: take the rows out, put them back
/// in their order at `toOffset` less the number of taken rows below it.
func arrayMove(_ ids: [Int], fromOffsets offsets: [Int], toOffset: Int) -> [Int] {
  let taken = Set(offsets)
  let moved = ids.indices.filter { taken.contains($0) }.map { ids[$0] }
  var rest = ids.indices.filter { !taken.contains($0) }.map { ids[$0] }
  rest.insert(contentsOf: moved, at: toOffset - offsets.filter { $0 < toOffset }.count)
  return rest
}

/// Checks a list against the model after an operation: same order, labels strictly
/// increasing, `changes` exactly the rows (already there before) whose labels changed, in list
/// order, and the index lookup equal to a linear scan.
func mismatch<L: MovableList>(
  _ list: L, model: [Int], before: [Int: L.Label], changes: [RowChange<Int, L.Label>]
) -> String? {
  let pairs = list.pairs
  guard pairs.map(\.id) == model else { return "order \(pairs.map(\.id)), model \(model)" }
  for row in pairs.indices.dropFirst() where !(pairs[row - 1].label < pairs[row].label) {
    return "labels not increasing at \(row)"
  }
  let changed = pairs.filter { pair in before[pair.id].map { $0 != pair.label } ?? false }
  let expected = changed.map { RowChange(id: $0.id, old: before[$0.id]!, new: $0.label) }
  guard changes == expected else { return "changes \(changes), expected \(expected)" }
  for (row, pair) in pairs.enumerated() where list.index(of: pair.id) != row {
    return "index(of: \(pair.id)) is \(String(describing: list.index(of: pair.id))), not \(row)"
  }
  if list.index(of: -1) != nil { return "index(of:) finds a missing id" }
  return nil
}

/// Random operations through the list and the model; returns the first mismatch.
func exercise<L: MovableList>(_ list: inout L, steps: Int, rng: inout SplitMix64) throws
  -> String?
{
  var model = list.pairs.map(\.id)
  var nextID = (model.max() ?? 0) + 1
  for step in 0..<steps {
    let before = Dictionary(uniqueKeysWithValues: list.pairs.map { ($0.id, $0.label) })
    let n = model.count
    var changes: [RowChange<Int, L.Label>] = []
    let choice = n < 3 ? 0 : rng.index(below: 7)
    // A random set of offsets, mostly small, sometimes a contiguous block.
    func offsets() -> [Int] {
      let k = 1 + rng.index(below: Swift.min(n, rng.chance(0.7) ? 3 : n))
      if rng.chance(0.3) {
        let start = rng.index(below: n - k + 1)
        return Array(start..<(start + k)).shuffled(using: &rng)
      }
      return Array(Array(0..<n).shuffled(using: &rng).prefix(k))
    }
    switch choice {
    case 0:
      let index = rng.index(below: n + 1)
      changes = try list.insertID(nextID, at: index)
      model.insert(nextID, at: index)
      nextID += 1
    case 1, 2:
      let taken = offsets()
      let to = rng.index(below: n + 1)
      changes = try list.moveOffsets(taken, to: to)
      model = arrayMove(model, fromOffsets: taken, toOffset: to)
    case 3:
      let taken = offsets()
      let to = rng.index(below: n + 1)
      changes = try list.moveIDs(taken.map { model[$0] }, to: to)
      model = arrayMove(model, fromOffsets: taken, toOffset: to)
    case 4:
      let taken = offsets()
      let anchor = rng.index(below: n)
      let after = rng.chance(0.5)
      let ids = taken.map { model[$0] }
      changes =
        after
        ? try list.moveIDs(ids, after: model[anchor]) : try list.moveIDs(ids, before: model[anchor])
      model = arrayMove(model, fromOffsets: taken, toOffset: after ? anchor + 1 : anchor)
    case 5:
      let taken = offsets().prefix(2)
      let removed = try list.removeOffsets(Array(taken))
      guard removed == taken.sorted().map({ model[$0] }) else { return "step \(step): removed" }
      model = model.indices.filter { !taken.contains($0) }.map { model[$0] }
    default:
      let taken = offsets().prefix(2)
      let ids = taken.map { model[$0] }
      let removed = try list.removeIDs(ids)
      guard removed == taken.sorted().map({ model[$0] }) else { return "step \(step): removed" }
      model.removeAll { ids.contains($0) }
    }
    if let problem = mismatch(list, model: model, before: before, changes: changes) {
      return "step \(step) (operation \(choice)): \(problem)"
    }
  }
  return nil
}

/// Globals of the module's value types: in Swift 6 they compile only because those are
/// `Sendable`.
let sharedRows: [OrderKeyList<String>.Row] = [.init(id: "milk", key: .first)]
let sharedList = OrderKeyList<String>(budget: 8)
let sharedChanges: [ForestChangeSet<String>] = []
let sharedError = OrderingError(.refused, description: "cannot move: no reason")

@Suite("Moves by id and SwiftUI offsets on both labelings")
struct ListMovesTests {
  @Test(
    "OrderKeyList follows Array.move and writes exactly the changed rows", arguments: [4, 6, 16])
  func orderKeyListMatchesTheModel(budget: Int) throws {
    for seed in 0..<UInt64(60) {
      var rng = SplitMix64(seed: SplitMix64.testSeed(0x0D0E + seed))
      var list = OrderKeyList<Int>(budget: budget)
      _ = try list.insert(contentsOf: 0..<rng.index(below: 40), at: 0)
      let problem = try exercise(&list, steps: 150, rng: &rng)
      #expect(problem == nil, "\(rng) budget \(budget): \(problem ?? "")")
    }
  }

  @Test(
    "ListLabeling follows Array.move and writes exactly the changed rows",
    arguments: [
      ListLabelingConfiguration(range: 0...400, endGap: 8), .default,
    ])
  func listLabelingMatchesTheModel(configuration: ListLabelingConfiguration) throws {
    for seed in 0..<UInt64(60) {
      var rng = SplitMix64(seed: SplitMix64.testSeed(0x1AB + seed))
      var list = try ListLabeling<Int>(ids: 0..<rng.index(below: 40), configuration: configuration)
      let problem = try exercise(&list, steps: 150, rng: &rng)
      #expect(problem == nil, "\(rng) \(configuration): \(problem ?? "")")
    }
  }

  @Test("The module's values are Sendable")
  func globals() async {
    let count = await Task.detached { sharedList.count + sharedRows.count }.value
    #expect(count == 1 && sharedChanges.isEmpty && sharedError.underlying == nil)
  }

  @Test("Moving one row writes that row only; a move onto itself writes nothing")
  func oneRowOneWrite() throws {
    var list = OrderKeyList<String>()
    _ = try list.insert(contentsOf: ["a", "b", "c", "d", "e"], at: 0)
    let keyOfB = list.key(of: "b")
    #expect(try list.move(fromOffsets: [1], toOffset: 2).isEmpty)
    #expect(try list.move(fromOffsets: [1, 2], toOffset: 1).isEmpty)
    #expect(try list.move(fromOffsets: [1, 2], toOffset: 3).isEmpty)
    #expect(list.key(of: "b") == keyOfB)
    let changes = try list.move("a", toOffset: 5)
    #expect(changes.map(\.id) == ["a"])
    #expect(list.rows.map(\.id) == ["b", "c", "d", "e", "a"])
  }

  @Test("A moved row whose key still fits between its new neighbours keeps it")
  func keptKeysAreNotWritten() throws {
    var list = OrderKeyList<String>()
    _ = try list.insert(contentsOf: ["a", "b", "c", "d", "e"], at: 0)
    // b and d to before c: b already sits right before c, so only d is written.
    let changes = try list.move(["d", "b"], before: "c")
    #expect(list.rows.map(\.id) == ["a", "b", "d", "c", "e"])
    #expect(changes.map(\.id) == ["d"])
  }

  @Test("Loading unsorted rows orders them by key, then id, and reports the repairs")
  func loadingUnsortedRows() throws {
    let a0 = try OrderKey(validating: "a0")
    let a1 = try OrderKey(validating: "a1")
    let rows: [OrderKeyList<String>.Row] = [
      .init(id: "z", key: a1), .init(id: "y", key: a0), .init(id: "x", key: a1),
    ]
    let (list, changes) = try OrderKeyList.loading(rows)
    #expect(list.rows.map(\.id) == ["y", "x", "z"])
    #expect(changes.map(\.id) == ["z"])
    #expect(changes.first?.old == a1)
    let labeled = try ListLabeling<String>.loading([
      .init(id: "b", position: 10), .init(id: "a", position: 10), .init(id: "c", position: 5),
    ])
    #expect(labeled.labeling.rows.map(\.id) == ["c", "a", "b"])
    #expect(labeled.changes.map(\.id) == ["b"])
  }

  @Test("Bad input throws naming what and where, and changes nothing")
  func badInput() throws {
    var list = OrderKeyList<String>()
    _ = try list.insert(contentsOf: ["a", "b", "c"], at: 0)
    let rows = list.rows
    func failure(_ body: (inout OrderKeyList<String>) throws -> Void) -> OrderingError? {
      do {
        try body(&list)
        return nil
      } catch { return error as? OrderingError }
    }
    let unknown = try #require(failure { _ = try $0.move("q", toOffset: 0) })
    #expect(unknown.code == .unknownID)
    #expect(unknown.description == "cannot move row \"q\": the list has no row with that id")
    let outside = try #require(failure { _ = try $0.move(fromOffsets: [1, 3], toOffset: 0) })
    #expect(outside.code == .offsetOutOfRange)
    #expect(outside.index == 3)
    #expect(
      outside.description
        == "cannot move the row at offset 3: the list has 3 rows, at offsets 0..<3")
    let twice = try #require(failure { _ = try $0.move(fromOffsets: [2, 0, 2], toOffset: 1) })
    #expect(twice.code == .duplicateOffset)
    #expect(twice.description == "cannot move rows: offset 2 is given twice")
    let farAway = try #require(failure { _ = try $0.move(fromOffsets: [0], toOffset: 4) })
    #expect(farAway.code == .offsetOutOfRange)
    #expect(
      farAway.description
        == "cannot move rows to offset 4: the list has 3 rows, so a destination is in 0...3")
    let anchor = try #require(failure { _ = try $0.move(["a"], after: "q") })
    #expect(
      anchor.description
        == "cannot move rows after row \"q\": the list has no row with that id")
    let sameID = try #require(failure { _ = try $0.remove(["a", "b", "a"]) })
    #expect(sameID.code == .duplicateID)
    #expect(sameID.description == "cannot remove row \"a\": it is given twice")
    let gone = try #require(failure { _ = try $0.remove("q") })
    #expect(gone.description == "cannot remove row \"q\": the list has no row with that id")
    let negative = try #require(failure { _ = try $0.remove(atOffsets: [-1]) })
    #expect(
      negative.description
        == "cannot remove the row at offset -1: the list has 3 rows, at offsets 0..<3")
    #expect(list.rows == rows)
  }

  @Test("ListLabeling refuses bad input with the same messages, and changes nothing")
  func badInputOnPositions() throws {
    var list = try ListLabeling<String>(ids: ["a", "b", "c"])
    let rows = list.rows
    func failure(_ body: (inout ListLabeling<String>) throws -> Void) -> OrderingError? {
      do {
        try body(&list)
        return nil
      } catch { return error as? OrderingError }
    }
    let unknown = try #require(failure { _ = try $0.move(["a", "q"], before: "b") })
    #expect(unknown.code == .unknownID)
    #expect(unknown.description == "cannot move row \"q\": the list has no row with that id")
    let outside = try #require(failure { _ = try $0.remove(atOffsets: [0, 7]) })
    #expect(outside.index == 7)
    #expect(
      outside.description
        == "cannot remove the row at offset 7: the list has 3 rows, at offsets 0..<3")
    let twice = try #require(failure { _ = try $0.move(fromOffsets: [1, 1], toOffset: 0) })
    #expect(twice.code == .duplicateOffset)
    let below = try #require(failure { _ = try $0.move("a", toOffset: -1) })
    #expect(below.code == .offsetOutOfRange && below.index == -1)
    #expect(list.rows == rows)
  }
}
