import OffloadTestSupport
import OrderingCore
import Replication
import Testing

extension Tag {
  /// Tests that run only with `OFFLOAD_SLOW_TESTS=1`.
  @Tag static var slow: Self
}

/// Checks one seeded simulation: five replicas, random intents of every kind, random
/// partial deliveries, then a full exchange. Returns the failures (empty when it converged).
func convergenceFailures(seed: UInt64, steps: Int = 120) -> [String] {
  var simulation = Simulation(seed: seed)
  for _ in 0..<steps { simulation.step() }
  simulation.exchangeEverything()
  var failures: [String] = []
  let texts = simulation.replicas.map { $0.state.canonicalText() }
  for (index, text) in texts.enumerated() where text != texts[0] {
    failures.append(
      "replica \(simulation.replicas[index].id) differs from \(simulation.replicas[0].id):\n"
        + "\(text)\n---\n\(texts[0])")
  }
  for replica in simulation.replicas {
    failures += replica.state.structuralProblems().map { "\(replica.id): \($0)" }
  }
  // A state merged from scratch, every log at once in a random order, is the same.
  var all = simulation.logs.flatMap { $0 }
  all.shuffle(using: &simulation.rng)
  var fresh = ReplicaState()
  fresh.merge(all)
  if fresh.canonicalText() != texts[0] {
    failures.append("a state merged from scratch differs:\n\(fresh.canonicalText())")
  }
  // Nothing lost: an item that is not live stands under a deleted node whose delete knew
  // the item's creation (it was deleted knowingly, by some operation).
  let state = simulation.replicas[0].state
  for operation in all {
    guard case .create(let node, .item, _, _, _) = operation.change, !state.isLive(node) else {
      continue
    }
    var top = node
    while let parent = state.parent(of: top), parent != .trash { top = parent }
    let deletedAt = state.deletedNodes().first { $0.node == top }?.deletedAt
    let delete = all.first { $0.timestamp == deletedAt }
    guard let delete, case .delete(_, let seen) = delete.change else {
      failures.append("\(node) is gone although no operation deleted it or its parents")
      continue
    }
    if top != node && !seen.includes(operation.replica, operation.sequence) {
      failures.append("\(node) was added without the knowledge of the delete of \(top)")
    }
  }
  return failures
}

@Suite("Replicas converge")
struct ConvergenceTests {
  @Test("500 seeded runs of five replicas converge to byte-identical states")
  func seededRuns() {
    let base = SplitMix64.testSeed(0x5EED_2800)
    for offset in 0..<500 {
      let seed = base &+ UInt64(offset)
      let failures = convergenceFailures(seed: seed)
      #expect(failures.isEmpty, "seed \(seed): \(failures.prefix(3).joined(separator: "\n"))")
      if !failures.isEmpty { return }
    }
  }

  @Test(
    "10,000 seeded runs converge", .tags(.slow), .timeLimit(.minutes(30)),
    .enabled(if: Environment.slowTestsEnabled))
  func manySeededRuns() {
    let base = SplitMix64.testSeed(0x5EED_2801)
    for offset in 0..<10_000 {
      let seed = base &+ UInt64(offset)
      let failures = convergenceFailures(seed: seed)
      #expect(failures.isEmpty, "seed \(seed): \(failures.prefix(3).joined(separator: "\n"))")
      if !failures.isEmpty { return }
    }
  }

  @Test("every intent is exercised and most are accepted")
  func coverage() {
    var simulation = Simulation(seed: SplitMix64.testSeed(7))
    for _ in 0..<2_000 { simulation.step() }
    #expect(simulation.intents.count == 18, "\(simulation.intents)")
    let made = simulation.logs.map(\.count).reduce(0, +)
    #expect(made > 600, "only \(made) operations, \(simulation.refusals) refusals")
  }
}
