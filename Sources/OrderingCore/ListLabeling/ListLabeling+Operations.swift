extension ListLabeling {
  /// Inserts a row at `index` and returns its position and the other rows relabeled.
  ///
  /// When the gap between the neighbours is free the new row takes its middle (or `endGap`
  /// past the last row when appending) and nothing else changes. When it is full, the
  /// smallest window of neighbours around the gap whose density is under its threshold is
  /// spread evenly, and exactly the rows whose positions changed are returned.
  ///
  /// ```swift
  /// let update = try list.insert("bread", at: 1)
  /// save("bread", update.position)
  /// for change in update.changes { save(change.id, change.new) }
  /// ```
  ///
  /// - Parameters:
  ///   - id: The new row's id, not yet in the list.
  ///   - index: Where the row goes, in `0...count`.
  /// - Returns: The new row's position and the changes of other rows.
  /// - Throws: ``OrderingError/Code/duplicateID`` when `id` is already in the list;
  ///   ``OrderingError/Code/positionSpaceExhausted`` when the range has no position left.
  /// - Complexity: O(log *n* + *B* + *n* / *B*) for a free gap, where *n* is the number of
  ///   rows and *B* = 512 the storage chunk size; a relabel of *w* rows adds O(*w*). Measured
  ///   amortized relabels per insert: 9.1 at *n* = 100,000 and 11.9 at 1,000,000 when every
  ///   insert hits one spot in the middle, nearly 0 for front, append and random inserts
  ///   (see the ListLabeling guide).
  @inlinable
  public mutating func insert(_ id: ID, at index: Int) throws(OrderingError) -> Update {
    precondition(index >= 0 && index <= count, "insertion index \(index) is outside 0...\(count)")
    try table.checkNew([id], at: index)
    let (positions, changes) = try table.place([id], at: index, using: configuration)
    return Update(position: positions[0], changes: changes)
  }

  /// Inserts several rows at one index, spread evenly in the gap, and returns their
  /// positions and the other rows relabeled.
  ///
  /// Use it for a paste or a drop of many rows: one gap is split into `k + 1` even parts
  /// (one relabel at most) instead of bisected `k` times.
  ///
  /// - Parameters:
  ///   - ids: The new rows' ids, in order; none may be in the list, and none twice.
  ///   - index: Where the first new row goes, in `0...count`.
  /// - Returns: The new rows' positions and the changes of the rows already in the list.
  /// - Throws: ``OrderingError/Code/duplicateID`` or
  ///   ``OrderingError/Code/positionSpaceExhausted``; on error the list is unchanged.
  /// - Complexity: O(*k* · (*B* + *n* / *B*)) plus O(*w*) for a relabel of *w* rows, where *k*
  ///   is the number of new rows.
  @inlinable
  public mutating func insert(contentsOf ids: some Sequence<ID>, at index: Int)
    throws(OrderingError) -> BulkUpdate
  {
    precondition(index >= 0 && index <= count, "insertion index \(index) is outside 0...\(count)")
    let newIDs = Array(ids)
    try table.checkNew(newIDs, at: index)
    let (positions, changes) = try table.place(newIDs, at: index, using: configuration)
    return BulkUpdate(positions: positions, changes: changes)
  }

  /// Moves the row at `source` so that it ends up at `destination`, and returns its new
  /// position and the other rows relabeled.
  ///
  /// `destination` is the row's index after the move, as in `Array`'s remove-then-insert:
  /// `move(from: 0, to: count - 1)` makes the first row the last.
  ///
  /// - Parameters:
  ///   - source: The row's index, in `0..<count`.
  ///   - destination: Its index after the move, in `0..<count`.
  /// - Returns: The moved row's new position (its old one when `source == destination`)
  ///   and the changes of the other rows.
  /// - Complexity: The complexity of ``insert(_:at:)``.
  @inlinable
  public mutating func move(from source: Int, to destination: Int) -> Update {
    do {
      let (position, changes) = try table.move(from: source, to: destination, using: configuration)
      return Update(position: position, changes: changes)
    } catch {
      // The list holds as many rows as before, so there is always room.
      preconditionFailure("moving a row cannot exhaust the position range: \(error)")
    }
  }

  /// Removes the row at `index` and returns it. No other row changes.
  ///
  /// - Parameter index: The row's index, in `0..<count`.
  /// - Returns: The removed row.
  /// - Complexity: O(log *n* + *B* + *n* / *B*), where *n* is the number of rows.
  @inlinable @discardableResult
  public mutating func remove(at index: Int) -> Row {
    precondition(index >= 0 && index < count, "row index \(index) is outside 0..<\(count)")
    let (id, position) = table.remove(at: index)
    return Row(id: id, position: position)
  }

  /// Spreads every row evenly again, centred in the range, and returns the rows that moved.
  ///
  /// Rows end up `endGap` apart when the range is wide enough, else as far apart as it
  /// allows. Use it after a bulk import or when a list was built by another scheme.
  ///
  /// - Returns: The rows whose positions changed, in list order.
  /// - Complexity: O(*n*), where *n* is the number of rows.
  @discardableResult
  public mutating func normalize() -> [Change] {
    guard count > 0,
      let plan = configuration.plan(
        count: count, lower: nil, upper: nil, minimumGap: 1, listCount: count)
    else { return [] }
    var changes: [Change] = []
    table.storage.updateValues(in: 0..<count) { row, id, position in
      let new = plan.position(row)
      if new != position {
        changes.append(Change(id: id, old: position, new: new))
        position = new
      }
    }
    for change in changes { table.labels[change.id] = change.new }
    return changes
  }
}
