import Foundation
import OffloadTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Short runs of the `store-crash` driver on a shared store (`--shared --devices 3`): this
/// device's commands are SIGKILLed, run on a full disk and race each other while two other
/// devices' folders arrive the way a sync engine carries them (some while a command runs,
/// some with the log's last line cut); nothing acknowledged may be lost, no store may fail
/// verify, and the other devices' whole lines must all be there.
@Suite("offloadctl store: kill -9, full disk and racing processes on a shared store")
struct StoreKillTrialSharedTests {
  static let shared = ["--shared", "--devices", "3"]

  @Test(.timeLimit(.minutes(8)))
  func killedCommandsLoseNothingOnASharedStore() throws {
    let seed = SplitMix64.testSeed(28)
    let result = try StoreKillTrialTests.drive(
      ["--trials", "30", "--seed", "\(seed)"] + Self.shared)
    #expect(result.status == 0, "\(result)")
    let line = try StoreKillTrialTests.summary("kill trials: ", in: result)
    #expect(line.hasPrefix("kill trials: 30 (seed \(seed), "), "\(line)")
    #expect(line.contains("; shared store, 3 devices: "), "\(line)")
    #expect(try StoreKillTrialTests.figure("acknowledged changes", in: line) >= 1, "\(line)")
    #expect(try StoreKillTrialTests.figure("killed", in: line) >= 1, "\(line)")
    #expect(try StoreKillTrialTests.figure("3 devices", in: line) >= 1, "\(line)")
    for zero in [
      "lost", "neither before nor after", "stores failing verify", "refused next changes",
      "undo refused",
    ] {
      #expect(try StoreKillTrialTests.figure(zero, in: line) == 0, "\(zero): \(result)")
    }
  }

  @Test(
    .timeLimit(.minutes(8)),
    .enabled(if: getuid() == 0, "mounting the tmpfs of the disk-full trial needs root"))
  func aFullDiskFailsCleanlyOnASharedStore() throws {
    let result = try StoreKillTrialTests.drive(
      ["--trials", "0", "--disk-full", "1", "--seed", "3"] + Self.shared)
    #expect(result.status == 0, "\(result)")
    let line = try StoreKillTrialTests.summary("disk full: ", in: result)
    #expect(line.contains("; shared store, 3 devices: "), "\(line)")
    #expect(try StoreKillTrialTests.figure("failed with 74", in: line) >= 1, "\(line)")
    for zero in [
      "lost", "changed by a failed command", "stores failing verify", "refused next changes",
    ] {
      #expect(try StoreKillTrialTests.figure(zero, in: line) == 0, "\(zero): \(result)")
    }
  }

  @Test(.timeLimit(.minutes(8)))
  func racingAddsCountExactlyOnASharedStore() throws {
    let result = try StoreKillTrialTests.drive(
      ["--trials", "0", "--concurrent", "2", "--adds", "15"] + Self.shared)
    #expect(result.status == 0, "\(result)")
    let line = try StoreKillTrialTests.summary("concurrent: ", in: result)
    let acknowledged = try StoreKillTrialTests.figure("acknowledged adds", in: line)
    #expect(acknowledged >= 30, "\(line)")
    #expect(try StoreKillTrialTests.figure("present once", in: line) == acknowledged, "\(line)")
    #expect(line.contains("; shared store, 3 devices: "), "\(line)")
    for zero in [
      "missing", "duplicated", "failed adds present", "shared ids", "stores failing verify",
      "refused next changes", "problems",
    ] {
      #expect(try StoreKillTrialTests.figure(zero, in: line) == 0, "\(zero): \(result)")
    }
  }

  @Test func devicesNeedASharedStore() throws {
    let alone = try StoreKillTrialTests.drive(["--devices", "3"])
    #expect(alone.status == 2)
    #expect(alone.stderr == "store-crash: --devices needs --shared; see --help\n")
    let none = try StoreKillTrialTests.drive(["--shared", "--devices", "0"])
    #expect(none.status == 2)
    #expect(none.stderr == "store-crash: --devices needs 1 or more, got 0; see --help\n")
  }
}
