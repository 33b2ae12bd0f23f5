extension ListLabeling {
  /// Moves the rows at `offsets` so that they stand together, in their order, before the row
  /// that was at `toOffset`, and returns every row whose position changed: SwiftUI's `onMove`.
  ///
  /// `toOffset` counts positions before the rows are removed, exactly as
  /// `Array.move(fromOffsets:toOffset:)` and `List`'s `onMove(perform:)` do: `toOffset == count`
  /// moves the rows to the end. A moved row keeps its position when it still lies between its new
  /// neighbours, so moving one row writes one row, and a move that changes nothing writes
  /// nothing.
  ///
  /// ```swift
  /// // .onMove { offsets, toOffset in model.move(Array(offsets), toOffset) }
  /// let changes = try list.move(fromOffsets: [0, 2], toOffset: 4)
  /// for change in changes { save(change.id, change.new) }
  /// ```
  ///
  /// - Parameters:
  ///   - offsets: The rows' offsets, in `0..<count`, each once, in any order (pass an
  ///     `IndexSet` as it is: it is a sequence of `Int`).
  ///   - toOffset: Where they go, counted before the move, in `0...count`.
  /// - Returns: The rows whose positions changed (the moved rows and, when a gap is full, a
  ///   relabeled window), in list order.
  /// - Throws: ``OrderingError/Code/offsetOutOfRange`` or
  ///   ``OrderingError/Code/duplicateOffset`` naming the offset; on error the list is unchanged.
  /// - Complexity: O(*k* · (log *n* + *B* + *n* / *B*) + *k* log *k*) for *k* moved rows,
  ///   where *n* is the number of rows and *B* = 512 the storage chunk size; plus O(*w*) for
  ///   a relabel of *w* rows.
  @inlinable
  public mutating func move(fromOffsets offsets: some Sequence<Int>, toOffset: Int)
    throws(OrderingError) -> [Change]
  {
    let sorted = try table.checkedOffsets(offsets, to: "move")
    return try table.move(offsets: sorted, toOffset: toOffset, using: configuration)
  }

  /// Moves the rows with these ids, keeping their order in the list, before the row that is
  /// at `toOffset` now, and returns every row whose position changed.
  ///
  /// This is ``move(fromOffsets:toOffset:)`` with the rows named by id.
  ///
  /// - Parameters:
  ///   - ids: The rows to move, each once, in any order.
  ///   - toOffset: Where they go, counted before the move, in `0...count`.
  /// - Returns: The rows whose positions changed, in list order.
  /// - Throws: ``OrderingError/Code/unknownID`` or ``OrderingError/Code/duplicateID`` naming
  ///   the id, ``OrderingError/Code/offsetOutOfRange``; on error the list is unchanged.
  /// - Complexity: That of ``move(fromOffsets:toOffset:)``.
  @inlinable
  public mutating func move(_ ids: some Sequence<ID>, toOffset: Int) throws(OrderingError)
    -> [Change]
  {
    let sorted = try table.offsets(of: ids, to: "move")
    return try table.move(offsets: sorted, toOffset: toOffset, using: configuration)
  }

  /// Moves the row with this id before the row that is at `toOffset` now, and returns every
  /// row whose position changed (the moved row's, unless a gap is full).
  ///
  /// - Parameters:
  ///   - id: The row to move.
  ///   - toOffset: Where it goes, counted before the move, in `0...count`.
  /// - Returns: The rows whose positions changed, in list order.
  /// - Throws: As the move of several ids to an offset.
  /// - Complexity: O(log *n* + *B* + *n* / *B*) without a relabel.
  @inlinable
  public mutating func move(_ id: ID, toOffset: Int) throws(OrderingError) -> [Change] {
    try move(CollectionOfOne(id), toOffset: toOffset)
  }

  /// Moves the rows with these ids, keeping their order in the list, right before the row
  /// `anchor`, and returns every row whose position changed.
  ///
  /// - Parameters:
  ///   - ids: The rows to move, each once, in any order.
  ///   - anchor: The row they go before; it may be one of them.
  /// - Returns: The rows whose positions changed, in list order.
  /// - Throws: ``OrderingError/Code/unknownID`` naming the missing id, or as
  ///   ``move(fromOffsets:toOffset:)``.
  /// - Complexity: That of ``move(fromOffsets:toOffset:)``.
  @inlinable
  public mutating func move(_ ids: some Sequence<ID>, before anchor: ID) throws(OrderingError)
    -> [Change]
  {
    try move(ids, toOffset: table.offset(of: anchor, after: false))
  }

  /// Moves the rows with these ids, keeping their order in the list, right after the row
  /// `anchor`, and returns every row whose position changed.
  ///
  /// - Parameters:
  ///   - ids: The rows to move, each once, in any order.
  ///   - anchor: The row they go after; it may be one of them.
  /// - Returns: The rows whose positions changed, in list order.
  /// - Throws: ``OrderingError/Code/unknownID`` naming the missing id, or as
  ///   ``move(fromOffsets:toOffset:)``.
  /// - Complexity: That of ``move(fromOffsets:toOffset:)``.
  @inlinable
  public mutating func move(_ ids: some Sequence<ID>, after anchor: ID) throws(OrderingError)
    -> [Change]
  {
    try move(ids, toOffset: table.offset(of: anchor, after: true))
  }

  /// Removes the row with this id and returns it (delete it from the store). No other row
  /// changes.
  ///
  /// - Parameter id: The row to remove.
  /// - Returns: The removed row.
  /// - Throws: ``OrderingError/Code/unknownID`` naming the id.
  /// - Complexity: O(log *n* + *B* + *n* / *B*).
  @inlinable @discardableResult
  public mutating func remove(_ id: ID) throws(OrderingError) -> Row {
    try remove(CollectionOfOne(id))[0]
  }

  /// Removes the rows with these ids and returns them in list order. No other row changes.
  ///
  /// - Parameter ids: The rows to remove, each once, in any order.
  /// - Returns: The removed rows, in the order they had in the list.
  /// - Throws: ``OrderingError/Code/unknownID`` or ``OrderingError/Code/duplicateID`` naming
  ///   the id; on error the list is unchanged.
  /// - Complexity: O(*k* · (log *n* + *B* + *n* / *B*)) for *k* rows.
  @inlinable @discardableResult
  public mutating func remove(_ ids: some Sequence<ID>) throws(OrderingError) -> [Row] {
    let sorted = try table.offsets(of: ids, to: "remove")
    return table.remove(offsets: sorted).map { Row(id: $0.id, position: $0.label) }
  }

  /// Removes the rows at `offsets` (SwiftUI's `onDelete`) and returns them in list order.
  ///
  /// - Parameter offsets: The rows' offsets, in `0..<count`, each once, in any order.
  /// - Returns: The removed rows, in the order they had in the list.
  /// - Throws: ``OrderingError/Code/offsetOutOfRange`` or
  ///   ``OrderingError/Code/duplicateOffset`` naming the offset; on error the list is
  ///   unchanged.
  /// - Complexity: O(*k* · (*B* + *n* / *B*) + *k* log *k*) for *k* rows.
  @inlinable @discardableResult
  public mutating func remove(atOffsets offsets: some Sequence<Int>) throws(OrderingError)
    -> [Row]
  {
    let sorted = try table.checkedOffsets(offsets, to: "remove")
    return table.remove(offsets: sorted).map { Row(id: $0.id, position: $0.label) }
  }
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
