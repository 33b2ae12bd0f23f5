// Storage: one record per node, every sibling list in one pooled buffer, and an
// open-addressing table from id to slot.
//
// A move is a chain of dependent reads (find two ids, walk up from the place, search two
// sibling lists), so its cost is the number of cache lines it touches. Everything a move
// reads about a node (id, parent, key prefix, where its children are) sits in one record;
// the sibling lists are runs of 32-bit slots in one buffer instead of an array per node;
// and the id table holds bare slots, so a lookup reads a bucket and then the record it
// needs anyway. The keys sit apart from the records, so a record holds no reference and
// copies as plain bytes (for plain ids). Docs/Guides/OrderedForest.md has the reasoning.

extension OrderedForest {
  /// A run of slots in `pool`: one sibling list and its room to grow.
  @usableFromInline
  struct Run: Hashable, Sendable {
    /// The index of the first slot in `pool`.
    @usableFromInline
    var start: Int32
    /// The number of slots in the list.
    @usableFromInline
    var count: Int32
    /// The number of cells the run owns, from `start`.
    @usableFromInline
    var capacity: Int32

    /// An empty run that owns no cells.
    @inlinable
    init() {
      start = 0
      count = 0
      capacity = 0
    }

    @inlinable
    init(start: Int, count: Int, capacity: Int) {
      self.start = Int32(start)
      self.count = Int32(count)
      self.capacity = Int32(capacity)
    }
  }

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
    /// The parent slot, -1 for a root, or -2 for a new node not placed yet.
    @usableFromInline
    var parent: Int32
    /// Where its children are in `pool`.
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
    let pool: [Int32]
    @usableFromInline
    let start: Int
    @usableFromInline
    let endIndex: Int

    @inlinable
    init(pool: [Int32], run: Run) {
      self.pool = pool
      self.start = Int(run.start)
      self.endIndex = Int(run.count)
    }

    @inlinable
    var startIndex: Int { 0 }

    @inlinable
    subscript(position: Int) -> Int {
      precondition(position >= 0 && position < endIndex, "sibling index out of range")
      return Int(pool[start &+ position])
    }
  }
}

// MARK: - Records

extension OrderedForest {
  /// The parent slot of `slot`: -1 for a root, -2 for a new node not placed yet.
  @inlinable
  @inline(__always)
  func parentSlot(_ slot: Int) -> Int { Int(nodes[slot].parent) }

  /// The run of the sibling list under `parent` (-1 for the roots).
  @inlinable
  @inline(__always)
  func run(under parent: Int) -> Run {
    parent < 0 ? rootRun : nodes[parent].children
  }

  /// Replaces the run of the sibling list under `parent` (-1 for the roots).
  @inlinable
  @inline(__always)
  mutating func setRun(_ run: Run, under parent: Int) {
    if parent < 0 { rootRun = run } else { nodes[parent].children = run }
  }

  /// The sibling list under `parent` (-1 for the roots).
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
    let run = run(under: parent)
    precondition(index >= 0 && index < Int(run.count), "sibling index out of range")
    return Int(pool[Int(run.start) &+ index])
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
      let slot = Int(pool[base &+ middle])
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
      index < Int(run.count) && Int(pool[Int(run.start) &+ index]) == slot,
      "forest sibling lists are corrupt")
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

  /// Takes `slot` out of its parent's sibling list (its parent pointer is left as is).
  ///
  /// - Parameter position: The slot's index among its siblings, when the caller knows it.
  @inlinable
  mutating func detach(_ slot: Int, at position: Int? = nil) {
    removeFromRun(at: position ?? siblingPosition(of: slot), under: parentSlot(slot))
  }

  /// Puts `slot` under `parent` with `key`; the key must not be taken there.
  ///
  /// - Parameters:
  ///   - prefix: The key's prefix, when the caller has it.
  ///   - position: The index the key takes among the siblings, when the caller knows it.
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

  /// Where `key` goes among the children of `parent` (-1 for the roots); the key must not
  /// be taken there.
  @inlinable
  @inline(__always)
  func insertionIndex(of key: OrderKey, prefix: UInt64, under parent: Int) -> Int {
    let index = lowerBound(key, prefix: prefix, under: parent)
    let run = run(under: parent)
    let isFree = index == Int(run.count) || keys[Int(pool[Int(run.start) &+ index])] != key
    precondition(isFree, "duplicate sibling key")
    return index
  }

  /// Reserves room for `capacity` nodes.
  @inlinable
  mutating func reserveCapacity(_ capacity: Int) {
    nodes.reserveCapacity(capacity)
    keys.reserveCapacity(capacity)
    if buckets.count < 2 * capacity { rehash(bucketCount: Self.bucketCount(for: capacity)) }
  }

  /// Appends a slot for `id` (a root not in any sibling list yet) and returns it.
  @inlinable
  mutating func appendSlot(_ id: ID, key: OrderKey) -> Int {
    let slot = nodes.count
    nodes.append(Node(id: id, prefix: key.prefix, parent: -1))
    keys.append(key)
    insertInTable(slot)
    return slot
  }

  /// Removes a detached, childless slot, moving the last slot into its place.
  @inlinable
  mutating func removeSlot(_ slot: Int) {
    precondition(childCount(ofSlot: slot) == 0, "cannot remove a node that still has children")
    let last = nodes.count - 1
    removeFromTable(slot)
    poolGarbage += Int(nodes[slot].children.capacity)
    if slot != last {
      // The last slot moves into `slot`: fix its table entry, its parent's list and its
      // children.
      let position = siblingPosition(of: last)
      pool[Int(run(under: parentSlot(last)).start) + position] = Int32(slot)
      repointInTable(last, to: slot)
      nodes[slot] = nodes[last]
      keys[slot] = keys[last]
      let children = nodes[slot].children
      for index in Int(children.start)..<Int(children.start) + Int(children.count) {
        nodes[Int(pool[index])].parent = Int32(slot)
      }
    }
    nodes.removeLast()
    keys.removeLast()
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

  /// Runs the full invariant check after a mutation in debug builds.
  @inlinable
  @inline(__always)
  func checkInvariantsInDebug() {
    #if DEBUG
      checkInvariants()
    #endif
  }
}

// MARK: - The pool of sibling lists

extension OrderedForest {
  /// Inserts `slot` at `index` of the sibling list under `parent`, growing its run when full.
  ///
  /// - Complexity: O(*k*) for *k* siblings; amortized O(1) more for growing.
  @inlinable
  mutating func insertIntoRun(_ slot: Int, at index: Int, under parent: Int) {
    var run = run(under: parent)
    precondition(index >= 0 && index <= Int(run.count), "sibling index out of range")
    if run.count == run.capacity { run = grow(run, under: parent) }
    let base = Int(run.start)
    let moved = Int(run.count) - index
    pool.withUnsafeMutableBufferPointer { cells in
      let at = cells.baseAddress.unsafelyUnwrapped + base + index
      if moved > 0 {
        UnsafeMutableRawPointer(at + 1).copyMemory(
          from: at, byteCount: moved * MemoryLayout<Int32>.stride)
      }
      at.pointee = Int32(slot)
    }
    run.count += 1
    setRun(run, under: parent)
  }

  /// Removes the slot at `index` of the sibling list under `parent`.
  ///
  /// - Complexity: O(*k*) for *k* siblings.
  @inlinable
  mutating func removeFromRun(at index: Int, under parent: Int) {
    var run = run(under: parent)
    precondition(index >= 0 && index < Int(run.count), "sibling index out of range")
    let base = Int(run.start)
    let moved = Int(run.count) - index - 1
    if moved > 0 {
      pool.withUnsafeMutableBufferPointer { cells in
        let at = cells.baseAddress.unsafelyUnwrapped + base + index
        UnsafeMutableRawPointer(at).copyMemory(
          from: at + 1, byteCount: moved * MemoryLayout<Int32>.stride)
      }
    }
    run.count -= 1
    setRun(run, under: parent)
  }

  /// Gives a full run room to grow: in place when it ends the pool, else in new cells at the
  /// end. Returns the new run.
  ///
  /// Every node sits in exactly one run, so the pool holds `count` live slots; when growing
  /// would take it past three times that (plus a little), the pool is compacted first. A
  /// compaction costs O(*n*) and comes after at least 2*n* new cells, so growing stays
  /// amortized O(1) per insert and the pool stays under about 3*n* cells.
  ///
  /// - Complexity: O(*k*) to copy the run; amortized O(1) per insert.
  @inlinable
  mutating func grow(_ run: Run, under parent: Int) -> Run {
    var run = run
    let capacity = max(4, Int(run.capacity) * 2)
    if pool.count + capacity > 3 * nodes.count + 1024 {
      compactPool()
      run = self.run(under: parent)
    }
    precondition(pool.count + capacity <= Int(Int32.max), "the forest is too large")
    if Int(run.start) + Int(run.capacity) == pool.count {
      pool.append(contentsOf: repeatElement(-1, count: capacity - Int(run.capacity)))
      run.capacity = Int32(capacity)
      return run
    }
    let start = pool.count
    for index in Int(run.start)..<Int(run.start) + Int(run.count) { pool.append(pool[index]) }
    pool.append(contentsOf: repeatElement(-1, count: capacity - Int(run.count)))
    poolGarbage += Int(run.capacity)
    run.start = Int32(start)
    run.capacity = Int32(capacity)
    return run
  }

  /// Copies every run into a new pool, in slot order, each with no spare room.
  ///
  /// - Complexity: O(*n*), where *n* is the number of nodes.
  @inlinable
  mutating func compactPool() {
    var fresh: [Int32] = []
    fresh.reserveCapacity(nodes.count + 1024)
    func copy(_ run: Run) -> Run {
      let start = fresh.count
      fresh.append(contentsOf: pool[Int(run.start)..<Int(run.start) + Int(run.count)])
      return Run(start: start, count: Int(run.count), capacity: Int(run.count))
    }
    rootRun = copy(rootRun)
    for slot in nodes.indices { nodes[slot].children = copy(nodes[slot].children) }
    pool = fresh
    poolGarbage = 0
  }
}

// MARK: - The id table

extension OrderedForest {
  /// The bucket count for `count` nodes: a power of two, at least twice the count.
  @inlinable
  static func bucketCount(for count: Int) -> Int {
    var buckets = 16
    while buckets < 2 * count { buckets *= 2 }
    return buckets
  }

  /// Finds `id` in a table whose entries name ids through `idAt`: the bucket that holds it
  /// and its entry, or the empty bucket where it would go and `nil`.
  @inlinable
  @inline(__always)
  static func probe(
    _ id: ID, in buckets: UnsafeBufferPointer<Int32>, _ idAt: (Int) -> ID
  ) -> (bucket: Int, entry: Int?) {
    let mask = buckets.count &- 1
    var bucket = id.hashValue & mask
    while true {
      let entry = Int(buckets[bucket])
      if entry < 0 { return (bucket, nil) }
      if idAt(entry) == id { return (bucket, entry) }
      bucket = (bucket &+ 1) & mask
    }
  }

  /// A new table of `bucketCount` buckets holding `entries`, whose ids (named through
  /// `idAt`) are distinct; negative entries (empty buckets of an old table) are skipped.
  ///
  /// An occupancy bitmap (one bit per bucket, small enough to stay in cache) finds each free
  /// bucket, so the table is written without being read.
  ///
  /// - Complexity: O(*n*) expected for *n* entries.
  @inlinable
  static func rehashed(
    _ entries: some Sequence<Int32>, bucketCount: Int, _ idAt: (Int) -> ID
  ) -> [Int32] {
    var table = [Int32](repeating: -1, count: bucketCount)
    var used = [UInt64](repeating: 0, count: (bucketCount + 63) / 64)
    let mask = bucketCount - 1
    table.withUnsafeMutableBufferPointer { table in
      used.withUnsafeMutableBufferPointer { used in
        for entry in entries where entry >= 0 {
          var bucket = idAt(Int(entry)).hashValue & mask
          while used[bucket &>> 6] & (1 &<< UInt64(bucket & 63)) != 0 {
            bucket = (bucket &+ 1) & mask
          }
          used[bucket &>> 6] |= 1 &<< UInt64(bucket & 63)
          table[bucket] = entry
        }
      }
    }
    return table
  }

  /// Empties `bucket`, shifting later entries of its probe run back so every entry stays
  /// reachable from its home bucket (no tombstones).
  @inlinable
  static func vacate(_ bucket: Int, in buckets: inout [Int32], _ idAt: (Int) -> ID) {
    let mask = buckets.count - 1
    var hole = bucket
    var next = (bucket + 1) & mask
    while buckets[next] >= 0 {
      let entry = buckets[next]
      let home = idAt(Int(entry)).hashValue & mask
      // The entry may fill the hole when its home is not after the hole on its way here.
      if (next &- home) & mask >= (next &- hole) & mask {
        buckets[hole] = entry
        hole = next
      }
      next = (next + 1) & mask
    }
    buckets[hole] = -1
  }

  /// The slot of `id`, or `nil` when the forest does not hold it.
  @inlinable
  @inline(__always)
  func slotOf(_ id: ID) -> Int? {
    if buckets.isEmpty { return nil }
    return buckets.withUnsafeBufferPointer { table in
      nodes.withUnsafeBufferPointer { nodes in
        Self.probe(id, in: table) { nodes[$0].id }.entry
      }
    }
  }

  /// The slots of two ids, each `nil` when the forest does not hold it; `nil` for the
  /// second id asks for the first only.
  ///
  /// Both first buckets are read before either is resolved, and then both records, so the
  /// two lookups' cache misses overlap: a move looks up its node and its anchor this way.
  @inlinable
  @inline(__always)
  func slotsOf(_ first: ID, _ second: ID?) -> (Int?, Int?) {
    guard let second, !buckets.isEmpty else { return (slotOf(first), second.flatMap(slotOf)) }
    return buckets.withUnsafeBufferPointer { table in
      nodes.withUnsafeBufferPointer { nodes in
        let mask = table.count &- 1
        let firstEntry = Int(table[first.hashValue & mask])
        let secondEntry = Int(table[second.hashValue & mask])
        let firstHit = firstEntry >= 0 && nodes[firstEntry].id == first
        let secondHit = secondEntry >= 0 && nodes[secondEntry].id == second
        return (
          firstHit ? firstEntry : Self.probe(first, in: table) { nodes[$0].id }.entry,
          secondHit ? secondEntry : Self.probe(second, in: table) { nodes[$0].id }.entry
        )
      }
    }
  }

  /// Rebuilds the table with `bucketCount` buckets.
  ///
  /// - Complexity: O(*n*) expected.
  @inlinable
  mutating func rehash(bucketCount: Int) {
    let nodes = self.nodes
    buckets = nodes.withUnsafeBufferPointer { nodes in
      Self.rehashed(0..<Int32(nodes.count), bucketCount: bucketCount) { nodes[$0].id }
    }
  }

  /// Adds the table entry of `slot`, whose id is not in the table.
  @inlinable
  mutating func insertInTable(_ slot: Int) {
    if buckets.count < 2 * nodes.count {
      // Every other slot already has its entry; add this one after the rehash.
      let nodes = self.nodes
      buckets = nodes.withUnsafeBufferPointer { nodes in
        Self.rehashed(buckets, bucketCount: Self.bucketCount(for: nodes.count)) { nodes[$0].id }
      }
    }
    let id = nodes[slot].id
    let bucket = buckets.withUnsafeBufferPointer { table in
      nodes.withUnsafeBufferPointer { nodes in
        Self.probe(id, in: table) { nodes[$0].id }
      }
    }
    precondition(bucket.entry == nil, "the id is in the forest already")
    buckets[bucket.bucket] = Int32(slot)
  }

  /// Removes the table entry of `slot`.
  @inlinable
  mutating func removeFromTable(_ slot: Int) {
    let bucket = bucket(of: slot)
    let nodes = self.nodes
    Self.vacate(bucket, in: &buckets) { nodes[$0].id }
  }

  /// Points the table entry of `slot` at `newSlot`.
  @inlinable
  mutating func repointInTable(_ slot: Int, to newSlot: Int) {
    buckets[bucket(of: slot)] = Int32(newSlot)
  }

  /// The bucket that holds `slot`.
  @inlinable
  func bucket(of slot: Int) -> Int {
    let found = buckets.withUnsafeBufferPointer { table in
      nodes.withUnsafeBufferPointer { nodes in
        Self.probe(nodes[slot].id, in: table) { nodes[$0].id }
      }
    }
    precondition(found.entry == slot, "the id table is corrupt")
    return found.bucket
  }
}
