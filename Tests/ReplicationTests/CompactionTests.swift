import OffloadTestSupport
import OrderingCore
import Replication
import Testing

/// One device's log file as compaction leaves it: the snapshot it begins with (if any) and
/// its writer's operations past `start`.
private struct LogFile {
  var replica: ReplicaID
  var snapshot: (vector: VersionVector, text: String)?
  var start: UInt64 = 0
  var operations: [ReplicaOperation] = []

  var outline: ReplicaLogOutline {
    ReplicaLogOutline(replica: replica, snapshot: snapshot?.vector, start: start)
  }
}

/// Reads files the way a device without a usable mark does: a base every file continues
/// from, then each file's operations past it.
private func read(_ files: [LogFile]) throws -> ReplicaState {
  let base = try #require(ReplicaCompaction.base(files.map(\.outline)))
  var state = ReplicaState()
  if case .snapshot(let index) = base {
    state = try ReplicaState(checkpoint: try #require(files[index].snapshot).text[...])
  }
  state.merge(ReplicaState.operations(files.flatMap(\.operations), past: state.seen))
  return state
}

/// Compacts `files[index]` as a device does, with what each replica has seen: a snapshot at
/// the stable vector (when it moves forward) and the operations past the bound.
private func compact(
  _ files: inout [LogFile], _ index: Int, seen: [ReplicaID: VersionVector],
  retired: Set<ReplicaID> = []
) throws -> Bool {
  let own = files[index].replica
  let stable = ReplicaCompaction.stableVector(seen: seen, retired: retired.subtracting([own]))
  if let previous = files[index].snapshot?.vector, !previous.isCovered(by: stable) {
    return false
  }
  guard let base = ReplicaCompaction.base(files.map(\.outline), within: stable) else {
    return false
  }
  var start = ReplicaState()
  if case .snapshot(let other) = base {
    start = try ReplicaState(checkpoint: try #require(files[other].snapshot).text[...])
  }
  let state = ReplicaState.at(stable, base: start, operations: files.flatMap(\.operations))
  let text = state.checkpointText(keepingFrom: state.stableTimestamp(among: files.map(\.replica)))
  var others: [ReplicaID: VersionVector?] = [:]
  for file in files where file.replica != own && !retired.contains(file.replica) {
    others[file.replica] = file.snapshot?.vector
  }
  let bound = ReplicaCompaction.bound(own: own, snapshot: state.seen, others: others)
  #expect(bound <= state.seen[own])
  files[index].snapshot = (state.seen, text)
  files[index].start = max(files[index].start, bound)
  files[index].operations.removeAll { $0.sequence <= bound }
  return true
}

@Suite("Compaction of replica logs")
struct CompactionTests {
  /// One seeded run: replicas change and sync, each compacts its file at random moments; at
  /// every moment a reader of the files alone equals the merge of every operation made.
  func run(seed: UInt64, retireLast: Bool = false) throws -> (failures: [String], dropped: Int) {
    var simulation = Simulation(seed: seed, replicaCount: 4)
    var rng = SplitMix64(seed: seed ^ 0xC0_4AC7)
    var files = simulation.replicas.map { LogFile(replica: $0.id) }
    var failures: [String] = []
    var compactions = 0
    let retired: Set<ReplicaID> = retireLast ? [simulation.replicas[3].id] : []
    for step in 0..<240 {
      // The retired replica stops writing and syncing after the first quarter.
      let before = simulation.logs.map(\.count)
      simulation.step()
      if retireLast && step > 60 && simulation.logs[3].count > before[3] {
        simulation.logs[3].removeLast(simulation.logs[3].count - before[3])
      }
      for (index, log) in simulation.logs.enumerated() where log.count > before[index] {
        files[index].operations += log[before[index]...]
      }
      if rng.chance(0.08) {
        let index = rng.index(below: files.count)
        if retireLast && index == 3 && step > 60 { continue }
        var seen: [ReplicaID: VersionVector] = [:]
        for replica in simulation.replicas { seen[replica.id] = replica.state.seen }
        if try compact(&files, index, seen: seen, retired: step > 60 ? retired : []) {
          compactions += 1
        }
      }
      if rng.chance(0.1) || step == 239 {
        var fresh = ReplicaState()
        fresh.merge(simulation.logs.flatMap { $0 })
        let read = try read(files)
        if read.canonicalText() != fresh.canonicalText() {
          failures.append("seed \(seed) step \(step): the files read differ from a full merge")
        }
      }
    }
    if compactions == 0 { failures.append("seed \(seed): no compaction ran") }
    let dropped =
      simulation.logs.map(\.count).reduce(0, +)
      - files.map(\.operations.count).reduce(0, +)
    return (failures, dropped)
  }

  @Test("Files compacted at random moments read back as the merge of every operation")
  func compactedFilesReadLikeAFullMerge() throws {
    var failures: [String] = []
    var dropped = 0
    for seed in 0..<40 {
      let result = try run(seed: SplitMix64.testSeed(UInt64(seed)))
      failures += result.failures
      dropped += result.dropped
    }
    #expect(failures.isEmpty, "\(failures.prefix(3).joined(separator: "\n"))")
    #expect(dropped > 0, "compaction never dropped an operation")
  }

  @Test("With a silent replica retired, compaction goes on and nothing is lost")
  func retiredReplicaLetsCompactionGoOn() throws {
    var failures: [String] = []
    var dropped = 0
    for seed in 0..<20 {
      let result = try run(seed: SplitMix64.testSeed(UInt64(seed) + 100), retireLast: true)
      failures += result.failures
      dropped += result.dropped
    }
    #expect(failures.isEmpty, "\(failures.prefix(3).joined(separator: "\n"))")
    #expect(dropped > 0)
  }

  @Test("The stable vector is the least every non-retired device has seen")
  func stableVector() throws {
    let a = try ReplicaID("aaa")
    let b = try ReplicaID("bbb")
    let c = try ReplicaID("ccc")
    let seen: [ReplicaID: VersionVector] = [
      a: VersionVector([a: 5, b: 3]), b: VersionVector([a: 4, b: 7, c: 1]),
      c: VersionVector([c: 2]),
    ]
    #expect(ReplicaCompaction.stableVector(seen: seen, retired: []) == VersionVector())
    #expect(
      ReplicaCompaction.stableVector(seen: seen, retired: [c]) == VersionVector([a: 4, b: 3]))
    #expect(ReplicaCompaction.stableVector(seen: [:], retired: []) == VersionVector())
  }

  @Test("The bound is within the own snapshot and every other device's latest snapshot")
  func bound() throws {
    let a = try ReplicaID("aaa")
    let b = try ReplicaID("bbb")
    let c = try ReplicaID("ccc")
    let snapshot = VersionVector([a: 9, b: 3])
    #expect(ReplicaCompaction.bound(own: a, snapshot: snapshot, others: [:]) == 9)
    #expect(
      ReplicaCompaction.bound(
        own: a, snapshot: snapshot, others: [b: VersionVector([a: 6]), c: VersionVector([a: 8])]
      ) == 6)
    #expect(
      ReplicaCompaction.bound(
        own: a, snapshot: snapshot, others: [b: VersionVector([a: 6]), c: nil])
        == 0)
  }

  @Test("The base is the largest snapshot every log continues from, within a limit")
  func base() throws {
    let a = try ReplicaID("aaa")
    let b = try ReplicaID("bbb")
    let never = [
      ReplicaLogOutline(replica: a, snapshot: nil, start: 0),
      ReplicaLogOutline(replica: b, snapshot: nil, start: 0),
    ]
    #expect(ReplicaCompaction.base(never) == .empty)
    let logs = [
      ReplicaLogOutline(replica: a, snapshot: VersionVector([a: 5, b: 2]), start: 3),
      ReplicaLogOutline(replica: b, snapshot: VersionVector([a: 4, b: 6]), start: 0),
    ]
    #expect(ReplicaCompaction.base(logs) == .snapshot(1))
    #expect(ReplicaCompaction.base(logs, within: VersionVector([a: 5, b: 2])) == .snapshot(0))
    #expect(ReplicaCompaction.base(logs, within: VersionVector([a: 2])) == nil)
    // b's log starts past what a's snapshot holds of it: only b's snapshot fits.
    let ahead = [
      ReplicaLogOutline(replica: a, snapshot: VersionVector([a: 5, b: 2]), start: 3),
      ReplicaLogOutline(replica: b, snapshot: VersionVector([a: 3, b: 6]), start: 4),
    ]
    #expect(ReplicaCompaction.base(ahead) == .snapshot(1))
    // a's log starts past b's snapshot too: no base fits until a's newer file arrives.
    let stale = [
      ReplicaLogOutline(replica: a, snapshot: VersionVector([a: 5, b: 2]), start: 4),
      ReplicaLogOutline(replica: b, snapshot: VersionVector([a: 3, b: 6]), start: 4),
    ]
    #expect(ReplicaCompaction.base(stale) == nil)
  }
}
