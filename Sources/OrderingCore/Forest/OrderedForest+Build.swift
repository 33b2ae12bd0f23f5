extension OrderedForest {
  /// A node as a store keeps it: id, parent id and its order among its siblings.
  public struct Record: Hashable, Sendable {
    /// How a stored row orders itself among its siblings.
    public enum Order: Hashable, Sendable {
      /// An order key's text (validated on build).
      case key(String)
      /// An integer position (the `position` column many apps store).
      case position(Int)
      /// No order at all (a row written before ordering existed).
      case missing
    }

    /// The node's id.
    public var id: ID
    /// Its parent's id, or `nil` for a root.
    public var parent: ID?
    /// Its order among its siblings.
    public var order: Order

    /// Creates a record.
    @inlinable
    public init(id: ID, parent: ID?, order: Order) {
      self.id = id
      self.parent = parent
      self.order = order
    }

    /// Creates a record with an order key.
    @inlinable
    public init(id: ID, parent: ID?, key: OrderKey) {
      self.init(id: id, parent: parent, order: .key(key.rawValue))
    }
  }

  /// One fix ``build(from:constraints:)`` made to the records.
  public struct Repair: Hashable, Sendable, CustomStringConvertible {
    /// What was wrong and what was done.
    public enum Kind: Hashable, Sendable {
      /// The record at `recordIndex` repeats the id of the record at `keptIndex`; the
      /// forest holds the first one, and the repeated row is left for the store to delete.
      case duplicateRecord(recordIndex: Int, keptIndex: Int)
      /// The parent does not exist; the node became a root.
      case missingParent(ID)
      /// The node's parent link closed a cycle (`cycle` lists its members from this node,
      /// each the parent of the one before); the link was cut at this node, the smallest id
      /// of the cycle, which became a root.
      case cycle([ID])
      /// The order key is not a valid key; the node got a new key after its keyed siblings.
      case invalidKey(String, OrderingError.Code)
      /// The order key is the same as a sibling's (`tiedWith`, the smaller id, kept it); the
      /// node got a new key right after it.
      case duplicateKey(String, tiedWith: ID)
      /// The position is the same as a sibling's (`tiedWith`, the smaller id, comes first).
      case duplicatePosition(Int, tiedWith: ID)
      /// The record has no order; the node went after its ordered siblings, by id.
      case missingOrder
    }

    /// The node the fix is about.
    public var id: ID
    /// What was wrong and what was done.
    public var kind: Kind

    /// Creates a repair.
    @inlinable
    public init(id: ID, kind: Kind) {
      self.id = id
      self.kind = kind
    }

    /// One sentence that names the node, the problem and the fix.
    public var description: String {
      switch kind {
      case .duplicateRecord(let index, let kept):
        "record \(index) repeats id \(id) of record \(kept): it was left out, and the store should delete it"
      case .missingParent(let parent):
        "\(id) names parent \(parent), which does not exist: it became a root"
      case .cycle(let members):
        "\(id) is in the parent cycle \(members.map { "\($0)" }.joined(separator: " -> ")) -> \(id): it became a root"
      case .invalidKey(let text, let code):
        "\(id) has the invalid order key \(OrderingError.quoted(text)) (\(code.rawValue)): it got a new key after its siblings"
      case .duplicateKey(let text, let other):
        "\(id) shares order key \(OrderingError.quoted(text)) with \(other): it got a new key right after \(other)"
      case .duplicatePosition(let position, let other):
        "\(id) shares position \(position) with \(other): it goes right after \(other)"
      case .missingOrder:
        "\(id) has no order: it went after its ordered siblings"
      }
    }

    /// The rank of a kind, for a deterministic report order.
    @inlinable
    var rank: Int {
      switch kind {
      case .duplicateRecord: 0
      case .missingParent: 1
      case .cycle: 2
      case .invalidKey: 3
      case .duplicateKey: 4
      case .duplicatePosition: 5
      case .missingOrder: 6
      }
    }
  }

  /// What ``build(from:constraints:)`` fixed, and which rows a store should rewrite.
  public struct RepairReport: Hashable, Sendable, CustomStringConvertible {
    /// Every fix, ordered by id, then kind.
    public var repairs: [Repair]
    /// The nodes whose stored parent or order differs from the forest's, in record order:
    /// write `forest.placement(of:)` for each to make the store agree with the forest.
    /// Records ordered by position are listed, since each got an order key.
    public var rewritten: [ID]

    @inlinable
    init(repairs: [Repair], rewritten: [ID]) {
      self.repairs = repairs
      self.rewritten = rewritten
    }

    /// Whether the records needed no fix.
    @inlinable
    public var isClean: Bool { repairs.isEmpty }

    /// One repair per line, or `no repairs`.
    public var description: String {
      repairs.isEmpty ? "no repairs" : repairs.map(\.description).joined(separator: "\n")
    }
  }

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
    forest.pool = pool
    forest.nodes = nodes
    forest.rehash(bucketCount: bucketCount(for: count))
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

/// Orders the sibling groups of records being built, and gives every entry a valid key.
@usableFromInline
struct SiblingOrdering<ID: Hashable & Comparable & Sendable> {
  @usableFromInline
  var orders: [OrderedForest<ID>.Record.Order]
  /// 0: a valid key, 1: a position, 2: no usable order.
  @usableFromInline
  var ranks: [UInt8]
  /// The first 8 key bytes (big-endian, zero-padded) or the position (sign bit flipped).
  @usableFromInline
  var prefixes: [UInt64]
  /// The final key of each entry; for rank 0, the stored key until it is replaced.
  @usableFromInline
  var keys: [OrderKey]
  @usableFromInline
  var repairs: [OrderedForest<ID>.Repair]
  @usableFromInline
  var rewritten: [Bool]

  @inlinable
  init(count: Int, orders: [OrderedForest<ID>.Record.Order], repairs: [OrderedForest<ID>.Repair]) {
    self.orders = orders
    self.ranks = [UInt8](repeating: 2, count: count)
    self.prefixes = [UInt64](repeating: 0, count: count)
    self.keys = [OrderKey](repeating: .first, count: count)
    self.repairs = repairs
    self.rewritten = [Bool](repeating: false, count: count)
    for entry in 0..<count {
      if case .position(let value) = orders[entry] {
        ranks[entry] = 1
        prefixes[entry] = UInt64(bitPattern: Int64(value)) ^ (1 << 63)
      }
    }
  }

  /// The prefix of an entry's final key: kept keys have theirs already.
  @inlinable
  func prefix(of entry: Int) -> UInt64 {
    ranks[entry] == 0 ? prefixes[entry] : keys[entry].prefix
  }

  /// Records a valid stored key.
  @inlinable
  mutating func validate(_ entry: Int, _ key: OrderKey) {
    ranks[entry] = 0
    keys[entry] = key
    prefixes[entry] = key.prefix
  }

  /// Sorts one group in place and assigns its keys, recording repairs.
  @inlinable
  mutating func order(_ flat: inout [Int], _ range: Range<Int>, ids: [ID]) {
    func less(_ a: Int, _ b: Int) -> Bool {
      if ranks[a] != ranks[b] { return ranks[a] < ranks[b] }
      if prefixes[a] != prefixes[b] { return prefixes[a] < prefixes[b] }
      if ranks[a] == 0 && keys[a] != keys[b] { return keys[a] < keys[b] }
      return ids[a] < ids[b]
    }
    var sorted = true
    for index in range.dropFirst() where !less(flat[index - 1], flat[index]) {
      sorted = false
      break
    }
    if !sorted { flat[range].sort(by: less) }
    // Keep every valid key above the last kept one; key the rest between kept neighbours.
    var lastKept: Int?
    var previousPosition: Int?
    var anyMissing = false
    for index in range {
      let entry = flat[index]
      switch ranks[entry] {
      case 0:
        if let last = lastKept, !(keys[last] < keys[entry]) {
          repairs.append(
            OrderedForest<ID>.Repair(
              id: ids[entry], kind: .duplicateKey(keys[entry].rawValue, tiedWith: ids[last])))
          ranks[entry] = 3  // Needs a new key.
          anyMissing = true
        } else {
          lastKept = entry
        }
      case 1:
        if let previous = previousPosition, prefixes[previous] == prefixes[entry],
          case .position(let value) = orders[entry]
        {
          repairs.append(
            OrderedForest<ID>.Repair(
              id: ids[entry], kind: .duplicatePosition(value, tiedWith: ids[previous])))
        } else {
          previousPosition = entry
        }
        anyMissing = true
      default:
        if case .missing = orders[entry] {
          repairs.append(OrderedForest<ID>.Repair(id: ids[entry], kind: .missingOrder))
        }
        anyMissing = true
      }
    }
    guard anyMissing else { return }
    var index = range.lowerBound
    var lower: OrderKey?
    while index < range.upperBound {
      if self.ranks[flat[index]] == 0 {
        lower = self.keys[flat[index]]
        index += 1
        continue
      }
      var end = index
      while end < range.upperBound && self.ranks[flat[end]] != 0 { end += 1 }
      let upper = end < range.upperBound ? self.keys[flat[end]] : nil
      let fresh = OrderedForest<ID>.keys(end - index, between: lower, upper)
      for (offset, key) in fresh.enumerated() {
        self.keys[flat[index + offset]] = key
        rewritten[flat[index + offset]] = true
      }
      index = end
    }
  }
}
