/// The first passes of ``OrderedForest/build(from:constraints:)``: one entry per distinct
/// id in record order, each with its parent, its order read once, and the repairs found.
///
/// At a million records a build's cost is memory traffic, not instructions: every lookup in
/// the id table is a cache miss. So the passes are split by how they touch memory. One pass
/// reads the records front to back (ids, parents, keys validated and their prefixes taken);
/// then the id table is filled, and later every parent looked up, in tight loops over blocks
/// of records whose hashes are computed first, so the processor has many table misses in
/// flight at once instead of one. A bucket holds the entry and the high half of the id's
/// hash, so a probe reads an id only when the hashes agree. When the slots are numbered, the
/// table becomes the forest's id table with each bucket renumbered from entry to slot: each
/// id and each parent is hashed once in a whole build.
@usableFromInline
struct RecordIntake<ID: Hashable & Comparable & Sendable> {
  @usableFromInline
  typealias Record = OrderedForest<ID>.Record
  @usableFromInline
  typealias Repair = OrderedForest<ID>.Repair

  /// Each entry's id.
  @usableFromInline
  var ids: [ID] = []
  /// Each entry's stored parent id.
  @usableFromInline
  var storedParents: [ID?] = []
  /// How each entry orders itself: 0 a valid key, 1 a position, 2 no usable order (an
  /// invalid key or none); the ordering pass marks a kept key that ties with a sibling's 3.
  @usableFromInline
  var ranks: [UInt8] = []
  /// The first 8 bytes of a valid key (see `OrderKey.prefix`), or a position with its sign
  /// bit flipped (so positions order as unsigned numbers), or 0.
  @usableFromInline
  var prefixes: [UInt64] = []
  /// A valid stored key; an empty placeholder for every other entry until the ordering pass
  /// gives it a key.
  @usableFromInline
  var keys: [OrderKey] = []
  /// Every fix found so far.
  @usableFromInline
  var repairs: [Repair] = []
  /// The id table: each bucket ``vacant``, or an entry in its low 32 bits and the high 32
  /// bits of its id's hash above; a power of two at least twice the entries.
  @usableFromInline
  var buckets: [UInt64] = []

  /// The value of an empty bucket (no entry number is `UInt32.max`).
  @inlinable
  static var vacant: UInt64 { .max }

  /// The records a block of the table's loops hashes before it probes: enough misses to
  /// keep the processor busy, few enough hashes to stay in the first-level cache.
  @inlinable
  static var blockSize: Int { 256 }

  /// A bucket's high half for an id with this hash: the hash's top 32 bits.
  @inlinable @inline(__always)
  static func tag(_ hash: Int) -> UInt64 { UInt64(UInt(bitPattern: hash)) & 0xFFFF_FFFF_0000_0000 }

  /// Looks an id with this hash up in the id table: the entry whose id `isMatch` accepts, or
  /// nil and the vacant bucket where the id would go.
  ///
  /// - Complexity: O(1) expected (the table is at most half full).
  @inlinable @inline(__always)
  static func probe(
    _ table: UnsafeBufferPointer<UInt64>, hash: Int, isMatch: (Int) -> Bool
  ) -> (entry: Int?, bucket: Int) {
    let mask = table.count &- 1
    let tag = tag(hash)
    var bucket = hash & mask
    while true {
      let value = table[bucket]
      if value == vacant { return (nil, bucket) }
      if value & 0xFFFF_FFFF_0000_0000 == tag {
        let entry = Int(truncatingIfNeeded: value & 0xFFFF_FFFF)
        if isMatch(entry) { return (entry, bucket) }
      }
      bucket = (bucket &+ 1) & mask
    }
  }

  /// Runs `body` on every index in `0..<count` with its hash, a block at a time: the block's
  /// hashes first, then `body` for each, so the table misses of a block overlap.
  ///
  /// - Complexity: O(*n*) calls of `hash` and `body`, for *n* = `count`.
  @inlinable @inline(__always)
  static func inBlocks(
    _ count: Int, hashes: UnsafeMutableBufferPointer<Int>, hash: (Int) -> Int,
    _ body: (_ index: Int, _ hash: Int) -> Void
  ) {
    var blockStart = 0
    while blockStart < count {
      let blockEnd = min(blockStart &+ blockSize, count)
      for index in blockStart..<blockEnd { hashes[index &- blockStart] = hash(index) }
      for index in blockStart..<blockEnd { body(index, hashes[index &- blockStart]) }
      blockStart = blockEnd
    }
  }

  /// An intake with room for `expected` records.
  @inlinable
  init(expected: Int) {
    ids.reserveCapacity(expected)
    storedParents.reserveCapacity(expected)
    ranks.reserveCapacity(expected)
    prefixes.reserveCapacity(expected)
    keys.reserveCapacity(expected)
  }

  /// The number of entries.
  @inlinable
  var count: Int { ids.count }

  /// Takes every record: the first of each id becomes an entry, a repeat is reported.
  ///
  /// - Complexity: O(*n* · *m*) expected, for *n* records and keys of length *m*.
  @inlinable
  mutating func take(_ records: some Sequence<Record>) {
    // Repairs of the order of records that turn out to repeat an id are dropped later: the
    // record index of each order repair, in the order found.
    var orderRepairRecords: [Int] = []
    for record in records {
      if let repair = read(record) {
        orderRepairRecords.append(ids.count)
        repairs.append(repair)
      }
      ids.append(record.id)
      storedParents.append(record.parent)
    }
    precondition(ids.count < Int(Int32.max), "too many records for one forest")
    let repeated = fillTable()
    if !repeated.isEmpty { dropRepeated(repeated, orderRepairRecords: orderRepairRecords) }
  }

  /// Reads a record's order into `ranks`, `prefixes` and `keys`; returns the repair when the
  /// order is invalid or missing.
  ///
  /// - Complexity: O(*m*) for a key of length *m*.
  @inlinable
  @inline(__always)
  mutating func read(_ record: Record) -> Repair? {
    switch record.order {
    case .key(let text):
      do {
        prefixes.append(try OrderKey.prefix(validating: text))
        ranks.append(0)
        keys.append(OrderKey(unchecked: text))
        return nil
      } catch {
        prefixes.append(0)
        ranks.append(2)
        keys.append(OrderKey(unchecked: ""))
        return Repair(id: record.id, kind: .invalidKey(text, error.code))
      }
    case .position(let value):
      prefixes.append(UInt64(bitPattern: Int64(value)) ^ (1 &<< 63))
      ranks.append(1)
      keys.append(OrderKey(unchecked: ""))
      return nil
    case .missing:
      prefixes.append(0)
      ranks.append(2)
      keys.append(OrderKey(unchecked: ""))
      return Repair(id: record.id, kind: .missingOrder)
    }
  }

  /// Puts every record in the id table, block by block; reports each record that repeats an
  /// id and returns their indices, ascending.
  ///
  /// - Complexity: O(*n*) expected.
  @inlinable
  mutating func fillTable() -> [Int] {
    let count = ids.count
    var table = [UInt64](repeating: Self.vacant, count: SlotTable.bucketCount(for: count))
    var repeated: [Int] = []
    var hashes = [Int](repeating: 0, count: Self.blockSize)
    ids.withUnsafeBufferPointer { ids in
      table.withUnsafeMutableBufferPointer { table in
        hashes.withUnsafeMutableBufferPointer { hashes in
          Self.inBlocks(count, hashes: hashes, hash: { ids[$0].hashValue }) { index, hash in
            let probe = Self.probe(UnsafeBufferPointer(table), hash: hash) { kept in
              ids[kept] == ids[index]
            }
            if probe.entry != nil {
              repeated.append(index)
            } else {
              table[probe.bucket] = Self.tag(hash) | UInt64(index)
            }
          }
        }
      }
    }
    buckets = table
    for index in repeated {
      let kept = entry(of: ids[index]) ?? index
      repairs.append(
        Repair(id: ids[index], kind: .duplicateRecord(recordIndex: index, keptIndex: kept)))
    }
    return repeated
  }

  /// Takes the records that repeat an id out of every array (and their order repairs out of
  /// the report), and renumbers the table's buckets from records to entries.
  ///
  /// Repeated ids are rare, so this path favours plainness over speed.
  ///
  /// - Complexity: O(*n* + *b*) for *n* records and *b* buckets.
  @inlinable
  mutating func dropRepeated(_ repeated: [Int], orderRepairRecords: [Int]) {
    var isRepeat = [Bool](repeating: false, count: ids.count)
    for index in repeated { isRepeat[index] = true }
    var entryOf = [UInt64](repeating: 0, count: ids.count)
    var next: UInt64 = 0
    for index in 0..<ids.count where !isRepeat[index] {
      entryOf[index] = next
      next += 1
    }
    func keep<T>(_ values: inout [T]) {
      var kept: [T] = []
      kept.reserveCapacity(Int(next))
      for index in values.indices where !isRepeat[index] { kept.append(values[index]) }
      values = kept
    }
    keep(&ids)
    keep(&storedParents)
    keep(&ranks)
    keep(&prefixes)
    keep(&keys)
    var keptRepairs: [Repair] = []
    for (offset, repair) in repairs.enumerated() {
      if offset < orderRepairRecords.count && isRepeat[orderRepairRecords[offset]] { continue }
      keptRepairs.append(repair)
    }
    repairs = keptRepairs
    for bucket in buckets.indices where buckets[bucket] != Self.vacant {
      let record = Int(truncatingIfNeeded: buckets[bucket] & 0xFFFF_FFFF)
      buckets[bucket] = buckets[bucket] & 0xFFFF_FFFF_0000_0000 | entryOf[record]
    }
  }

  /// The entry of `id`, or `nil` (outside the tight loops: it hashes `id`).
  ///
  /// - Complexity: O(1) expected.
  @inlinable
  func entry(of id: ID) -> Int? {
    buckets.withUnsafeBufferPointer { table in
      Self.probe(table, hash: id.hashValue) { ids[$0] == id }.entry
    }
  }

  /// Hands the id table to the forest: each entry's bucket then holds the entry's slot.
  ///
  /// - Parameter slots: Each entry's slot.
  /// - Complexity: O(*b*) for *b* buckets.
  @inlinable
  mutating func takeTable(slots: [Int32]) -> SlotTable {
    // Many repeated ids leave more buckets than the entries need: hash them again.
    let wanted = SlotTable.bucketCount(for: count)
    if buckets.count > 2 * wanted {
      var entries = [Int32](repeating: 0, count: count)
      for entry in 0..<count { entries[Int(slots[entry])] = Int32(truncatingIfNeeded: entry) }
      let ids = self.ids
      return SlotTable(count: count, bucketCount: wanted) { ids[Int(entries[$0])] }
    }
    let table = [Int32](unsafeUninitializedCapacity: buckets.count) { table, initialized in
      buckets.withUnsafeBufferPointer { buckets in
        slots.withUnsafeBufferPointer { slots in
          for bucket in buckets.indices {
            let value = buckets[bucket]
            table.initializeElement(
              at: bucket,
              to: value == Self.vacant
                ? SlotTable.empty : slots[Int(truncatingIfNeeded: value & 0xFFFF_FFFF)])
          }
        }
      }
      initialized = buckets.count
    }
    buckets = []
    return SlotTable(buckets: table)
  }
}
