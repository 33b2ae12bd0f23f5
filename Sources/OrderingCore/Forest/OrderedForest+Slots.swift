// Changing the records: slots come and go, sibling lists take and give up slots. The pool
// (`RunPool`) and the id table (`SlotTable`) know nothing of the forest; this is where the
// forest tells them what changed.

extension OrderedForest {
  // MARK: The id table

  /// The slot of `id`, or `nil` when the forest does not hold it.
  @inlinable
  @inline(__always)
  func slotOf(_ id: ID) -> Int? {
    nodes.withUnsafeBufferPointer { nodes in table.slot(of: id) { nodes[$0].id } }
  }

  /// The slots of two ids, each `nil` when the forest does not hold it; `nil` for the
  /// second id asks for the first only.
  ///
  /// A move looks up its node and its anchor this way, so the two lookups' cache misses
  /// overlap.
  @inlinable
  @inline(__always)
  func slotsOf(_ first: ID, _ second: ID?) -> (Int?, Int?) {
    guard let second else { return (slotOf(first), nil) }
    return nodes.withUnsafeBufferPointer { nodes in
      table.slots(of: first, second) { nodes[$0].id }
    }
  }

  /// Rebuilds the id table for the records as they are.
  ///
  /// - Complexity: O(*n*) expected.
  @inlinable
  mutating func rebuildTable() {
    let nodes = self.nodes
    table = nodes.withUnsafeBufferPointer { nodes in
      SlotTable(count: nodes.count, bucketCount: SlotTable.bucketCount(for: nodes.count)) {
        nodes[$0].id
      }
    }
  }

  /// Reserves room for `capacity` nodes.
  @inlinable
  mutating func reserveCapacity(_ capacity: Int) {
    nodes.reserveCapacity(capacity)
    keys.reserveCapacity(capacity)
    let nodes = self.nodes
    nodes.withUnsafeBufferPointer { nodes in table.reserve(capacity) { nodes[$0].id } }
  }

  // MARK: Slots

  /// Appends a slot for `id` (a root not in any sibling list yet) and returns it.
  @inlinable
  mutating func appendSlot(_ id: ID, key: OrderKey) -> Int {
    let slot = nodes.count
    nodes.append(Node(id: id, prefix: key.prefix, parent: Self.rootLevel))
    keys.append(key)
    let nodes = self.nodes
    nodes.withUnsafeBufferPointer { nodes in
      table.insert(slot, count: nodes.count) { nodes[$0].id }
    }
    return slot
  }

  /// Removes a detached, childless slot, moving the last slot into its place.
  @inlinable
  mutating func removeSlot(_ slot: Int) {
    precondition(childCount(ofSlot: slot) == 0, "cannot remove a node that still has children")
    let last = nodes.count - 1
    do {
      let nodes = self.nodes
      nodes.withUnsafeBufferPointer { nodes in table.remove(slot) { nodes[$0].id } }
    }
    pool.release(nodes[slot].children)
    if slot != last {
      // The last slot moves into `slot`: fix its table entry, its parent's list and its
      // children.
      let position = siblingPosition(of: last)
      pool.cells[Int(run(under: parentSlot(last)).start) + position] = Int32(slot)
      do {
        let nodes = self.nodes
        nodes.withUnsafeBufferPointer { nodes in table.repoint(last, to: slot) { nodes[$0].id } }
      }
      nodes[slot] = nodes[last]
      keys[slot] = keys[last]
      for index in nodes[slot].children.cells {
        nodes[Int(pool.cells[index])].parent = Int32(slot)
      }
    }
    nodes.removeLast()
    keys.removeLast()
  }

  // MARK: Sibling lists

  /// Takes `slot` out of its parent's sibling list (its parent pointer is left as is).
  ///
  /// - Parameter position: The slot's index among its siblings, when the caller knows it.
  @inlinable
  mutating func detach(_ slot: Int, at position: Int? = nil) {
    let parent = parentSlot(slot)
    var run = run(under: parent)
    pool.remove(at: position ?? siblingPosition(of: slot), in: &run)
    setRun(run, under: parent)
  }

  /// Puts `slot` under `parent` with `key`; the key must not be taken there.
  ///
  /// - Parameters:
  ///   - prefix: The key's prefix, when the caller has it.
  ///   - position: The index the key takes among the siblings, when the caller knows it.
  /// - Complexity: O(*k*) for *k* siblings; amortized O(1) more for growing the list.
  @inlinable
  mutating func attach(
    _ slot: Int, under parent: Int, key: OrderKey, prefix: UInt64? = nil, at position: Int? = nil
  ) {
    let prefix = prefix ?? key.prefix
    let index = position ?? insertionIndex(of: key, prefix: prefix, under: parent)
    nodes[slot].parent = Int32(parent)
    nodes[slot].prefix = prefix
    keys[slot] = key
    insertIntoRun(slot, at: index, under: parent)
  }

  /// Inserts `slot` at `index` of the sibling list under `parent`, growing its run when
  /// full (compacting the pool first when it holds too much garbage).
  ///
  /// - Complexity: O(*k*) for *k* siblings; amortized O(1) more for growing.
  @inlinable
  mutating func insertIntoRun(_ slot: Int, at index: Int, under parent: Int) {
    var run = run(under: parent)
    if pool.isFull(run) {
      if pool.needsCompaction(toGrow: run, liveCells: nodes.count) {
        compactPool()
        run = self.run(under: parent)
      }
      pool.grow(&run)
    }
    pool.insert(Int32(slot), at: index, in: &run)
    setRun(run, under: parent)
  }

  /// Copies every run into a new pool, in slot order, each with no spare room.
  ///
  /// - Complexity: O(*n*), where *n* is the number of nodes.
  @inlinable
  mutating func compactPool() {
    var fresh = RunPool()
    fresh.cells.reserveCapacity(nodes.count + 1024)
    rootRun = pool.copy(rootRun, into: &fresh)
    for slot in nodes.indices {
      nodes[slot].children = pool.copy(nodes[slot].children, into: &fresh)
    }
    pool = fresh
  }

  /// Runs the full invariant check after a mutation in debug builds.
  @inlinable
  @inline(__always)
  func checkInvariantsInDebug() {
    #if DEBUG
      checkInvariants()
    #endif
  }
}
