extension OrderedForest {
  /// The slot of `id`, trapping when the forest does not hold it.
  @inlinable
  func slot(_ id: ID, _ function: StaticString = #function) -> Int {
    guard let slot = slotOf(id) else {
      preconditionFailure("\(function): the forest holds no node \(id)")
    }
    return slot
  }

  /// The root nodes, in order.
  ///
  /// - Complexity: O(*r*), where *r* is the number of roots.
  @inlinable
  public var roots: [ID] { siblingSlots(under: Self.rootLevel).map { nodes[$0].id } }

  /// The children of a node, in order; the node must be in the forest.
  ///
  /// - Complexity: O(*k*), where *k* is the number of children.
  @inlinable
  public func children(of id: ID) -> [ID] {
    childSlots(slot(id)).map { nodes[$0].id }
  }

  /// The number of children of a node; the node must be in the forest.
  @inlinable
  public func childCount(of id: ID) -> Int {
    childCount(ofSlot: slot(id))
  }

  /// The parent of a node, or `nil` for a root; the node must be in the forest.
  @inlinable
  public func parent(of id: ID) -> ID? {
    let parent = parentSlot(slot(id))
    return parent < 0 ? nil : nodes[parent].id
  }

  /// The order key of a node among its siblings; the node must be in the forest.
  @inlinable
  public func key(of id: ID) -> OrderKey {
    keys[slot(id)]
  }

  /// Where a node sits, or `nil` when the forest does not hold it.
  @inlinable
  public func placement(of id: ID) -> Placement? {
    guard let slot = slotOf(id) else { return nil }
    let parent = parentSlot(slot)
    return Placement(parent: parent < 0 ? nil : nodes[parent].id, key: keys[slot])
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
    var current = parentSlot(slot(id))
    while current >= 0 {
      result.append(nodes[current].id)
      current = parentSlot(current)
    }
    return result
  }

  /// Whether `ancestor` is a proper ancestor of `id`; both must be in the forest.
  ///
  /// - Complexity: O(*d*), where *d* is the depth of `id`.
  @inlinable
  public func isAncestor(_ ancestor: ID, of id: ID) -> Bool {
    let target = slot(ancestor)
    var current = parentSlot(slot(id))
    while current >= 0 {
      if current == target { return true }
      current = parentSlot(current)
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
      result.append(nodes[current].id)
      stack.append(contentsOf: childSlots(current).reversed())
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
    return index == 0 ? nil : nodes[siblingSlots(under: parentSlot(slot))[index - 1]].id
  }

  /// The sibling right after a node, or `nil` when it is the last.
  ///
  /// - Complexity: O(log *k* · *m*), where *k* is the number of siblings and *m* the key
  ///   length.
  @inlinable
  public func nextSibling(of id: ID) -> ID? {
    let slot = slot(id)
    let index = siblingPosition(of: slot)
    let list = siblingSlots(under: parentSlot(slot))
    return index + 1 == list.count ? nil : nodes[list[index + 1]].id
  }

  /// The height of the whole forest: the largest depth of any node, or -1 when empty.
  ///
  /// - Complexity: O(*n*), where *n* is the number of nodes.
  @inlinable
  public var height: Int {
    var result = -1
    var stack = siblingSlots(under: Self.rootLevel).map { ($0, 0) }
    while let (current, depth) = stack.popLast() {
      if depth > result { result = depth }
      for child in childSlots(current) { stack.append((child, depth + 1)) }
    }
    return result
  }
}
