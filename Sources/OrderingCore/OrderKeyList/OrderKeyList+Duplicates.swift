extension OrderKeyList where ID: Comparable {
  /// The result of repairing duplicate keys: rows in order and the keys to write.
  public struct DuplicateRepair {
    /// Every row, sorted by key, with strictly increasing keys.
    public var rows: [Row]
    /// The rows that got a new key, in list order.
    public var changes: [Change]
  }

  /// Sorts rows by key, then by id: the one order every replica agrees on, even when two
  /// replicas gave two rows the same key.
  ///
  /// - Parameter rows: Rows in any order.
  /// - Returns: The rows sorted by (key, id).
  /// - Complexity: O(*n* log *n* · *m*), where *n* is the number of rows and *m* the key
  ///   length.
  public static func sortedByKeyThenID(_ rows: some Sequence<Row>) -> [Row] {
    rows.sorted { left, right in
      left.key == right.key ? left.id < right.id : left.key < right.key
    }
  }

  /// Sorts rows by (key, id) and gives every row that shares its key with an earlier row a
  /// new key between that row and the next distinct key.
  ///
  /// Two replicas that insert into the same gap without jitter make the same key. Sorting by
  /// (key, id) gives every replica the same order; this repair then keeps the first row of
  /// each run of equal keys and re-keys the later ones with
  /// ``OrderKey/spread(_:between:and:)``, so the list can be loaded into an ``OrderKeyList``.
  ///
  /// ```swift
  /// let repair = try OrderKeyList.repairingDuplicates(storedRows)
  /// for change in repair.changes { save(change.id, change.new) }
  /// var list = try OrderKeyList(rows: repair.rows)
  /// ```
  ///
  /// - Parameter rows: Rows in any order, each id once.
  /// - Returns: The sorted rows with strictly increasing keys, and the changes.
  /// - Throws: ``OrderingError/Code/duplicateID`` when two rows have one id.
  /// - Complexity: O(*n* log *n* · *m*), where *n* is the number of rows and *m* the key
  ///   length.
  public static func repairingDuplicates(_ rows: some Sequence<Row>) throws(OrderingError)
    -> DuplicateRepair
  {
    var sorted = sortedByKeyThenID(rows)
    var seen = Set<ID>()
    for (index, row) in sorted.enumerated() where !seen.insert(row.id).inserted {
      throw OrderingError(
        .duplicateID, index: index,
        description: "two rows have id \(String(reflecting: row.id)); ids must be unique")
    }
    var changes: [Change] = []
    var start = 0
    while start < sorted.count {
      var end = start + 1
      while end < sorted.count && sorted[end].key == sorted[start].key { end += 1 }
      if end - start > 1 {
        let upper = end < sorted.count ? sorted[end].key : nil
        let keys = try OrderKey.spread(end - start - 1, between: sorted[start].key, and: upper)
        for (offset, key) in keys.enumerated() {
          let index = start + 1 + offset
          changes.append(Change(id: sorted[index].id, old: sorted[index].key, new: key))
          sorted[index].key = key
        }
      }
      start = end
    }
    return DuplicateRepair(rows: sorted, changes: changes)
  }
}

extension OrderKeyList.DuplicateRepair: Sendable where ID: Sendable {}
extension OrderKeyList.DuplicateRepair: Hashable {}
