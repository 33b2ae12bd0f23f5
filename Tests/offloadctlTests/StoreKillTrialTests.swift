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
  /// Runs `store-crash` with the `offloadctl` built beside it.
  static func drive(_ arguments: [String]) throws -> ProcessResult {
    try BuiltProduct.run(
      "store-crash", ["--offloadctl", BuiltProduct.path("offloadctl")] + arguments)
  }

  /// The driver's summary line that starts with `prefix`.
  static func summary(_ prefix: String, in result: ProcessResult) throws -> String {
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

  @Test(.timeLimit(.minutes(3)))
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
    ] {
      #expect(try Self.figure(zero, in: line) == 0, "\(zero): \(result)")
    }
  }

  @Test(
    .timeLimit(.minutes(3)),
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

  @Test(.timeLimit(.minutes(3)))
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
    let missing = try BuiltProduct.run("store-crash", ["--offloadctl", folder.appending("nope")])
    #expect(missing.status == 2)
    #expect(
      missing.stderr
        == "store-crash: no offloadctl executable at \(folder.appending("nope")); build it or pass --offloadctl PATH\n"
    )
  }
}
