import OffloadTestSupport
import OrderingCore
import Replication
import Testing

@Suite("Partial states loaded from a checkpoint")
struct PartialStateTests {
  /// What a state says about a node, for comparing a partial state with the whole one.
  func describe(_ node: NodeID, in state: ReplicaState) -> String {
    let values = (0...5).map { state.value($0, of: node).map { "\($0)" } ?? "-" }
    return [
      node.rawValue, "\(String(describing: state.kind(of: node)))",
      state.parent(of: node)?.rawValue ?? "-", state.key(of: node)?.rawValue ?? "-",
      "\(state.isLive(node))", values.joined(separator: ","),
    ].joined(separator: " ")
  }

  /// One seeded run: a replica's state checkpointed, then the replica's own further intents;
  /// a partial state with those merged must describe every node it loads as the whole state
  /// does, know every node's kind without loading it, and stamp the same operations for a
  /// change of loaded nodes.
  func check(seed: UInt64) throws -> [String] {
    var simulation = Simulation(seed: seed)
    for _ in 0..<120 { simulation.step() }
    var rng = SplitMix64(seed: seed ^ 0x9A27)
    let replica = simulation.replicas[0]
    let floor = replica.state.stableTimestamp(among: simulation.replicas.map(\.id))
    let text = replica.state.checkpointText(keepingFrom: floor)
    let before = simulation.logs[0].count
    for _ in 0..<(1 + rng.index(below: 8)) {
      if let commit = try? simulation.randomIntent(on: 0) {
        simulation.logs[0].append(contentsOf: commit.operations)
      }
    }
    let own = Array(simulation.logs[0].dropFirst(before))
    var whole = try ReplicaState(checkpoint: text[...])
    whole.merge(own)
    var partial = try PartialReplicaState(checkpoint: text[...])
    var failures: [String] = []
    guard try partial.mergeOwn(own) else { return ["seed \(seed): own operations refused"] }
    if partial.state.seen != whole.seen || partial.state.latest != whole.latest {
      failures.append("seed \(seed): the vector or the latest timestamp differ")
    }
    var named = Set<NodeID>([.root, .trash, .inbox, NodeID("nobody")])
    for log in simulation.logs { for operation in log { named.insert(operation.change.node) } }
    for node in named where partial.kind(of: node) != whole.kind(of: node) {
      failures.append("seed \(seed): kind of \(node) differs before loading it")
    }
    let chosen = named.sorted().filter { _ in rng.chance(0.3) }
    try partial.load(chosen)
    for node in chosen {
      let (a, b) = (describe(node, in: partial.state), describe(node, in: whole))
      if a != b { failures.append("seed \(seed): \(a) | \(b)") }
    }
    // A change over loaded nodes stamps the same operations on both.
    let live = chosen.filter { whole.isLive($0) && whole.kind(of: $0) == .item }
    if let node = live.first, let parent = whole.parent(of: node) {
      let changes: [Change] = [
        .set(node, .text("edited")), .move(node, parent: parent, key: .first),
        .delete(node, seen: VersionVector()),
      ]
      var onWhole = Replica(id: replica.id, state: whole)
      var onPartial = Replica(id: replica.id, state: partial.state)
      let a = onWhole.apply(changes, wallTime: 5_000)
      let b = onPartial.apply(changes, wallTime: 5_000)
      if a != b { failures.append("seed \(seed): the change's operations differ") }
      for node in chosen
      where describe(node, in: onWhole.state) != describe(node, in: onPartial.state) {
        failures.append("seed \(seed): \(node) differs after the change")
      }
    }
    return failures
  }

  @Test("A partial state answers for the nodes it loads as the whole state does")
  func answersLikeTheWholeState() throws {
    var failures: [String] = []
    for seed in 0..<60 { failures += try check(seed: SplitMix64.testSeed(UInt64(seed))) }
    #expect(failures.isEmpty, "\(failures.prefix(3).joined(separator: "\n"))")
  }

  @Test("Operations older than the state's latest, or behind a gap, are left to the whole state")
  func refusesWhatOnlyTheWholeStateCanPlace() throws {
    var simulation = Simulation(seed: SplitMix64.testSeed(11))
    for _ in 0..<60 { simulation.step() }
    let replica = simulation.replicas[0]
    let text = replica.state.checkpointText(keepingFrom: nil)
    var fresh = Replica(id: replica.id, state: replica.state)
    let first = try fresh.capture("one", wallTime: 9_000)
    let second = try fresh.capture("two", wallTime: 9_001)
    var gap = try PartialReplicaState(checkpoint: text[...])
    #expect(try gap.mergeOwn(second.operations) == false)
    var older = try PartialReplicaState(checkpoint: text[...])
    let late = first.operations.map { operation in
      ReplicaOperation(
        sequence: operation.sequence,
        timestamp: HybridTimestamp(wallTime: 1, counter: 0, replica: replica.id),
        change: operation.change)
    }
    if replica.state.latest != nil { #expect(try older.mergeOwn(late) == false) }
    var whole = try PartialReplicaState(checkpoint: text[...])
    #expect(try whole.mergeOwn(first.operations + second.operations))
    #expect(whole.state.seen == fresh.state.seen)
  }

  @Test("A cut checkpoint, or one holding waiting operations, is refused")
  func badCheckpoints() throws {
    var simulation = Simulation(seed: SplitMix64.testSeed(5))
    for _ in 0..<40 { simulation.step() }
    let text = simulation.replicas[0].state.checkpointText(keepingFrom: nil)
    #expect(throws: ReplicationError.self) {
      try PartialReplicaState(checkpoint: text.dropLast(text.count / 3))
    }
    #expect(throws: ReplicationError.self) { try PartialReplicaState(checkpoint: "hello\n"[...]) }
    // An operation from a replica's log past a gap waits in the state, and in its checkpoint.
    var waiting = ReplicaState()
    if let operation = simulation.logs[1].dropFirst().first {
      waiting.merge([operation])
      let withWaiting = waiting.checkpointText(keepingFrom: nil)
      #expect(withWaiting.contains("\nw\t"))
      #expect(throws: ReplicationError.self) {
        try PartialReplicaState(checkpoint: withWaiting[...])
      }
    }
  }

  @Test("A bad header record is refused by both loaders in the same words, naming the line")
  func sameRefusals() throws {
    var simulation = Simulation(seed: SplitMix64.testSeed(7))
    for _ in 0..<20 { simulation.step() }
    let text = simulation.replicas[0].state.checkpointText(keepingFrom: nil)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let seen = try #require(lines.firstIndex { $0.hasPrefix("seen\t") })
    let end = try #require(lines.firstIndex { $0.hasPrefix("end\t") })
    let cases: [(line: Int, text: String, says: String)] = [
      (0, "offload.replica-checkpoint\t9", "checkpoint line 1: version 9 is not read"),
      (0, "hello", "checkpoint line 1: not a replica checkpoint"),
      (seen, "seen\tnot-a-vector", "checkpoint line \(seen + 1): bad vector"),
      (seen, "sideways\t1", "checkpoint line \(seen + 1): unknown record"),
      (end, "end\t1\t0", "checkpoint line \(end + 1): the counts do not match the records"),
    ]
    for bad in cases {
      let original = lines[bad.line]
      lines[bad.line] = bad.text
      let damaged = lines.joined(separator: "\n")
      lines[bad.line] = original
      var whole: String?
      var partial: String?
      do { _ = try ReplicaState(checkpoint: damaged[...]) } catch { whole = error.description }
      do { _ = try PartialReplicaState(checkpoint: damaged[...]) } catch {
        partial = error.description
      }
      #expect(whole == bad.says)
      #expect(partial == bad.says)
    }
    let cut = lines[..<end].joined(separator: "\n") + "\n"
    let said = "the checkpoint is cut short (no end record)"
    #expect(throws: ReplicationError(.badCheckpoint, said)) {
      try ReplicaState(checkpoint: cut[...])
    }
    #expect(throws: ReplicationError(.badCheckpoint, said)) {
      try PartialReplicaState(checkpoint: cut[...])
    }
  }
}
