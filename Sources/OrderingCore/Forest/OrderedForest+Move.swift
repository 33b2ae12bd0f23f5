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

  /// A place between siblings: the parent slot (-1 for the roots) and a gap index in its
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

  // MARK: Public operations

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
    // Without rules or a depth limit only the place and the cycle are checked: a path that
    // skips the planner's selection handling, clamping and rule calls.
    guard constraints.asksNothing else {
      return try move(CollectionOfOne(id), to: destination)
    }
    // Both ids at once: their table and record reads overlap instead of queueing.
    let (found, anchorSlot) = slotsOf(id, destination.anchor)
    guard let slot = found else {
      throw Refusal(
        .unknownNode(id), request: Request(.move, nodes: [id], destination: destination))
    }
    let movers = Movers(Slots(single: slot))
    let reason: Refusal.Reason
    switch place(of: destination, movers, anchorSlot: anchorSlot) {
    case .gap(let gap, let target):
      guard let target, let cycle = intoOwnSubtree(movers, at: gap, target: target) else {
        return performSingle(slot, gap)
      }
      reason = cycle
    case .refused(let refusal):
      reason = refusal
    }
    throw Refusal(reason, request: Request(.move, nodes: [id], destination: destination))
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
    // The slots are known: plan at the slot level instead of looking the ids up again.
    let previous = self.slot(at: position - 1, under: parentSlot(slot))
    return try moveSlot(
      slot, .indent, to: Gap(parent: previous, index: childCount(ofSlot: previous)),
      named: .lastChild(of: nodes[previous].id), knownPosition: position)
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
    guard parent >= 0 else {
      throw Refusal(.alreadyRoot(id), request: Request(.outdent, nodes: [id], destination: nil))
    }
    return try moveSlot(
      slot, .outdent, to: Gap(parent: parentSlot(parent), index: siblingPosition(of: parent) + 1),
      named: .after(nodes[parent].id))
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

  /// Moves one node whose slot and place are already resolved: indent and outdent.
  ///
  /// The place is never inside the node's own subtree (a previous sibling, or the
  /// grandparent level), so there is no cycle check; rules and depth are asked as for any
  /// move.
  ///
  /// - Parameters:
  ///   - operation: The operation, for a refusal's request.
  ///   - destination: The place as the caller would name it, for a refusal's request.
  ///   - knownPosition: The node's index among its siblings, when the caller found it.
  @inlinable
  mutating func moveSlot(
    _ slot: Int, _ operation: Request.Operation, to gap: Gap, named destination: Destination,
    knownPosition: Int? = nil
  ) throws(Refusal) -> ChangeSet {
    func refuse(_ reason: Refusal.Reason) -> Refusal {
      Refusal(
        reason, request: Request(operation, nodes: [nodes[slot].id], destination: destination))
    }
    // Without rules or a depth limit there is nothing to ask.
    if constraints.asksNothing {
      return performSingle(slot, gap, knownPosition: knownPosition)
    }
    let movers = Movers(Slots(single: slot))
    if let reason = unmovable(movers) { throw refuse(reason) }
    switch plan(movers, at: gap, target: nil) {
    case .allowed(let plan): return performSingle(slot, plan.gap, knownPosition: knownPosition)
    case .refused(let reason): throw refuse(reason)
    }
  }

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
    // A detached slot (parent -2) stands for the new node while the move is planned.
    let slot = appendSlot(id, key: .first)
    nodes[slot].parent = -2
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

  // MARK: Planning

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
    if operation != .insert, let reason = unmovable(movers) { throw refuse(reason) }
    let gap: Gap
    let target: ID?
    switch place(of: destination, movers) {
    case .gap(let found, let named):
      gap = found
      target = named
    case .refused(let reason):
      throw refuse(reason)
    }
    switch plan(movers, at: gap, target: target) {
    case .allowed(let plan): return plan
    case .refused(let reason): throw refuse(reason)
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
      guard let slot = anchorSlot, parentSlot(slot) != -2 else {
        return .refused(.unknownNode(anchor))
      }
      let position = siblingPosition(of: slot)
      var isBefore = false
      if case .before = destination { isBefore = true }
      return .gap(
        Gap(parent: parentSlot(slot), index: isBefore ? position : position + 1), target: anchor)
    case .firstChild(let anchor), .lastChild(let anchor):
      guard let slot = anchorSlot, parentSlot(slot) != -2 else {
        return .refused(.unknownNode(anchor))
      }
      var isFirst = false
      if case .firstChild = destination { isFirst = true }
      return .gap(Gap(parent: slot, index: isFirst ? 0 : childCount(ofSlot: slot)), target: anchor)
    case .root(let index):
      let moverRoots = movers.tops.filter { parentSlot($0) == -1 }.map { siblingPosition(of: $0) }
        .sorted()
      let available = Int(rootRun.count) - moverRoots.count
      guard index >= 0 && index <= available else {
        return .refused(.rootIndexOutOfRange(index: index, rootCount: available))
      }
      var position = index
      for moverPosition in moverRoots where moverPosition <= position { position += 1 }
      return .gap(Gap(parent: -1, index: min(position, Int(rootRun.count))), target: nil)
    case .lastRoot:
      return .gap(Gap(parent: -1, index: Int(rootRun.count)), target: nil)
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
  func plan(_ movers: Movers, at gap: Gap, target: ID?) -> Checked {
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
    let depth = gap.parent < 0 ? 0 : depth(ofSlot: gap.parent) + 1
    if let limit = constraints.maximumDepth {
      for (top, capped) in zip(movers.tops, heights) where depth + capped > limit {
        // The height was capped: measure it fully for the message.
        let reached = depth + height(ofSlot: top)
        return (.tooDeep(node: nodes[top].id, depth: reached, limit: limit), nil)
      }
    }
    if constraints.rules.isEmpty { return nil }
    let (index, previous, next) = neighbours(of: gap, movers)
    let parent = gap.parent < 0 ? nil : nodes[gap.parent].id
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

  // MARK: Performing

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
    let parentID = gap.parent < 0 ? nil : nodes[gap.parent].id
    var changes: [Change] = []
    changes.reserveCapacity(tops.count)
    for (top, key) in zip(tops, newKeys) {
      let oldParent = parentSlot(top)
      let old: Placement? =
        oldParent == -2
        ? nil : Placement(parent: oldParent < 0 ? nil : nodes[oldParent].id, key: keys[top])
      let new = Placement(parent: parentID, key: key)
      // A node of a selection may already stand where it goes, with the same key.
      if old != new { changes.append(Change(id: nodes[top].id, old: old, new: new)) }
      if oldParent != -2 { detach(top) }
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
    var lower = before >= 0 ? keys[Int(pool[start + before])] : nil
    var upper = after < count ? keys[Int(pool[start + after])] : nil
    // The node's index among the siblings it leaves (nil for a new node).
    let oldPosition = oldParent == -2 ? nil : knownPosition ?? siblingPosition(of: top)
    let sameList = oldParent == gap.parent
    if sameList, let oldPosition {
      if gap.index == oldPosition || gap.index == oldPosition + 1 { return ChangeSet() }
      // Step over the node itself.
      if before == oldPosition {
        before -= 1
        lower = before >= 0 ? keys[Int(pool[start + before])] : nil
      }
      if after == oldPosition {
        after += 1
        upper = after < count ? keys[Int(pool[start + after])] : nil
      }
    }
    let (key, prefix) = Self.key(between: lower, upper)
    let old: Placement? =
      oldPosition == nil
      ? nil : Placement(parent: oldParent < 0 ? nil : nodes[oldParent].id, key: keys[top])
    let new = Placement(parent: gap.parent < 0 ? nil : nodes[gap.parent].id, key: key)
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
      parent: plan.gap.parent < 0 ? nil : nodes[plan.gap.parent].id, index: index,
      depth: plan.gap.parent < 0 ? 0 : depth(ofSlot: plan.gap.parent) + 1,
      clampedBy: plan.clampedBy,
      changesNothing: isInPlace(plan, previous: previous, next: next))
  }
}
