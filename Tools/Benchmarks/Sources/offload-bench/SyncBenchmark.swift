import ArgumentParser
import Foundation

/// `offload-bench sync`: the ways to make a journal line durable, timed on the disk that holds
/// `--folder` (see `SyncVariants`). The session journal's decision path uses the first
/// (append + `fsync`); the rows say what each other variant would change.
struct SyncBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sync",
    abstract: "A journal line made durable: fsync, fdatasync, preallocated regions, O_DSYNC.")

  @Option(
    help: "The folder whose disk is measured (default: a new one under the temporary folder).")
  var folder: String?

  @Option(help: "Lines appended and synced per variant.") var appends = 5_000

  @Option(help: "Rounds the appends are split over, every variant in turn in each.")
  var rounds = 10

  @Flag(help: "Print one JSON array instead of a table.") var json = false

  func run() throws {
    let folder =
      self.folder
      ?? FileManager.default.temporaryDirectory.appendingPathComponent(
        "offload-sync-\(ProcessInfo.processInfo.processIdentifier)"
      ).path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let results = try SyncVariants.measure(folder: folder, appends: appends, rounds: rounds)
    let rows = results.map { result in
      BenchmarkRow(fields: [
        ("case", .text("121-byte line, \(result.name) (\(result.milliseconds.count) times)")),
        ("p50Milliseconds", .number(result.quantile(0.5))),
        ("p99Milliseconds", .number(result.quantile(0.99))),
        ("maxMilliseconds", .number(result.milliseconds.last ?? 0)),
      ])
    }
    try Report.print(title: "Journal line durability on \(folder)", rows: rows, json: json)
    if self.folder == nil { try? FileManager.default.removeItem(atPath: folder) }
  }
}
