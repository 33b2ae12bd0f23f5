import ArgumentParser
import OrderingCore

/// `offload-bench list-moves`: what an app's list view asks of `OrderKeyList` and
/// `ListLabeling`: id lookups, SwiftUI `onMove` moves of one and of several rows, and the rows
/// each move writes.
struct ListMovesBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list-moves",
    abstract:
      "OrderKeyList and ListLabeling as a list view uses them: firstIndex(of:), move(fromOffsets:toOffset:) of 1 and 5 rows."
  )

  @Option(help: "List sizes (comma-separated).")
  var sizes: String = "10000,100000"

  @Option(help: "Operations per workload.")
  var operations: Int = 20_000

  @Option(help: "Seed of the random workloads.")
  var seed: UInt64 = 0xFF0E_2D

  @Flag(help: "Print one JSON array instead of a table.")
  var json = false

  /// Runs `operations` of one workload on a list and returns the rows written per operation.
  static func run<L: _LabeledList>(
    _ list: inout L, count n: Int, workload: String, operations: Int, rng: inout SplitMix64,
    lookup: (L, Int) -> Int?
  ) throws -> Int where L.ID == Int {
    var written = 0
    for _ in 0..<operations {
      switch workload {
      case "lookup":
        blackHole(lookup(list, Int(rng.next() % UInt64(n))))
      case "move-1":
        let from = Int(rng.next() % UInt64(n))
        written += try list.move(fromOffsets: [from], toOffset: Int(rng.next() % UInt64(n + 1)))
          .count
      default:
        let start = Int(rng.next() % UInt64(n - 10))
        let offsets = [start, start + 2, start + 4, start + 6, start + 8]
        written += try list.move(fromOffsets: offsets, toOffset: Int(rng.next() % UInt64(n + 1)))
          .count
      }
    }
    return written
  }

  func run() throws {
    var rows: [BenchmarkRow] = []
    for n in sizes.split(separator: ",").compactMap({ Int($0) }) {
      for workload in ["lookup", "move-1", "move-5"] {
        for scheme in ["OrderKeyList", "ListLabeling"] {
          var rng = SplitMix64(seed: seed)
          var written = 0
          let seconds: Double
          if scheme == "OrderKeyList" {
            var list = OrderKeyList<Int>()
            _ = try list.insert(contentsOf: 0..<n, at: 0)
            (written, seconds) = try Stopwatch.measure {
              try Self.run(
                &list, count: n, workload: workload, operations: operations, rng: &rng
              ) { $0.firstIndex(of: $1) }
            }
          } else {
            var list = try ListLabeling<Int>(ids: 0..<n)
            (written, seconds) = try Stopwatch.measure {
              try Self.run(
                &list, count: n, workload: workload, operations: operations, rng: &rng
              ) { $0.firstIndex(of: $1) }
            }
          }
          rows.append(
            BenchmarkRow(fields: [
              ("workload", .text(workload)), ("n", .integer(n)), ("scheme", .text(scheme)),
              ("opsPerSecond", .number(Double(operations) / seconds)),
              ("writtenPerMove", .number(Double(written) / Double(operations))),
            ]))
        }
      }
    }
    try Report.print(
      title:
        "List moves as a list view asks (\(operations) operations, seed \(seed)); lookup is firstIndex(of:)",
      rows: rows, json: json)
  }
}
