import Foundation
import OffloadTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Short runs of the `store-crash` driver (Tools/StoreCrash) against the built `offloadctl`:
/// SIGKILLed commands, a full disk and racing processes must lose no acknowledged change, leave
/// no store failing verify and refuse no next change.
@Suite("offloadctl store: kill -9, full disk and racing processes")
struct StoreKillTrialTests {
  /// How the driver ended and what it printed.
  struct DriverResult: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String

    var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
  }

  /// Runs `store-crash` with the `offloadctl` built beside it.
  static func drive(_ arguments: [String]) throws -> DriverResult {
    try run(["--offloadctl", BuiltProduct.path("offloadctl")] + arguments)
  }

  /// Runs `store-crash` with its output in files and waits for it with `waitpid`, so its run
  /// time is its own: no pipe reader has to wait for a dispatch thread while the rest of the
  /// suite keeps them busy.
  static func run(_ arguments: [String]) throws -> DriverResult {
    let folder = try TemporaryDirectory(prefix: "store-crash-output")
    defer { folder.remove() }
    let executable = BuiltProduct.path("store-crash")
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    for (descriptor, name) in [(Int32(1), "out"), (2, "err")] {
      posix_spawn_file_actions_addopen(
        &actions, descriptor, folder.appending(name), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let started = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    try #require(started == 0, "cannot start \(executable): \(String(cString: strerror(started)))")
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      try #require(errno == EINTR, "waitpid: \(String(cString: strerror(errno)))")
    }
    func read(_ name: String) -> String {
      String(
        decoding: FileManager.default.contents(atPath: folder.appending(name)) ?? Data(),
        as: UTF8.self)
    }
    let signal = status & 0x7f
    return DriverResult(
      status: signal == 0 ? (status >> 8) & 0xff : signal, stdout: read("out"), stderr: read("err"))
  }

  /// The driver's summary line that starts with `prefix`.
  static func summary(_ prefix: String, in result: DriverResult) throws -> String {
    try #require(
      result.stdout.split(separator: "\n").last { $0.hasPrefix(prefix) }.map(String.init),
      "no summary line \"\(prefix)…\": \(result)")
  }

  /// The number after `label: ` in a summary line.
  static func figure(_ label: String, in line: String) throws -> Int {
    let start = try #require(line.range(of: label + ": "), "no \(label) in \(line)").upperBound
    let digits = line[start...].prefix { $0.isNumber }
    return try #require(Int(digits), "no number after \(label) in \(line)")
  }

  @Test(.timeLimit(.minutes(5)))
  func killedCommandsLoseNothing() throws {
    let seed = SplitMix64.testSeed(14)
    let result = try Self.drive(["--trials", "40", "--seed", "\(seed)"])
    #expect(result.status == 0, "\(result)")
    let line = try Self.summary("kill trials: ", in: result)
    #expect(line.hasPrefix("kill trials: 40 (seed \(seed), "), "\(line)")
    #expect(try Self.figure("acknowledged changes", in: line) >= 1, "\(line)")
    #expect(try Self.figure("killed", in: line) >= 1, "\(line)")
    for zero in [
      "lost", "neither before nor after", "stores failing verify", "refused next changes",
      "undo refused",
    ] {
      #expect(try Self.figure(zero, in: line) == 0, "\(zero): \(result)")
    }
  }

  @Test(
    .timeLimit(.minutes(5)),
    .enabled(if: getuid() == 0, "mounting the tmpfs of the disk-full trial needs root"))
  func aFullDiskFailsCleanlyAndTheStoreGoesOn() throws {
    let result = try Self.drive(["--trials", "0", "--disk-full", "1", "--seed", "3"])
    #expect(result.status == 0, "\(result)")
    let line = try Self.summary("disk full: ", in: result)
    #expect(try Self.figure("acknowledged changes", in: line) >= 1, "\(line)")
    #expect(try Self.figure("failed with 74", in: line) >= 1, "\(line)")
    for zero in [
      "lost", "changed by a failed command", "stores failing verify", "refused next changes",
    ] {
      #expect(try Self.figure(zero, in: line) == 0, "\(zero): \(result)")
    }
  }

  @Test(.timeLimit(.minutes(5)))
  func racingAddsMovesAndRepairsCountExactly() throws {
    let result = try Self.drive(["--trials", "0", "--concurrent", "3", "--adds", "30"])
    #expect(result.status == 0, "\(result)")
    let line = try Self.summary("concurrent: ", in: result)
    let acknowledged = try Self.figure("acknowledged adds", in: line)
    #expect(acknowledged >= 1, "\(line)")
    #expect(try Self.figure("present once", in: line) == acknowledged, "\(line)")
    #expect(try Self.figure("moves", in: line) >= 1, "\(line)")
    #expect(try Self.figure("repairs", in: line) >= 1, "\(line)")
    for zero in [
      "missing", "duplicated", "failed adds present", "shared ids", "stores failing verify",
      "refused next changes", "problems",
    ] {
      #expect(try Self.figure(zero, in: line) == 0, "\(zero): \(result)")
    }
  }

  @Test func theDriverRejectsBadArguments() throws {
    let unknown = try Self.drive(["--bogus"])
    #expect(unknown.status == 2)
    #expect(unknown.stderr == "store-crash: unknown argument --bogus; see --help\n")
    let notANumber = try Self.drive(["--trials", "many"])
    #expect(notANumber.status == 2)
    #expect(notANumber.stderr == "store-crash: --trials needs a number, got \"many\"; see --help\n")
    let folder = try TemporaryDirectory(prefix: "store-crash")
    defer { folder.remove() }
    let taken = try Self.drive(["--store", folder.path])
    #expect(taken.status == 2)
    #expect(
      taken.stderr
        == "store-crash: \(folder.path) already exists; name a store folder that does not\n")
    let missing = try Self.run(["--offloadctl", folder.appending("nope")])
    #expect(missing.status == 2)
    #expect(
      missing.stderr
        == "store-crash: no offloadctl executable at \(folder.appending("nope")); build it or pass --offloadctl PATH\n"
    )
  }
}
