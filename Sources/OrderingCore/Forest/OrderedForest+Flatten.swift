extension OrderedForest {
  /// One row of a flattened forest: a node, its depth and what a row needs to draw it.
  public struct Row: Hashable, Sendable {
    /// The node.
    public var id: ID
    /// Its depth: 0 for a root.
    public var depth: Int
    /// Its parent, or `nil` for a root.
    public var parent: ID?
    /// How many children it has (whether to draw an expand or collapse affordance).
    public var childCount: Int

    /// Creates a row.
    @inlinable
    public init(id: ID, depth: Int, parent: ID?, childCount: Int) {
      self.id = id
      self.depth = depth
      self.parent = parent
      self.childCount = childCount
    }
  }

  /// Every node in preorder (a parent before its children, siblings in order), with depth.
  ///
  /// - Complexity: O(*n*), where *n* is the number of nodes.
  @inlinable
  public func flattened() -> [Row] {
    rows(hidingChildrenOf: nil)
  }

  /// The rows a UI shows when some nodes are collapsed: preorder, without the descendants of
  /// a collapsed node (the collapsed node itself is shown).
  ///
  /// Collapse state is the caller's, not the forest's: it is a view of one window and is
  /// not persisted (two windows on one plan may collapse different rows), and ids in
  /// `collapsed` that the forest does not hold are ignored.
  ///
  /// - Parameter collapsed: The collapsed nodes.
  /// - Complexity: O(*v*), where *v* is the number of visible rows (one set lookup per
  ///   visible row that has children).
  @inlinable
  public func visibleRows(collapsed: Set<ID>) -> [Row] {
    rows(hidingChildrenOf: collapsed)
  }

  /// Preorder rows, skipping the children of the nodes in `collapsed`.
  @inlinable
  func rows(hidingChildrenOf collapsed: Set<ID>?) -> [Row] {
    var result: [Row] = []
    result.reserveCapacity(collapsed == nil ? count : 0)
    var stack: [(slot: Int, depth: Int)] = []
    stack.reserveCapacity(64)
    let rootRun = self.rootRun
    nodes.withUnsafeBufferPointer { nodes in
      pool.cells.withUnsafeBufferPointer { pool in
        var index = Int(rootRun.start) + Int(rootRun.count)
        while index > Int(rootRun.start) {
          index -= 1
          stack.append((Int(pool[index]), 0))
        }
        while let (slot, depth) = stack.popLast() {
          let node = nodes[slot]
          let childCount = Int(node.children.count)
          result.append(
            Row(
              id: node.id, depth: depth, parent: node.parent < 0 ? nil : nodes[Int(node.parent)].id,
              childCount: childCount))
          if childCount == 0 { continue }
          if let collapsed, collapsed.contains(node.id) { continue }
          let start = Int(node.children.start)
          var index = start + childCount
          while index > start {
            index -= 1
            stack.append((Int(pool[index]), depth + 1))
          }
        }
      }
    }
    return result
  }

  /// Turns a plan into a list: every node becomes a root, in preorder.
  ///
  /// The order is the preorder of the plan, so the result is the same on every platform;
  /// keys are spread anew (`a0`, `a1`, …). A list turns back into a plan as it is (a list is
  /// a forest of roots); `init(outline:)` builds a plan from rows with depths.
  ///
  /// - Returns: Every node whose parent or key changed.
  /// - Complexity: O(*n* · *m*), where *n* is the number of nodes and *m* the key length.
  @inlinable
  @discardableResult
  public mutating func convertToList() -> ChangeSet {
    let order = rows(hidingChildrenOf: nil).map { slot($0.id) }
    let newKeys = Self.keys(order.count, between: nil, nil)
    var changes: [Change] = []
    for (slot, key) in zip(order, newKeys) where parentSlot(slot) >= 0 || keys[slot] != key {
      let parent = parentSlot(slot)
      changes.append(
        Change(
          id: nodes[slot].id,
          old: Placement(parent: parent < 0 ? nil : nodes[parent].id, key: keys[slot]),
          new: Placement(parent: nil, key: key)))
    }
    for (slot, key) in zip(order, newKeys) {
      nodes[slot].parent = Int32(Self.rootLevel)
      keys[slot] = key
      nodes[slot].prefix = key.prefix
      nodes[slot].children = Run()
    }
    // One run, the roots, in a new pool.
    pool = RunPool(cells: order.map { Int32($0) })
    rootRun = Run(start: 0, count: order.count, capacity: order.count)
    checkInvariantsInDebug()
    return ChangeSet(changes)
  }

  /// Builds a plan from rows in preorder with depths: the inverse of ``flattened()``.
  ///
  /// A row at depth *d* becomes the last child of the nearest earlier row at depth *d* - 1
  /// (a root at depth 0). Keys are spread anew under each parent.
  ///
  /// ```swift
  /// let plan = try OrderedForest(outline: [
  ///   (id: "trip", depth: 0), (id: "pack", depth: 1), (id: "book", depth: 1),
  /// ])
  /// ```
  ///
  /// - Parameters:
  ///   - outline: The rows: ids with depths, in preorder.
  ///   - constraints: The constraints of the new forest.
  /// - Throws: ``OrderingError/Code/invalidOutline`` when a depth is negative or more than
  ///   one below the previous row's, naming the row; ``OrderingError/Code/duplicateNode``
  ///   when an id appears twice.
  /// - Complexity: O(*n* · *m*), where *n* is the number of rows and *m* the key length.
  @inlinable
  public init(
    outline: some Sequence<(id: ID, depth: Int)>, constraints: Constraints = Constraints()
  ) throws(OrderingError) {
    self.init(constraints: constraints)
    var path: [Int] = []  // The last slot at each depth.
    var previousDepth = -1
    for (row, (id, depth)) in outline.enumerated() {
      guard depth >= 0 && depth <= previousDepth + 1 else {
        throw OrderingError(
          .invalidOutline,
          description:
            "invalid outline: row \(row) (\(id)) has depth \(depth), but it can be 0...\(previousDepth + 1) after the row before it"
        )
      }
      guard slotOf(id) == nil else {
        throw OrderingError(
          .duplicateNode,
          description: "invalid outline: row \(row) repeats the id \(id)")
      }
      let slot = appendSlot(id, key: .first)
      path.removeLast(path.count - depth)
      let parent = path.last ?? Self.rootLevel
      nodes[slot].parent = Int32(parent)
      insertIntoRun(slot, at: Int(run(under: parent).count), under: parent)
      path.append(slot)
      previousDepth = depth
    }
    assignFreshKeys()
    checkInvariantsInDebug()
  }

  /// Gives every sibling list keys spread from the start, keeping the lists' order.
  @inlinable
  mutating func assignFreshKeys() {
    for parent in Self.rootLevel..<nodes.count {
      let run = run(under: parent)
      if run.count == 0 { continue }
      for (index, key) in Self.keys(Int(run.count), between: nil, nil).enumerated() {
        let slot = Int(pool[index, in: run])
        keys[slot] = key
        nodes[slot].prefix = key.prefix
      }
    }
  }
}
