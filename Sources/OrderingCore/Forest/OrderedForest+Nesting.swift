// Indent and outdent: the keyboard and VoiceOver ways to nest and un-nest, one node or a
// selection.

extension OrderedForest {
  /// Makes a node the last child of its previous sibling: the keyboard and VoiceOver way to
  /// nest.
  ///
  /// - Parameter id: The node to indent.
  /// - Returns: The changed node.
  /// - Throws: `Refusal.Reason.noPreviousSibling` when the node is first among its
  ///   siblings, or any refusal of `move(_:to:)`.
  /// - Complexity: That of `move(_:to:)`.
  @inlinable
  @discardableResult
  public mutating func indent(_ id: ID) throws(Refusal) -> ChangeSet {
    guard let slot = slotOf(id) else {
      throw Refusal(.unknownNode(id), request: Request(.indent, nodes: [id], destination: nil))
    }
    let position = siblingPosition(of: slot)
    guard position > 0 else {
      throw Refusal(
        .noPreviousSibling(id), request: Request(.indent, nodes: [id], destination: nil))
    }
    // The slots are known: plan at the slot level instead of looking the ids up again. The
    // previous sibling is never inside the node's own subtree.
    let previous = self.slot(at: position - 1, under: parentSlot(slot))
    let gap = Gap(parent: previous, index: childCount(ofSlot: previous))
    let destination = Destination.lastChild(of: nodes[previous].id)
    return try moveSlot(slot, to: .gap(gap, target: nil), knownPosition: position) { reason in
      Refusal(reason, request: Request(.indent, nodes: [id], destination: destination))
    }
  }

  /// Makes a node the next sibling of its parent: the keyboard and VoiceOver way to un-nest.
  ///
  /// The node's later siblings stay under the old parent.
  ///
  /// - Parameter id: The node to outdent.
  /// - Returns: The changed node.
  /// - Throws: `Refusal.Reason.alreadyRoot` for a root, or any refusal of
  ///   `move(_:to:)`.
  /// - Complexity: That of `move(_:to:)`.
  @inlinable
  @discardableResult
  public mutating func outdent(_ id: ID) throws(Refusal) -> ChangeSet {
    guard let slot = slotOf(id) else {
      throw Refusal(.unknownNode(id), request: Request(.outdent, nodes: [id], destination: nil))
    }
    let parent = parentSlot(slot)
    guard parent != Self.rootLevel else {
      throw Refusal(.alreadyRoot(id), request: Request(.outdent, nodes: [id], destination: nil))
    }
    // The grandparent level, right after the parent: never inside the node's own subtree.
    let gap = Gap(parent: parentSlot(parent), index: siblingPosition(of: parent) + 1)
    let destination = Destination.after(nodes[parent].id)
    return try moveSlot(slot, to: .gap(gap, target: nil)) { reason in
      Refusal(reason, request: Request(.outdent, nodes: [id], destination: destination))
    }
  }

  /// Indents a selection: each run of selected siblings becomes the last children of the
  /// sibling right before the run, in order.
  ///
  /// A selected node inside another selected node's subtree travels with it. All or
  /// nothing: when one node cannot be indented (it is first among its siblings, or a depth
  /// limit or rule refuses), nothing changes and the refusal names that node's reason with
  /// the whole request.
  ///
  /// ```swift
  /// // a b c d  →  a(b c) d   (b and c selected)
  /// try forest.indent(["b", "c"])
  /// ```
  ///
  /// - Parameter ids: The selected nodes, in any order.
  /// - Returns: The changed nodes, each listed once.
  /// - Throws: ``Refusal/Reason/emptySelection``, ``Refusal/Reason/unknownNode(_:)``, or a
  ///   refusal of `indent(_:)`.
  /// - Complexity: O(*t* · (*d* · log *k* · *m* + *k*) + *t* log *t*) for *t* selected
  ///   nodes.
  @inlinable
  @discardableResult
  public mutating func indent(_ ids: some Sequence<ID>) throws(Refusal) -> ChangeSet {
    // In preorder, each indent leaves the next node of its run right after the same
    // previous sibling, so one indent after another builds the run under it in order.
    try nestSelection(.indent, ids, reversed: false) { (forest, id) throws(Refusal) in
      try forest.indent(id)
    }
  }

  /// Outdents a selection: each selected node becomes a sibling of its parent, right after
  /// it, the selected nodes from one parent keeping their order.
  ///
  /// A selected node inside another selected node's subtree travels with it. All or
  /// nothing, as for indenting a selection.
  ///
  /// - Parameter ids: The selected nodes, in any order.
  /// - Returns: The changed nodes, each listed once.
  /// - Throws: ``Refusal/Reason/emptySelection``, ``Refusal/Reason/unknownNode(_:)``, or a
  ///   refusal of `outdent(_:)`.
  /// - Complexity: O(*t* · (*d* · log *k* · *m* + *k*) + *t* log *t*) for *t* selected
  ///   nodes.
  @inlinable
  @discardableResult
  public mutating func outdent(_ ids: some Sequence<ID>) throws(Refusal) -> ChangeSet {
    // Last first: each outdent puts its node right after the parent, before the ones
    // outdented already, so the selection keeps its order there.
    try nestSelection(.outdent, ids, reversed: true) { (forest, id) throws(Refusal) in
      try forest.outdent(id)
    }
  }

  /// Indents or outdents the tops of a selection one by one, in preorder or its reverse;
  /// undoes the ones done when one is refused.
  @inlinable
  mutating func nestSelection(
    _ operation: Request.Operation, _ ids: some Sequence<ID>, reversed: Bool,
    _ step: (inout OrderedForest, ID) throws(Refusal) -> ChangeSet
  ) throws(Refusal) -> ChangeSet {
    let request = Request(operation, nodes: Array(ids), destination: nil)
    guard !request.nodes.isEmpty else { throw Refusal(.emptySelection, request: request) }
    var selected: [Int] = []
    for id in request.nodes {
      guard let slot = slotOf(id) else { throw Refusal(.unknownNode(id), request: request) }
      selected.append(slot)
    }
    let tops = topsInPreorder(selected).map { nodes[$0].id }
    var changes: [Change] = []
    for id in reversed ? tops.reversed() : tops {
      do {
        changes += try step(&self, id).changes
      } catch {
        // Put back what the earlier steps moved, newest first.
        do {
          try apply(ChangeSet(changes).inverted)
        } catch {
          preconditionFailure("undoing a refused \(operation.rawValue) failed: \(error)")
        }
        throw Refusal(error.reason, request: request)
      }
    }
    return ChangeSet(changes)
  }
}
