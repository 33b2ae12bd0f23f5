// The ordering pass of a build: each sibling group sorted, and every entry given a valid key.

extension RecordIntake {
  /// Whether entry `a` goes before entry `b` among siblings: valid keys first, then
  /// positions, then the rest; keys and positions in order (integers first, the keys' bytes
  /// only when their prefixes tie); the smaller id first where they are equal.
  @inlinable
  @inline(__always)
  func precedes(_ a: Int, _ b: Int) -> Bool {
    let rankA = ranks[a]
    let rankB = ranks[b]
    if rankA != rankB { return rankA < rankB }
    let prefixA = prefixes[a]
    let prefixB = prefixes[b]
    if prefixA != prefixB { return prefixA < prefixB }
    if rankA == 0 && keys[a] != keys[b] { return keys[a] < keys[b] }
    return ids[a] < ids[b]
  }

  /// Sorts the sibling group `flat[range]` in place and gives each entry in it a key,
  /// reporting tied keys and positions and marking every entry that got a new key.
  ///
  /// A valid key stays unless it ties with the sibling before it; each run of entries
  /// without a kept key gets keys spread between the kept keys around it.
  ///
  /// - Complexity: O(*k* log *k* · *m*) for *k* siblings and keys of length *m*; O(*k*)
  ///   comparisons of integers when the group is in order already.
  @inlinable
  mutating func order(
    _ flat: UnsafeMutableBufferPointer<Int32>, _ range: Range<Int>, rewritten: inout [Bool]
  ) {
    // One entry with a valid key, the most common group, keeps it.
    if range.count == 1 && ranks[Int(flat[range.lowerBound])] == 0 { return }
    if range.count <= 32 {
      // Insertion sort: few comparisons for a short group, one each when it is in order.
      for index in range.dropFirst() {
        let entry = flat[index]
        var hole = index
        while hole > range.lowerBound && precedes(Int(entry), Int(flat[hole &- 1])) {
          flat[hole] = flat[hole &- 1]
          hole &-= 1
        }
        flat[hole] = entry
      }
    } else {
      var sorted = true
      for index in range.dropFirst() where !precedes(Int(flat[index - 1]), Int(flat[index])) {
        sorted = false
        break
      }
      if !sorted {
        // Sorts (rank, prefix, entry) triples that sit side by side, reading the keys and
        // ids only where two prefixes tie.
        var items: [(rank: UInt8, prefix: UInt64, entry: Int32)] = []
        items.reserveCapacity(range.count)
        for entry in flat[range] { items.append((ranks[Int(entry)], prefixes[Int(entry)], entry)) }
        items.sort { a, b in
          if a.rank != b.rank { return a.rank < b.rank }
          if a.prefix != b.prefix { return a.prefix < b.prefix }
          return precedes(Int(a.entry), Int(b.entry))
        }
        for (offset, item) in items.enumerated() { flat[range.lowerBound &+ offset] = item.entry }
      }
    }
    var lastKept = -1
    var firstOfPosition = -1
    var anyNew = false
    for index in range {
      let entry = Int(flat[index])
      switch ranks[entry] {
      case 0:
        // Sorted, so a key whose prefix differs from the last kept one is above it.
        if lastKept >= 0 && prefixes[lastKept] == prefixes[entry]
          && !(keys[lastKept] < keys[entry])
        {
          repairs.append(
            Repair(
              id: ids[entry], kind: .duplicateKey(keys[entry].rawValue, tiedWith: ids[lastKept])))
          ranks[entry] = 3  // Needs a new key.
          anyNew = true
        } else {
          lastKept = entry
        }
      case 1:
        if firstOfPosition >= 0 && prefixes[firstOfPosition] == prefixes[entry] {
          let position = Int(Int64(bitPattern: prefixes[entry] ^ (1 &<< 63)))
          repairs.append(
            Repair(
              id: ids[entry], kind: .duplicatePosition(position, tiedWith: ids[firstOfPosition])))
        } else {
          firstOfPosition = entry
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
      if ranks[Int(flat[index])] == 0 {
        lower = keys[Int(flat[index])]
        index += 1
        continue
      }
      var end = index
      while end < range.upperBound && ranks[Int(flat[end])] != 0 { end += 1 }
      let upper = end < range.upperBound ? keys[Int(flat[end])] : nil
      let fresh = OrderedForest<ID>.keys(end - index, between: lower, upper)
      for (offset, key) in fresh.enumerated() {
        let entry = Int(flat[index + offset])
        keys[entry] = key
        prefixes[entry] = key.prefix
        rewritten[entry] = true
      }
      index = end
    }
  }
}
