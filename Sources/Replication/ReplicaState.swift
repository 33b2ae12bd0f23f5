import OrderingCore

/// The merged state of every replica's operations: a tree of collections and items with
/// their fields, the same on every replica that merged the same operations, whatever the
/// order they arrived in.
///
/// Structure follows Kleppmann et al. 2021, "A highly-available move operation for
/// replicated trees": structural operations are kept in a log sorted by timestamp, each
/// with what it overwrote. An operation older than the log's newest is merged by undoing
/// the newer entries, applying it and redoing them, so the tree is always the result of
/// applying every structural operation in timestamp order; a move that would put a node
/// inside its own subtree is skipped when its turn comes, on every replica alike. Fields
/// are last-writer-wins registers. The state is pure: no files, no clock.
///
/// ```swift
/// var state = ReplicaState()
/// let report = state.merge(operationsFromLaptop + operationsFromPhone)
/// print(report.summary { $0 == laptopID ? "laptop" : "phone" })
/// print(state.canonicalText())
/// ```
public struct ReplicaState: Sendable {
  // The node table: one slot per node id ever named, in parallel arrays.
  var slotOf: [NodeID: Int32] = [:]
  var ids: [NodeID] = []
  var parents: [Int32] = []
  var keys: [OrderKey] = []
  /// 0: not created (yet); 1: item; 2: collection; 3: fixed.
  var kinds: [UInt8] = []
  var deletions: [Deletion?] = []
  var registers: [[Register]] = []
  var touches: [[Touch]] = []
  var children: [[Int32]] = []
  var childIndex: [Int32] = []

  /// Structural operations in ascending timestamp order, with their undo records.
  var log: [LogEntry] = []
  /// The known prefix of every replica's log.
  public internal(set) var seen = VersionVector()
  /// Operations that arrived ahead of a gap in their replica's log, by replica and sequence.
  var waiting: [ReplicaID: [UInt64: ReplicaOperation]] = [:]
  /// The greatest timestamp merged.
  public internal(set) var latest: HybridTimestamp?
  /// The timestamp of every replica's last merged operation: that replica's next operations
  /// come after it (its hybrid clock has seen it).
  public internal(set) var lastTimestamps: [ReplicaID: HybridTimestamp] = [:]
  /// The oldest timestamp the log can still undo to: a state loaded from a checkpoint keeps
  /// only the log entries from here on (`nil`: the whole log).
  public internal(set) var floor: HybridTimestamp?
  /// Whether a structural operation older than ``floor`` arrived: the state cannot place it
  /// (its undo records are gone) and must be merged again from the logs.
  public internal(set) var needsRebuild = false

  /// An empty state holding the three fixed nodes.
  public init() {
    let root = slot(.root)
    let trash = slot(.trash)
    let inbox = slot(.inbox)
    kinds[Int(root)] = 3
    kinds[Int(trash)] = 3
    kinds[Int(inbox)] = 2
    link(inbox, under: root)
    keys[Int(inbox)] = .first
  }

  /// The number of created nodes (items and collections, live or deleted).
  ///
  /// - Complexity: O(*n*).
  public var nodeCount: Int { kinds.lazy.filter { $0 == 1 || $0 == 2 }.count }

  /// The number of structural operations kept for undo and redo.
  public var logCount: Int { log.count }
}

/// A node's move to the trash: when, what its replica knew, and where it stood.
struct Deletion: Sendable, Hashable {
  var at: HybridTimestamp
  var seen: VersionVector
  var formerParent: Int32
  var formerKey: OrderKey
}

/// A field's value and the timestamp that wrote it.
struct Register: Sendable {
  var value: FieldValue
  var at: HybridTimestamp
}

/// The greatest sequence number of a replica's operations on one node.
struct Touch: Sendable {
  var replica: ReplicaID
  var sequence: UInt64
}

/// One applied (or skipped) structural operation and what it overwrote.
struct LogEntry: Sendable {
  var operation: ReplicaOperation
  var slot: Int32
  var skip: SkipReason?
  var undo: Undo
}

/// A node's structural state before an operation changed it.
struct Undo: Sendable {
  var parent: Int32
  var key: OrderKey
  var kind: UInt8
  var deletion: Deletion?
}

extension ReplicaState {
  /// The slot of an id, made on first mention.
  mutating func slot(_ id: NodeID) -> Int32 {
    if let slot = slotOf[id] { return slot }
    let slot = Int32(ids.count)
    slotOf[id] = slot
    ids.append(id)
    parents.append(-1)
    keys.append(.first)
    kinds.append(0)
    deletions.append(nil)
    registers.append([])
    touches.append([])
    children.append([])
    childIndex.append(-1)
    return slot
  }

  /// Puts a node under a parent (or under nothing, for -1).
  mutating func link(_ node: Int32, under parent: Int32) {
    let old = parents[Int(node)]
    if old == parent { return }
    if old >= 0 {
      let index = Int(childIndex[Int(node)])
      let last = children[Int(old)].removeLast()
      if last != node {
        children[Int(old)][index] = last
        childIndex[Int(last)] = Int32(index)
      }
    }
    parents[Int(node)] = parent
    if parent >= 0 {
      childIndex[Int(node)] = Int32(children[Int(parent)].count)
      children[Int(parent)].append(node)
    } else {
      childIndex[Int(node)] = -1
    }
  }

  /// Whether `ancestor` is `node` or above it.
  func isAncestor(_ ancestor: Int32, of node: Int32) -> Bool {
    var current = node
    while current >= 0 {
      if current == ancestor { return true }
      current = parents[Int(current)]
    }
    return false
  }

  /// The value of a field of a node, or `nil` when no operation set it.
  ///
  /// - Parameters:
  ///   - field: The field's number (``FieldValue/field``).
  ///   - node: The node.
  /// - Returns: The last writer's value.
  /// - Complexity: O(*f*), *f* ≤ 6 fields.
  public func value(_ field: Int, of node: NodeID) -> FieldValue? {
    guard let slot = slotOf[node] else { return nil }
    return registers[Int(slot)].first { $0.value.field == field }?.value
  }

  /// An item's text or a collection's title, or its id when it has none: how reports name it.
  ///
  /// - Parameter node: The node.
  /// - Returns: The text, or the id.
  public func name(of node: NodeID) -> String {
    if case .text(let text) = value(0, of: node), !text.isEmpty { return text }
    return node.rawValue
  }

  /// Sets a register when the value is newer than the one it holds, and records the touch.
  mutating func write(_ value: FieldValue, at time: HybridTimestamp, to slot: Int32) {
    let field = value.field
    if let index = registers[Int(slot)].firstIndex(where: { $0.value.field == field }) {
      if registers[Int(slot)][index].at < time {
        registers[Int(slot)][index] = Register(value: value, at: time)
      }
    } else {
      registers[Int(slot)].append(Register(value: value, at: time))
    }
  }

  /// Records that a replica's operation `sequence` touched a node (kept as a maximum).
  mutating func touch(_ slot: Int32, by replica: ReplicaID, sequence: UInt64) {
    if let index = touches[Int(slot)].firstIndex(where: { $0.replica == replica }) {
      touches[Int(slot)][index].sequence = max(touches[Int(slot)][index].sequence, sequence)
    } else {
      touches[Int(slot)].append(Touch(replica: replica, sequence: sequence))
    }
  }
}
