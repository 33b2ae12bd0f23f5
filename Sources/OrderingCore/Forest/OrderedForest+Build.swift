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
    var slotOf: [ID: Int] = [:]
    var entryIDs: [ID] = []
    var storedParents: [ID?] = []
    var orders: [Record.Order] = []
    var recordIndexOf: [Int] = []
    var repairs: [Repair] = []
    let expected = records.underestimatedCount
    slotOf.reserveCapacity(expected)
    entryIDs.reserveCapacity(expected)
    storedParents.reserveCapacity(expected)
    orders.reserveCapacity(expected)
    recordIndexOf.reserveCapacity(expected)
    for (index, record) in records.enumerated() {
      // One hash for the common case: insert, and put the first entry back on a repeat.
      if let kept = slotOf.updateValue(entryIDs.count, forKey: record.id) {
        slotOf[record.id] = kept
        repairs.append(
          Repair(
            id: record.id,
            kind: .duplicateRecord(recordIndex: index, keptIndex: recordIndexOf[kept])))
        continue
      }
      precondition(entryIDs.count < Int(Int32.max), "too many records for one forest")
      entryIDs.append(record.id)
      storedParents.append(record.parent)
      orders.append(record.order)
      recordIndexOf.append(index)
    }
    let count = entryIDs.count
    var rewritten = [Bool](repeating: false, count: count)

    // 2. Parents: a missing parent makes a root.
    var parents = [Int](repeating: -1, count: count)
    for entry in 0..<count {
      guard let parent = storedParents[entry] else { continue }
      if let parentEntry = slotOf[parent] {
        parents[entry] = parentEntry
      } else {
        repairs.append(Repair(id: entryIDs[entry], kind: .missingParent(parent)))
        rewritten[entry] = true
      }
    }

    // 3. Cycles: walk up from every unvisited entry; a walk that meets itself found a cycle,
    // cut at its smallest id.
    var state = [UInt8](repeating: 0, count: count)  // 0 new, 1 on the walk, 2 done
    var path: [Int] = []
    for start in 0..<count where state[start] == 0 {
      path.removeAll(keepingCapacity: true)
      var current = start
      while current >= 0 && state[current] == 0 {
        state[current] = 1
        path.append(current)
        current = parents[current]
      }
      if current >= 0 && state[current] == 1, let first = path.lastIndex(of: current) {
        let cut = path[first...].min { entryIDs[$0] < entryIDs[$1] } ?? current
        var members = [entryIDs[cut]]
        var member = parents[cut]
        while member != cut {
          members.append(entryIDs[member])
          member = parents[member]
        }
        parents[cut] = -1
        rewritten[cut] = true
        repairs.append(Repair(id: entryIDs[cut], kind: .cycle(members)))
      }
      for entry in path { state[entry] = 2 }
    }

    // 4. Sibling groups in one flat array: group g (0 for the roots, entry + 1 for the
    // children of an entry) is flat[offsets[g]..<offsets[g + 1]].
    var offsets = [Int](repeating: 0, count: count + 2)
    for entry in 0..<count { offsets[parents[entry] + 2] += 1 }
    for group in 1..<offsets.count { offsets[group] += offsets[group - 1] }
    var flat = [Int](repeating: 0, count: count)
    var fill = offsets
    for entry in 0..<count {
      let group = parents[entry] + 1
      flat[fill[group]] = entry
      fill[group] += 1
    }

    // 5. Order each group and give every entry a valid key.
    var ordering = SiblingOrdering<ID>(count: count, orders: orders, repairs: repairs)
    for entry in 0..<count {
      guard case .key(let text) = orders[entry] else { continue }
      do {
        ordering.validate(entry, try OrderKey(validating: text))
      } catch {
        ordering.repairs.append(Repair(id: entryIDs[entry], kind: .invalidKey(text, error.code)))
      }
    }
    for group in 0...count where offsets[group + 1] - offsets[group] > 0 {
      ordering.order(&flat, offsets[group]..<offsets[group + 1], ids: entryIDs)
    }
    for entry in 0..<count where ordering.rewritten[entry] { rewritten[entry] = true }
    ordering.repairs.sort { a, b in
      a.id != b.id ? a.id < b.id : a.rank < b.rank
    }

    // 6. Slots in preorder, so walks over the forest read memory in order.
    var order: [Int] = []
    order.reserveCapacity(count)
    // 32-bit slot numbers, and each slot's parent slot noted on the walk: the lookups below
    // read smaller arrays, and the parents in order.
    var newSlot = [Int32](repeating: 0, count: count)
    var parentSlots: [Int32] = []
    parentSlots.reserveCapacity(count)
    var stack: [(entry: Int, parent: Int32)] = flat[offsets[0]..<offsets[1]].reversed().map {
      ($0, -1)
    }
    while let (entry, parent) = stack.popLast() {
      let slot = Int32(order.count)
      newSlot[entry] = slot
      parentSlots.append(parent)
      order.append(entry)
      for child in flat[offsets[entry + 1]..<offsets[entry + 2]].reversed() {
        stack.append((child, slot))
      }
    }
    var forest = OrderedForest(constraints: constraints)
    forest.keys = order.map { ordering.keys[$0] }
    // The pool: the roots, then each slot's children, in slot order, with no spare room.
    var pool: [Int32] = []
    pool.reserveCapacity(count)
    for entry in flat[offsets[0]..<offsets[1]] { pool.append(newSlot[entry]) }
    var nodes: [Node] = []
    nodes.reserveCapacity(count)
    for (slot, entry) in order.enumerated() {
      let start = pool.count
      for child in flat[offsets[entry + 1]..<offsets[entry + 2]] {
        pool.append(newSlot[child])
      }
      let childCount = pool.count - start
      nodes.append(
        Node(
          id: entryIDs[entry], prefix: ordering.prefix(of: entry),
          parent: Int(parentSlots[slot]),
          children: childCount == 0
            ? Run() : Run(start: start, count: childCount, capacity: childCount)))
    }
    let rootCount = offsets[1] - offsets[0]
    forest.rootRun = Run(start: 0, count: rootCount, capacity: rootCount)
    forest.pool = RunPool(cells: pool)
    forest.nodes = nodes
    forest.rebuildTable()
    forest.checkInvariantsInDebug()
    let report = RepairReport(
      repairs: ordering.repairs,
      rewritten: (0..<count).filter { rewritten[$0] }.map { entryIDs[$0] })
    return (forest, report)
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
