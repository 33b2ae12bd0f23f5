import ArgumentParser
import Foundation
import Offload

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `offload-bench cli`: whole-process time of `offloadctl` commands on large stores.
struct CLIBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "cli",
    abstract:
      "Whole-process time of offloadctl item add, item move and collection show (10,000 and 100,000 items).",
    discussion: "Runs the release build of offloadctl (build it first: swift build -c release).")

  /// Runs a command to completion and returns its wall time in seconds.
  ///
  /// It spawns with `posix_spawn` and waits with `waitpid`: `Process.waitUntilExit` polls, and
  /// its readings fall on steps of about 50 ms whatever the command costs.
  static func timeProcess(_ binary: String, _ arguments: [String], store: String) throws -> Double {
    let argv: [UnsafeMutablePointer<CChar>?] = ([binary] + arguments).map { strdup($0) } + [nil]
    let environment = ["OFFLOAD_HOME=" + store, "PATH=/usr/bin:/bin"]
    let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    var pid: pid_t = 0
    let start = ContinuousClock.now
    guard posix_spawn(&pid, binary, &actions, nil, argv, envp) == 0 else {
      throw ValidationError("cannot start \(binary)")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    let elapsed = ContinuousClock.now - start
    guard status == 0 else { throw ValidationError("\(arguments) exited with status \(status)") }
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }

  @Option(help: "The offloadctl binary (default: .build/release/offloadctl of this repository).")
  var binary: String?

  @Option(help: "Runs per command (the median is reported).") var runs = 31

  @Flag(help: "Print one JSON array instead of a table.") var json = false

  func run() throws {
    let repository = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let binary = self.binary ?? repository.appendingPathComponent(".build/release/offloadctl").path
    guard FileManager.default.isExecutableFile(atPath: binary) else {
      throw ValidationError("no offloadctl at \(binary); run `swift build -c release` first")
    }
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "offload-bench-cli-\(ProcessInfo.processInfo.processIdentifier)")
    defer { try? FileManager.default.removeItem(at: scratch) }

    // Store 1: one list and one plan of 10,000 items each.
    let big = Workspace(root: scratch.appendingPathComponent("big").path)
    let flat = (0..<10_000).map { "- item \($0) with some text to carry" }.joined(separator: "\n")
    try big.importCollection(named: "Big", from: flat, source: "generated")
    var nested: [String] = []
    for index in 0..<10_000 {
      nested.append(String(repeating: "  ", count: index % 4) + "- step \(index)")
    }
    try big.importCollection(
      named: "Plan", from: nested.joined(separator: "\n"), source: "generated")
    // Store 2: 100 collections of 100 items.
    let wide = Workspace(root: scratch.appendingPathComponent("wide").path)
    let hundred = (0..<100).map { "- item \($0)" }.joined(separator: "\n")
    for index in 0..<100 {
      try wide.importCollection(named: "C\(index)", from: hundred, source: "generated")
    }

    // Store 3: one list of 100,000 items.
    let huge = Workspace(root: scratch.appendingPathComponent("huge").path)
    let hundredThousand = (0..<100_000).map { "- item \($0) with some text to carry" }
      .joined(separator: "\n")
    try huge.importCollection(named: "Huge", from: hundredThousand, source: "generated")
    let hugeIDs = try huge.tree(of: "Huge").rows().map(\.item.id.rawValue)

    let bigTree = try big.tree(of: "Big")
    let bigIDs = bigTree.rows().map(\.item.id.rawValue)
    let wideIDs = try wide.tree(of: "C50").rows().map(\.item.id.rawValue)

    var rows: [BenchmarkRow] = []
    func measure(_ command: String, items: Int, store: Workspace, _ arguments: (Int) -> [String])
      throws
    {
      var times: [Double] = []
      for run in 0..<runs {
        let elapsed = try Self.timeProcess(binary, arguments(run) + ["--quiet"], store: store.root)
        times.append(elapsed * 1000)
      }
      times.sort()
      rows.append(
        BenchmarkRow(fields: [
          ("command", .text(command)), ("items", .integer(items)),
          ("medianMilliseconds", .number(times[times.count / 2])),
          ("p90Milliseconds", .number(times[times.count * 9 / 10])),
        ]))
    }
    try measure("item add (10,000-item list)", items: 10_000, store: big) {
      ["item", "add", "Big", "new \($0)"]
    }
    try measure("item move (10,000-item list)", items: 10_000, store: big) { run in
      [
        "item", "move", bigIDs[(run * 7919) % bigIDs.count], "--after",
        bigIDs[(run * 104_729) % bigIDs.count],
      ]
    }
    try measure("item add (100 collections)", items: 10_000, store: wide) {
      ["item", "add", "C50", "new \($0)"]
    }
    try measure("item move (100 collections)", items: 10_000, store: wide) { run in
      ["item", "move", wideIDs[(run * 13) % wideIDs.count], "--to", "C\(run % 100)", "--first"]
    }
    try measure("item add (100,000-item list)", items: 100_000, store: huge) {
      ["item", "add", "Huge", "new \($0)"]
    }
    try measure("item move (100,000-item list)", items: 100_000, store: huge) { run in
      [
        "item", "move", hugeIDs[(run * 7919) % hugeIDs.count], "--after",
        hugeIDs[(run * 104_729) % hugeIDs.count],
      ]
    }
    try measure("collection show (10,000-item plan)", items: 10_000, store: big) { _ in
      ["collection", "show", "Plan"]
    }
    try Report.print(
      title: "offloadctl whole-process time (\(runs) runs each, release build)", rows: rows,
      json: json)
  }
}
