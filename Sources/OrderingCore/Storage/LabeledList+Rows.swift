// Reading rows and inserting or removing one by index, written once for ``OrderKeyList``
// (order keys) and ``ListLabeling`` (integer positions); each type places new rows its own
// way through `_place(_:at:)`.

extension _LabeledList {
  /// The number of rows.
  @inlinable public var count: Int { _table.storage.count }

  /// Whether the list has no rows.
  @inlinable public var isEmpty: Bool { _table.storage.count == 0 }

  /// Whether a row with this id is in the list.
  ///
  /// - Parameter id: The row's id.
  /// - Returns: `true` when the list has a row with this id.
  @inlinable public func contains(_ id: ID) -> Bool { _table.labels[id] != nil }

  /// The row at `index`: its id and its label (an ``OrderKeyList``'s `key`, a
  /// ``ListLabeling``'s `position`).
  ///
  /// - Parameter index: The row's index, in `0..<count`.
  /// - Complexity: O(log *n*), where *n* is the number of rows.
  @inlinable public subscript(index: Int) -> LabeledRow<ID, Label> {
    precondition(index >= 0 && index < count, "row index \(index) is outside 0..<\(count)")
    let (chunk, offset) = _table.storage.locate(index)
    return LabeledRow(
      id: _table.storage.chunks[chunk].ids[offset],
      label: _table.storage.chunks[chunk].values[offset])
  }

  /// Every row, in list order.
  ///
  /// - Complexity: O(*n*), where *n* is the number of rows.
  @inlinable public var rows: [LabeledRow<ID, Label>] {
    var result: [LabeledRow<ID, Label>] = []
    result.reserveCapacity(count)
    _table.storage.forEach(in: 0..<count) { _, id, label in
      result.append(LabeledRow(id: id, label: label))
    }
    return result
  }

  /// The index of the row with this id, or `nil`.
  ///
  /// Labels strictly increase, so this is a binary search for the row's label.
  ///
  /// - Parameter id: The row's id.
  /// - Returns: Its index, or `nil` when the list has no such row.
  /// - Complexity: O(log *n* · *m*), where *n* is the number of rows and *m* the cost of
  ///   comparing two labels (the key length; 1 for positions).
  @inlinable public func firstIndex(of id: ID) -> Int? { _table.index(of: id) }

  /// Inserts a row at `index` and returns its label and the other rows re-labeled.
  ///
  /// When the gap between the neighbours has room, the new row takes a label in it (an
  /// ``OrderKeyList``: ``OrderKey/between(_:_:)`` of the neighbours, when within the budget;
  /// a ``ListLabeling``: the gap's middle, or `endGap` past the last row when appending) and
  /// nothing else changes. Otherwise the smallest window of neighbours around the gap that
  /// can be spread again with room to spare is re-labeled, and exactly the rows whose labels
  /// changed are returned.
  ///
  /// ```swift
  /// let update = try list.insert("bread", at: 1)
  /// save("bread", update.label)   // update.key, or update.position
  /// for change in update.changes { save(change.id, change.new) }
  /// ```
  ///
  /// - Parameters:
  ///   - id: The new row's id, not yet in the list.
  ///   - index: Where the row goes, in `0...count`.
  /// - Returns: The new row's label and the changes of other rows.
  /// - Throws: ``OrderingError/Code/duplicateID`` when `id` is already in the list;
  ///   ``OrderingError/Code/positionSpaceExhausted`` when a ``ListLabeling``'s range has no
  ///   position left, or ``OrderingError/Code/keySpaceExhausted`` when an ``OrderKeyList``
  ///   has no key left (keys of 27-byte integers; not reached in practice).
  /// - Complexity: O(*m* + log *n* · *m* + *B* + *n* / *B*) without a re-label, where *n* is
  ///   the number of rows, *m* the key budget (1 for positions) and *B* = 512 the storage
  ///   chunk size; a re-label of *w* rows adds O(*w* · *m*). Each type's overview gives the
  ///   measured re-labels per insert.
  @inlinable
  public mutating func insert(_ id: ID, at index: Int) throws(OrderingError)
    -> LabelUpdate<ID, Label>
  {
    let (labels, changes) = try _insert([id], at: index)
    return LabelUpdate(label: labels[0], changes: changes)
  }

  /// Inserts several rows at one index, spread evenly in the gap, and returns their labels
  /// and the other rows re-labeled.
  ///
  /// Use it for a paste or a drop of many rows: the gap is split once instead of *k* times
  /// (a ``ListLabeling`` splits it into `k + 1` even parts; an ``OrderKeyList`` spreads keys
  /// of O(log *k*) bytes with ``OrderKey/spread(_:between:and:)``, so 10,000 rows dropped into
  /// one gap get keys about three bytes longer than their neighbours). When the gap is too
  /// small, the smallest window around it is re-labeled as for ``insert(_:at:)``.
  ///
  /// - Parameters:
  ///   - ids: The new rows' ids, in order; none may be in the list, and none twice.
  ///   - index: Where the first new row goes, in `0...count`.
  /// - Returns: The new rows' labels and the changes of the rows already in the list.
  /// - Throws: ``OrderingError/Code/duplicateID``, or the exhausted space as for
  ///   ``insert(_:at:)``; on error the list is unchanged.
  /// - Complexity: O(*k* · (*m* + *B* + *n* / *B*)) plus O(*w* · *m*) for a re-label of *w*
  ///   rows, where *k* is the number of new rows.
  @inlinable
  public mutating func insert(contentsOf ids: some Sequence<ID>, at index: Int)
    throws(OrderingError) -> BulkLabelUpdate<ID, Label>
  {
    let (labels, changes) = try _insert(Array(ids), at: index)
    return BulkLabelUpdate(labels: labels, changes: changes)
  }

  /// Removes the row at `index` and returns it. No other row changes.
  ///
  /// - Parameter index: The row's index, in `0..<count`.
  /// - Returns: The removed row.
  /// - Complexity: O(log *n* + *B* + *n* / *B*), where *n* is the number of rows.
  @inlinable @discardableResult
  public mutating func remove(at index: Int) -> LabeledRow<ID, Label> {
    precondition(index >= 0 && index < count, "row index \(index) is outside 0..<\(count)")
    let (id, label) = _table.remove(at: index)
    return LabeledRow(id: id, label: label)
  }

  /// Checks the new rows and places them at `index` the list's own way.
  @inlinable
  mutating func _insert(_ ids: [ID], at index: Int) throws(OrderingError)
    -> (labels: [Label], changes: [RowChange<ID, Label>])
  {
    precondition(index >= 0 && index <= count, "insertion index \(index) is outside 0...\(count)")
    try _table.checkNew(ids, at: index)
    return try _place(ids, at: index)
  }
}
