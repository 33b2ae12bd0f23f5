import ArgumentParser
import OrderingCore

/// `offload-bench keys`: order-key generation on the workloads of the reference library.
struct KeysBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "keys",
    abstract:
      "Order key generation: append, prepend, random, move, after-first, spread; OrderKeyList with a length budget."
  )

  @Option(help: "Operations per workload.")
  var count = 100_000

  @Option(help: "Seed of the random workloads.")
  var seed: UInt64 = 0x0FF1_0AD

  @Option(help: "Timed repetitions per workload (the fastest is reported).")
  var repetitions = 5

  @Option(help: "Key length budget of the rebalanced OrderKeyList rows.")
  var budget = 16

  @Flag(help: "Print one JSON array instead of a table.")
  var json = false

  enum Workload: String, CaseIterable {
    case append, prepend, random, move, afterFirst = "after-first"
  }

  /// Runs a workload once with list maintenance, recording the bounds of every call.
  static func record(_ workload: Workload, count: Int, seed: UInt64) throws -> (
    bounds: [(OrderKey?, OrderKey?)], list: [OrderKey]
  ) {
    var rng = SplitMix64(seed: seed)
    var list: [OrderKey] = []
    var bounds: [(OrderKey?, OrderKey?)] = []
    bounds.reserveCapacity(count)
    list.reserveCapacity(count)
    for _ in 0..<count {
      let position: Int
      switch workload {
      case .append: position = list.count
      case .prepend: position = 0
      case .random: position = Int.random(in: 0...list.count, using: &rng)
      case .afterFirst: position = list.isEmpty ? 0 : 1
      case .move:
        // Each operation removes a random item and reinserts it at a random place, in a list
        // first built to n items by random inserts (not recorded).
        while list.count < count {
          let index = Int.random(in: 0...list.count, using: &rng)
          let lower = index > 0 ? list[index - 1] : nil
          let upper = index < list.count ? list[index] : nil
          list.insert(try OrderKey.between(lower, upper), at: index)
        }
        list.remove(at: Int.random(in: 0..<list.count, using: &rng))
        position = Int.random(in: 0...list.count, using: &rng)
      }
      let lower = position > 0 ? list[position - 1] : nil
      let upper = position < list.count ? list[position] : nil
      bounds.append((lower, upper))
      list.insert(try OrderKey.between(lower, upper), at: position)
    }
    return (bounds, list)
  }

  func run() throws {
    var rows: [BenchmarkRow] = []
    for workload in Workload.allCases {
      let (bounds, list) = try Self.record(workload, count: count, seed: seed)
      // Replay the recorded bounds through key generation alone.
      let seconds = try Stopwatch.best(of: repetitions) {
        for (lower, upper) in bounds { blackHole(try OrderKey.between(lower, upper)) }
      }
      rows.append(
        Self.row(
          workload.rawValue, n: count, operations: bounds.count, seconds: seconds, keys: list))
    }
    let upper = try OrderKey(validating: "a1")
    var spread: [OrderKey] = []
    let seconds = try Stopwatch.best(of: repetitions) {
      spread = try OrderKey.spread(count, between: .first, and: upper)
    }
    var row = Self.row("spread", n: count, operations: count, seconds: seconds, keys: spread)
    row.fields.append(("totalMilliseconds", .number(seconds * 1000)))
    rows.append(row)
    for workload in Workload.allCases {
      rows.append(try Self.rebalanced(workload, count: count, seed: seed, budget: budget))
    }
    rows.append(try Self.rebalanced(nil, count: count, seed: seed, budget: budget))
    rows.append(try Self.bulk(count: count, budget: budget))
    try Report.print(
      title:
        "OrderKey generation (n = \(count), seed \(seed), best of \(repetitions)); scheme rebalanced = OrderKeyList, budget \(budget)",
      rows: rows,
      json: json)
  }

  static func row(_ workload: String, n: Int, operations: Int, seconds: Double, keys: [OrderKey])
    -> BenchmarkRow
  {
    let lengths = keys.map(\.length)
    return BenchmarkRow(fields: [
      ("workload", .text(workload)),
      ("n", .integer(n)),
      ("scheme", .text("between")),
      ("opsPerSecond", .number(Double(operations) / seconds)),
      ("maxKeyLength", .integer(lengths.max() ?? 0)),
      ("meanKeyLength", .number(Double(lengths.reduce(0, +)) / Double(max(lengths.count, 1)))),
    ])
  }

  /// The workload through an `OrderKeyList` with a budget: `middle` (workload nil) always
  /// inserts at the middle index, a hot spot that cannot escape to an open end.
  static func rebalanced(_ workload: Workload?, count: Int, seed: UInt64, budget: Int) throws
    -> BenchmarkRow
  {
    var rng = SplitMix64(seed: seed)
    var list = OrderKeyList<Int>(budget: budget)
    if workload == .move {
      // Build n rows by random inserts first (not timed), then time n random moves.
      for id in 0..<count {
        _ = try list.insert(id, at: Int.random(in: 0...list.count, using: &rng))
      }
    }
    var rewritten = 0
    var maxRewritten = 0
    var failure: (any Error)?
    let seconds = Stopwatch.measure {
      do {
        for id in 0..<count {
          let changes: Int
          if workload == .move {
            let source = Int.random(in: 0..<count, using: &rng)
            let destination = Int.random(in: 0..<count, using: &rng)
            changes = try list.move(from: source, to: destination).changes.count
          } else {
            let index: Int
            switch workload {
            case .append: index = list.count
            case .prepend: index = 0
            case .random: index = Int.random(in: 0...list.count, using: &rng)
            case .afterFirst: index = Swift.min(1, list.count)
            case .move: preconditionFailure()
            case nil: index = list.count / 2
            }
            changes = try list.insert(id, at: index).changes.count
          }
          rewritten += changes
          maxRewritten = Swift.max(maxRewritten, changes)
        }
      } catch {
        failure = error
      }
    }.1
    if let failure { throw failure }
    let keys = list.rows.map(\.key)
    var row = Self.row(
      workload?.rawValue ?? "middle", n: count, operations: count, seconds: seconds, keys: keys)
    row.fields[2] = ("scheme", .text("rebalanced"))
    row.fields.append(("rewrittenPerInsert", .number(Double(rewritten) / Double(count))))
    row.fields.append(("maxRewritten", .integer(maxRewritten)))
    return row
  }

  /// `count` rows inserted into one gap in one call, between "a0" and "a1".
  static func bulk(count: Int, budget: Int) throws -> BenchmarkRow {
    var list = OrderKeyList<Int>(budget: budget)
    _ = try list.insert(-1, at: 0)
    _ = try list.insert(-2, at: 1)
    let (update, seconds) = try Stopwatch.measure {
      try list.insert(contentsOf: 0..<count, at: 1)
    }
    var row = Self.row(
      "one-gap-bulk", n: count, operations: count, seconds: seconds, keys: update.keys)
    row.fields[2] = ("scheme", .text("rebalanced"))
    row.fields.append(("rewrittenPerInsert", .number(Double(update.changes.count) / Double(count))))
    row.fields.append(("maxRewritten", .integer(update.changes.count)))
    return row
  }
}
