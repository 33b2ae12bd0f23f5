import Foundation
import OffloadTestSupport
import Testing

@testable import Offload

/// Runs of the convergence case under a chosen clock and chosen replica ids, to look for an
/// order of events that only some machines produce. Enabled by `OFFLOAD_CONVERGENCE_HUNT`:
/// `first:count:maximumStep:ids`, `ids` one of `seeded` (five distinct ids drawn from the
/// seed) or `same13` (devices 1 and 3 share one id).
@Suite("Replica convergence hunt")
struct ReplicaFlakeHuntTests {
  static let plan: [String]? = Environment.value("OFFLOAD_CONVERGENCE_HUNT").map {
    $0.split(separator: ":").map(String.init)
  }

  @Test("seeded runs under a stepping clock converge", .enabled(if: plan?.count == 4))
  func hunt() throws {
    let plan = try #require(Self.plan)
    let first = try #require(UInt64(plan[0]))
    let count = try #require(UInt64(plan[1]))
    let step = try #require(UInt64(plan[2]))
    for seed in first..<(first + count) {
      var ids = ReplicaConvergenceTests.replicaIDs(seed: seed &* 0x9E37_79B9, count: 5)
      if plan[3] == "same13" { ids[3] = ids[1] }
      try ReplicaConvergenceTests.run(
        seed: seed, steps: 30, ids: ids, clock: SteppingClock(seed: seed, maximumStep: step))
    }
  }
}
