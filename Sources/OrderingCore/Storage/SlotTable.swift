/// A table from ids to slots (indices into the owner's records): open addressing with
/// linear probing, each bucket a bare 32-bit slot or ``empty``.
///
/// The table stores no ids: the owner names the id of a slot through an `idAt` closure, so
/// a lookup reads one bucket and then the record it needs anyway. Removal shifts later
/// entries of a probe run back instead of leaving tombstones.
///
/// Invariants (``invariantViolation(count:_:)``): the bucket count is a power of two at
/// least twice the number of entries, every slot `0..<count` has exactly one entry, and
/// every entry is reachable from its home bucket without crossing an empty bucket.
@usableFromInline
struct SlotTable: Sendable {
  /// The value of an empty bucket.
  @inlinable
  static var empty: Int32 { -1 }

  /// The buckets.
  @usableFromInline
  var buckets: [Int32]

  /// A table with no buckets.
  @inlinable
  init() { buckets = [] }

  /// A table of `bucketCount` buckets holding the slots `0..<count`, whose ids are distinct.
  ///
  /// - Complexity: O(*n*) expected.
  @inlinable
  init<ID: Hashable>(count: Int, bucketCount: Int, _ idAt: (Int) -> ID) {
    buckets = Self.filled(0..<Int32(count), bucketCount: bucketCount, idAt)
  }

  /// A table of these buckets, which hold the slots `0..<count` and keep the invariants.
  @inlinable
  init(buckets: [Int32]) { self.buckets = buckets }

  /// The bucket count for `count` entries: a power of two, at least twice the count.
  @inlinable
  static func bucketCount(for count: Int) -> Int {
    var buckets = 16
    while buckets < 2 * count { buckets *= 2 }
    return buckets
  }

  /// Finds `id`: the bucket that holds it and its slot, or the empty bucket where it would
  /// go and `nil`.
  @inlinable
  @inline(__always)
  static func probe<ID: Hashable>(
    _ id: ID, in buckets: UnsafeBufferPointer<Int32>, _ idAt: (Int) -> ID
  ) -> (bucket: Int, slot: Int?) {
    let mask = buckets.count &- 1
    var bucket = id.hashValue & mask
    while true {
      let entry = Int(buckets[bucket])
      if entry < 0 { return (bucket, nil) }
      if idAt(entry) == id { return (bucket, entry) }
      bucket = (bucket &+ 1) & mask
    }
  }

  /// The buckets of a new table holding `entries`, whose ids are distinct; negative entries
  /// (empty buckets of an old table) are skipped.
  ///
  /// An occupancy bitmap (one bit per bucket, small enough to stay in cache) finds each free
  /// bucket, so the table is written without being read.
  ///
  /// - Complexity: O(*n*) expected for *n* entries.
  @inlinable
  static func filled<ID: Hashable>(
    _ entries: some Sequence<Int32>, bucketCount: Int, _ idAt: (Int) -> ID
  ) -> [Int32] {
    var table = [Int32](repeating: empty, count: bucketCount)
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

  /// The slot of `id`, or `nil` when the table does not hold it.
  @inlinable
  @inline(__always)
  func slot<ID: Hashable>(of id: ID, _ idAt: (Int) -> ID) -> Int? {
    if buckets.isEmpty { return nil }
    return buckets.withUnsafeBufferPointer { Self.probe(id, in: $0, idAt).slot }
  }

  /// The slots of two ids, each `nil` when the table does not hold it.
  ///
  /// Both home buckets are read before either is resolved, and then both records, so the
  /// two lookups' cache misses overlap.
  @inlinable
  @inline(__always)
  func slots<ID: Hashable>(of first: ID, _ second: ID, _ idAt: (Int) -> ID) -> (Int?, Int?) {
    if buckets.isEmpty { return (nil, nil) }
    return buckets.withUnsafeBufferPointer { table in
      let mask = table.count &- 1
      let firstEntry = Int(table[first.hashValue & mask])
      let secondEntry = Int(table[second.hashValue & mask])
      let firstHit = firstEntry >= 0 && idAt(firstEntry) == first
      let secondHit = secondEntry >= 0 && idAt(secondEntry) == second
      return (
        firstHit ? firstEntry : Self.probe(first, in: table, idAt).slot,
        secondHit ? secondEntry : Self.probe(second, in: table, idAt).slot
      )
    }
  }

  /// Grows the table, when needed, to hold `count` entries; every slot below `count` that
  /// has an entry keeps it.
  ///
  /// - Complexity: O(*n*) expected when it grows.
  @inlinable
  mutating func reserve<ID: Hashable>(_ count: Int, _ idAt: (Int) -> ID) {
    if buckets.count < 2 * count {
      buckets = Self.filled(buckets, bucketCount: Self.bucketCount(for: count), idAt)
    }
  }

  /// Adds the entry of `slot`, whose id is not in the table; `count` is the number of
  /// entries afterwards.
  @inlinable
  mutating func insert<ID: Hashable>(_ slot: Int, count: Int, _ idAt: (Int) -> ID) {
    reserve(count, idAt)
    let found = buckets.withUnsafeBufferPointer { Self.probe(idAt(slot), in: $0, idAt) }
    precondition(found.slot == nil, "the id is in the table already")
    buckets[found.bucket] = Int32(slot)
  }

  /// The bucket that holds `slot`.
  @inlinable
  func bucket<ID: Hashable>(of slot: Int, _ idAt: (Int) -> ID) -> Int {
    let found = buckets.withUnsafeBufferPointer { Self.probe(idAt(slot), in: $0, idAt) }
    precondition(found.slot == slot, "the id table is corrupt")
    return found.bucket
  }

  /// Removes the entry of `slot`, shifting later entries of its probe run back so every
  /// entry stays reachable from its home bucket (no tombstones).
  @inlinable
  mutating func remove<ID: Hashable>(_ slot: Int, _ idAt: (Int) -> ID) {
    let mask = buckets.count - 1
    var hole = bucket(of: slot, idAt)
    var next = (hole + 1) & mask
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
    buckets[hole] = Self.empty
  }

  /// Points the entry of `slot` at `newSlot`, which will hold the same id.
  @inlinable
  mutating func repoint<ID: Hashable>(_ slot: Int, to newSlot: Int, _ idAt: (Int) -> ID) {
    buckets[bucket(of: slot, idAt)] = Int32(newSlot)
  }

  /// The first broken invariant for the slots `0..<count`, or `nil`.
  ///
  /// - Complexity: O(*b*) expected for *b* buckets.
  func invariantViolation<ID: Hashable>(count: Int, _ idAt: (Int) -> ID) -> String? {
    guard buckets.count >= 2 * count, buckets.isEmpty || buckets.count & (buckets.count - 1) == 0
    else {
      return "the id table has \(buckets.count) buckets for \(count) entries"
    }
    var seen = [Bool](repeating: false, count: count)
    let mask = buckets.count &- 1
    for (bucket, entry) in buckets.enumerated() where entry >= 0 {
      let slot = Int(entry)
      guard slot < count else { return "bucket \(bucket) holds slot \(slot) of \(count)" }
      guard !seen[slot] else { return "slot \(slot) has two entries" }
      seen[slot] = true
      // No empty bucket between the entry's home and the entry.
      var walk = idAt(slot).hashValue & mask
      while walk != bucket {
        guard buckets[walk] >= 0 else {
          return "slot \(slot) in bucket \(bucket) is cut off from its home bucket"
        }
        walk = (walk &+ 1) & mask
      }
    }
    if let missing = seen.firstIndex(of: false) { return "slot \(missing) has no entry" }
    return nil
  }

  /// Traps with a message when an invariant is broken for the slots `0..<count`.
  func checkInvariants<ID: Hashable>(count: Int, _ idAt: (Int) -> ID) {
    if let violation = invariantViolation(count: count, idAt) {
      preconditionFailure("SlotTable invariant broken: \(violation)")
    }
  }
}
