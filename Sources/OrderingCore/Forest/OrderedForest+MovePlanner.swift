// The move planner: from a request (nodes and a destination) to a checked plan (the moved
// subtrees' tops and a gap), or the refusal that says why not. Every move, insert, indent
// and outdent is checked here, in one order: unknown nodes, unmovable nodes, the place,
// moves into a moved subtree, depth, then the rules (with clamping).

extension OrderedForest {
  /// A place between siblings: the parent slot (``rootLevel`` for the roots) and a gap index in its
  /// full sibling list (moved nodes included).
  @usableFromInline
  struct Gap: Hashable {
    @usableFromInline
    var parent: Int
    @usableFromInline
    var index: Int

    @inlinable
    init(parent: Int, index: Int) {
      self.parent = parent
      self.index = index
    }
  }

  /// Slots in a fixed order, the first held inline: a move of one node carries its slot
  /// without allocating an array.
  @usableFromInline
  struct Slots: RandomAccessCollection {
    @usableFromInline
    var head: Int
    @usableFromInline
    var tail: [Int]

    /// One slot.
    @inlinable
    init(single slot: Int) {
      head = slot
      tail = []
    }

    /// Several slots; `slots` is not empty.
    @inlinable
    init(_ slots: [Int]) {
      precondition(!slots.isEmpty, "a move carries at least one node")
      head = slots[0]
      tail = Array(slots.dropFirst())
    }

    @inlinable
    var startIndex: Int { 0 }

    @inlinable
    var endIndex: Int { 1 + tail.count }

    @inlinable
    subscript(position: Int) -> Int { position == 0 ? head : tail[position - 1] }
  }

  /// The nodes a move carries: the top-level moved slots, in preorder.
  @usableFromInline
  struct Movers {
    @usableFromInline
    var tops: Slots
    @usableFromInline
    var set: Set<Int>

    @inlinable
    init(_ tops: Slots) {
      self.tops = tops
      self.set = tops.count > 8 ? Set(tops) : []
    }

    @inlinable
    @inline(__always)
    func contains(_ slot: Int) -> Bool {
      tops.tail.isEmpty
        ? tops.head == slot : tops.count > 8 ? set.contains(slot) : tops.contains(slot)
    }
  }

  /// A checked move, ready to perform.
  @usableFromInline
  struct MovePlan {
    @usableFromInline
    var movers: Movers
    @usableFromInline
    var gap: Gap
    @usableFromInline
    var clampedBy: String?

    @inlinable
    init(movers: Movers, gap: Gap, clampedBy: String?) {
      self.movers = movers
      self.gap = gap
      self.clampedBy = clampedBy
    }
  }

  /// Checks a request and finds the place it goes to.
  @inlinable
  func plan(
    _ operation: Request.Operation, _ nodes: some Sequence<ID>, _ destination: Destination
  ) throws(Refusal) -> MovePlan {
    // The request is made only for a refusal, keeping the common path free of allocations.
    func refuse(_ reason: Refusal.Reason) -> Refusal {
      Refusal(reason, request: Request(operation, nodes: Array(nodes), destination: destination))
    }
    var iterator = nodes.makeIterator()
    guard let first = iterator.next() else { throw refuse(.emptySelection) }
    let single = iterator.next() == nil
    // The selected slots, then the tops (no selected ancestor), in preorder.
    let movers: Movers
    if single {
      guard let slot = slotOf(first) else { throw refuse(.unknownNode(first)) }
      movers = Movers(Slots(single: slot))
    } else {
      var selected: [Int] = []
      for id in nodes {
        guard let slot = slotOf(id) else { throw refuse(.unknownNode(id)) }
        selected.append(slot)
      }
      movers = Movers(Slots(topsInPreorder(selected)))
    }
    return try plan(movers, operation, to: place(of: destination, movers), refuse: refuse)
  }

  /// Checks resolved movers against a place: the one checking path of every move, insert,
  /// indent and outdent, whether of one node or a selection.
  ///
  /// The order of the checks decides which refusal a request gets when several apply: the
  /// rules' `canMove` (not for an insert, whose node is not in the forest yet), then the
  /// place itself, then a move into a moved subtree, the depth limit and the rules'
  /// `allows` (with clamping).
  ///
  /// - Parameters:
  ///   - place: Where the destination points (computing it has no effect, so a caller may
  ///     do it before the `canMove` check that comes first here).
  ///   - refuse: Makes the refusal of a reason, with the request as the caller named it.
  @inlinable
  func plan(
    _ movers: Movers, _ operation: Request.Operation, to place: Place,
    refuse: (Refusal.Reason) -> Refusal
  ) throws(Refusal) -> MovePlan {
    if operation != .insert, let reason = unmovable(movers) { throw refuse(reason) }
    switch place {
    case .gap(let gap, let target):
      switch checkPlace(movers, at: gap, target: target) {
      case .allowed(let plan): return plan
      case .refused(let reason): throw refuse(reason)
      }
    case .refused(let reason):
      throw refuse(reason)
    }
  }

  /// Where a destination points: a gap and the node it names, or why it names no place.
  @usableFromInline
  enum Place {
    /// The gap, and the node the destination names (`nil` for the root level).
    case gap(Gap, target: ID?)
    /// The destination names no place.
    case refused(Refusal.Reason)
  }

  /// The gap a destination names for these movers.
  @inlinable
  func place(of destination: Destination, _ movers: Movers) -> Place {
    place(of: destination, movers, anchorSlot: destination.anchor.flatMap { slotOf($0) })
  }

  /// The gap a destination names, with the slot of the node it names already looked up
  /// (`nil` when the forest does not hold it).
  @inlinable
  @inline(__always)
  func place(of destination: Destination, _ movers: Movers, anchorSlot: Int?) -> Place {
    switch destination {
    case .before(let anchor), .after(let anchor):
      guard let slot = anchorSlot, parentSlot(slot) != Self.unplaced else {
        return .refused(.unknownNode(anchor))
      }
      let position = siblingPosition(of: slot)
      var isBefore = false
      if case .before = destination { isBefore = true }
      return .gap(
        Gap(parent: parentSlot(slot), index: isBefore ? position : position + 1), target: anchor)
    case .firstChild(let anchor), .lastChild(let anchor):
      guard let slot = anchorSlot, parentSlot(slot) != Self.unplaced else {
        return .refused(.unknownNode(anchor))
      }
      var isFirst = false
      if case .firstChild = destination { isFirst = true }
      return .gap(Gap(parent: slot, index: isFirst ? 0 : childCount(ofSlot: slot)), target: anchor)
    case .root(let index):
      let moverRoots = movers.tops.filter { parentSlot($0) == Self.rootLevel }.map {
        siblingPosition(of: $0)
      }
      .sorted()
      let available = Int(rootRun.count) - moverRoots.count
      guard index >= 0 && index <= available else {
        return .refused(.rootIndexOutOfRange(index: index, rootCount: available))
      }
      var position = index
      for moverPosition in moverRoots where moverPosition <= position { position += 1 }
      return .gap(
        Gap(parent: Self.rootLevel, index: min(position, Int(rootRun.count))), target: nil)
    case .lastRoot:
      return .gap(Gap(parent: Self.rootLevel, index: Int(rootRun.count)), target: nil)
    }
  }

  /// A checked place, or why it is refused; the caller knows the request.
  @usableFromInline
  enum Checked {
    case allowed(MovePlan)
    case refused(Refusal.Reason)
  }

  /// Why the moved nodes may not move at all, or `nil` when every rule lets them.
  @inlinable
  func unmovable(_ movers: Movers) -> Refusal.Reason? {
    for rule in constraints.rules {
      for top in movers.tops {
        if case .refuse(let reason) = rule.canMove(nodes[top].id) {
          return .notMovable(node: nodes[top].id, rule: rule.name, reason: reason)
        }
      }
    }
    return nil
  }

  /// Checks resolved movers at a resolved gap: not into a moved subtree, depth and rules,
  /// clamping where a rule says so.
  ///
  /// - Parameter target: The node the destination names, for the message of a move into a
  ///   moved subtree; `nil` skips that check, for places that cannot be inside one (the
  ///   roots, an indent's previous sibling, an outdent's grandparent).
  @inlinable
  func checkPlace(_ movers: Movers, at gap: Gap, target: ID?) -> Checked {
    // Not inside a moved subtree. A moved leaf's subtree is the leaf alone, so only a
    // subtree with children needs the walk up from the place.
    if let target, let reason = intoOwnSubtree(movers, at: gap, target: target) {
      return .refused(reason)
    }
    // Heights matter only up to the limit: past it, every place is too deep.
    let heights: [Int] =
      constraints.maximumDepth.map { limit in
        movers.tops.map { height(ofSlot: $0, cappedAt: limit + 1) }
      } ?? []
    switch check(gap, movers, heights) {
    case nil:
      return .allowed(MovePlan(movers: movers, gap: gap, clampedBy: nil))
    case .some((let reason, let clampingRule)):
      guard let clampingRule else { return .refused(reason) }
      guard let found = nearestAllowedGap(from: gap, movers, heights) else {
        guard case .ruleRefused(let node, let rule, let text) = reason else {
          return .refused(reason)
        }
        return .refused(.noAllowedPlace(node: node, rule: rule, reason: text))
      }
      return .allowed(MovePlan(movers: movers, gap: found, clampedBy: clampingRule))
    }
  }

  /// Why the gap is inside a moved subtree, or `nil` when it is not.
  ///
  /// A moved leaf's subtree is the leaf alone, so only a subtree with children needs the
  /// walk up from the place.
  ///
  /// - Complexity: O(*d*), where *d* is the depth of the gap's parent.
  @inlinable
  @inline(__always)
  func intoOwnSubtree(_ movers: Movers, at gap: Gap, target: ID) -> Refusal.Reason? {
    let onlyLeaves = movers.tops.allSatisfy { childCount(ofSlot: $0) == 0 }
    var current = gap.parent
    while current >= 0 {
      if movers.contains(current) {
        return .intoOwnSubtree(node: nodes[current].id, target: target)
      }
      if onlyLeaves { break }
      current = parentSlot(current)
    }
    return nil
  }

  /// The selected slots without those inside another selected subtree, in preorder.
  @inlinable
  func topsInPreorder(_ selected: [Int]) -> [Int] {
    if selected.count == 1 { return selected }
    let set = Set(selected)
    var seen = Set<Int>()
    var tops: [Int] = []
    for slot in selected where seen.insert(slot).inserted {
      var current = parentSlot(slot)
      var inside = false
      while current >= 0 {
        if set.contains(current) {
          inside = true
          break
        }
        current = parentSlot(current)
      }
      if !inside { tops.append(slot) }
    }
    // Preorder: compare the paths of sibling positions from the root.
    let paths = tops.map { slot -> [Int] in
      var path: [Int] = []
      var current = slot
      while current >= 0 {
        path.append(siblingPosition(of: current))
        current = parentSlot(current)
      }
      return path.reversed()
    }
    return zip(tops, paths).sorted { $0.1.lexicographicallyPrecedes($1.1) }.map(\.0)
  }

  /// The neighbours of a gap, ignoring moved nodes: the effective index and the sibling
  /// slots before and after.
  @inlinable
  func neighbours(of gap: Gap, _ movers: Movers) -> (index: Int, previous: Int?, next: Int?) {
    let list = siblingSlots(under: gap.parent)
    var before = gap.index - 1
    while before >= 0 && movers.contains(list[before]) { before -= 1 }
    var after = gap.index
    while after < list.count && movers.contains(list[after]) { after += 1 }
    var index = gap.index
    for top in movers.tops
    where parentSlot(top) == gap.parent && siblingPosition(of: top) < gap.index {
      index -= 1
    }
    return (index, before >= 0 ? list[before] : nil, after < list.count ? list[after] : nil)
  }

  /// Checks depth and rules at a gap: `nil` when allowed, else the reason and the name of
  /// the rule when that rule clamps.
  @inlinable
  func check(_ gap: Gap, _ movers: Movers, _ heights: [Int]) -> (Refusal.Reason, String?)? {
    if constraints.asksNothing { return nil }
    let depth = depth(under: gap.parent)
    if let limit = constraints.maximumDepth {
      for (top, capped) in zip(movers.tops, heights) where depth + capped > limit {
        // The height was capped: measure it fully for the message.
        let reached = depth + height(ofSlot: top)
        return (.tooDeep(node: nodes[top].id, depth: reached, limit: limit), nil)
      }
    }
    if constraints.rules.isEmpty { return nil }
    let (index, previous, next) = neighbours(of: gap, movers)
    let parent = parentID(gap.parent)
    let tops = movers.tops
    for rule in constraints.rules {
      for (offset, top) in tops.enumerated() {
        let proposal = Rule.Proposal(
          node: nodes[top].id, parent: parent, index: index + offset,
          previousSibling: offset == 0 ? previous.map { nodes[$0].id } : nodes[tops[offset - 1]].id,
          nextSibling: offset == tops.count - 1
            ? next.map { nodes[$0].id } : nodes[tops[offset + 1]].id,
          depth: depth)
        if case .refuse(let reason) = rule.allows(proposal, in: self) {
          return (
            .ruleRefused(node: nodes[top].id, rule: rule.name, reason: reason),
            rule.resolution == .clamp ? rule.name : nil
          )
        }
      }
    }
    return nil
  }
}
