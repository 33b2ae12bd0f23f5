extension OrderKeyList: _LabeledList {
  /// Not API: the rows under the list.
  @inlinable public var _table: _LabeledRows<ID, OrderKey> {
    get { table }
    _modify { yield &table }
  }
}

extension OrderKeyList where ID: Comparable {
  /// Loads stored rows in any order: sorts them by key, then id, re-keys rows that share a
  /// key with an earlier row, and returns the list with the keys to write.
  ///
  /// The caller need not sort: the order is (key, id), the same on every device, and a
  /// duplicated key is never repaired silently: every re-keyed row is in `changes`.
  ///
  /// ```swift
  /// let (list, repairs) = try OrderKeyList.loading(storedRows)
  /// for change in repairs { save(change.id, change.new) }   // usually none
  /// ```
  ///
  /// - Parameters:
  ///   - rows: The stored rows, in any order, each id once.
  ///   - budget: The longest key, in bytes, an operation may write; at least 4.
  /// - Returns: The list, and the rows whose keys had to change, in list order.
  /// - Throws: ``OrderingError/Code/duplicateID`` when two rows have one id.
  /// - Complexity: O(*n* log *n* · *m*), where *n* is the number of rows and *m* the key
  ///   length.
  public static func loading(_ rows: some Sequence<Row>, budget: Int = 16)
    throws(OrderingError) -> (list: OrderKeyList, changes: [Change])
  {
    let repair = try repairingDuplicates(rows)
    return (try OrderKeyList(rows: repair.rows, budget: budget), repair.changes)
  }
}
