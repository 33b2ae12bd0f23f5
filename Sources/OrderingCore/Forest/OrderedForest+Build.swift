extension OrderedForest {
  /// A node as a store keeps it: id, parent id and its order among its siblings.
  public struct Record: Hashable, Sendable {
    /// How a stored row orders itself among its siblings.
    public enum Order: Hashable, Sendable {
      /// An order key's text (validated on build).
      case key(String)
      /// An integer position (the seeds' `CollectionItem.position`).
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
    var forest = OrderedForest(constraints: constraints)
    var repairs: [Repair] = []
    var storedParents: [ID?] = []
    var orders: [Record.Order] = []
    var recordIndexOf: [Int] = []  // The record index of each slot.
    for (index, record) in records.enumerated() {
      if let kept = forest.slotOf[record.id] {
        repairs.append(
          Repair(
            id: record.id,
            kind: .duplicateRecord(recordIndex: index, keptIndex: recordIndexOf[kept])))
        continue
      }
      _ = forest.appendSlot(record.id, key: .first)
      storedParents.append(record.parent)
      orders.append(record.order)
      recordIndexOf.append(index)
    }
    let count = forest.count
    var rewritten = [Bool](repeating: false, count: count)

    // Parents: a missing parent makes a root.
    for slot in 0..<count {
      guard let parent = storedParents[slot] else { continue }
      if let parentSlot = forest.slotOf[parent] {
        forest.parents[slot] = parentSlot
      } else {
        repairs.append(Repair(id: forest.ids[slot], kind: .missingParent(parent)))
        rewritten[slot] = true
      }
    }

    // Cycles: walk up from every unvisited node; a walk that meets itself found a cycle.
    var state = [UInt8](repeating: 0, count: count)  // 0 new, 1 on the walk, 2 done
    var path: [Int] = []
    for start in 0..<count where state[start] == 0 {
      path.removeAll(keepingCapacity: true)
      var current = start
      while current >= 0 && state[current] == 0 {
        state[current] = 1
        path.append(current)
        current = forest.parents[current]
      }
      if current >= 0 && state[current] == 1, let first = path.lastIndex(of: current) {
        let cycle = path[first...]
        let cut = cycle.min { forest.ids[$0] < forest.ids[$1] } ?? current
        var members = [forest.ids[cut]]
        var member = forest.parents[cut]
        while member != cut {
          members.append(forest.ids[member])
          member = forest.parents[member]
        }
        forest.parents[cut] = -1
        rewritten[cut] = true
        repairs.append(Repair(id: forest.ids[cut], kind: .cycle(members)))
      }
      for slot in path { state[slot] = 2 }
    }

    // Sibling lists, then their order.
    for slot in 0..<count {
      let parent = forest.parents[slot]
      if parent < 0 { forest.rootList.append(slot) } else { forest.childLists[parent].append(slot) }
    }
    var validKeys: [OrderKey?] = []
    validKeys.reserveCapacity(count)
    for slot in 0..<count {
      guard case .key(let text) = orders[slot] else {
        validKeys.append(nil)
        continue
      }
      do {
        validKeys.append(try OrderKey(validating: text))
      } catch {
        validKeys.append(nil)
        repairs.append(Repair(id: forest.ids[slot], kind: .invalidKey(text, error.code)))
      }
    }
    var context = SiblingOrdering(
      orders: orders, validKeys: validKeys, repairs: repairs, rewritten: rewritten)
    forest.rootList = context.order(forest.rootList, in: &forest)
    for parent in 0..<count where !forest.childLists[parent].isEmpty {
      forest.childLists[parent] = context.order(forest.childLists[parent], in: &forest)
    }
    context.repairs.sort { a, b in
      a.id != b.id ? a.id < b.id : a.rank < b.rank
    }
    forest.checkInvariantsInDebug()
    let report = RepairReport(
      repairs: context.repairs,
      rewritten: (0..<count).filter { context.rewritten[$0] }.map { forest.ids[$0] })
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

/// Orders one sibling list of records being built, and gives every node a valid key.
@usableFromInline
struct SiblingOrdering<ID: Hashable & Comparable & Sendable> {
  @usableFromInline
  var orders: [OrderedForest<ID>.Record.Order]
  @usableFromInline
  var validKeys: [OrderKey?]
  @usableFromInline
  var repairs: [OrderedForest<ID>.Repair]
  @usableFromInline
  var rewritten: [Bool]

  @inlinable
  init(
    orders: [OrderedForest<ID>.Record.Order], validKeys: [OrderKey?],
    repairs: [OrderedForest<ID>.Repair], rewritten: [Bool]
  ) {
    self.orders = orders
    self.validKeys = validKeys
    self.repairs = repairs
    self.rewritten = rewritten
  }

  /// 0: a valid key, 1: a position, 2: no usable order.
  @inlinable
  func rank(_ slot: Int) -> Int {
    if validKeys[slot] != nil { return 0 }
    if case .position = orders[slot] { return 1 }
    return 2
  }

  @inlinable
  func position(_ slot: Int) -> Int {
    if case .position(let value) = orders[slot] { return value }
    return 0
  }

  /// Sorts `list` and assigns keys in `forest`, recording repairs.
  @inlinable
  mutating func order(_ list: [Int], in forest: inout OrderedForest<ID>) -> [Int] {
    let ids = forest.ids
    let sorted = list.sorted { a, b in
      let rankA = rank(a)
      let rankB = rank(b)
      if rankA != rankB { return rankA < rankB }
      switch rankA {
      case 0:
        let keyA = validKeys[a].unsafelyUnwrapped
        let keyB = validKeys[b].unsafelyUnwrapped
        if keyA != keyB { return keyA < keyB }
      case 1:
        let positionA = position(a)
        let positionB = position(b)
        if positionA != positionB { return positionA < positionB }
      default: break
      }
      return ids[a] < ids[b]
    }
    // Keep every valid key that is above the last kept one; key the rest between neighbours.
    var kept: [OrderKey?] = Array(repeating: nil, count: sorted.count)
    var last: (key: OrderKey, slot: Int)?
    var previousPosition: (value: Int, slot: Int)?
    for (index, slot) in sorted.enumerated() {
      switch rank(slot) {
      case 0:
        let key = validKeys[slot].unsafelyUnwrapped
        if let last, !(last.key < key) {
          repairs.append(
            OrderedForest<ID>.Repair(
              id: ids[slot], kind: .duplicateKey(key.rawValue, tiedWith: ids[last.slot])))
        } else {
          kept[index] = key
          last = (key, slot)
        }
      case 1:
        let value = position(slot)
        if let previousPosition, previousPosition.value == value {
          repairs.append(
            OrderedForest<ID>.Repair(
              id: ids[slot], kind: .duplicatePosition(value, tiedWith: ids[previousPosition.slot])))
        } else {
          previousPosition = (value, slot)
        }
      default:
        if case .missing = orders[slot] {
          repairs.append(OrderedForest<ID>.Repair(id: ids[slot], kind: .missingOrder))
        }
      }
    }
    var index = 0
    while index < sorted.count {
      if let key = kept[index] {
        forest.keys[sorted[index]] = key
        index += 1
        continue
      }
      var end = index
      while end < sorted.count && kept[end] == nil { end += 1 }
      let lower = index > 0 ? kept[index - 1] : nil
      let upper = end < sorted.count ? kept[end] : nil
      let fresh = OrderedForest<ID>.keys(end - index, between: lower, upper)
      for (offset, key) in fresh.enumerated() {
        forest.keys[sorted[index + offset]] = key
        rewritten[sorted[index + offset]] = true
      }
      index = end
    }
    return sorted
  }
}
