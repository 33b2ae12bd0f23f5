public import OrderingCore

/// A node kept although an ancestor of it was deleted: an operation on it (an add, an
/// edit, a move) was not known to the replica that deleted the ancestor.
public struct Rescue: Hashable, Sendable {
  /// The rescued node; it shows in the inbox, with its subtree.
  public let node: NodeID
  /// The deleted ancestor it stood under.
  public let deletedAncestor: NodeID
  /// The replica that deleted the ancestor.
  public let deletedBy: ReplicaID
}

/// A node in the trash, for listing and restoring.
public struct DeletedNode: Hashable, Sendable {
  /// The deleted node (its subtree went with it).
  public let node: NodeID
  /// When it was deleted, and by which replica.
  public let deletedAt: HybridTimestamp
  /// The parent it stood under before the delete.
  public let formerParent: NodeID
  /// Its order key under that parent.
  public let formerKey: OrderKey
}

extension ReplicaState {
  /// Every rescued node: the topmost node under a deleted node that holds an operation the
  /// delete did not know. Its subtree comes with it.
  ///
  /// - Returns: The rescues, in the trash's order (newest delete first, then by id).
  /// - Complexity: O(*t*), *t* the number of nodes under the trash.
  public func rescues() -> [Rescue] {
    var result: [Rescue] = []
    guard let trash = slotOf[.trash] else { return result }
    for deleted in sortedTrash(trash) {
      guard let deletion = deletions[Int(deleted)] else { continue }
      var stack = children[Int(deleted)]
      while let node = stack.popLast() {
        if isUnknown(node, to: deletion) {
          result.append(
            Rescue(
              node: ids[Int(node)], deletedAncestor: ids[Int(deleted)],
              deletedBy: deletion.at.replica))
        } else {
          stack.append(contentsOf: children[Int(node)])
        }
      }
    }
    return result
  }

  /// Whether an operation on the node was unknown to the replica that made the deletion.
  func isUnknown(_ node: Int32, to deletion: Deletion) -> Bool {
    touches[Int(node)].contains { !deletion.seen.includes($0.replica, $0.sequence) }
  }

  /// The trash's direct children, newest delete first, then by id.
  func sortedTrash(_ trash: Int32) -> [Int32] {
    children[Int(trash)].sorted { a, b in
      let da = deletions[Int(a)]?.at
      let db = deletions[Int(b)]?.at
      if da != db, let da, let db { return db < da }
      return ids[Int(a)] < ids[Int(b)]
    }
  }

  /// Whether a node shows: created, and under the root or under a rescued node.
  ///
  /// - Parameter id: A node id.
  /// - Returns: `false` for a node this state does not hold or holds in the trash.
  /// - Complexity: O(*d* · *r*), *d* the node's depth, *r* the replicas that touched it.
  public func isLive(_ id: NodeID) -> Bool {
    guard let slot = slotOf[id], kinds[Int(slot)] != 0 else { return false }
    var path: [Int32] = []
    var current = slot
    while current >= 0 {
      let parent = parents[Int(current)]
      if ids[Int(current)] == .root { return true }
      if parent >= 0, ids[Int(parent)] == .trash {
        guard let deletion = deletions[Int(current)] else { return false }
        return path.contains { isUnknown($0, to: deletion) }
      }
      path.append(current)
      current = parent
    }
    return false
  }

  /// A node's parent in the merged tree, or `nil` (the root, or a node not held).
  ///
  /// - Parameter id: A node id.
  /// - Returns: The parent's id (``NodeID/trash`` for a deleted node).
  public func parent(of id: NodeID) -> NodeID? {
    guard let slot = slotOf[id], parents[Int(slot)] >= 0 else { return nil }
    return ids[Int(parents[Int(slot)])]
  }

  /// Where a node shows: the inbox for a rescued node, else its parent.
  ///
  /// - Parameter id: A node id.
  /// - Returns: The parent the node is shown under, or `nil` for a node not held.
  /// - Complexity: O(*t*) for a node under the trash, else O(1).
  public func shownParent(of id: NodeID) -> NodeID? {
    guard let parent = parent(of: id) else { return nil }
    if !isLive(parent), rescues().contains(where: { $0.node == id }) { return .inbox }
    return parent
  }

  /// A node's order key among its siblings.
  ///
  /// - Parameter id: A node id.
  /// - Returns: The key, or `nil` for a node not held.
  public func key(of id: NodeID) -> OrderKey? {
    guard let slot = slotOf[id], kinds[Int(slot)] != 0 else { return nil }
    return keys[Int(slot)]
  }

  /// A node's kind, or `nil` when it is not (yet) created.
  ///
  /// - Parameter id: A node id.
  /// - Returns: Item or collection; the fixed root and trash have none.
  public func kind(of id: NodeID) -> NodeKind? {
    guard let slot = slotOf[id] else { return nil }
    switch kinds[Int(slot)] {
    case 1: return .item
    case 2: return .collection
    default: return nil
    }
  }

  /// A node's created children in sibling order: by order key, then by id (the tie-break
  /// every replica computes alike). The inbox also lists the rescued nodes.
  ///
  /// - Parameter id: A parent.
  /// - Returns: The children, deleted ones excluded (they are under the trash).
  /// - Complexity: O(*c* log *c*) for *c* children, plus O(*t*) for the inbox.
  public func children(of id: NodeID) -> [NodeID] {
    guard let slot = slotOf[id] else { return [] }
    var list = children[Int(slot)].filter { kinds[Int($0)] != 0 }
    if id == .inbox { list += rescues().compactMap { slotOf[$0.node] } }
    return sortedSiblings(list)
  }

  /// Slots sorted by key, then id.
  func sortedSiblings(_ slots: [Int32]) -> [NodeID] {
    slots.sorted { a, b in
      let ka = keys[Int(a)]
      let kb = keys[Int(b)]
      return ka == kb ? ids[Int(a)] < ids[Int(b)] : ka < kb
    }.map { ids[Int($0)] }
  }

  /// The trash's nodes, newest delete first: what can be restored.
  ///
  /// - Returns: Each deleted node with when and from where.
  /// - Complexity: O(*t* log *t*), *t* deleted nodes.
  public func deletedNodes() -> [DeletedNode] {
    guard let trash = slotOf[.trash] else { return [] }
    return sortedTrash(trash).compactMap { slot in
      guard let deletion = deletions[Int(slot)] else { return nil }
      return DeletedNode(
        node: ids[Int(slot)], deletedAt: deletion.at,
        formerParent: deletion.formerParent >= 0 ? ids[Int(deletion.formerParent)] : .inbox,
        formerKey: deletion.formerKey)
    }
  }

  /// Problems with the structure, for tests: a cycle, a parent link that its parent's
  /// child list does not hold, or a created node that reaches neither root nor trash.
  ///
  /// - Returns: One line per problem; empty when the structure is sound.
  /// - Complexity: O(*n* · *d*).
  public func structuralProblems() -> [String] {
    var problems: [String] = []
    for slot in ids.indices where kinds[slot] != 0 && !ids[slot].isFixed {
      var current = Int32(slot)
      var steps = 0
      while current >= 0 && steps <= ids.count {
        current = parents[Int(current)]
        steps += 1
      }
      if steps > ids.count { problems.append("\(ids[slot]) is on a cycle") }
      let parent = parents[slot]
      if parent < 0 {
        problems.append("\(ids[slot]) has no parent")
      } else if children[Int(parent)][Int(childIndex[slot])] != Int32(slot) {
        problems.append("\(ids[slot]) is missing from its parent's children")
      }
    }
    return problems
  }
}
