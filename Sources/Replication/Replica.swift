/// One device's side of a replicated store: its identity, its clock, its operations and an
/// undo history of its own changes, over the merged ``ReplicaState``.
///
/// Each intent (add, move, delete, edit, …) checks itself against the merged state, turns
/// into operations stamped with this replica's clock and sequence numbers, applies them,
/// and returns them for the caller to append to this device's log. ``merge(_:wallTime:)``
/// takes other devices' operations; ``undo(wallTime:)`` takes back this replica's last
/// change with new operations, never another replica's.
///
/// ```swift
/// var laptop = Replica(id: try ReplicaID("k7q"))
/// let trip = try laptop.createCollection("Trip", layout: "plan", wallTime: 1_000)
/// let pack = try laptop.add("Pack", to: .lastChild(of: trip.created!), wallTime: 1_001)
/// log.append(contentsOf: trip.operations + pack.operations)
/// let report = laptop.merge(phoneOperations, wallTime: 1_002)
/// ```
public struct Replica: Sendable {
  /// What one intent made: its operations (to append to this device's log) and the node it
  /// created, if any.
  public struct Commit: Sendable, Equatable {
    /// The operations, in the order they were made.
    public let operations: [ReplicaOperation]
    /// The node the intent created, for add, capture and collection create.
    public let created: NodeID?
  }

  /// This replica's identity.
  public let id: ReplicaID
  /// The merged state of every replica's operations known here.
  public private(set) var state: ReplicaState
  /// This replica's hybrid logical clock.
  public private(set) var clock: HybridClock
  /// Inverse changes of this replica's changes, newest last.
  var undoStack: [[Change]] = []

  /// A replica over a state (empty, or rebuilt from the logs, this replica's own included).
  ///
  /// - Parameters:
  ///   - id: This device's replica id.
  ///   - state: The merged state; its known prefix of this replica's log is where the next
  ///     sequence number continues.
  public init(id: ReplicaID, state: ReplicaState = ReplicaState()) {
    self.id = id
    self.state = state
    self.clock = HybridClock(replica: id)
    if let latest = state.latest { clock.receive(latest, wallTime: 0) }
  }

  /// Merges operations from other replicas (repeats and this replica's own are ignored)
  /// and advances the clock past them.
  ///
  /// - Parameters:
  ///   - operations: Operations read from other devices' logs.
  ///   - wallTime: The device's wall time now, in milliseconds.
  /// - Returns: What arrived, what was skipped, what was rescued.
  /// - Complexity: That of ``ReplicaState/merge(_:)``.
  @discardableResult
  public mutating func merge(_ operations: some Sequence<ReplicaOperation>, wallTime: UInt64)
    -> MergeReport
  {
    let report = state.merge(operations)
    if let latest = state.latest { clock.receive(latest, wallTime: wallTime) }
    return report
  }

  /// Whether ``undo(wallTime:)`` has a change of this replica to take back.
  public var canUndo: Bool { !undoStack.isEmpty }

  /// Takes back this replica's last change with new operations (another replica's changes
  /// are never undone). A node the change created is deleted; a moved node moves back; a
  /// deleted node is restored where it stood; a field gets its former value.
  ///
  /// - Parameter wallTime: The device's wall time now, in milliseconds.
  /// - Returns: The operations of the undo.
  /// - Throws: `ReplicationError` with code `nothingToUndo`.
  /// - Complexity: O(*c*) operations for a change of *c*.
  @discardableResult
  public mutating func undo(wallTime: UInt64) throws(ReplicationError) -> Commit {
    guard let inverse = undoStack.popLast() else {
      throw ReplicationError(.nothingToUndo, "there is no change of this device to undo")
    }
    return commit(inverse, wallTime: wallTime, recordUndo: false)
  }

  /// Stamps changes a caller derived itself (a store's committed change, say) as this
  /// replica's next operations and applies them, without an undo record: the caller keeps
  /// its own history. A delete's `seen` is set to what this replica has merged.
  ///
  /// - Parameters:
  ///   - changes: The changes, in the order to apply them.
  ///   - wallTime: The device's wall time now, in milliseconds.
  /// - Returns: The operations, to append to this device's log as one line.
  /// - Complexity: O(*c* · *d*) for *c* changes, *d* the depth.
  public mutating func apply(_ changes: [Change], wallTime: UInt64) -> Commit {
    commit(changes, wallTime: wallTime, recordUndo: false)
  }

  /// The id the `offset`-th operation of the next commit creates (0 for the first).
  func plannedID(offset: Int = 0) -> NodeID {
    NodeID.make(replica: id, counter: state.seen[id] + 1 + UInt64(offset))
  }

  /// Stamps changes as this replica's next operations, applies them, and records their
  /// inverse for undo.
  mutating func commit(_ changes: [Change], wallTime: UInt64, recordUndo: Bool = true)
    -> Commit
  {
    var operations: [ReplicaOperation] = []
    var inverse: [Change] = []
    var created: NodeID?
    for change in changes {
      var change = change
      if case .delete(let node, _) = change { change = .delete(node, seen: state.seen) }
      if case .create(let node, _, _, _, _) = change, created == nil { created = node }
      if recordUndo, let back = self.inverse(of: change) { inverse.append(back) }
      let operation = ReplicaOperation(
        sequence: state.seen[id] + 1, timestamp: clock.tick(wallTime: wallTime), change: change)
      _ = state.merge([operation], checkRescues: false)
      operations.append(operation)
    }
    if recordUndo && !inverse.isEmpty { undoStack.append(inverse.reversed()) }
    return Commit(operations: operations, created: created)
  }

  /// The change that takes `change` back, from the state before it.
  func inverse(of change: Change) -> Change? {
    let node = change.node
    switch change {
    case .create:
      return .delete(node, seen: VersionVector())
    case .move, .delete:
      guard let parent = state.parent(of: node), let key = state.key(of: node) else {
        return nil
      }
      if parent == .trash {
        if case .delete = change { return nil }
        return .delete(node, seen: VersionVector())
      }
      return .move(node, parent: parent, key: key)
    case .set(_, let value):
      return .set(node, state.value(value.field, of: node) ?? value.cleared)
    }
  }
}

extension FieldValue {
  /// The field's value when nothing set it: empty text, not done.
  var cleared: FieldValue {
    switch self {
    case .text: .text("")
    case .note: .note("")
    case .role: .role("")
    case .done: .done(false)
    case .layout: .layout("list")
    case .created(let text): .created(text)
    }
  }
}
