extension OrderedForest {
  /// The slot of `id`, trapping when the forest does not hold it.
  @inlinable
  func slot(_ id: ID, _ function: StaticString = #function) -> Int {
    guard let slot = slotOf[id] else {
      preconditionFailure("\(function): the forest holds no node \(id)")
    }
    return slot
  }

  /// The root nodes, in order.
  ///
  /// - Complexity: O(*r*), where *r* is the number of roots.
  @inlinable
  public var roots: [ID] { rootList.map { ids[$0] } }

  /// The children of a node, in order; the node must be in the forest.
  ///
  /// - Complexity: O(*k*), where *k* is the number of children.
  @inlinable
  public func children(of id: ID) -> [ID] {
    childLists[slot(id)].map { ids[$0] }
  }

  /// The number of children of a node; the node must be in the forest.
  @inlinable
  public func childCount(of id: ID) -> Int {
    childLists[slot(id)].count
  }

  /// The parent of a node, or `nil` for a root; the node must be in the forest.
  @inlinable
  public func parent(of id: ID) -> ID? {
    let parent = parents[slot(id)]
    return parent < 0 ? nil : ids[parent]
  }

  /// The order key of a node among its siblings; the node must be in the forest.
  @inlinable
  public func key(of id: ID) -> OrderKey {
    keys[slot(id)]
  }

  /// Where a node sits, or `nil` when the forest does not hold it.
  @inlinable
  public func placement(of id: ID) -> Placement? {
    guard let slot = slotOf[id] else { return nil }
    let parent = parents[slot]
    return Placement(parent: parent < 0 ? nil : ids[parent], key: keys[slot])
  }

  /// The depth of a node: 0 for a root, 1 for its children; the node must be in the forest.
  ///
  /// - Complexity: O(*d*), where *d* is the node's depth.
  @inlinable
  public func depth(of id: ID) -> Int {
    depth(ofSlot: slot(id))
  }

  /// The ancestors of a node, nearest first (parent, grandparent, …, root).
  ///
  /// - Complexity: O(*d*), where *d* is the node's depth.
  @inlinable
  public func ancestors(of id: ID) -> [ID] {
    var result: [ID] = []
    var current = parents[slot(id)]
    while current >= 0 {
      result.append(ids[current])
      current = parents[current]
    }
    return result
  }

  /// Whether `ancestor` is a proper ancestor of `id`; both must be in the forest.
  ///
  /// - Complexity: O(*d*), where *d* is the depth of `id`.
  @inlinable
  public func isAncestor(_ ancestor: ID, of id: ID) -> Bool {
    let target = slot(ancestor)
    var current = parents[slot(id)]
    while current >= 0 {
      if current == target { return true }
      current = parents[current]
    }
    return false
  }

  /// The node and all its descendants in preorder (the node first).
  ///
  /// - Complexity: O(*s*), where *s* is the size of the subtree.
  @inlinable
  public func subtree(of id: ID) -> [ID] {
    var result: [ID] = []
    var stack = [slot(id)]
    while let current = stack.popLast() {
      result.append(ids[current])
      stack.append(contentsOf: childLists[current].reversed())
    }
    return result
  }

  /// The height of a node's subtree: 0 for a leaf, 1 when its deepest descendant is a child.
  ///
  /// - Complexity: O(*s*), where *s* is the size of the subtree.
  @inlinable
  public func subtreeHeight(of id: ID) -> Int {
    height(ofSlot: slot(id))
  }

  /// The index of a node among its siblings (among the roots for a root).
  ///
  /// - Complexity: O(log *k* · *m*), where *k* is the number of siblings and *m* the key
  ///   length.
  @inlinable
  public func siblingIndex(of id: ID) -> Int {
    siblingPosition(of: slot(id))
  }

  /// The sibling right before a node, or `nil` when it is the first.
  ///
  /// - Complexity: O(log *k* · *m*), where *k* is the number of siblings and *m* the key
  ///   length.
  @inlinable
  public func previousSibling(of id: ID) -> ID? {
    let slot = slot(id)
    let index = siblingPosition(of: slot)
    return index == 0 ? nil : ids[siblingSlots(under: parents[slot])[index - 1]]
  }

  /// The sibling right after a node, or `nil` when it is the last.
  ///
  /// - Complexity: O(log *k* · *m*), where *k* is the number of siblings and *m* the key
  ///   length.
  @inlinable
  public func nextSibling(of id: ID) -> ID? {
    let slot = slot(id)
    let index = siblingPosition(of: slot)
    let list = siblingSlots(under: parents[slot])
    return index + 1 == list.count ? nil : ids[list[index + 1]]
  }

  /// The height of the whole forest: the largest depth of any node, or -1 when empty.
  ///
  /// - Complexity: O(*n*), where *n* is the number of nodes.
  @inlinable
  public var height: Int {
    var result = -1
    var stack = rootList.map { ($0, 0) }
    while let (current, depth) = stack.popLast() {
      if depth > result { result = depth }
      for child in childLists[current] { stack.append((child, depth + 1)) }
    }
    return result
  }
}
