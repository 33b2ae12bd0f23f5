extension OrderedForest {
  /// Traps with a message when the forest's internal structure is broken.
  ///
  /// Every mutation runs it in debug builds. It checks that the id map and the slots agree,
  /// every parent exists, there is no cycle, every node is in exactly one sibling list (its
  /// parent's), and sibling keys strictly increase.
  ///
  /// - Complexity: O(*n* · *m*), where *n* is the number of nodes and *m* the key length.
  public func checkInvariants() {
    if let violation = firstInvariantViolation() {
      preconditionFailure("OrderedForest invariant broken: \(violation)")
    }
  }

  /// The first broken invariant, described, or `nil` when the forest is sound.
  package func firstInvariantViolation() -> String? {
    let count = ids.count
    guard parents.count == count, keys.count == count, prefixes.count == count,
      childLists.count == count, slotOf.count == count
    else {
      return "the slot arrays and the id map have different sizes"
    }
    for slot in 0..<count {
      guard slotOf[ids[slot]] == slot else { return "the id map does not point at \(ids[slot])" }
      guard prefixes[slot] == Self.keyPrefix(keys[slot]) else {
        return "the key prefix of \(ids[slot]) is stale"
      }
      let parent = parents[slot]
      guard parent >= -1 && parent < count && parent != slot else {
        return "\(ids[slot]) has an invalid parent slot \(parent)"
      }
    }
    // Every node is reached once from the roots, through lists that agree with the parents.
    var seen = [Bool](repeating: false, count: count)
    var reached = 0
    var stack: [(list: Int, slot: Int)] = []
    func visit(_ list: [Int], parent: Int) -> String? {
      for (index, slot) in list.enumerated() {
        guard slot >= 0 && slot < count else { return "a sibling list holds slot \(slot)" }
        guard parents[slot] == parent else {
          return "\(ids[slot]) is listed under the wrong parent"
        }
        guard !seen[slot] else { return "\(ids[slot]) is reached twice (a cycle)" }
        if index > 0 && !(keys[list[index - 1]] < keys[slot]) {
          return
            "sibling keys do not increase: \(ids[list[index - 1]]) at \(keys[list[index - 1]]) before \(ids[slot]) at \(keys[slot])"
        }
        seen[slot] = true
        reached += 1
        stack.append((slot, slot))
      }
      return nil
    }
    if let problem = visit(rootList, parent: -1) { return problem }
    while let (list, _) = stack.popLast() {
      if let problem = visit(childLists[list], parent: list) { return problem }
    }
    guard reached == count else {
      return "\(count - reached) nodes are not reachable from the roots (a cycle)"
    }
    return nil
  }
}
