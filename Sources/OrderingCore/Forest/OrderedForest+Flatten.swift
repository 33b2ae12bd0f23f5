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
  /// Collapse state is the caller's, not the forest's: it is not persisted (seed 002) and
  /// ids in `collapsed` that the forest does not hold are ignored.
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
    for root in rootList.reversed() { stack.append((root, 0)) }
    ids.withUnsafeBufferPointer { ids in
      parents.withUnsafeBufferPointer { parents in
        childLists.withUnsafeBufferPointer { childLists in
          while let (slot, depth) = stack.popLast() {
            let parent = parents[slot]
            let childCount = childLists[slot].count
            result.append(
              Row(
                id: ids[slot], depth: depth, parent: parent < 0 ? nil : ids[parent],
                childCount: childCount))
            if childCount == 0 { continue }
            if let collapsed, collapsed.contains(ids[slot]) { continue }
            childLists[slot].withUnsafeBufferPointer { children in
              var index = children.count
              while index > 0 {
                index -= 1
                stack.append((children[index], depth + 1))
              }
            }
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
    for (slot, key) in zip(order, newKeys) where parents[slot] >= 0 || keys[slot] != key {
      let parent = parents[slot]
      changes.append(
        Change(
          id: ids[slot], old: Placement(parent: parent < 0 ? nil : ids[parent], key: keys[slot]),
          new: Placement(parent: nil, key: key)))
    }
    for (slot, key) in zip(order, newKeys) {
      parents[slot] = -1
      keys[slot] = key
      prefixes[slot] = Self.keyPrefix(key)
      childLists[slot] = []
    }
    rootList = order
    checkInvariantsInDebug()
    return ChangeSet(changes)
  }

  /// Builds a plan from rows in preorder with depths: the inverse of ``flattened()``.
  ///
  /// A row at depth *d* becomes the last child of the nearest earlier row at depth *d* - 1
  /// (a root at depth 0). Keys are spread anew under each parent.
  ///
  /// ```swift
  /// let plan = try OrderedForest(outline: [("trip", 0), ("pack", 1), ("book", 1)])
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
      guard slotOf[id] == nil else {
        throw OrderingError(
          .duplicateNode,
          description: "invalid outline: row \(row) repeats the id \(id)")
      }
      let slot = appendSlot(id, key: .first)
      path.removeLast(path.count - depth)
      let parent = path.last ?? -1
      parents[slot] = parent
      if parent < 0 { rootList.append(slot) } else { childLists[parent].append(slot) }
      path.append(slot)
      previousDepth = depth
    }
    assignFreshKeys()
    checkInvariantsInDebug()
  }

  /// Gives every sibling list keys spread from the start, keeping the lists' order.
  @inlinable
  mutating func assignFreshKeys() {
    for list in [rootList] + childLists where !list.isEmpty {
      for (slot, key) in zip(list, Self.keys(list.count, between: nil, nil)) {
        keys[slot] = key
        prefixes[slot] = Self.keyPrefix(key)
      }
    }
  }
}
