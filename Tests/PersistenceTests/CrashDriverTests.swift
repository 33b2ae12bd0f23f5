import Foundation
import OffloadTestSupport
import Testing

@testable import Persistence

@Suite("Crash and concurrency across processes", .timeLimit(.minutes(5)))
struct CrashDriverTests {
  @Test func aFewKilledWritersLoseNothing() throws {
    let result = try BuiltProduct.run(
      "persistence-crash", ["--trials", "4", "--max-delay-ms", "30", "--seed", "11"])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.contains("trials: 4 (seed 11"), "\(result)")
    #expect(result.stdout.contains("lost records: 0\ncorrupt files: 0\n"), "\(result)")
    // "Nothing lost" means something only if the writers got something acknowledged first.
    let acknowledged = result.stdout.split(separator: "\n").first { $0.hasPrefix("acknowledged: ") }
    let counts = (acknowledged ?? "").split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    #expect(counts.count >= 2 && counts[0] + counts[1] > 0, "no operation acknowledged: \(result)")
  }

  @Test func twoProcessesUpdatingOneDocumentLoseNoUpdate() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let path = folder.appending("counter.json")
    let statuses = try [0, 1].map { _ in
      let process = Process()
      process.executableURL = URL(fileURLWithPath: BuiltProduct.path("persistence-crash"))
      process.arguments = ["--increment", path, "40"]
      try process.run()
      return process
    }.map { process in
      process.waitUntilExit()
      return process.terminationStatus
    }
    #expect(statuses == [0, 0])
    struct Counter: Codable { var value: Int }
    let counter = try DocumentStore(
      path: path, format: DocumentFormat<Counter>(name: "crash.counter")
    ).load()
    #expect(counter?.value == 80)
  }

  @Test func theDriverRejectsUnknownArguments() throws {
    let result = try BuiltProduct.run("persistence-crash", ["--bogus"])
    #expect(result.status == 2)
    #expect(result.stderr == "persistence-crash: unknown argument --bogus; see --help\n")
  }
}
