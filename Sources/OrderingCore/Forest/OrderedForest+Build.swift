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

    // 4. Sibling groups in one flat array: group g (0 for the roots, entry + 1 for the
    // children of an entry) is flat[offsets[g]..<offsets[g + 1]]. Each group's size is
    // counted at g + 2; the sums make g + 1 its start, and filling moves that to its end.
    var offsets = [Int](repeating: 0, count: count + 3)
    for entry in 0..<count { offsets[Int(parents[entry]) &+ 3] &+= 1 }
    for group in 1..<offsets.count { offsets[group] &+= offsets[group - 1] }
    var flat = [Int32](repeating: 0, count: count)
    for entry in 0..<count {
      let next = Int(parents[entry]) &+ 2
      flat[offsets[next]] = Int32(truncatingIfNeeded: entry)
      offsets[next] &+= 1
    }

    // 5. Order each group and give every entry a valid key.
    flat.withUnsafeMutableBufferPointer { flat in
      for group in 0...count where offsets[group + 1] > offsets[group] {
        intake.order(flat, offsets[group]..<offsets[group + 1], rewritten: &rewritten)
      }
    }
    intake.repairs.sort { a, b in
      a.id != b.id ? a.id < b.id : a.rank < b.rank
    }
    return (
      layOut(&intake, parents: parents, flat: flat, offsets: offsets, constraints: constraints),
      RepairReport(
        repairs: intake.repairs,
        rewritten: (0..<count).filter { rewritten[$0] }.map { intake.ids[$0] })
    )
  }

  /// The last step of a build: the forest of ordered entries, its slots in preorder so walks
  /// over the forest read memory in order.
  ///
  /// - Complexity: O(*n*) expected.
  @inlinable
  static func layOut(
    _ intake: inout RecordIntake<ID>, parents: [Int32], flat: [Int32], offsets: [Int],
    constraints: Constraints
  ) -> OrderedForest {
    let count = intake.count
    // Each entry's slot, and each slot's entry, by a walk with a stack of entries that never
    // holds more than all of them.
    var slots = [Int32](repeating: 0, count: count)
    var entries = [Int32](repeating: 0, count: count)
    var stack = [Int32](repeating: 0, count: count)
    flat.withUnsafeBufferPointer { flat in
      offsets.withUnsafeBufferPointer { offsets in
        slots.withUnsafeMutableBufferPointer { slots in
          entries.withUnsafeMutableBufferPointer { entries in
            stack.withUnsafeMutableBufferPointer { stack in
              var top = 0
              func push(childrenOf group: Int) {
                var index = offsets[group &+ 1]
                while index > offsets[group] {
                  index &-= 1
                  stack[top] = flat[index]
                  top &+= 1
                }
              }
              push(childrenOf: 0)
              var slot = 0
              while top > 0 {
                top &-= 1
                let entry = Int(stack[top])
                slots[entry] = Int32(truncatingIfNeeded: slot)
                entries[slot] = Int32(truncatingIfNeeded: entry)
                slot &+= 1
                push(childrenOf: entry &+ 1)
              }
            }
          }
        }
      }
    }
    var forest = OrderedForest(constraints: constraints)
    // The keys move from entry order to slot order: swapped, not copied.
    var keys = [OrderKey](repeating: OrderKey(unchecked: ""), count: count)
    keys.withUnsafeMutableBufferPointer { keys in
      intake.keys.withUnsafeMutableBufferPointer { stored in
        for slot in 0..<count { swap(&keys[slot], &stored[Int(entries[slot])]) }
      }
    }
    forest.keys = keys
    // The records, and the pool: the roots, then each slot's children, in slot order, with
    // no spare room.
    var cells = [Int32](repeating: 0, count: count)
    cells.withUnsafeMutableBufferPointer { cells in
      for index in offsets[0]..<offsets[1] { cells[index] = slots[Int(flat[index])] }
      forest.nodes = [Node](unsafeUninitializedCapacity: count) { nodes, initialized in
        var next = offsets[1] - offsets[0]
        for slot in 0..<count {
          let entry = Int(entries[slot])
          let start = next
          for index in offsets[entry &+ 1]..<offsets[entry &+ 2] {
            cells[next] = slots[Int(flat[index])]
            next &+= 1
          }
          let childCount = next &- start
          let parent = Int(parents[entry])
          nodes.initializeElement(
            at: slot,
            to: Node(
              id: intake.ids[entry], prefix: intake.prefixes[entry],
              parent: parent < 0 ? rootLevel : Int(slots[parent]),
              children: childCount == 0
                ? Run() : Run(start: start, count: childCount, capacity: childCount)))
        }
        initialized = count
      }
    }
    let rootCount = offsets[1] - offsets[0]
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
