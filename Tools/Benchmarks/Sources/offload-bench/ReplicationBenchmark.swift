import ArgumentParser
import OrderingCore
import Replication

/// `offload-bench replication`: merging other devices' operations into a large state, with
/// the undo-redo of this device's newer operations, against a rebuild from every log.
struct ReplicationBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "replication",
    abstract: "ReplicaState.merge: 10,000 operations from other replicas into 10,000 items.")

  @Option(help: "Items in the state before the merge.")
  var items = 10_000

  @Option(help: "Operations arriving from other replicas.")
  var operations = 10_000

  @Option(help: "Other replicas the arriving operations come from.")
  var replicas = 5

  @Option(help: "This replica's own recent operations that the arrivals interleave with.")
  var localTail = 2_000

  @Option(help: "Seed of the workload.")
  var seed: UInt64 = 0x2800

  @Option(help: "Timed repetitions per figure (the fastest is reported).")
  var repetitions = 5

  @Flag(help: "Print one JSON array instead of a table.")
  var json = false

  func run() throws {
    var rng = SplitMix64(seed: seed)
    let local = try ReplicaID("aaa")
    var workload = Workload(rng: rng)
    let history = try workload.items(items, replica: local, startingAt: 1_000)
    let tailStart: UInt64 = 1_000_000
    let tail = try workload.changes(
      localTail, replica: local, firstSequence: UInt64(history.count + 1), wallStart: tailStart)
    var remote: [ReplicaOperation] = []
    for index in 0..<replicas {
      let replica = try ReplicaID("b0" + String(index))
      remote += try workload.changes(
        operations / replicas, replica: replica, firstSequence: 1, wallStart: tailStart - 500)
    }
    var newer: [ReplicaOperation] = []
    for index in 0..<replicas {
      let replica = try ReplicaID("c0" + String(index))
      newer += try workload.changes(
        operations / replicas, replica: replica, firstSequence: 1, wallStart: 9_000_000)
    }
    rng = workload.rng
    remote.shuffle(using: &rng)

    var base = ReplicaState()
    base.merge(history + tail)
    var rows: [BenchmarkRow] = []
    func row(_ workload: String, _ seconds: Double, _ state: ReplicaState, undone: Int) {
      rows.append(
        BenchmarkRow(fields: [
          ("workload", .text(workload)), ("items", .integer(items)),
          ("arriving", .integer(remote.count)), ("localAfterFirstArrival", .integer(undone)),
          ("ms", .number(seconds * 1000)), ("logEntries", .integer(state.logCount)),
        ]))
    }
    var result = base
    let interleaved = Stopwatch.best(of: repetitions) {
      var state = base
      state.merge(remote)
      result = state
    }
    row("interleaved with the local tail", interleaved, result, undone: localTail)
    let appended = Stopwatch.best(of: repetitions) {
      var state = base
      state.merge(newer)
      result = state
    }
    row("all newer than the local log", appended, result, undone: 0)
    let rebuild = Stopwatch.best(of: repetitions) {
      var state = ReplicaState()
      state.merge(history + tail + remote)
      result = state
    }
    row("baseline: rebuild from every log", rebuild, result, undone: 0)
    // One late operation: the cost follows the entries after it, not the history.
    for (label, wall) in [
      ("one late op inside the local tail", tailStart + 2 * 2_000 - 200),
      ("one late op older than the whole log", 10),
    ] as [(String, UInt64)] {
      let late = ReplicaOperation(
        sequence: 1,
        timestamp: HybridTimestamp(wallTime: wall, counter: 0, replica: try ReplicaID("d00")),
        change: .move(workload.nodes[0], parent: workload.collections[1], key: .first))
      var single = base
      let seconds = Stopwatch.best(of: repetitions) {
        var state = base
        state.merge([late])
        single = state
      }
      rows.append(
        BenchmarkRow(fields: [
          ("workload", .text(label)), ("items", .integer(items)), ("arriving", .integer(1)),
          ("ms", .number(seconds * 1000)), ("logEntries", .integer(single.logCount)),
        ]))
    }
    let view = Stopwatch.best(of: repetitions) { blackHole(result.canonicalText()) }
    row("canonical text of the merged state", view, result, undone: 0)
    try Report.print(
      title: "ReplicaState merge (\(items) items, \(remote.count) arriving operations)",
      rows: rows, json: json)
  }
}

/// Seeded operations: a history of items under a few collections, then changes.
struct Workload {
  var rng: SplitMix64
  var nodes: [NodeID] = []
  var collections: [NodeID] = []
  var keys: [OrderKey] = []

  /// Five collections and `count` items spread over them, some nested one level.
  mutating func items(_ count: Int, replica: ReplicaID, startingAt wall: UInt64) throws
    -> [ReplicaOperation]
  {
    var result: [ReplicaOperation] = []
    var sequence: UInt64 = 0
    func stamp(_ change: Change) {
      sequence += 1
      result.append(
        ReplicaOperation(
          sequence: sequence,
          timestamp: HybridTimestamp(
            wallTime: wall + sequence, counter: 0, replica: replica),
          change: change))
    }
    let collectionKeys = try OrderKey.spread(5, between: .first, and: nil)
    for key in collectionKeys {
      let id = NodeID.make(replica: replica, counter: sequence + 1)
      collections.append(id)
      stamp(
        .create(
          id, kind: .collection, parent: .root, key: key, fields: [.text("c"), .layout("plan")])
      )
    }
    keys = try OrderKey.spread(count, between: nil, and: nil)
    for index in 0..<count {
      let id = NodeID.make(replica: replica, counter: sequence + 1)
      let parent =
        index % 10 == 9 && !nodes.isEmpty
        ? nodes[nodes.count - 1] : collections[index % collections.count]
      stamp(
        .create(id, kind: .item, parent: parent, key: keys[index], fields: [.text("item \(index)")])
      )
      nodes.append(id)
    }
    return result
  }

  /// `count` changes by one replica: moves, field sets, creates and deletes.
  mutating func changes(
    _ count: Int, replica: ReplicaID, firstSequence: UInt64, wallStart: UInt64
  ) throws -> [ReplicaOperation] {
    var result: [ReplicaOperation] = []
    for offset in 0..<count {
      let sequence = firstSequence + UInt64(offset)
      let time = HybridTimestamp(
        wallTime: wallStart + UInt64(offset) * 3 + UInt64.random(in: 0..<3, using: &rng),
        counter: 0, replica: replica)
      let node = nodes[Int.random(in: 0..<nodes.count, using: &rng)]
      let key = try OrderKey.between(
        keys[Int.random(in: 0..<keys.count, using: &rng)], nil, replica: replica)
      let change: Change
      switch Int.random(in: 0..<20, using: &rng) {
      case 0..<8:
        let parent =
          Bool.random(using: &rng)
          ? collections[Int.random(in: 0..<collections.count, using: &rng)]
          : nodes[Int.random(in: 0..<nodes.count, using: &rng)]
        change = .move(node, parent: parent, key: key)
      case 8..<15: change = .set(node, .text("edit \(offset)"))
      case 15..<16: change = .delete(node, seen: VersionVector())
      default:
        let id = NodeID.make(replica: replica, counter: sequence)
        change = .create(
          id, kind: .item, parent: collections[offset % collections.count], key: key,
          fields: [.text("new \(offset)")])
        nodes.append(id)
      }
      result.append(ReplicaOperation(sequence: sequence, timestamp: time, change: change))
    }
    return result
  }
}
