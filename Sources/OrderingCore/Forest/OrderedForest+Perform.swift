// Performing a checked plan: new keys from the neighbours, the sibling lists changed, and
// the change set that says so.

extension OrderedForest {

  /// Moves the planned nodes; the plan was checked.
  @inlinable
  mutating func perform(_ plan: MovePlan) -> ChangeSet {
    let gap = plan.gap
    let tops = plan.movers.tops
    // One node is the common case, with its own path; below, a selection of several.
    if tops.count == 1 { return performSingle(tops.head, gap) }
    let (_, previous, next) = neighbours(of: gap, plan.movers)
    if isInPlace(plan, previous: previous, next: next) { return ChangeSet() }
    let lowerKey = previous.map { keys[$0] }
    let upperKey = next.map { keys[$0] }
    let newKeys = Self.keys(tops.count, between: lowerKey, upperKey)
    let newParent = parentID(gap.parent)
    var changes: [Change] = []
    changes.reserveCapacity(tops.count)
    for (top, key) in zip(tops, newKeys) {
      let oldParent = parentSlot(top)
      let old: Placement? =
        oldParent == Self.unplaced
        ? nil : Placement(parent: parentID(oldParent), key: keys[top])
      let new = Placement(parent: newParent, key: key)
      // A node of a selection may already stand where it goes, with the same key.
      if old != new { changes.append(Change(id: nodes[top].id, old: old, new: new)) }
      if oldParent != Self.unplaced { detach(top) }
    }
    for (top, key) in zip(tops, newKeys) { attach(top, under: gap.parent, key: key) }
    checkInvariantsInDebug()
    guard let budget = constraints.keyBudget else { return ChangeSet(changes) }
    return keepingKeysInBudget(ChangeSet(changes), budget: budget)
  }

  /// Moves one planned node: the common case, with one sibling search in each list.
  ///
  /// The node's position in its old list and the gap's place in the new list are known, so
  /// the neighbours, the in-place test, the detach and the attach need no further search.
  ///
  /// - Parameter knownPosition: The node's index among its siblings when the caller found it.
  @inlinable
  mutating func performSingle(_ top: Int, _ gap: Gap, knownPosition: Int? = nil) -> ChangeSet {
    let oldParent = parentSlot(top)
    // The neighbours at the gap and their keys are read before the node's own position is
    // searched: the two chains of reads are independent, so their cache misses overlap.
    let run = run(under: gap.parent)
    let start = Int(run.start)
    let count = Int(run.count)
    var before = gap.index - 1
    var after = gap.index
    var lower = before >= 0 ? keys[Int(pool.cells[start + before])] : nil
    var upper = after < count ? keys[Int(pool.cells[start + after])] : nil
    // The node's index among the siblings it leaves (nil for a new node).
    let oldPosition = oldParent == Self.unplaced ? nil : knownPosition ?? siblingPosition(of: top)
    let sameList = oldParent == gap.parent
    if sameList, let oldPosition {
      if gap.index == oldPosition || gap.index == oldPosition + 1 { return ChangeSet() }
      // Step over the node itself.
      if before == oldPosition {
        before -= 1
        lower = before >= 0 ? keys[Int(pool.cells[start + before])] : nil
      }
      if after == oldPosition {
        after += 1
        upper = after < count ? keys[Int(pool.cells[start + after])] : nil
      }
    }
    let (key, prefix) = Self.key(between: lower, upper)
    let old: Placement? =
      oldPosition == nil
      ? nil : Placement(parent: parentID(oldParent), key: keys[top])
    let new = Placement(parent: parentID(gap.parent), key: key)
    if let oldPosition { detach(top, at: oldPosition) }
    // The gap's index counts the node where it stood; once it is out, one fewer lies before.
    var index = gap.index
    if sameList, let oldPosition, oldPosition < index { index -= 1 }
    attach(top, under: gap.parent, key: key, prefix: prefix, at: index)
    checkInvariantsInDebug()
    let changes = ChangeSet([Change(id: nodes[top].id, old: old, new: new)])
    guard let budget = constraints.keyBudget, key.length > budget else { return changes }
    return keepingKeysInBudget(changes, budget: budget)
  }

  /// Whether the planned nodes already stand, in order, between `previous` and `next`.
  @inlinable
  func isInPlace(_ plan: MovePlan, previous: Int?, next: Int?) -> Bool {
    let tops = plan.movers.tops
    guard tops.allSatisfy({ parentSlot($0) == plan.gap.parent }) else { return false }
    let list = siblingSlots(under: plan.gap.parent)
    let start = previous.map { siblingPosition(of: $0) + 1 } ?? 0
    let end = next.map { siblingPosition(of: $0) } ?? list.count
    return list[start..<end].elementsEqual(tops)
  }

  /// Describes a plan for `resolve(_:to:)`.
  @inlinable
  func describe(_ plan: MovePlan) -> ResolvedMove {
    let (index, previous, next) = neighbours(of: plan.gap, plan.movers)
    return ResolvedMove(
      nodes: plan.movers.tops.map { nodes[$0].id },
      parent: parentID(plan.gap.parent), index: index,
      depth: depth(under: plan.gap.parent),
      clampedBy: plan.clampedBy,
      changesNothing: isInPlace(plan, previous: previous, next: next))
  }
}
