import OffloadTestSupport
import OrderingCore
import Replication

/// Replicas that make random changes and exchange their logs the way a sync engine carries
/// files: a whole prefix of one replica's log at a time, at arbitrary moments, sometimes a
/// prefix that is still growing, sometimes again.
struct Simulation {
  var replicas: [Replica]
  /// Each replica's own operations, in the order it made them (its log file).
  var logs: [[ReplicaOperation]]
  /// Each replica's wall clock, with its own skew.
  var walls: [UInt64]
  var rng: SplitMix64
  /// Intents refused by a replica's own checks (a first sibling indented, …).
  var refusals = 0
  /// Intents made, by name.
  var intents: [String: Int] = [:]

  init(seed: UInt64, replicaCount: Int = 5) {
    var rng = SplitMix64(seed: seed)
    var ids: Set<ReplicaID> = []
    while ids.count < replicaCount { ids.insert(ReplicaID.random(using: &rng)) }
    replicas = ids.sorted().map { Replica(id: $0) }
    logs = Array(repeating: [], count: replicaCount)
    var walls: [UInt64] = []
    for _ in 0..<replicaCount { walls.append(1_000 + UInt64.random(in: 0..<20, using: &rng)) }
    self.walls = walls
    self.rng = rng
  }

  /// Delivers the first `count` operations of replica `from`'s log to replica `to`.
  mutating func deliver(from: Int, to: Int, count: Int) {
    let batch = logs[from].prefix(count)
    replicas[to].merge(batch, wallTime: walls[to])
  }

  /// One random step: a sync of a random prefix, or a random intent.
  mutating func step() {
    let index = rng.index(below: replicas.count)
    walls[index] += UInt64.random(in: 0..<3, using: &rng)
    if rng.chance(0.3) {
      var from = rng.index(below: replicas.count)
      if from == index { from = (from + 1) % replicas.count }
      deliver(from: from, to: index, count: rng.index(below: logs[from].count + 1))
      return
    }
    do {
      let commit = try randomIntent(on: index)
      logs[index].append(contentsOf: commit.operations)
    } catch {
      refusals += 1
    }
  }

  /// Every replica receives every log, whole, in a random order.
  mutating func exchangeEverything() {
    for to in replicas.indices {
      for from in replicas.indices.shuffled(using: &rng) where from != to {
        deliver(from: from, to: to, count: logs[from].count)
      }
    }
  }

  /// The live nodes of a replica in preorder: collections, then the items under each.
  func liveNodes(_ replica: Replica) -> (collections: [NodeID], items: [NodeID]) {
    let state = replica.state
    var items: [NodeID] = []
    func walk(_ node: NodeID) {
      for child in state.children(of: node) {
        items.append(child)
        walk(child)
      }
    }
    let collections = state.children(of: .root)
    for collection in collections { walk(collection) }
    return (collections, items)
  }

  mutating func pick<T>(_ values: [T]) -> T? {
    values.isEmpty ? nil : values[rng.index(below: values.count)]
  }

  mutating func destination(_ collections: [NodeID], _ items: [NodeID]) -> Destination {
    let item = pick(items)
    switch rng.index(below: 4) {
    case 0: return .firstChild(of: pick(collections) ?? .inbox)
    case 1: return .lastChild(of: item ?? .inbox)
    case 2: return item.map { .before($0) } ?? .lastChild(of: .inbox)
    default: return item.map { .after($0) } ?? .firstChild(of: .inbox)
    }
  }

  mutating func randomIntent(on index: Int) throws(ReplicationError) -> Replica.Commit {
    let (collections, items) = liveNodes(replicas[index])
    let wall = walls[index]
    let userCollections = collections.filter { $0 != .inbox }
    let kinds = [
      "add", "add", "capture", "move", "move", "bulk", "indent", "outdent", "delete", "done",
      "edit", "note", "role", "undo", "restore", "collection-create", "rename", "reorder",
      "convert", "collection-delete",
    ]
    let kind = pick(kinds) ?? "add"
    intents[kind, default: 0] += 1
    let text = "t\(rng.index(below: 1000))"
    let item = pick(items) ?? .inbox
    switch kind {
    case "add":
      let target = destination(collections, items)
      return try replicas[index].add(text, to: target, wallTime: wall)
    case "capture":
      return try replicas[index].capture(text, wallTime: wall)
    case "move":
      let target = destination(collections, items)
      return try replicas[index].move([item], to: target, wallTime: wall)
    case "bulk":
      var chosen: [NodeID] = []
      for _ in 0..<3 { if let node = pick(items), !chosen.contains(node) { chosen.append(node) } }
      let target = destination(collections, items)
      return try replicas[index].move(chosen, to: target, wallTime: wall)
    case "indent": return try replicas[index].indent(item, wallTime: wall)
    case "outdent": return try replicas[index].outdent(item, wallTime: wall)
    case "delete":
      return try replicas[index].delete([item], wallTime: wall)
    case "done": return try replicas[index].set(.done(rng.chance(0.5)), of: item, wallTime: wall)
    case "edit": return try replicas[index].set(.text(text), of: item, wallTime: wall)
    case "note": return try replicas[index].set(.note(text), of: item, wallTime: wall)
    case "role": return try replicas[index].set(.role("free"), of: item, wallTime: wall)
    case "undo": return try replicas[index].undo(wallTime: wall)
    case "restore":
      let deleted = replicas[index].state.deletedNodes().map(\.node)
      return try replicas[index].restore(pick(deleted) ?? item, wallTime: wall)
    case "collection-create":
      return try replicas[index].createCollection(
        text, layout: rng.chance(0.5) ? "list" : "plan", wallTime: wall)
    case "rename":
      let collection = pick(userCollections) ?? .inbox
      return try replicas[index].renameCollection(collection, to: text, wallTime: wall)
    case "reorder":
      let collection = pick(userCollections) ?? .inbox
      let anchor = pick(collections) ?? .inbox
      let target: Destination = rng.chance(0.5) ? .before(anchor) : .after(anchor)
      return try replicas[index].move([collection], to: target, wallTime: wall)
    case "convert":
      let collection = pick(collections) ?? .inbox
      return try replicas[index].convertCollection(
        collection, to: rng.chance(0.5) ? "list" : "plan", wallTime: wall)
    default:
      let collection = pick(userCollections) ?? .inbox
      return try replicas[index].delete([collection], wallTime: wall)
    }
  }
}
