import ArgumentParser
import Foundation
import Persistence

/// `offload-bench persistence`: document save/load against bare Foundation, journal appends.
struct PersistenceBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "persistence",
    abstract:
      "DocumentStore save/load of a large document vs bare JSONEncoder/JSONDecoder and a plain file write/read; journal append latency with fsync and throughput without."
  )

  @Option(help: "Items in the document.")
  var items = 100_000

  @Option(help: "Journal appends timed one by one with fsync per entry.")
  var fsyncAppends = 1_000

  @Option(help: "Journal appends without fsync, for throughput.")
  var appends = 500_000

  @Option(help: "Timed repetitions of save and load (the fastest is reported).")
  var repetitions = 5

  @Option(help: "Folder for the files (a fresh temporary folder by default).")
  var directory: String?

  @Option(help: "Seed of the generated document.")
  var seed: UInt64 = 0x0FF1_0AD

  @Flag(help: "Print one JSON array instead of a table.")
  var json = false

  struct Item: Codable {
    var id: Int
    var text: String
    var orderKey: String
    var parentId: Int?
    var createdAt: Date
  }

  struct Entry: Codable {
    var photo: Int
    var decision: String
  }

  struct Snapshot: Codable {
    var count: Int
  }

  func document() -> [Item] {
    var rng = SplitMix64(seed: seed)
    let words = ["buy", "milk", "call", "the", "plumber", "pack", "socks", "for", "trip", "draft"]
    return (0..<items).map { index in
      var text = ""
      while text.count < 30 { text += words[Int(rng.next() % 10)] + " " }
      let milliseconds = 1_700_000_000_000 + Int(rng.next() % 100_000_000_000)
      return Item(
        id: index, text: String(text.prefix(30)), orderKey: "a\(String(index, radix: 36))",
        parentId: rng.next() % 4 == 0 ? nil : Int(rng.next() % UInt64(max(items, 1))),
        createdAt: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
  }

  func run() throws {
    let folder =
      directory
      ?? FileManager.default.temporaryDirectory.path + "/offload-bench-persistence-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { if directory == nil { try? FileManager.default.removeItem(atPath: folder) } }
    var rows: [BenchmarkRow] = []
    let items = document()

    // Documents: the store against JSONEncoder + Data.write and Data(contentsOf:) + JSONDecoder.
    // Each repetition runs the baseline and the store back to back, so load on the machine
    // affects both alike; the fastest of each is reported.
    let bareURL = URL(fileURLWithPath: folder + "/bare.json")
    for pretty in [false, true] {
      let store = DocumentStore(
        path: folder + "/doc-\(pretty).json",
        format: DocumentFormat<[Item]>(name: "bench.items", prettyPrinted: pretty))
      var best = (save: Double.infinity, bareSave: Double.infinity)
      var bestLoad = (load: Double.infinity, bareLoad: Double.infinity)
      for _ in 0..<repetitions {
        best.bareSave = min(
          best.bareSave,
          try Stopwatch.measure { try JSONEncoder().encode(items).write(to: bareURL) }.1)
        best.save = min(best.save, try Stopwatch.measure { try store.save(items) }.1)
        bestLoad.bareLoad = min(
          bestLoad.bareLoad,
          try Stopwatch.measure {
            blackHole(try JSONDecoder().decode([Item].self, from: Data(contentsOf: bareURL)))
          }.1)
        bestLoad.load = min(
          bestLoad.load, try Stopwatch.measure { blackHole(try store.load()) }.1)
      }
      let size =
        (try? FileManager.default.attributesOfItem(atPath: store.path)[.size] as? Int) ?? 0
      let layout = pretty ? "pretty" : "compact"
      rows.append(
        ratioRow("DocumentStore save (\(layout), \(size / 1024) KiB)", best.save, best.bareSave))
      rows.append(ratioRow("DocumentStore load (\(layout))", bestLoad.load, bestLoad.bareLoad))
    }

    // Journal: latency of appends with fsync per entry, throughput without fsync.
    let format = DocumentFormat<Snapshot>(name: "bench.journal")
    let synced = try JSONLinesJournal<Entry, Snapshot>.open(
      directory: folder, name: "synced", format: format, durability: .everyEntry)
    var latencies: [Double] = []
    latencies.reserveCapacity(fsyncAppends)
    for index in 0..<fsyncAppends {
      let entry = Entry(photo: index, decision: "favorite")
      latencies.append(try Stopwatch.measure { try synced.append(entry) }.1)
    }
    try synced.close()
    latencies.sort()
    func percentile(_ p: Double) -> Double {
      latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
    }
    rows.append(
      BenchmarkRow(fields: [
        ("operation", .text("JSONLinesJournal append, fsync every entry")),
        ("n", .integer(fsyncAppends)),
        ("p50Ms", .number(percentile(0.50) * 1000)),
        ("p99Ms", .number(percentile(0.99) * 1000)),
      ]))
    let entries = (0..<appends).map { Entry(photo: $0, decision: "favorite") }
    var seconds = Double.infinity
    for run in 0..<max(1, repetitions / 2) {
      let fast = try JSONLinesJournal<Entry, Snapshot>.open(
        directory: folder, name: "fast-\(run)", format: format, durability: .never)
      seconds = min(
        seconds,
        try Stopwatch.measure {
          for entry in entries { try fast.append(entry) }
          try fast.sync()
        }.1)
      try fast.close()
    }
    rows.append(
      BenchmarkRow(fields: [
        ("operation", .text("JSONLinesJournal append, no fsync")),
        ("n", .integer(appends)),
        ("seconds", .number(seconds)),
        ("entriesPerSecond", .number(Double(appends) / seconds)),
      ]))
    try Report.print(
      title:
        "Persistence (\(items.count) items, seed \(seed), best of \(repetitions); baseline: bare JSONEncoder/JSONDecoder + Data.write/Data(contentsOf:))",
      rows: rows, json: json)
  }

  func ratioRow(_ operation: String, _ seconds: Double, _ baseline: Double) -> BenchmarkRow {
    BenchmarkRow(fields: [
      ("operation", .text(operation)),
      ("n", .integer(items)),
      ("seconds", .number(seconds)),
      ("baselineSeconds", .number(baseline)),
      ("ratio", .number(seconds / baseline)),
    ])
  }
}
