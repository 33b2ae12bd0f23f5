// The public moves of nodes with their subtrees, and the one path every move of a single
// node takes.

extension OrderedForest {
  /// Where a move would put its nodes, as `resolve(_:to:)` reports it before the move.
  public struct ResolvedMove: Hashable, Sendable {
    /// The nodes that move with their subtrees, in the order they will stand (preorder of
    /// the forest before the move); selected nodes inside another selected node's subtree
    /// travel with it and are not listed.
    public var nodes: [ID]
    /// Their new parent, or `nil` for the root level.
    public var parent: ID?
    /// The index of the first of them among their new siblings.
    public var index: Int
    /// Their new depth: 0 at the root level.
    public var depth: Int
    /// The name of the clamping rule that moved the place from the one asked for, or `nil`
    /// when the nodes go where they were asked to.
    public var clampedBy: String?
    /// Whether the nodes already stand there, so the move changes nothing.
    public var changesNothing: Bool

    @inlinable
    init(
      nodes: [ID], parent: ID?, index: Int, depth: Int, clampedBy: String?, changesNothing: Bool
    ) {
      self.nodes = nodes
      self.parent = parent
      self.index = index
      self.depth = depth
      self.clampedBy = clampedBy
      self.changesNothing = changesNothing
    }
  }

  /// Moves a node with its subtree.
  ///
  /// The node gets a key from `OrderKey.between` of its new neighbours; nothing else
  /// changes. A move to where the node already is changes nothing and returns an empty
  /// change set.
  ///
  /// ```swift
  /// try forest.move("book", to: .before("pack"))
  /// try forest.move("book", to: .lastChild(of: "trip"))
  /// try forest.move("book", to: .root(at: 0))
  /// ```
  ///
  /// - Parameters:
  ///   - id: The node to move.
  ///   - destination: Where it goes.
  /// - Returns: The changed node with its old and new placement.
  /// - Throws: A ``Refusal`` (the forest unchanged) when a node is unknown, the destination
  ///   is inside the node's subtree, a root index is out of range, the subtree would be
  ///   deeper than ``Constraints/maximumDepth``, or a ``Rule`` refuses.
  /// - Complexity: O(*d* + log *k* · *m* + *k*) without a depth limit, where *d* is the
  ///   destination's depth, *k* the number of siblings there and *m* the key length (the
  ///   *k* term is the shift of the sibling array); plus O(*s*) for the subtree's height when
  ///   a maximum depth is set, and O(*p* · (*d* + *r*)) when a clamping rule searches *p*
  ///   places with *r* rules.
  @inlinable
  @discardableResult
  public mutating func move(_ id: ID, to destination: Destination) throws(Refusal) -> ChangeSet {
    // Both ids at once: their table and record reads overlap instead of queueing.
    let (found, anchorSlot) = slotsOf(id, destination.anchor)
    // The request is made only for a refusal, keeping the common path free of allocations.
    func refuse(_ reason: Refusal.Reason) -> Refusal {
      Refusal(reason, request: Request(.move, nodes: [id], destination: destination))
    }
    guard let slot = found else { throw refuse(.unknownNode(id)) }
    let place = place(of: destination, Movers(Slots(single: slot)), anchorSlot: anchorSlot)
    return try moveSlot(slot, to: place, refuse: refuse)
  }

  /// Moves several selected nodes with their subtrees to one place.
  ///
  /// A selected node whose ancestor is also selected travels with that ancestor. The others
  /// stand side by side at the destination in the order they had in the forest (preorder),
  /// whatever the order of `ids`. Every moved node is checked (depth, rules) at its place.
  ///
  /// ```swift
  /// try forest.move(["pack", "book", "tickets"], to: .lastChild(of: "done"))
  /// ```
  ///
  /// - Parameters:
  ///   - ids: The selected nodes.
  ///   - destination: Where they go; it may name a selected node (`.after(x)` with `x`
  ///     selected places them where `x` would go), but not a node inside a selected subtree.
  /// - Returns: The changed nodes with their old and new placements.
  /// - Throws: A ``Refusal`` as for `move(_:to:)`, or
  ///   ``Refusal/Reason/emptySelection``.
  /// - Complexity: O(*s* · (*d* · log *k* · *m*) + *s* log *s*) for *s* selected nodes,
  ///   plus the costs of a single move.
  @inlinable
  @discardableResult
  public mutating func move(_ ids: some Sequence<ID>, to destination: Destination)
    throws(Refusal) -> ChangeSet
  {
    let plan = try plan(.move, ids, destination)
    return perform(plan)
  }

  /// Checks a move without making it: where the nodes would go, or why they cannot.
  ///
  /// A drag-and-drop UI calls this while the pointer hovers (to draw the insertion line at
  /// the clamped place, or the invalid tint) and `move(_:to:)` on drop; both give
  /// the same answer for the same forest.
  ///
  /// - Parameters:
  ///   - ids: The nodes to move.
  ///   - destination: Where they would go.
  /// - Returns: The place, or the refusal `move(_:to:)` would throw.
  /// - Complexity: That of `move(_:to:)`, without the mutation.
  @inlinable
  public func resolve(_ ids: some Sequence<ID>, to destination: Destination) -> Result<
    ResolvedMove, Refusal
  > {
    Result { () throws(Refusal) in try describe(plan(.move, ids, destination)) }
  }

  /// Checks a move of one node without making it.
  ///
  /// - Complexity: That of `move(_:to:)`, without the mutation.
  @inlinable
  public func resolve(_ id: ID, to destination: Destination) -> Result<ResolvedMove, Refusal> {
    resolve(CollectionOfOne(id), to: destination)
  }

  /// Moves one node whose slot is known to a place: the one path of every move of a single
  /// node (`move(_:to:)`, `indent(_:)`, `outdent(_:)`).
  ///
  /// The checks are the planner's, in its order (see `plan(_:_:to:refuse:)`); a plan of one
  /// node is then performed with one sibling search in each list.
  ///
  /// - Parameters:
  ///   - place: Where the destination points, or why it names no place.
  ///   - knownPosition: The node's index among its siblings, when the caller found it.
  ///   - refuse: Makes the refusal of a reason, with the request as the caller named it.
  @inlinable
  mutating func moveSlot(
    _ slot: Int, to place: Place, knownPosition: Int? = nil,
    refuse: (Refusal.Reason) -> Refusal
  ) throws(Refusal) -> ChangeSet {
    // With no depth limit and no rules, the planner's checks come down to the place and
    // the walk up from it; done here, they build no movers, plan or checked result.
    if constraints.asksNothing, case .gap(let gap, let target) = place {
      if let target, let reason = intoOwnSubtree(of: slot, at: gap, target: target) {
        throw refuse(reason)
      }
      return performSingle(slot, gap, knownPosition: knownPosition)
    }
    let plan = try plan(Movers(Slots(single: slot)), .move, to: place, refuse: refuse)
    return performSingle(slot, plan.gap, knownPosition: knownPosition)
  }

  /// Why a gap is inside the subtree of `slot`, or `nil`: `intoOwnSubtree(_:at:target:)`
  /// for one moved node.
  ///
  /// - Complexity: O(*d*), where *d* is the depth of the gap's parent.
  @inlinable
  @inline(__always)
  func intoOwnSubtree(of slot: Int, at gap: Gap, target: ID) -> Refusal.Reason? {
    // A leaf's subtree is the leaf alone: only its own gaps are inside it.
    if childCount(ofSlot: slot) == 0 {
      return gap.parent == slot ? .intoOwnSubtree(node: nodes[slot].id, target: target) : nil
    }
    var current = gap.parent
    while current >= 0 {
      if current == slot { return .intoOwnSubtree(node: nodes[slot].id, target: target) }
      current = parentSlot(current)
    }
    return nil
  }
}
