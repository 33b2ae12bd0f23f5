extension OrderKeyList {
  /// Inserts a row at `index` and returns its key and the other rows re-keyed.
  ///
  /// The key is ``OrderKey/between(_:_:)`` of the neighbours when that is within the
  /// budget, and then nothing else changes. Otherwise the smallest window of neighbours
  /// around the gap (1, 2, 4, … rows) whose keys ``OrderKey/spread(_:between:and:)`` can
  /// rewrite between the window's outer neighbours within the budget, with a byte to spare,
  /// is re-keyed.
  ///
  /// ```swift
  /// let update = try list.insert("bread", at: 1)
  /// save("bread", update.key)
  /// for change in update.changes { save(change.id, change.new) }
  /// ```
  ///
  /// - Parameters:
  ///   - id: The new row's id, not yet in the list.
  ///   - index: Where the row goes, in `0...count`.
  /// - Returns: The new row's key and the changes of other rows.
  /// - Throws: ``OrderingError/Code/duplicateID`` when `id` is already in the list;
  ///   ``OrderingError/Code/keySpaceExhausted`` when no key is left (keys of 27-byte
  ///   integers; not reached in practice).
  /// - Complexity: O(*m* + log *n* + *B* + *n* / *B*) without a rebalance, where *m* is the
  ///   budget, *n* the number of rows and *B* = 512 the storage chunk size; a rebalance of
  ///   *w* rows adds O(*w* · *m*). Measured: 100,000 inserts after the first row rewrite
  ///   0.06 other rows per insert (see the OrderKeys guide).
  @inlinable
  public mutating func insert(_ id: ID, at index: Int) throws(OrderingError) -> Update {
    precondition(index >= 0 && index <= count, "insertion index \(index) is outside 0...\(count)")
    try table.checkNew([id], at: index)
    let (keys, changes) = try table.place([id], at: index, using: labeler)
    return Update(key: keys[0], changes: changes)
  }

  /// Inserts several rows into one gap with keys of length O(log *k*), and returns their
  /// keys and the other rows re-keyed.
  ///
  /// Inserting *k* rows one after another into one gap makes keys O(*k*) bytes long; this
  /// spreads them with ``OrderKey/spread(_:between:and:)``, so a paste or a drop of 10,000
  /// rows into one gap gives keys about three bytes longer than the neighbours. When even
  /// that is over the budget, the smallest window around the gap is re-keyed as for
  /// ``insert(_:at:)``.
  ///
  /// - Parameters:
  ///   - ids: The new rows' ids, in order; none may be in the list, and none twice.
  ///   - index: Where the first new row goes, in `0...count`.
  /// - Returns: The new rows' keys and the changes of the rows already in the list.
  /// - Throws: ``OrderingError/Code/duplicateID`` or ``OrderingError/Code/keySpaceExhausted``;
  ///   on error the list is unchanged.
  /// - Complexity: O(*k* · (*m* + *B* + *n* / *B*)) plus O(*w* · *m*) for a rebalance of *w*
  ///   rows, where *k* is the number of new rows.
  @inlinable
  public mutating func insert(contentsOf ids: some Sequence<ID>, at index: Int)
    throws(OrderingError) -> BulkUpdate
  {
    precondition(index >= 0 && index <= count, "insertion index \(index) is outside 0...\(count)")
    let newIDs = Array(ids)
    try table.checkNew(newIDs, at: index)
    let (keys, changes) = try table.place(newIDs, at: index, using: labeler)
    return BulkUpdate(keys: keys, changes: changes)
  }

  /// Moves the row at `source` so that it ends up at `destination`, and returns its new
  /// key and the other rows re-keyed.
  ///
  /// `destination` is the row's index after the move, as in `Array`'s remove-then-insert.
  ///
  /// - Parameters:
  ///   - source: The row's index, in `0..<count`.
  ///   - destination: Its index after the move, in `0..<count`.
  /// - Returns: The moved row's new key (its old one when `source == destination`) and the
  ///   changes of the other rows.
  /// - Throws: ``OrderingError/Code/keySpaceExhausted``; on error the list is unchanged.
  /// - Complexity: The complexity of ``insert(_:at:)``.
  @inlinable
  public mutating func move(from source: Int, to destination: Int) throws(OrderingError)
    -> Update
  {
    let (key, changes) = try table.move(from: source, to: destination, using: labeler)
    return Update(key: key, changes: changes)
  }

  /// Removes the row at `index` and returns it. No other row changes.
  ///
  /// - Parameter index: The row's index, in `0..<count`.
  /// - Returns: The removed row.
  /// - Complexity: O(log *n* + *B* + *n* / *B*), where *n* is the number of rows.
  @inlinable @discardableResult
  public mutating func remove(at index: Int) -> Row {
    precondition(index >= 0 && index < count, "row index \(index) is outside 0..<\(count)")
    let (id, key) = table.remove(at: index)
    return Row(id: id, key: key)
  }

  /// How this list makes keys: within its budget.
  @inlinable var labeler: KeyBudget { KeyBudget(budget: budget) }
}

/// Order keys within a length budget: ``OrderKey/between(_:_:)`` or
/// ``OrderKey/spread(_:between:and:)`` for a gap, and a window's keys one byte shorter.
@usableFromInline
struct KeyBudget: Labeler {
  /// The longest key, in bytes, an operation may write.
  @usableFromInline let budget: Int

  @inlinable init(budget: Int) { self.budget = budget }

  /// The longest key a rebalanced window may hold: the budget less one byte, so every gap of
  /// the window absorbs about six more inserts before it needs rebalancing again. (Measured
  /// over 100,000 middle inserts with budget 16: 0 spare bytes rewrite 15.7 rows per insert,
  /// 1 byte 13.0, 2 bytes 14.3, 3 bytes 14.6, 4 bytes 17.1.)
  @inlinable var windowLimit: Int { Swift.max(budget - 1, (budget + 1) / 2) }

  /// Keys for the gap, when they fit the budget.
  @inlinable
  func direct(
    _ count: Int, between lower: OrderKey?, and upper: OrderKey?, listCount: Int, at index: Int
  ) throws(OrderingError) -> [OrderKey]? {
    let keys =
      count == 1
      ? [try OrderKey.between(lower, upper)]
      : try OrderKey.spread(count, between: lower, and: upper)
    return Self.longest(keys) <= budget ? keys : nil
  }

  /// Keys for a window, when they fit the budget less a byte. The whole list with open ends
  /// gets the shortest keys there are; take them even when a budget is too small for the
  /// list's size.
  @inlinable
  func window(
    _ count: Int, between lower: OrderKey?, and upper: OrderKey?, whole: Bool, listCount: Int
  ) throws(OrderingError) -> [OrderKey]? {
    let keys = try OrderKey.spread(count, between: lower, and: upper)
    return whole || Self.longest(keys) <= windowLimit ? keys : nil
  }

  @inlinable
  static func longest(_ keys: [OrderKey]) -> Int {
    var result = 0
    for key in keys { result = Swift.max(result, key.length) }
    return result
  }
}
