// The ordering pass of a build: each sibling group sorted, and every entry given a valid key.

/// One entry in the build's grouped array: siblings side by side, with what ordering them
/// and laying them out reads, so those passes read memory in order.
@usableFromInline
struct SiblingItem {
  /// The entry's prefix: its key's first 8 bytes, or its position (see `RecordIntake`).
  @usableFromInline
  var prefix: UInt64
  /// The entry.
  @usableFromInline
  var entry: Int32
  /// Where the entry's own children start in the grouped array.
  @usableFromInline
  var childStart: Int32
  /// Where the entry's own children end in the grouped array.
  @usableFromInline
  var childEnd: Int32
  /// The entry's rank (see `RecordIntake.ranks`).
  @usableFromInline
  var rank: UInt8

  @inlinable
  init(prefix: UInt64, entry: Int32, rank: UInt8) {
    self.prefix = prefix
    self.entry = entry
    self.childStart = 0
    self.childEnd = 0
    self.rank = rank
  }
}

extension RecordIntake {
  /// The entries grouped by parent: group 0 the roots, group *e* + 1 the children of entry
  /// *e*, each group in entry order, with `offsets[g]..<offsets[g + 1]` the range of group
  /// *g*; each item knows the range of its own children.
  ///
  /// - Complexity: O(*n*).
  @inlinable
  func grouped(parents: [Int32]) -> (items: [SiblingItem], offsets: [Int32]) {
    let count = self.count
    // Each group's size is counted at g + 2; the sums make g + 1 its start, and filling
    // moves that to its end, which is the start of group g + 1.
    var offsets = [Int32](repeating: 0, count: count &+ 3)
    let items = [SiblingItem](unsafeUninitializedCapacity: count) { items, initialized in
      parents.withUnsafeBufferPointer { parents in
        offsets.withUnsafeMutableBufferPointer { offsets in
          for entry in 0..<count { offsets[Int(parents[entry]) &+ 3] &+= 1 }
          for group in 1..<offsets.count { offsets[group] &+= offsets[group &- 1] }
          prefixes.withUnsafeBufferPointer { prefixes in
            ranks.withUnsafeBufferPointer { ranks in
              for entry in 0..<count {
                let next = Int(parents[entry]) &+ 2
                items.initializeElement(
                  at: Int(offsets[next]),
                  to: SiblingItem(
                    prefix: prefixes[entry], entry: Int32(truncatingIfNeeded: entry),
                    rank: ranks[entry]))
                offsets[next] &+= 1
              }
            }
          }
          // A separate loop: its reads of the offsets do not depend on each other.
          for index in 0..<count {
            let entry = Int(items[index].entry)
            items[index].childStart = offsets[entry &+ 1]
            items[index].childEnd = offsets[entry &+ 2]
          }
        }
      }
      initialized = count
    }
    return (items, offsets)
  }

  /// Whether `a` goes before `b` among siblings: valid keys first, then positions, then the
  /// rest; keys and positions in order (integers first, the keys' bytes only when their
  /// prefixes tie); the smaller id first where they are equal.
  @inlinable
  @inline(__always)
  func precedes(_ a: SiblingItem, _ b: SiblingItem) -> Bool {
    if a.rank != b.rank { return a.rank < b.rank }
    if a.prefix != b.prefix { return a.prefix < b.prefix }
    let entryA = Int(a.entry)
    let entryB = Int(b.entry)
    if a.rank == 0 && keys[entryA] != keys[entryB] { return keys[entryA] < keys[entryB] }
    return ids[entryA] < ids[entryB]
  }

  /// Sorts the sibling group `items[range]` in place and gives each entry in it a key,
  /// reporting tied keys and positions and marking every entry that got a new key.
  ///
  /// A valid key stays unless it ties with the sibling before it; each run of entries
  /// without a kept key gets keys spread between the kept keys around it.
  ///
  /// - Complexity: O(*k* log *k* · *m*) for *k* siblings and keys of length *m*; O(*k*)
  ///   comparisons of integers when the group is in order already.
  @inlinable
  mutating func order(
    _ items: UnsafeMutableBufferPointer<SiblingItem>, _ range: Range<Int>,
    rewritten: inout [Bool]
  ) {
    // One entry with a valid key, the most common group, keeps it.
    if range.count == 1 && items[range.lowerBound].rank == 0 { return }
    if range.count <= 32 {
      // Insertion sort: few comparisons for a short group, one each when it is in order.
      for index in range.dropFirst() {
        let item = items[index]
        var hole = index
        while hole > range.lowerBound && precedes(item, items[hole &- 1]) {
          items[hole] = items[hole &- 1]
          hole &-= 1
        }
        items[hole] = item
      }
    } else {
      var sorted = true
      for index in range.dropFirst() where !precedes(items[index - 1], items[index]) {
        sorted = false
        break
      }
      if !sorted {
        var group = UnsafeMutableBufferPointer(rebasing: items[range])
        group.sort { precedes($0, $1) }
      }
    }
    var lastKept = -1
    var firstOfPosition = -1
    var anyNew = false
    for index in range {
      let entry = Int(items[index].entry)
      switch items[index].rank {
      case 0:
        // Sorted, so a key whose prefix differs from the last kept one is above it.
        if lastKept >= 0 && items[lastKept].prefix == items[index].prefix
          && !(keys[Int(items[lastKept].entry)] < keys[entry])
        {
          let other = ids[Int(items[lastKept].entry)]
          repairs.append(
            Repair(id: ids[entry], kind: .duplicateKey(keys[entry].rawValue, tiedWith: other)))
          items[index].rank = 3  // Needs a new key.
          anyNew = true
        } else {
          lastKept = index
        }
      case 1:
        if firstOfPosition >= 0 && items[firstOfPosition].prefix == items[index].prefix {
          let position = Int(Int64(bitPattern: items[index].prefix ^ (1 &<< 63)))
          let other = ids[Int(items[firstOfPosition].entry)]
          repairs.append(
            Repair(id: ids[entry], kind: .duplicatePosition(position, tiedWith: other)))
        } else {
          firstOfPosition = index
        }
        anyNew = true
      default:
        anyNew = true
      }
    }
    guard anyNew else { return }
    var index = range.lowerBound
    var lower: OrderKey?
    while index < range.upperBound {
      if items[index].rank == 0 {
        lower = keys[Int(items[index].entry)]
        index += 1
        continue
      }
      var end = index
      while end < range.upperBound && items[end].rank != 0 { end += 1 }
      let upper = end < range.upperBound ? keys[Int(items[end].entry)] : nil
      let fresh = OrderedForest<ID>.keys(end - index, between: lower, upper)
      for (offset, key) in fresh.enumerated() {
        let entry = Int(items[index + offset].entry)
        keys[entry] = key
        items[index + offset].prefix = key.prefix
        rewritten[entry] = true
      }
      index = end
    }
  }
}
