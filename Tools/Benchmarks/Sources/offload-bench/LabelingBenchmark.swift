import ArgumentParser
import OrderingCore

/// `offload-bench labeling`: relabels per operation of `ListLabeling` against renumbering.
struct LabelingBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "labeling",
    abstract:
      "ListLabeling relabels per operation (front, after-first, random, move, middle) vs the naive shift."
  )

  @Option(help: "List sizes (comma-separated).")
  var sizes = "100000,1000000"

  @Option(help: "List size for the naive shift scheme (it costs O(n) per operation).")
  var naiveSize = 100_000

  @Option(help: "Seed of the random workloads.")
  var seed: UInt64 = 0x0FF1_0AD

  @Option(help: "log2 of the labeling's end gap (the default configuration uses 40).")
  var endGapBits = 40

  @Flag(help: "Print one JSON array instead of a table.")
  var json = false

  enum Workload: String, CaseIterable {
    case front, afterFirst = "after-first", random, move, middle

    /// The index of the next insert into a list of `count` rows.
    func insertionIndex(count: Int, rng: inout SplitMix64) -> Int {
      switch self {
      case .front: 0
      case .afterFirst: Swift.min(1, count)
      case .random: Int.random(in: 0...count, using: &rng)
      case .middle: count / 2
      case .move: preconditionFailure("move has no insertion index")
      }
    }
  }

  /// Totals of one run.
  struct Tally {
    var operations = 0
    var relabels = 0
    var maxRelabels = 0
    var seconds = 0.0

    mutating func record(_ relabels: Int) {
      operations += 1
      self.relabels += relabels
      maxRelabels = Swift.max(maxRelabels, relabels)
    }
  }

  /// `n` inserts into an empty labeling, or `n` random moves in a labeling of `n` rows.
  static func runLabeling(
    _ workload: Workload, n: Int, seed: UInt64, configuration: ListLabelingConfiguration
  ) throws -> Tally {
    var rng = SplitMix64(seed: seed)
    var tally = Tally()
    if workload == .move {
      var list = try ListLabeling<Int>(ids: 0..<n, configuration: configuration)
      tally.seconds =
        Stopwatch.measure {
          for _ in 0..<n {
            let source = Int.random(in: 0..<n, using: &rng)
            let destination = Int.random(in: 0..<n, using: &rng)
            tally.record(list.move(from: source, to: destination).changes.count)
          }
        }.1
      blackHole(list.count)
      return tally
    }
    var list = ListLabeling<Int>(configuration: configuration)
    var failure: (any Error)?
    tally.seconds =
      Stopwatch.measure {
        for id in 0..<n {
          let index = workload.insertionIndex(count: list.count, rng: &rng)
          do {
            tally.record(try list.insert(id, at: index).changes.count)
          } catch {
            failure = error
            return
          }
        }
      }.1
    if let failure { throw failure }
    blackHole(list.count)
    return tally
  }

  /// The same workload with positions renumbered 0, 1, 2, … after every operation: every row
  /// from the insertion point to the end is rewritten.
  static func runNaive(_ workload: Workload, n: Int, seed: UInt64) -> Tally {
    var rng = SplitMix64(seed: seed)
    var tally = Tally()
    var ids: [Int] = []
    var positions: [Int64] = []
    ids.reserveCapacity(n)
    positions.reserveCapacity(n)
    if workload == .move {
      ids = Array(0..<n)
      positions = (0..<n).map(Int64.init)
      tally.seconds =
        Stopwatch.measure {
          for _ in 0..<n {
            let source = Int.random(in: 0..<n, using: &rng)
            let destination = Int.random(in: 0..<n, using: &rng)
            let id = ids.remove(at: source)
            ids.insert(id, at: destination)
            // Every row between the two indices shifts by one and is rewritten.
            let low = Swift.min(source, destination)
            let high = Swift.max(source, destination)
            for index in low...high { positions[index] = Int64(index) }
            let changed = high - low
            tally.record(changed)
          }
        }.1
      blackHole(positions.count)
      return tally
    }
    tally.seconds =
      Stopwatch.measure {
        for id in 0..<n {
          let index = workload.insertionIndex(count: ids.count, rng: &rng)
          ids.insert(id, at: index)
          positions.insert(Int64(index), at: index)
          var changed = 0
          for later in (index + 1)..<positions.count {
            positions[later] += 1
            changed += 1
          }
          tally.record(changed)
        }
      }.1
    blackHole(positions.count)
    return tally
  }

  static func row(_ workload: Workload, n: Int, scheme: String, tally: Tally) -> BenchmarkRow {
    BenchmarkRow(fields: [
      ("workload", .text(workload.rawValue)),
      ("n", .integer(n)),
      ("scheme", .text(scheme)),
      (
        "amortizedRelabels",
        .number(Double(tally.relabels) / Double(Swift.max(tally.operations, 1)))
      ),
      ("maxRelabels", .integer(tally.maxRelabels)),
      ("opsPerSecond", .number(Double(tally.operations) / tally.seconds)),
    ])
  }

  func run() throws {
    let sizes = self.sizes.split(separator: ",").compactMap { Int($0) }
    var rows: [BenchmarkRow] = []
    for n in sizes {
      for workload in Workload.allCases {
        let tally = try Self.runLabeling(
          workload, n: n, seed: seed,
          configuration: ListLabelingConfiguration(endGap: 1 << Int64(endGapBits)))
        rows.append(Self.row(workload, n: n, scheme: "labeling", tally: tally))
        if n == naiveSize {
          rows.append(
            Self.row(
              workload, n: n, scheme: "naive-shift",
              tally: Self.runNaive(workload, n: n, seed: seed)))
        }
      }
    }
    try Report.print(
      title:
        "ListLabeling relabels per operation (seed \(seed), end gap 2^\(endGapBits)); naive-shift renumbers 0, 1, 2, …",
      rows: rows, json: json)
  }
}
