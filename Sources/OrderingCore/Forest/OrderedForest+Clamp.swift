// Clamping: when a clamping rule refuses the place a move asked for, the move goes to the
// nearest place that passes every check instead.
//
// Every place in a forest is a gap between siblings. Listed in preorder they form one line
// that follows the rows on screen: under a parent P with children c0 … ck-1 the places are
//
//   (P, 0)  places inside c0  (P, 1)  places inside c1  …  (P, k)
//
// so the place right after the last row of a subtree is at that subtree's level, and the
// distance between two places is how many places lie between them on that line. Moved
// subtrees are skipped, and the gaps on either side of a moved node count as one place.
// The search steps outward one place at a time, the earlier place first on a tie.

extension OrderedForest {
  /// The nearest gap to `start` that passes depth and rules, within the search limit.
  @inlinable
  func nearestAllowedGap(from start: Gap, _ movers: Movers, _ heights: [Int]) -> Gap? {
    var backward: Gap? = start
    var forward: Gap? = start
    for _ in 0..<constraints.clampSearchLimit {
      if let gap = backward {
        backward = step(backFrom: gap, movers)
        if let candidate = backward, check(candidate, movers, heights) == nil { return candidate }
      }
      if let gap = forward {
        forward = step(forwardFrom: gap, movers)
        if let candidate = forward, check(candidate, movers, heights) == nil { return candidate }
      }
      if backward == nil && forward == nil { return nil }
    }
    return nil
  }

  /// The next place after `gap` in preorder, skipping moved subtrees.
  @inlinable
  func step(forwardFrom gap: Gap, _ movers: Movers) -> Gap? {
    var gap = gap
    while true {
      let list = siblingSlots(under: gap.parent)
      if gap.index < list.count {
        let child = list[gap.index]
        // Both sides of a moved node are one place: step over it and keep going.
        if movers.contains(child) {
          gap.index += 1
          continue
        }
        return Gap(parent: child, index: 0)
      }
      guard gap.parent >= 0 else { return nil }
      return Gap(parent: parentSlot(gap.parent), index: siblingPosition(of: gap.parent) + 1)
    }
  }

  /// The place before `gap` in preorder, skipping moved subtrees.
  @inlinable
  func step(backFrom gap: Gap, _ movers: Movers) -> Gap? {
    var gap = gap
    while true {
      let list = siblingSlots(under: gap.parent)
      if gap.index > 0 {
        let child = list[gap.index - 1]
        if movers.contains(child) {
          gap.index -= 1
          continue
        }
        return Gap(parent: child, index: childCount(ofSlot: child))
      }
      guard gap.parent >= 0 else { return nil }
      return Gap(parent: parentSlot(gap.parent), index: siblingPosition(of: gap.parent))
    }
  }
}
