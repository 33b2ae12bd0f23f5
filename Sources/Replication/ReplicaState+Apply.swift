import OrderingCore

/// Why a structural operation was skipped when its turn came in timestamp order.
public enum SkipReason: Hashable, Sendable {
  /// The move would put the node inside its own subtree (under `parent`).
  case intoOwnSubtree(parent: NodeID)
  /// The operation names a node that no earlier operation created.
  case missingNode
  /// The new parent is not a created node.
  case missingParent(NodeID)
  /// The operation would move a fixed node (root, trash, inbox).
  case fixedNode
  /// The node's kind cannot go under that parent (an item at the top, a collection in a list).
  case misplaced(parent: NodeID)
  /// A second create of an id that already exists.
  case duplicateCreate
}

extension ReplicaState {
  /// Applies one structural operation at the end of the timestamp order and returns its
  /// log entry (skipped or not).
  mutating func applyStructural(_ operation: ReplicaOperation) -> LogEntry {
    let node = slot(operation.change.node)
    let undo = Undo(
      parent: parents[Int(node)], key: keys[Int(node)], kind: kinds[Int(node)],
      deletion: deletions[Int(node)])
    var entry = LogEntry(operation: operation, slot: node, skip: nil, undo: undo)
    entry.skip = skipReason(operation.change, node: node)
    guard entry.skip == nil else { return entry }
    switch operation.change {
    case .create(_, let kind, let parent, let key, _):
      kinds[Int(node)] = kind == .item ? 1 : 2
      keys[Int(node)] = key
      deletions[Int(node)] = nil
      link(node, under: slot(parent))
    case .move(_, let parent, let key):
      keys[Int(node)] = key
      deletions[Int(node)] = nil
      link(node, under: slot(parent))
    case .delete(_, let seen):
      // Deleting a deleted node again keeps where it stood before the first delete.
      let former = deletions[Int(node)]
      deletions[Int(node)] = Deletion(
        at: operation.timestamp, seen: seen,
        formerParent: former?.formerParent ?? parents[Int(node)],
        formerKey: former?.formerKey ?? keys[Int(node)])
      link(node, under: slotOf[.trash] ?? 1)
    case .set:
      break
    }
    return entry
  }

  /// Why a structural change cannot apply to the tree as it stands, or `nil`.
  func skipReason(_ change: Change, node: Int32) -> SkipReason? {
    if change.node.isFixed { return .fixedNode }
    let kind = kinds[Int(node)]
    switch change {
    case .create(_, let newKind, let parent, _, _):
      if kind != 0 { return .duplicateCreate }
      return placementProblem(newKind == .item ? 1 : 2, node: node, parent: parent)
    case .move(_, let parent, _):
      if kind == 0 { return .missingNode }
      return placementProblem(kind, node: node, parent: parent)
    case .delete:
      return kind == 0 ? .missingNode : nil
    case .set:
      return nil
    }
  }

  /// Whether a node of `kind` may go under `parent`: a collection under the root, an item
  /// under a collection or an item, and never inside its own subtree.
  func placementProblem(_ kind: UInt8, node: Int32, parent: NodeID) -> SkipReason? {
    guard let parentSlot = slotOf[parent], kinds[Int(parentSlot)] != 0 else {
      return .missingParent(parent)
    }
    let parentKind = kinds[Int(parentSlot)]
    if kind == 2 ? parent != .root : (parentKind != 1 && parentKind != 2) {
      return .misplaced(parent: parent)
    }
    if isAncestor(node, of: parentSlot) { return .intoOwnSubtree(parent: parent) }
    return nil
  }

  /// Takes back one applied log entry (the newest not yet undone).
  mutating func undo(_ entry: LogEntry) {
    guard entry.skip == nil else { return }
    let node = entry.slot
    keys[Int(node)] = entry.undo.key
    kinds[Int(node)] = entry.undo.kind
    deletions[Int(node)] = entry.undo.deletion
    link(node, under: entry.undo.parent)
  }
}
