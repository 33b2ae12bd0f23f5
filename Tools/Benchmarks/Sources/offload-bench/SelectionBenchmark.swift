import ArgumentParser
import Selection

/// Rows 0..<n without storing them, less a set of deleted rows: a list of any size.
struct BenchmarkRows: SelectionRows {
  var count: Int
  var deleted: Set<Int> = []
  var visibleCount: Int { count - deleted.count }
  var visibleIDs: LazyFilterSequence<Range<Int>> {
    let deleted = deleted
    return (0..<count).lazy.filter { !deleted.contains($0) }
  }
  var hasHiddenRows: Bool { false }
  var hiddenIDs: [Int] { [] }
  func status(of id: Int) -> RowStatus {
    id >= 0 && id < count && !deleted.contains(id) ? .visible : .gone
  }
}

/// `offload-bench selection`: select-all, count, toggle, reconcile and materialize at a
/// million rows, against a plain `Set` of selected ids (what a selection that materializes
/// select-all, as React Stately's does on the first toggle after it, pays).
struct SelectionBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "selection",
    abstract: "SelectionState at 1,000,000 ids: select-all, count, toggle, reconcile, materialize.")

  @Option(help: "Rows in the list.")
  var count = 1_000_000

  @Option(help: "Random toggles after the select-all.")
  var toggles = 100_000

  @Option(help: "Seed of the random workloads.")
  var seed: UInt64 = 0x5E1E_C7

  @Option(help: "Timed repetitions per figure (the fastest is reported).")
  var repetitions = 5

  @Flag(help: "Print one JSON array instead of a table.")
  var json = false

  func run() throws {
    let rows = BenchmarkRows(count: count)
    var rng = SplitMix64(seed: seed)
    let toggleIDs = (0..<toggles).map { _ in Int.random(in: 0..<count, using: &rng) }
    var deleted: Set<Int> = []
    while deleted.count < count / 100 { deleted.insert(Int.random(in: 0..<count, using: &rng)) }
    let shrunk = BenchmarkRows(count: count, deleted: deleted)
    var result: [BenchmarkRow] = []

    func row(_ operation: String, n: Int, ops: Int, ours: Double, baseline: Double, stored: Int)
      -> BenchmarkRow
    {
      BenchmarkRow(fields: [
        ("operation", .text(operation)), ("n", .integer(n)), ("ops", .integer(ops)),
        ("nsPerOp", .number(ours * 1e9 / Double(ops))),
        ("baselineNsPerOp", .number(baseline * 1e9 / Double(ops))),
        ("speedup", .number(baseline / max(ours, 1e-12))), ("storedIDs", .integer(stored)),
      ])
    }

    // Select all, then count.
    var state = SelectionState<Int>()
    state.beginEditing()
    let selectAll = Stopwatch.best(of: repetitions) {
      state.deselectAll()
      state.selectAll(in: rows)
      blackHole(state.count)
    }
    var naive: Set<Int> = []
    let naiveSelectAll = Stopwatch.best(of: repetitions) {
      naive = Set(0..<count)
      blackHole(naive.count)
    }
    result.append(
      row(
        "selectAll+count", n: count, ops: 1, ours: selectAll, baseline: naiveSelectAll,
        stored: state.storedCount))

    // Random toggles after a select-all; count after each.
    var toggled = state
    let toggle = Stopwatch.best(of: repetitions) {
      toggled = state
      for id in toggleIDs {
        toggled.toggle(id)
        blackHole(toggled.count)
      }
    }
    var naiveToggled = naive
    let naiveToggle = Stopwatch.best(of: repetitions) {
      naiveToggled = Set(0..<count)  // the select-all the toggles follow, materialized
      for id in toggleIDs {
        if naiveToggled.remove(id) == nil { naiveToggled.insert(id) }
        blackHole(naiveToggled.count)
      }
    }
    result.append(
      row(
        "selectAll then toggle+count", n: count, ops: toggles, ours: toggle,
        baseline: naiveToggle, stored: toggled.storedCount))

    // Reconcile after 1 % of the rows are deleted.
    var reconciled = toggled
    let reconcile = Stopwatch.best(of: repetitions) {
      reconciled = toggled
      blackHole(reconciled.reconcile(with: shrunk, policy: .drop))
    }
    var naiveReconciled = naiveToggled
    let naiveReconcile = Stopwatch.best(of: repetitions) {
      naiveReconciled = naiveToggled.filter { !deleted.contains($0) }
    }
    result.append(
      row(
        "reconcile (1% deleted)", n: count, ops: 1, ours: reconcile, baseline: naiveReconcile,
        stored: reconciled.storedCount))
    guard reconciled.count == naiveReconciled.count else {
      throw ValidationError(
        "counts disagree: \(reconciled.count) against \(naiveReconciled.count)")
    }

    // Materialize in display order.
    var materialized: [Int] = []
    let materialize = Stopwatch.best(of: repetitions) {
      materialized = reconciled.selectedIDs(in: shrunk)
    }
    let naiveMaterialize = Stopwatch.best(of: repetitions) {
      blackHole(Array(shrunk.visibleIDs.filter { naiveReconciled.contains($0) }))
    }
    guard materialized.count == reconciled.count else {
      throw ValidationError("materialized \(materialized.count), counted \(reconciled.count)")
    }
    result.append(
      row(
        "materialize in display order", n: count, ops: 1, ours: materialize,
        baseline: naiveMaterialize, stored: reconciled.storedCount))

    try Report.print(
      title:
        "SelectionState (n = \(count), seed \(seed), best of \(repetitions); baseline: Set<Int> of selected ids)",
      rows: result, json: json)
  }
}
