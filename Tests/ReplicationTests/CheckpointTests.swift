import OffloadTestSupport
import OrderingCore
import Replication
import Testing

@Suite("Merged-state checkpoints")
struct CheckpointTests {
  /// One seeded run: a random prefix of every log merged, checkpointed (keeping the log from
  /// the stable timestamp), loaded, then the rest merged; the result is the state merged from
  /// scratch, or the loaded state says it needs a rebuild (and only for an operation older
  /// than its floor).
  func check(seed: UInt64) throws -> [String] {
    var simulation = Simulation(seed: seed)
    for _ in 0..<100 { simulation.step() }
    var rng = SplitMix64(seed: seed ^ 0x5EED)
    let cuts = simulation.logs.map { $0.isEmpty ? 0 : rng.index(below: $0.count + 1) }
    var prefix: [ReplicaOperation] = []
    var rest: [ReplicaOperation] = []
    for (log, cut) in zip(simulation.logs, cuts) {
      prefix += log.prefix(cut)
      rest += log.dropFirst(cut)
    }
    prefix.shuffle(using: &rng)
    rest.shuffle(using: &rng)
    var first = ReplicaState()
    first.merge(prefix)
    var failures: [String] = []
    // Kept whole, the text reads back to the same text.
    let whole = first.checkpointText(keepingFrom: nil)
    let again = try ReplicaState(checkpoint: whole[...]).checkpointText(keepingFrom: nil)
    if again != whole { failures.append("seed \(seed): the whole checkpoint does not read back") }
    let replicas = simulation.replicas.map(\.id)
    let floor = first.stableTimestamp(among: replicas)
    var loaded = try ReplicaState(checkpoint: first.checkpointText(keepingFrom: floor)[...])
    if loaded.canonicalText() != first.canonicalText() {
      failures.append("seed \(seed): the loaded state differs before the rest")
    }
    loaded.merge(rest)
    var fresh = ReplicaState()
    fresh.merge(prefix + rest)
    if loaded.needsRebuild {
      let older = rest.contains { operation in
        operation.change.isStructural && floor.map { operation.timestamp < $0 } == true
      }
      if !older { failures.append("seed \(seed): a rebuild asked for without an older operation") }
    } else if loaded.canonicalText() != fresh.canonicalText() {
      failures.append("seed \(seed): the state continued from the checkpoint differs")
    }
    return failures
  }

  @Test("A state continued from its checkpoint equals the state merged from scratch")
  func continuesLikeAFullMerge() throws {
    var failures: [String] = []
    for seed in 0..<60 { failures += try check(seed: SplitMix64.testSeed(UInt64(seed))) }
    #expect(failures.isEmpty, "\(failures.prefix(3).joined(separator: "\n"))")
  }

  @Test("Operations from the replicas the floor counted never need a rebuild")
  func knownReplicasStayAboveTheFloor() throws {
    var simulation = Simulation(seed: SplitMix64.testSeed(7))
    for _ in 0..<80 { simulation.step() }
    simulation.exchangeEverything()
    let replica = simulation.replicas[0]
    let floor = replica.state.stableTimestamp(among: simulation.replicas.map(\.id))
    var loaded = try ReplicaState(
      checkpoint: replica.state.checkpointText(keepingFrom: floor)[...])
    #expect(loaded.logCount <= replica.state.logCount)
    for _ in 0..<60 { simulation.step() }
    loaded.merge(simulation.logs.flatMap { $0 })
    simulation.exchangeEverything()
    #expect(!loaded.needsRebuild)
    #expect(loaded.canonicalText() == simulation.replicas[0].state.canonicalText())
  }

  @Test("A damaged, cut or foreign checkpoint is refused with the line named")
  func badCheckpoints() throws {
    var simulation = Simulation(seed: SplitMix64.testSeed(3))
    for _ in 0..<30 { simulation.step() }
    let text = simulation.replicas[0].state.checkpointText(keepingFrom: nil)
    let cut = text.dropLast(text.count / 3)
    #expect(throws: ReplicationError.self) { try ReplicaState(checkpoint: cut) }
    #expect(throws: ReplicationError.self) { try ReplicaState(checkpoint: "hello\n"[...]) }
    let newer =
      "offload.replica-checkpoint\t9\n"
      + text.split(separator: "\n").dropFirst()
      .joined(separator: "\n")
    do {
      _ = try ReplicaState(checkpoint: newer[...])
      Issue.record("a newer version was read")
    } catch {
      #expect(error.code == .badCheckpoint)
      #expect(error.description.contains("line 1"))
    }
  }
}
