// Compaction (decision 0013): a device rewrites its own log as a snapshot of the merged state
// at a version vector S, then its own operations past a bound B. The pure part lives here:
// the stable vector, the bound, the state at a vector, and the choice of the base a reader
// starts from.

extension VersionVector {
  /// Whether every count of this vector is at most the other's.
  ///
  /// - Parameter other: The vector to compare with.
  /// - Returns: `true` when this vector knows nothing the other does not.
  /// - Complexity: O(*r*), *r* replicas of this vector.
  public func isCovered(by other: VersionVector) -> Bool {
    counts.allSatisfy { $0.value <= other[$0.key] }
  }

  /// The number of operations the vector counts, over every replica.
  public var total: UInt64 { counts.values.reduce(0, &+) }
}

/// One device's log as compaction and a reader see it: whose it is, the vector of the
/// snapshot it begins with (if any), and the bound past which it holds its writer's
/// operations.
public struct ReplicaLogOutline: Sendable, Hashable {
  /// The log's writer.
  public var replica: ReplicaID
  /// The vector of the snapshot the log begins with, or `nil` (a log never compacted).
  public var snapshot: VersionVector?
  /// The log holds every operation of its writer past this sequence number (0: all of them).
  public var start: UInt64

  /// An outline.
  ///
  /// - Parameters:
  ///   - replica: The log's writer.
  ///   - snapshot: The vector of the snapshot the log begins with, or `nil`.
  ///   - start: The sequence number past which the log holds its writer's operations.
  public init(replica: ReplicaID, snapshot: VersionVector?, start: UInt64) {
    self.replica = replica
    self.snapshot = snapshot
    self.start = start
  }
}

/// The base a reader starts from: nothing, or the snapshot of one log.
public enum ReplicaBase: Sendable, Hashable {
  /// The empty state: every log is read from its first operation.
  case empty
  /// The snapshot the log at this index (in the outlines given) begins with.
  case snapshot(Int)
}

/// The rules of compaction, pure: which vector every device has seen, how far a device may
/// cut its own log, and which snapshot a reader can start from.
public enum ReplicaCompaction {
  /// The stable vector: per replica, the least count every known, non-retired device has
  /// seen.
  ///
  /// - Parameters:
  ///   - seen: What each known device has seen (its own operations included), by device.
  ///   - retired: The devices retired for good, left out.
  /// - Returns: The entry-wise minimum of the devices' vectors, over every replica any of them
  ///   names; empty when no device is left.
  /// - Complexity: O(*d* · *r*), *d* devices and *r* replicas.
  public static func stableVector(
    seen: [ReplicaID: VersionVector], retired: Set<ReplicaID>
  ) -> VersionVector {
    let vectors = seen.filter { !retired.contains($0.key) }.values
    guard !vectors.isEmpty else { return VersionVector() }
    var replicas = Set<ReplicaID>()
    for vector in vectors { replicas.formUnion(vector.counts.keys) }
    var result = VersionVector()
    for replica in replicas { result[replica] = vectors.map { $0[replica] }.min() ?? 0 }
    return result
  }

  /// How far a device may cut its own log: at most what its new snapshot holds of it, and at
  /// most what every other known, non-retired device's latest snapshot holds of it (a device
  /// with no snapshot counts as 0), so that a reader starting from any of those snapshots
  /// finds in this log every operation of this device past it.
  ///
  /// - Parameters:
  ///   - own: The device cutting its log.
  ///   - snapshot: The vector of its new snapshot.
  ///   - others: The latest snapshot vector of every other known, non-retired device (`nil`
  ///     for one with none).
  /// - Returns: The bound B: the log keeps the device's operations past it.
  /// - Complexity: O(*d*), *d* devices.
  public static func bound(
    own: ReplicaID, snapshot: VersionVector, others: [ReplicaID: VersionVector?]
  ) -> UInt64 {
    var bound = snapshot[own]
    for (replica, vector) in others where replica != own {
      bound = min(bound, vector?[own] ?? 0)
    }
    return bound
  }

  /// Whether every log can continue from a base of vector `vector`: each holds its writer's
  /// operations past what the base holds of them.
  ///
  /// - Parameters:
  ///   - vector: The base's vector.
  ///   - logs: The logs.
  /// - Returns: `true` when no operation between the base and a log's start is missing.
  /// - Complexity: O(*l*), *l* logs.
  public static func canContinue(from vector: VersionVector, _ logs: [ReplicaLogOutline]) -> Bool {
    logs.allSatisfy { $0.start <= vector[$0.replica] }
  }

  /// The base a reader starts from: among the empty state and every log's snapshot, one
  /// that every log can continue from and that lies within `limit`, with the most
  /// operations (ties: the lower index, the empty state last).
  ///
  /// - Parameters:
  ///   - logs: The logs as read.
  ///   - limit: A vector the base must lie within (a compaction building the state at S),
  ///     or `nil`.
  /// - Returns: The base, or `nil` when none fits (a log past every snapshot: its sync is
  ///   not complete yet).
  /// - Complexity: O(*l*²), *l* logs.
  public static func base(_ logs: [ReplicaLogOutline], within limit: VersionVector? = nil)
    -> ReplicaBase?
  {
    var best: (base: ReplicaBase, total: UInt64)?
    for (index, log) in logs.enumerated() {
      guard let vector = log.snapshot, canContinue(from: vector, logs),
        limit.map({ vector.isCovered(by: $0) }) ?? true
      else { continue }
      if best.map({ vector.total > $0.total }) ?? true {
        best = (.snapshot(index), vector.total)
      }
    }
    if let best { return best.base }
    return canContinue(from: VersionVector(), logs) ? .empty : nil
  }
}

extension ReplicaState {
  /// The operations of `operations` past `base` and at or below `limit` (every one past the
  /// base when `limit` is `nil`).
  ///
  /// - Parameters:
  ///   - operations: Operations of any replicas.
  ///   - base: What a base state already holds.
  ///   - limit: The vector to stop at, or `nil`.
  /// - Returns: The operations kept, in the order given.
  /// - Complexity: O(*o*).
  public static func operations(
    _ operations: some Sequence<ReplicaOperation>, past base: VersionVector,
    upTo limit: VersionVector? = nil
  ) -> [ReplicaOperation] {
    operations.filter { operation in
      operation.sequence > base[operation.replica]
        && (limit.map { operation.sequence <= $0[operation.replica] } ?? true)
    }
  }

  /// The state at `vector`: `base` (a state at a vector within it) with the operations past
  /// the base's vector and at or below `vector` merged in.
  ///
  /// - Parameters:
  ///   - vector: The vector to build the state at.
  ///   - base: The state to start from.
  ///   - operations: Every operation the logs hold (more is left out).
  /// - Returns: The merged state; its `seen` is `vector` when the logs held every operation.
  /// - Complexity: O(*o* log *o*), *o* operations merged.
  public static func at(
    _ vector: VersionVector, base: ReplicaState, operations: some Sequence<ReplicaOperation>
  ) -> ReplicaState {
    var state = base
    state.merge(Self.operations(operations, past: base.seen, upTo: vector))
    return state
  }
}
