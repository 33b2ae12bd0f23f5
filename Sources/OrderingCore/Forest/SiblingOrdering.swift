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
