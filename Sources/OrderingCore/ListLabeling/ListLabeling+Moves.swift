extension ListLabeling: _LabeledList {
  /// Not API: the rows under the labeling.
  @inlinable public var _table: _LabeledRows<ID, Int64> {
    get { table }
    _modify { yield &table }
  }

  /// Not API: the labeling's configuration makes its positions.
  @inlinable public var _labeler: Configuration { configuration }
}

extension ListLabeling where ID: Comparable {
  /// Loads stored rows in any order: sorts them by position, then id, gives a new position to
  /// every row that shares one with an earlier row or lies outside the range, and returns the
  /// labeling with the positions to write.
  ///
  /// This is ``backfill(_:configuration:)`` for rows that all have a position; a duplicated
  /// position is never repaired silently: every moved row is in `changes`.
  ///
  /// - Parameters:
  ///   - rows: The stored rows, in any order, each id once.
  ///   - configuration: The position range and end gap.
  /// - Returns: The labeling, and the rows whose positions had to change, in list order.
  /// - Throws: ``OrderingError/Code/duplicateID`` when two rows have one id;
  ///   ``OrderingError/Code/positionSpaceExhausted`` when the range is too small.
  /// - Complexity: O(*n* log *n*), where *n* is the number of rows.
  public static func loading(_ rows: some Sequence<Row>, configuration: Configuration = .default)
    throws(OrderingError) -> (labeling: ListLabeling, changes: [Change])
  {
    let stored = rows.map { StoredRow(id: $0.id, position: $0.position, creationOrder: 0) }
    let backfill = try backfill(stored, configuration: configuration)
    // Every stored row has a position, so every assignment has an old one.
    let changes = backfill.assignments.compactMap { assignment in
      assignment.old.map { Change(id: assignment.id, old: $0, new: assignment.new) }
    }
    return (backfill.labeling, changes)
  }
}
