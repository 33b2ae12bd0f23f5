/// The first passes of ``OrderedForest/build(from:constraints:)``: one entry per distinct
/// id in record order, each with its parent, its order read once, and the repairs found.
///
/// The id table that finds repeated ids also resolves the parents, and it becomes the
/// forest's id table with its buckets renumbered from entries to slots: each id and each
/// parent is hashed once in a whole build. A key's text is validated and its prefix taken in
/// one pass over its bytes, and the record's string becomes the entry's key with no other
/// copy on the way.
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
  /// Every fix found so far, in the order found.
  @usableFromInline
  var repairs: [Repair] = []
  /// The id table: each bucket an entry number or `SlotTable.empty`, a power of two at least
  /// twice the entries.
  @usableFromInline
  var buckets: [Int32]
  /// The first entry after the first repeated id: entries before it sit at their record's
  /// index, the others' record indices are in `laterRecordIndices`.
  @usableFromInline
  var firstLaterEntry = Int.max
  @usableFromInline
  var laterRecordIndices: [Int] = []

  /// An intake with room for `expected` entries.
  @inlinable
  init(expected: Int) {
    buckets = [Int32](repeating: SlotTable.empty, count: SlotTable.bucketCount(for: expected))
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
    var index = 0
    for record in records {
      take(record, index: index)
      index += 1
    }
  }

  /// Takes the record at `index`.
  @inlinable
  @inline(__always)
  mutating func take(_ record: Record, index: Int) {
    if 2 &* (ids.count &+ 1) > buckets.count { rehash(bucketCount: buckets.count &* 2) }
    let mask = buckets.count &- 1
    var bucket = record.id.hashValue & mask
    while true {
      let entry = Int(buckets[bucket])
      if entry < 0 { break }
      if ids[entry] == record.id {
        repairs.append(
          Repair(
            id: record.id,
            kind: .duplicateRecord(recordIndex: index, keptIndex: recordIndex(of: entry))))
        if firstLaterEntry == .max { firstLaterEntry = ids.count }
        return
      }
      bucket = (bucket &+ 1) & mask
    }
    precondition(ids.count < Int(Int32.max), "too many records for one forest")
    buckets[bucket] = Int32(truncatingIfNeeded: ids.count)
    if ids.count >= firstLaterEntry { laterRecordIndices.append(index) }
    ids.append(record.id)
    storedParents.append(record.parent)
    switch record.order {
    case .key(let text):
      do {
        prefixes.append(try OrderKey.prefix(validating: text))
        ranks.append(0)
        keys.append(OrderKey(unchecked: text))
      } catch {
        prefixes.append(0)
        ranks.append(2)
        keys.append(OrderKey(unchecked: ""))
        repairs.append(Repair(id: record.id, kind: .invalidKey(text, error.code)))
      }
    case .position(let value):
      prefixes.append(UInt64(bitPattern: Int64(value)) ^ (1 &<< 63))
      ranks.append(1)
      keys.append(OrderKey(unchecked: ""))
    case .missing:
      prefixes.append(0)
      ranks.append(2)
      keys.append(OrderKey(unchecked: ""))
      repairs.append(Repair(id: record.id, kind: .missingOrder))
    }
  }

  /// The index of the record an entry was taken from.
  @inlinable
  func recordIndex(of entry: Int) -> Int {
    entry < firstLaterEntry ? entry : laterRecordIndices[entry - firstLaterEntry]
  }

  /// Rebuilds the id table with `bucketCount` buckets.
  ///
  /// - Complexity: O(*n*) expected.
  @inlinable
  mutating func rehash(bucketCount: Int) {
    let ids = self.ids
    buckets = SlotTable.filled(0..<Int32(ids.count), bucketCount: bucketCount) { ids[$0] }
  }

  /// The entry of `id`, or `nil`.
  @inlinable
  @inline(__always)
  func entry(of id: ID) -> Int? {
    let mask = buckets.count &- 1
    var bucket = id.hashValue & mask
    while true {
      let entry = Int(buckets[bucket])
      if entry < 0 { return nil }
      if ids[entry] == id { return entry }
      bucket = (bucket &+ 1) & mask
    }
  }

  /// Each entry's parent entry, or -1 for a root; a parent that does not exist makes a root,
  /// reported and marked rewritten.
  ///
  /// - Complexity: O(*n*) expected.
  @inlinable
  mutating func resolveParents(rewritten: inout [Bool]) -> [Int32] {
    var parents = [Int32](repeating: -1, count: count)
    for entry in 0..<count {
      guard let parent = storedParents[entry] else { continue }
      if let parentEntry = self.entry(of: parent) {
        parents[entry] = Int32(truncatingIfNeeded: parentEntry)
      } else {
        repairs.append(Repair(id: ids[entry], kind: .missingParent(parent)))
        rewritten[entry] = true
      }
    }
    storedParents = []
    return parents
  }

  /// Cuts every parent cycle at its smallest id, which becomes a root, reported and marked
  /// rewritten.
  ///
  /// Walks up from every entry not seen yet; a walk that meets itself found a cycle.
  ///
  /// - Complexity: O(*n*).
  @inlinable
  mutating func cutCycles(_ parents: inout [Int32], rewritten: inout [Bool]) {
    var state = [UInt8](repeating: 0, count: count)  // 0 new, 1 on the walk, 2 done
    var path: [Int] = []
    for start in 0..<count where state[start] == 0 {
      // Most walks end at once: a root, or a parent already walked.
      let parent = Int(parents[start])
      if parent < 0 || state[parent] == 2 {
        state[start] = 2
        continue
      }
      var length = 0
      var current = start
      while current >= 0 && state[current] == 0 {
        state[current] = 1
        if length < path.count { path[length] = current } else { path.append(current) }
        length += 1
        current = Int(parents[current])
      }
      if current >= 0 && state[current] == 1, let first = path[..<length].lastIndex(of: current) {
        let cut = path[first..<length].min { ids[$0] < ids[$1] } ?? current
        var members = [ids[cut]]
        var member = Int(parents[cut])
        while member != cut {
          members.append(ids[member])
          member = Int(parents[member])
        }
        parents[cut] = -1
        rewritten[cut] = true
        repairs.append(Repair(id: ids[cut], kind: .cycle(members)))
      }
      for entry in path[..<length] { state[entry] = 2 }
    }
  }

  /// Hands the id table to the forest: each entry's bucket then holds the entry's slot.
  ///
  /// - Complexity: O(*b*) for *b* buckets.
  @inlinable
  mutating func takeTable(slots: [Int32]) -> SlotTable {
    // Many repeated ids leave more buckets than the entries need: hash them again.
    let wanted = SlotTable.bucketCount(for: count)
    if buckets.count > 2 * wanted { rehash(bucketCount: wanted) }
    var buckets = self.buckets
    self.buckets = []
    buckets.withUnsafeMutableBufferPointer { buckets in
      slots.withUnsafeBufferPointer { slots in
        for bucket in buckets.indices where buckets[bucket] >= 0 {
          buckets[bucket] = slots[Int(buckets[bucket])]
        }
      }
    }
    return SlotTable(buckets: buckets)
  }
}
