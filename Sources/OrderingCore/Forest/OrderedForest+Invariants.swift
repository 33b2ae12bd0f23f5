extension OrderedForest {
  /// Traps with a message when the forest's internal structure is broken.
  ///
  /// Every mutation runs it in debug builds. It checks that the id table and the slots
  /// agree, every key prefix is current, every sibling run lies in the pool with no cell
  /// owned twice and the garbage count right, every parent exists, there is no cycle, every
  /// node is in exactly one sibling list (its parent's), and sibling keys strictly increase.
  ///
  /// - Complexity: O(*n* · *m*), where *n* is the number of nodes and *m* the key length.
  public func checkInvariants() {
    if let violation = firstInvariantViolation() {
      preconditionFailure("OrderedForest invariant broken: \(violation)")
    }
  }

  /// The first broken invariant, described, or `nil` when the forest is sound.
  package func firstInvariantViolation() -> String? {
    let count = nodes.count
    guard keys.count == count else { return "the records and the keys have different sizes" }
    // The id table and the pool, each by its own invariants.
    if let violation = nodes.withUnsafeBufferPointer({ nodes in
      table.invariantViolation(count: count) { nodes[$0].id }
    }) {
      return violation
    }
    if let violation = pool.invariantViolation(runs: allRuns) { return violation }
    for slot in 0..<count {
      let id = nodes[slot].id
      guard slotOf(id) == slot else { return "the id table does not point at \(id)" }
      guard nodes[slot].prefix == keys[slot].prefix else {
        return "the key prefix of \(id) is stale"
      }
      let parent = parentSlot(slot)
      guard parent >= Self.rootLevel && parent < count && parent != slot else {
        return "\(id) has an invalid parent slot \(parent)"
      }
    }
    // Every node is reached once from the roots, through lists that agree with the parents.
    var seen = [Bool](repeating: false, count: count)
    var reached = 0
    var stack: [Int] = []
    func visit(_ list: SlotList, parent: Int) -> String? {
      for (index, slot) in list.enumerated() {
        guard slot >= 0 && slot < count else { return "a sibling list holds slot \(slot)" }
        let id = nodes[slot].id
        guard parentSlot(slot) == parent else { return "\(id) is listed under the wrong parent" }
        guard !seen[slot] else { return "\(id) is reached twice (a cycle)" }
        if index > 0 && !(keys[list[index - 1]] < keys[slot]) {
          let previous = list[index - 1]
          return
            "sibling keys do not increase: \(nodes[previous].id) at \(keys[previous]) before \(id) at \(keys[slot])"
        }
        seen[slot] = true
        reached += 1
        stack.append(slot)
      }
      return nil
    }
    if let problem = visit(siblingSlots(under: Self.rootLevel), parent: Self.rootLevel) {
      return problem
    }
    while let slot = stack.popLast() {
      if let problem = visit(childSlots(slot), parent: slot) { return problem }
    }
    guard reached == count else {
      return "\(count - reached) nodes are not reachable from the roots (a cycle)"
    }
    return nil
  }
}
