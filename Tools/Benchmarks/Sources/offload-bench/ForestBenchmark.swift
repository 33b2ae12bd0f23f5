import ArgumentParser
import OrderingCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The CPU time this thread has used, in seconds: on a shared machine it shows the work
/// done whatever else runs, beside the wall-clock figures the table reports.
func threadCPUSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// `offload-bench forest`: the ordered forest on a seeded random forest of 1,000,000 nodes,
/// and a naive baseline (children found by scanning all records) side by side at 20,000.
struct ForestBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "forest",
    abstract: "OrderedForest: build, flatten, visible rows, moves, indent/outdent; naive baseline.")

  @Option(help: "Nodes in the large forest.")
  var count = 1_000_000

  @Option(help: "Nodes in the forest compared with the naive baseline.")
  var naiveCount = 20_000

  @Option(help: "Deepest depth of the generated forests (roots are at 0).")
  var depth = 12

  @Option(help: "Moves (and indents/outdents) per measurement on the large forest.")
  var moves = 100_000

  @Option(
    help:
      "Moves (and indents/outdents) per measurement at the naive size: the same sequence on both sides."
  )
  var naiveMoves = 2_000

  @Option(help: "Seed of the random forests and operations.")
  var seed: UInt64 = 0x0FF1_0AD

  @Option(
    help: "Timed repetitions of each measurement on the large forest (the fastest is reported).")
  var repetitions = 3

  @Option(
    help:
      "Timed repetitions of each measurement at the naive size, on both sides (the fastest is reported)."
  )
  var naiveRepetitions = 10

  @Flag(help: "Print one JSON array instead of a table.")
  var json = false

  typealias Forest = OrderedForest<Int>

  /// Random records: each node's parent is a random earlier node (its ancestor at depth
  /// `depth - 1` when deeper), one in a thousand a root; keys appended per parent; shuffled.
  static func records(count: Int, depth maxDepth: Int, seed: UInt64) throws -> [Forest.Record] {
    var rng = SplitMix64(seed: seed)
    var parents = [Int](repeating: -1, count: count)
    var depths = [Int](repeating: 0, count: count)
    var lastKey = [OrderKey?](repeating: nil, count: count + 1)  // last slot: the roots
    var records: [Forest.Record] = []
    records.reserveCapacity(count)
    for node in 0..<count {
      if node > 0 && Int.random(in: 0..<1000, using: &rng) != 0 {
        var parent = Int.random(in: 0..<node, using: &rng)
        while depths[parent] >= maxDepth { parent = parents[parent] }
        parents[node] = parent
        depths[node] = depths[parent] + 1
      }
      let bucket = parents[node] < 0 ? count : parents[node]
      let key = try OrderKey.between(lastKey[bucket], nil)
      lastKey[bucket] = key
      records.append(
        Forest.Record(id: node, parent: parents[node] < 0 ? nil : parents[node], key: key))
    }
    records.shuffle(using: &rng)
    return records
  }

  /// Random move destinations: before, after, first or last child of a random node.
  static func destinations(count: Int, nodes: Int, seed: UInt64) -> [(Int, Forest.Destination)] {
    var rng = SplitMix64(seed: seed)
    return (0..<count).map { _ in
      let node = Int.random(in: 0..<nodes, using: &rng)
      let anchor = Int.random(in: 0..<nodes, using: &rng)
      let destination: Forest.Destination =
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: .before(anchor)
        case 1: .after(anchor)
        case 2: .firstChild(of: anchor)
        default: .lastChild(of: anchor)
        }
      return (node, destination)
    }
  }

  /// A table row (with the CPU-time column) or a JSON object (the five fields only).
  static func row(_ operation: String, n: Int, scheme: String, timing: Timing, cpu: Bool)
    -> BenchmarkRow
  {
    let operations = Double(max(timing.operations, 1))
    var row = BenchmarkRow(fields: [
      ("operation", .text(operation)),
      ("n", .integer(n)),
      ("scheme", .text(scheme)),
      ("totalMilliseconds", .number(timing.wall * 1000)),
      ("nanosecondsPerOperation", .number(timing.wall * 1e9 / operations)),
    ])
    if cpu {
      row.fields.append(("cpuNanosecondsPerOperation", .number(timing.cpu * 1e9 / operations)))
    }
    return row
  }

  /// A measurement: the fastest wall-clock and CPU seconds over the repetitions, and how
  /// many operations one repetition makes.
  struct Timing {
    var wall: Double
    var cpu: Double
    var operations: Int

    /// No repetition yet: any measurement is faster.
    static func none(operations: Int) -> Timing {
      Timing(wall: .infinity, cpu: .infinity, operations: operations)
    }

    /// Keeps the faster wall-clock and CPU figures of this and `other`.
    mutating func keepFastest(_ other: Timing) {
      wall = min(wall, other.wall)
      cpu = min(cpu, other.cpu)
    }
  }

  /// Runs `body` `repetitions` times (each after `prepare`), keeping the fastest run.
  static func time(
    _ repetitions: Int, operations: Int, prepare: () throws -> Void = {},
    _ body: () throws -> Void
  ) rethrows -> Timing {
    var timing = Timing.none(operations: operations)
    for _ in 0..<max(repetitions, 1) {
      try prepare()
      let cpu = threadCPUSeconds()
      let (_, wall) = try Stopwatch.measure(body)
      timing.keepFastest(
        Timing(wall: wall, cpu: threadCPUSeconds() - cpu, operations: operations))
    }
    return timing
  }

  /// A mutating workload: `prepare` (untimed) resets the state, `body` is timed.
  struct Workload {
    var operations: Int
    var prepare: () throws -> Void
    var body: () throws -> Void

    /// One timed repetition.
    func once() throws -> Timing {
      try ForestBenchmark.time(1, operations: operations, prepare: prepare, body)
    }
  }

  /// Times two workloads in alternation, keeping each one's fastest repetition: a slow
  /// spell of a shared machine then falls on both sides instead of on one.
  static func alternate(_ repetitions: Int, _ first: Workload, _ second: Workload) throws -> (
    Timing, Timing
  ) {
    var a = Timing.none(operations: first.operations)
    var b = Timing.none(operations: second.operations)
    for _ in 0..<max(repetitions, 1) {
      a.keepFastest(try first.once())
      b.keepFastest(try second.once())
    }
    return (a, b)
  }

  /// The value a workload's closures share. Each body takes it out for its loop, so the loop
  /// mutates a local value (no dynamic exclusivity checks) that no one else holds, and puts
  /// it back after.
  final class Shared<Value> {
    var value: Value
    let empty: Value

    init(_ value: Value, empty: Value) {
      self.value = value
      self.empty = empty
    }

    func take() -> Value {
      defer { value = empty }
      return value
    }
  }

  /// The forest's mutating workloads on `n` nodes, keyed by operation: moves with the
  /// cycle check, the same moves again on the forest they left, the moves with the depth
  /// limit, and indent/outdent.
  ///
  /// Each repetition starts from a freshly built forest (built before the clock starts), so
  /// every repetition replays the same operations on the same forest, and no storage is
  /// still shared with another copy (which would make its first change copy it).
  func moveWorkloads(n: Int, moveCount: Int, records: [Forest.Record]) -> [String: Workload] {
    let state = Shared(Forest(), empty: Forest())
    func fresh() {
      state.value = Forest.build(from: records).forest
    }
    // Moves with the cycle check; refused moves (into their own subtree) count too.
    let plan = Self.destinations(count: moveCount, nodes: n, seed: seed ^ 0x3017E)
    func moves() {
      var forest = state.take()
      for (node, destination) in plan { blackHole(try? forest.move(node, to: destination)) }
      state.value = forest
    }
    var order = SplitMix64(seed: seed ^ 0x1DE)
    let targets = (0..<moveCount).map { _ in Int.random(in: 0..<n, using: &order) }
    let depth = self.depth
    return [
      "move (cycle check)": Workload(operations: moveCount, prepare: fresh, body: moves),
      // The same moves again on the forest they left: a forest in use, its records already
      // in the cache, where the first pass after a build mostly misses it.
      "move (second pass)": Workload(
        operations: moveCount,
        prepare: {
          fresh()
          moves()
        }, body: moves),
      // The same with the workload's depth limit: each move also measures the moved
      // subtree's height (up to the limit) and refuses moves that would go deeper.
      "move (cycle + depth check)": Workload(
        operations: moveCount,
        prepare: {
          fresh()
          state.value.constraints.maximumDepth = depth
        }, body: moves),
      "indent/outdent": Workload(
        operations: moveCount, prepare: fresh,
        body: {
          var forest = state.take()
          for (index, node) in targets.enumerated() {
            if index % 2 == 0 {
              blackHole(try? forest.indent(node))
            } else {
              blackHole(try? forest.outdent(node))
            }
          }
          state.value = forest
        }),
    ]
  }

  /// Runs the forest's workload on `n` nodes; returns timings keyed by operation.
  func measureForest(n: Int, moveCount: Int, repetitions: Int, moves: Bool = true) throws
    -> [String: Timing]
  {
    var results: [String: Timing] = [:]
    let records = try Self.records(count: n, depth: depth, seed: seed)
    var forest = Forest()
    results["build from records"] = try Self.time(repetitions, operations: n) {
      let (built, report) = Forest.build(from: records)
      precondition(report.isClean && built.count == n)
      forest = built
    }
    let flatten = try Self.time(repetitions, operations: n) {
      let rows = forest.flattened()
      precondition(rows.count == n)
      blackHole(rows)
    }
    results["flatten"] = flatten
    var rng = SplitMix64(seed: seed ^ 0xC011)
    var collapsed = Set<Int>()
    while collapsed.count < n / 10 { collapsed.insert(Int.random(in: 0..<n, using: &rng)) }
    let visible = try Self.time(repetitions, operations: n) {
      blackHole(forest.visibleRows(collapsed: collapsed))
    }
    results["visible rows (10 % collapsed)"] = visible
    results["flatten + visible rows"] = Timing(
      wall: flatten.wall + visible.wall, cpu: flatten.cpu + visible.cpu, operations: n)

    let workloads = moves ? moveWorkloads(n: n, moveCount: moveCount, records: records) : [:]
    for (operation, workload) in workloads {
      results[operation] = try Self.time(
        repetitions, operations: workload.operations, prepare: workload.prepare, workload.body)
    }
    return results
  }

  func run() throws {
    var rows: [BenchmarkRow] = []
    // Side by side at the naive size, first, while the heap is fresh: after the large
    // forest's million allocations, every later allocation costs more on both sides.
    // Both sides replay the same moves from the same forest, best of the same repetitions:
    // random moves deepen a forest, so a longer sequence would cost more per move. A few
    // thousand moves take about a millisecond here, so more repetitions steady the figure,
    // and the two sides take turns, so a slow spell of the machine falls on both.
    var small = try measureForest(
      n: naiveCount, moveCount: naiveMoves, repetitions: naiveRepetitions, moves: false)
    let records = try Self.records(count: naiveCount, depth: depth, seed: seed)
    let baseline = NaiveForest(records: records)
    var naive = baseline.measureReads(n: naiveCount, seed: seed)
    // The mutating workloads alternate with the baseline's, repetition by repetition.
    let ours = moveWorkloads(n: naiveCount, moveCount: naiveMoves, records: records)
    let theirs = baseline.moveWorkloads(n: naiveCount, seed: seed, moveCount: naiveMoves)
    for operation in ["move (cycle check)", "indent/outdent"] {
      guard let mine = ours[operation], let other = theirs[operation] else { continue }
      (small[operation], naive[operation]) = try Self.alternate(naiveRepetitions, mine, other)
    }
    if let secondPass = ours["move (second pass)"] {
      small["move (second pass)"] = try Self.time(
        naiveRepetitions, operations: secondPass.operations, prepare: secondPass.prepare,
        secondPass.body)
    }
    let large = try measureForest(n: count, moveCount: moves, repetitions: repetitions)
    let operations = [
      "build from records", "flatten", "visible rows (10 % collapsed)", "flatten + visible rows",
      "move (cycle check)", "move (second pass)", "move (cycle + depth check)", "indent/outdent",
    ]
    for operation in operations {
      guard let timing = large[operation] else { continue }
      rows.append(Self.row(operation, n: count, scheme: "forest", timing: timing, cpu: !json))
    }
    var speedups: [String] = []
    for operation in NaiveForest.operations {
      guard let ours = small[operation], let theirs = naive[operation] else { continue }
      rows.append(Self.row(operation, n: naiveCount, scheme: "forest", timing: ours, cpu: !json))
      rows.append(Self.row(operation, n: naiveCount, scheme: "naive", timing: theirs, cpu: !json))
      func ratio(_ a: Double, _ b: Double) -> Int {
        Int(((a / Double(theirs.operations)) / (b / Double(ours.operations))).rounded())
      }
      speedups.append(
        "  \(operation): forest is \(ratio(theirs.wall, ours.wall))x faster per operation (CPU time: \(ratio(theirs.cpu, ours.cpu))x)"
      )
    }
    if let secondPass = small["move (second pass)"] {
      rows.append(
        Self.row(
          "move (second pass)", n: naiveCount, scheme: "forest", timing: secondPass, cpu: !json))
    }
    try Report.print(
      title:
        "OrderedForest (seeded random forest, depth <= \(depth), seed \(seed); best of \(repetitions) at \(count) nodes with \(moves) moves, best of \(naiveRepetitions) at \(naiveCount) with \(naiveMoves))",
      rows: rows, json: json)
    if !json {
      print("\nSpeedup over the naive baseline at n = \(naiveCount):")
      for line in speedups { print(line) }
      func check(_ operation: String, _ limit: Double, per: Bool) -> String {
        guard let timing = large[operation] else { return "" }
        func value(_ seconds: Double) -> Double {
          let value = per ? seconds * 1e6 / Double(timing.operations) : seconds * 1000
          return (value * 100).rounded() / 100
        }
        let unit = per ? "µs" : "ms"
        let verdict = value(timing.wall) <= limit ? "meets" : "MISSES"
        return
          "  \(operation): \(value(timing.wall)) \(unit) wall (\(value(timing.cpu)) \(unit) CPU) \(verdict) the target <= \(limit) \(unit)"
      }
      print("\nTargets at n = \(count):")
      print(check("flatten + visible rows", 100, per: false))
      print(check("move (cycle check)", 10, per: true))
      print(check("build from records", 1000, per: false))
    }
  }
}

/// The naive baseline: records in an array; children are found by scanning every record,
/// and a node by scanning for its id.
struct NaiveForest {
  var ids: [Int]
  var parents: [Int?]
  var keys: [OrderKey]

  static let operations = [
    "flatten", "visible rows (10 % collapsed)", "move (cycle check)", "indent/outdent",
  ]

  func index(of id: Int) -> Int? { ids.firstIndex(of: id) }

  /// The children of `parent` (nil: roots) in key order, by scanning all records.
  func children(of parent: Int?) -> [Int] {
    var result: [Int] = []
    for index in ids.indices where parents[index] == parent { result.append(index) }
    return result.sorted { keys[$0] < keys[$1] }.map { ids[$0] }
  }

  func rows(collapsed: Set<Int>) -> [(Int, Int)] {
    var result: [(Int, Int)] = []
    func visit(_ parent: Int?, _ depth: Int) {
      for child in children(of: parent) {
        result.append((child, depth))
        if !collapsed.contains(child) { visit(child, depth + 1) }
      }
    }
    visit(nil, 0)
    return result
  }

  /// Moves `id` to a gap among the children of `parent`, with the cycle check.
  mutating func move(_ id: Int, under parent: Int?, at position: Int) -> Bool {
    var ancestor = parent
    while let current = ancestor {
      if current == id { return false }
      ancestor = index(of: current).flatMap { parents[$0] }
    }
    guard let slot = index(of: id) else { return false }
    let siblings = children(of: parent).filter { $0 != id }
    let position = min(position, siblings.count)
    let lower = position > 0 ? index(of: siblings[position - 1]).map { keys[$0] } : nil
    let upper = position < siblings.count ? index(of: siblings[position]).map { keys[$0] } : nil
    guard let key = try? OrderKey.between(lower, upper) else { return false }
    parents[slot] = parent
    keys[slot] = key
    return true
  }

  /// Times flatten and visible rows once each (they take a quarter of a second).
  func measureReads(n: Int, seed: UInt64) -> [String: ForestBenchmark.Timing] {
    var results: [String: ForestBenchmark.Timing] = [:]
    results["flatten"] = ForestBenchmark.time(1, operations: n, prepare: {}) {
      blackHole(rows(collapsed: []))
    }
    var rng = SplitMix64(seed: seed ^ 0xC011)
    var collapsed = Set<Int>()
    while collapsed.count < n / 10 { collapsed.insert(Int.random(in: 0..<n, using: &rng)) }
    results["visible rows (10 % collapsed)"] = ForestBenchmark.time(
      1, operations: n, prepare: {}
    ) {
      blackHole(rows(collapsed: collapsed))
    }
    return results
  }

  /// The baseline's moves and indents/outdents, each repetition from these records.
  func moveWorkloads(n: Int, seed: UInt64, moveCount: Int) -> [String: ForestBenchmark.Workload] {
    let initial = self
    let state = ForestBenchmark.Shared(initial, empty: NaiveForest(ids: [], parents: [], keys: []))
    // Each repetition of a mutating workload starts from the initial records.
    func fresh() { state.value = initial }
    let plan = ForestBenchmark.destinations(count: moveCount, nodes: n, seed: seed ^ 0x3017E)
    var order = SplitMix64(seed: seed ^ 0x1DE)
    let targets = (0..<moveCount).map { _ in Int.random(in: 0..<n, using: &order) }
    return [
      "move (cycle check)": ForestBenchmark.Workload(
        operations: moveCount, prepare: fresh,
        body: {
          var naive = state.take()
          defer { state.value = naive }
          for (node, destination) in plan {
            switch destination {
            case .before(let anchor), .after(let anchor):
              guard let slot = naive.index(of: anchor) else { continue }
              let parent = naive.parents[slot]
              let siblings = naive.children(of: parent).filter { $0 != node }
              let position =
                (siblings.firstIndex(of: anchor) ?? 0) + (destination == .after(anchor) ? 1 : 0)
              blackHole(naive.move(node, under: parent, at: position))
            case .firstChild(let anchor):
              blackHole(naive.move(node, under: anchor, at: 0))
            case .lastChild(let anchor):
              blackHole(naive.move(node, under: anchor, at: Int.max))
            case .root(let index):
              blackHole(naive.move(node, under: nil, at: index))
            case .lastRoot:
              blackHole(naive.move(node, under: nil, at: Int.max))
            }
          }
        }),
      "indent/outdent": ForestBenchmark.Workload(
        operations: moveCount, prepare: fresh,
        body: {
          var naive = state.take()
          defer { state.value = naive }
          for (index, node) in targets.enumerated() {
            guard let slot = naive.index(of: node) else { continue }
            let parent = naive.parents[slot]
            if index % 2 == 0 {
              // Indent: last child of the previous sibling.
              let siblings = naive.children(of: parent)
              guard let position = siblings.firstIndex(of: node), position > 0 else { continue }
              blackHole(naive.move(node, under: siblings[position - 1], at: Int.max))
            } else {
              // Outdent: right after the parent.
              guard let parent, let parentSlot = naive.index(of: parent) else { continue }
              let grandparent = naive.parents[parentSlot]
              let siblings = naive.children(of: grandparent)
              let position = (siblings.firstIndex(of: parent) ?? 0) + 1
              blackHole(naive.move(node, under: grandparent, at: position))
            }
          }
        }),
    ]
  }
}

extension NaiveForest {
  /// The baseline's records, as the forest's benchmark generates them.
  init(records input: [OrderedForest<Int>.Record]) {
    self.init(
      ids: input.map(\.id), parents: input.map(\.parent),
      keys: input.map {
        guard case .key(let text) = $0.order, let key = OrderKey(rawValue: text) else {
          return OrderKey.first
        }
        return key
      })
  }
}
