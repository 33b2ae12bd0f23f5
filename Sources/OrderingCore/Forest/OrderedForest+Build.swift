extension OrderedForest {
  /// Builds a forest from stored records, repairing what is broken and reporting each fix.
  ///
  /// No record is dropped silently: a record whose parent does not exist becomes a root, a
  /// parent cycle is cut at its smallest id, siblings are ordered by key (then by id where
  /// keys are equal), by position (then id) when records carry positions, and last by id
  /// when they carry none; duplicate and invalid keys get new keys from their neighbours. A
  /// repeated id keeps the first record and reports the others. The result depends only on
  /// the records, not on their order (except which of two records with one id is kept).
  ///
  /// ```swift
  /// let (forest, report) = OrderedForest<String>.build(from: rows)
  /// for id in report.rewritten { store.write(id, forest.placement(of: id)) }
  /// ```
  ///
  /// Siblings whose records mix keys and positions stand keyed first, then positioned.
  ///
  /// - Parameters:
  ///   - records: The stored rows.
  ///   - constraints: The constraints of the new forest (not applied to the records).
  /// - Returns: The forest and the report of every fix.
  /// - Complexity: O(*n* log *k* · *m*), where *n* is the number of records, *k* the
  ///   largest number of siblings and *m* the key length.
  @inlinable
  public static func build(
    from records: some Sequence<Record>, constraints: Constraints = Constraints()
  ) -> (forest: OrderedForest, report: RepairReport) {
    // 1. One entry per distinct id, in record order (an "entry" is a record kept).
    var intake = RecordIntake<ID>(expected: records.underestimatedCount)
    intake.take(records)
    let count = intake.count
    var rewritten = [Bool](repeating: false, count: count)

    // 2. Parents: a missing parent makes a root. 3. Cycles are cut at their smallest id.
    var parents = intake.resolveParents(rewritten: &rewritten)
    intake.cutCycles(&parents, rewritten: &rewritten)

    // 4. Sibling groups side by side: group g (0 for the roots, entry + 1 for the children
    // of an entry) is items[offsets[g]..<offsets[g + 1]].
    var (items, offsets) = intake.grouped(parents: parents)
    parents = []

    // 5. Order each group and give every entry a valid key.
    items.withUnsafeMutableBufferPointer { items in
      offsets.withUnsafeBufferPointer { offsets in
        for group in 0...count where offsets[group &+ 1] > offsets[group] {
          intake.order(
            items, Int(offsets[group])..<Int(offsets[group &+ 1]), rewritten: &rewritten)
        }
      }
    }
    intake.repairs.sort { a, b in
      a.id != b.id ? a.id < b.id : a.rank < b.rank
    }
    let rootCount = Int(offsets[1])
    offsets = []
    return (
      layOut(&intake, items: items, rootCount: rootCount, constraints: constraints),
      RepairReport(
        repairs: intake.repairs,
        rewritten: (0..<count).filter { rewritten[$0] }.map { intake.ids[$0] })
    )
  }

  /// The last step of a build: the forest of ordered entries, its slots in preorder so walks
  /// over the forest read memory in order.
  ///
  /// Each item's id and key are gathered into item order first, by a loop whose reads do
  /// not depend on each other. Then one walk in preorder numbers the slots and writes
  /// everything in slot order as it goes: the records, the keys (moved, not copied) and each
  /// slot's cell in its parent's sibling list. A node's children are laid out in the pool in
  /// slot order, so the walk knows where each list starts when it reaches the list's parent.
  /// The walk's reads depend on each other (it learns where a node's children are from the
  /// node), so it reads only the items and what sits beside them.
  ///
  /// - Complexity: O(*n*) expected.
  @inlinable
  static func layOut(
    _ intake: inout RecordIntake<ID>, items: [SiblingItem], rootCount: Int,
    constraints: Constraints
  ) -> OrderedForest {
    let count = intake.count
    // Each item's id and key, gathered first in a loop whose reads do not depend on each
    // other (so their misses overlap), then read beside the item by the walk, whose reads
    // of the items depend on each other.
    var keys: [OrderKey] = []
    let ids = [ID](unsafeUninitializedCapacity: count) { ids, initialized in
      keys = [OrderKey](unsafeUninitializedCapacity: count) { keys, keysInitialized in
        items.withUnsafeBufferPointer { items in
          intake.ids.withUnsafeBufferPointer { stored in
            for index in 0..<count {
              ids.initializeElement(at: index, to: stored[Int(items[index].entry)])
            }
          }
          intake.keys.withUnsafeMutableBufferPointer { stored in
            for index in 0..<count {
              // The key moves; the stored array keeps an empty key.
              let key = stored.baseAddress.unsafelyUnwrapped + Int(items[index].entry)
              (keys.baseAddress.unsafelyUnwrapped + index).moveInitialize(from: key, count: 1)
              key.initialize(to: OrderKey(unchecked: ""))
            }
          }
        }
        keysInitialized = count
      }
      initialized = count
    }
    var slots = [Int32](repeating: 0, count: count)
    // The walk's stack: an item, its parent slot and its cell in the pool. It never holds
    // more than every item, and mostly far fewer: allocated, not filled, so the pages it
    // never reaches are never touched.
    let stack = UnsafeMutablePointer<(item: Int32, parent: Int32, cell: Int32)>.allocate(
      capacity: max(count, 1))
    defer { stack.deallocate() }
    var cells = [Int32](repeating: 0, count: count)
    var slotKeys: [OrderKey] = []
    let nodes = [Node](unsafeUninitializedCapacity: count) { nodes, initialized in
      slotKeys = [OrderKey](unsafeUninitializedCapacity: count) { slotKeys, keysInitialized in
        items.withUnsafeBufferPointer { items in
          ids.withUnsafeBufferPointer { ids in
            keys.withUnsafeMutableBufferPointer { keys in
              slots.withUnsafeMutableBufferPointer { slots in
                cells.withUnsafeMutableBufferPointer { cells in
                  do {
                    var top = 0
                    var index = rootCount
                    while index > 0 {
                      index &-= 1
                      let position = Int32(truncatingIfNeeded: index)
                      stack[top] = (position, -1, position)
                      top &+= 1
                    }
                    var slot = 0
                    var nextCell = rootCount
                    while top > 0 {
                      top &-= 1
                      let (position32, parent, cell) = stack[top]
                      let position = Int(position32)
                      let item = items[position]
                      let slot32 = Int32(truncatingIfNeeded: slot)
                      slots[Int(item.entry)] = slot32
                      cells[Int(cell)] = slot32
                      let childCount = Int(item.childEnd &- item.childStart)
                      nodes.initializeElement(
                        at: slot,
                        to: Node(
                          id: ids[position], prefix: item.prefix, parent: Int(parent),
                          children: childCount == 0
                            ? Run()
                            : Run(start: nextCell, count: childCount, capacity: childCount)))
                      // The key moves to its slot; the gathered array keeps an empty key.
                      let key = keys.baseAddress.unsafelyUnwrapped + position
                      (slotKeys.baseAddress.unsafelyUnwrapped + slot).moveInitialize(
                        from: key, count: 1)
                      key.initialize(to: OrderKey(unchecked: ""))
                      var child = Int(item.childEnd)
                      while child > Int(item.childStart) {
                        child &-= 1
                        stack[top] = (
                          Int32(truncatingIfNeeded: child), slot32,
                          Int32(truncatingIfNeeded: nextCell &+ child &- Int(item.childStart))
                        )
                        top &+= 1
                      }
                      nextCell &+= childCount
                      slot &+= 1
                    }
                  }
                }
              }
            }
          }
        }
        keysInitialized = count
      }
      initialized = count
    }
    var forest = OrderedForest(constraints: constraints)
    forest.nodes = nodes
    forest.keys = slotKeys
    forest.rootRun = Run(start: 0, count: rootCount, capacity: rootCount)
    forest.pool = RunPool(cells: cells)
    forest.table = intake.takeTable(slots: slots)
    forest.checkInvariantsInDebug()
    return forest
  }

  /// The records of this forest in preorder: the rows a store keeps.
  ///
  /// `build(from: forest.records)` gives back an equal forest with a clean report.
  ///
  /// - Complexity: O(*n*), where *n* is the number of nodes.
  @inlinable
  public var records: [Record] {
    rows(hidingChildrenOf: nil).map { row in
      Record(id: row.id, parent: row.parent, key: keys[slot(row.id)])
    }
  }
}
