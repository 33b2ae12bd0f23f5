import ArgumentParser
import OrderingCore

/// `offload-bench keys`: order-key generation on the workloads of the reference library.
struct KeysBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "keys",
    abstract: "Order key generation: append, prepend, random, move, after-first, spread.")

  @Option(help: "Operations per workload.")
  var count = 100_000

  @Option(help: "Seed of the random workloads.")
  var seed: UInt64 = 0x0FF1_0AD

  @Option(help: "Timed repetitions per workload (the fastest is reported).")
  var repetitions = 5

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
    try Report.print(
      title: "OrderKey generation (n = \(count), seed \(seed), best of \(repetitions))", rows: rows,
      json: json)
  }

  static func row(_ workload: String, n: Int, operations: Int, seconds: Double, keys: [OrderKey])
    -> BenchmarkRow
  {
    let lengths = keys.map(\.length)
    return BenchmarkRow(fields: [
      ("workload", .text(workload)),
      ("n", .integer(n)),
      ("opsPerSecond", .number(Double(operations) / seconds)),
      ("maxKeyLength", .integer(lengths.max() ?? 0)),
      ("meanKeyLength", .number(Double(lengths.reduce(0, +)) / Double(max(lengths.count, 1)))),
    ])
  }
}
