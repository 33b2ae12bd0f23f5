extension OrderedForest {
  /// Adds a new node (a leaf) at a destination.
  ///
  /// The depth limit and the rules' ``Rule/allows(_:in:)`` are asked as for a move. The
  /// forest a rule sees already holds the new id but has not placed it: a rule should judge
  /// the proposal, not ask the forest where the new node is.
  ///
  /// - Parameters:
  ///   - id: The new node's id.
  ///   - destination: Where it goes.
  /// - Returns: The new node with a `nil` old placement.
  /// - Throws: `Refusal.Reason.duplicateNode` when the id is taken, or a refusal of
  ///   `move(_:to:)`.
  /// - Complexity: That of `move(_:to:)`.
  @inlinable
  @discardableResult
  public mutating func insert(_ id: ID, at destination: Destination) throws(Refusal) -> ChangeSet {
    let request = Request(.insert, nodes: [id], destination: destination)
    guard slotOf(id) == nil else { throw Refusal(.duplicateNode(id), request: request) }
    // An unplaced slot stands for the new node while the move is planned.
    let slot = appendSlot(id, key: .first)
    nodes[slot].parent = Int32(Self.unplaced)
    do {
      return perform(try plan(.insert, CollectionOfOne(id), destination))
    } catch {
      removeSlot(slot)
      throw error
    }
  }

  /// Removes a node and its whole subtree.
  ///
  /// - Parameter id: The node to remove.
  /// - Returns: Every removed node with a `nil` new placement (preorder); its inverse puts
  ///   them back.
  /// - Throws: ``OrderingError/Code/unknownNode`` when the forest holds no such node.
  /// - Complexity: O(*s* · (log *k* · *m* + *k*)), where *s* is the size of the subtree.
  @inlinable
  @discardableResult
  public mutating func remove(_ id: ID) throws(OrderingError) -> ChangeSet {
    guard slotOf(id) != nil else {
      throw OrderingError(
        .unknownNode, description: "cannot remove \(id): the forest holds no such node")
    }
    let changes = ChangeSet(
      subtree(of: id).map { Change(id: $0, old: placement(of: $0), new: nil) })
    try apply(changes)
    return changes
  }

  /// A change of a node, as change sets hold it.
  public typealias Change = ChangeSet.Change
}
