// The records: one per node, with every sibling list in a `RunPool` and an id → slot
// `SlotTable`.
//
// A move is a chain of dependent reads (find two ids, walk up from the place, search two
// sibling lists), so its cost is the number of cache lines it touches. Everything a move
// reads about a node (id, parent, key prefix, where its children are) sits in one record;
// the sibling lists are runs of 32-bit slots in one buffer instead of an array per node;
// and the id table holds bare slots, so a lookup reads a bucket and then the record it
// needs anyway. The keys sit apart from the records, so a record holds no reference and
// copies as plain bytes (for plain ids). Docs/Guides/OrderedForest.md has the reasoning.

extension OrderedForest {
  /// A run of slots in the pool: one sibling list and its room to grow.
  @usableFromInline
  typealias Run = RunPool.Run

  /// The parent slot of a root, and the parent of the root level's gaps.
  @inlinable
  static var rootLevel: Int { -1 }

  /// The parent slot of a new node that an insert has not placed yet: it is in the id
  /// table but in no sibling list.
  @inlinable
  static var unplaced: Int { -2 }

  /// The record of one slot.
  @usableFromInline
  struct Node: Sendable {
    /// The node's id.
    @usableFromInline
    var id: ID
    /// The first 8 bytes of its key as a number (see `OrderKey.prefix`), so sibling searches
    /// compare integers and read a key only when two prefixes tie.
    @usableFromInline
    var prefix: UInt64
    /// The parent slot, ``OrderedForest/rootLevel`` for a root, or
    /// ``OrderedForest/unplaced`` for a new node not placed yet.
    @usableFromInline
    var parent: Int32
    /// Where its children are in the pool.
    @usableFromInline
    var children: Run

    @inlinable
    init(id: ID, prefix: UInt64, parent: Int, children: Run = Run()) {
      self.id = id
      self.prefix = prefix
      self.parent = Int32(parent)
      self.children = children
    }
  }

  /// A sibling list read from the pool, indexed from 0.
  ///
  /// It holds the pool's buffer: let it go before the forest changes, or the change copies
  /// the pool.
  @usableFromInline
  struct SlotList: RandomAccessCollection {
    @usableFromInline
    let cells: [Int32]
    @usableFromInline
    let start: Int
    @usableFromInline
    let endIndex: Int

    @inlinable
    init(pool: RunPool, run: Run) {
      self.cells = pool.cells
      self.start = Int(run.start)
      self.endIndex = Int(run.count)
    }

    @inlinable
    var startIndex: Int { 0 }

    @inlinable
    subscript(position: Int) -> Int {
      precondition(position >= 0 && position < endIndex, "sibling index out of range")
      return Int(cells[start &+ position])
    }
  }
}

// MARK: - Reading the records

extension OrderedForest {
  /// The parent slot of `slot`: ``rootLevel`` for a root, ``unplaced`` for a new node not
  /// placed yet.
  @inlinable
  @inline(__always)
  func parentSlot(_ slot: Int) -> Int { Int(nodes[slot].parent) }

  /// The run of the sibling list under `parent` (``rootLevel`` for the roots).
  @inlinable
  @inline(__always)
  func run(under parent: Int) -> Run {
    parent < 0 ? rootRun : nodes[parent].children
  }

  /// Replaces the run of the sibling list under `parent` (``rootLevel`` for the roots).
  @inlinable
  @inline(__always)
  mutating func setRun(_ run: Run, under parent: Int) {
    if parent < 0 { rootRun = run } else { nodes[parent].children = run }
  }

  /// Every live run: the roots' first, then each slot's children.
  var allRuns: [Run] { [rootRun] + nodes.map(\.children) }

  /// The sibling list under `parent` (``rootLevel`` for the roots).
  @inlinable
  @inline(__always)
  func siblingSlots(under parent: Int) -> SlotList {
    SlotList(pool: pool, run: run(under: parent))
  }

  /// The child slots of `slot`.
  @inlinable
  @inline(__always)
  func childSlots(_ slot: Int) -> SlotList {
    SlotList(pool: pool, run: nodes[slot].children)
  }

  /// The number of children of `slot`.
  @inlinable
  @inline(__always)
  func childCount(ofSlot slot: Int) -> Int { Int(nodes[slot].children.count) }

  /// The slot at `index` in the sibling list under `parent`.
  @inlinable
  @inline(__always)
  func slot(at index: Int, under parent: Int) -> Int {
    Int(pool[index, in: run(under: parent)])
  }

  /// The first index in the sibling list under `parent` whose key is not below `key`.
  @inlinable
  @inline(__always)
  func lowerBound(_ key: OrderKey, prefix: UInt64, under parent: Int) -> Int {
    let run = run(under: parent)
    let base = Int(run.start)
    var low = 0
    var high = Int(run.count)
    while low < high {
      let middle = (low &+ high) >> 1
      let slot = Int(pool.cells[base &+ middle])
      let other = nodes[slot].prefix
      if other < prefix || (other == prefix && keys[slot] < key) {
        low = middle &+ 1
      } else {
        high = middle
      }
    }
    return low
  }

  /// The index of `slot` in its parent's sibling list.
  @inlinable
  @inline(__always)
  func siblingPosition(of slot: Int) -> Int {
    let parent = parentSlot(slot)
    let index = lowerBound(keys[slot], prefix: nodes[slot].prefix, under: parent)
    let run = run(under: parent)
    precondition(
      index < Int(run.count) && Int(pool.cells[Int(run.start) &+ index]) == slot,
      "forest sibling lists are corrupt")
    return index
  }

  /// Where `key` goes among the children of `parent` (``rootLevel`` for the roots); the key
  /// must not be taken there.
  @inlinable
  @inline(__always)
  func insertionIndex(of key: OrderKey, prefix: UInt64, under parent: Int) -> Int {
    let index = lowerBound(key, prefix: prefix, under: parent)
    let run = run(under: parent)
    let isFree = index == Int(run.count) || keys[Int(pool.cells[Int(run.start) &+ index])] != key
    precondition(isFree, "duplicate sibling key")
    return index
  }

  /// The depth of `slot`: 0 for a root.
  @inlinable
  func depth(ofSlot slot: Int) -> Int {
    var depth = 0
    var current = parentSlot(slot)
    while current >= 0 {
      depth += 1
      current = parentSlot(current)
    }
    return depth
  }

  /// The depth of the nodes in a gap under `parent`: 0 at the root level.
  @inlinable
  func depth(under parent: Int) -> Int {
    parent < 0 ? 0 : depth(ofSlot: parent) + 1
  }

  /// The id of a parent slot, `nil` at the root level.
  @inlinable
  @inline(__always)
  func parentID(_ parent: Int) -> ID? {
    parent < 0 ? nil : nodes[parent].id
  }

  /// The height of the subtree at `slot` (0 for a leaf), or `cap` when it is at least `cap`.
  @inlinable
  func height(ofSlot slot: Int, cappedAt cap: Int = .max) -> Int {
    if childCount(ofSlot: slot) == 0 { return 0 }
    var height = 0
    var stack: [(Int, Int)] = [(slot, 0)]
    while let (current, depth) = stack.popLast() {
      if depth > height {
        height = depth
        if height >= cap { return cap }
      }
      for child in childSlots(current) { stack.append((child, depth + 1)) }
    }
    return height
  }

  /// The key strictly between two sibling keys, with its prefix; the bounds come from a
  /// valid forest.
  @inlinable
  static func key(between lower: OrderKey?, _ upper: OrderKey?) -> (key: OrderKey, prefix: UInt64) {
    guard let made = OrderKey.betweenWithPrefix(lower, upper) else {
      preconditionFailure(
        "no key between sibling keys \(lower.map { "\($0)" } ?? "nil") and \(upper.map { "\($0)" } ?? "nil")"
      )
    }
    return made
  }

  /// `count` keys strictly between two sibling keys.
  @inlinable
  static func keys(_ count: Int, between lower: OrderKey?, _ upper: OrderKey?) -> [OrderKey] {
    do {
      return try OrderKey.spread(count, between: lower, and: upper)
    } catch {
      preconditionFailure("sibling keys are not ascending: \(error)")
    }
  }
}
