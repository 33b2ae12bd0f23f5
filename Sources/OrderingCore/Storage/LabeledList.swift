// The operations an app's list view needs, written once for ``OrderKeyList`` (order keys) and
// ``ListLabeling`` (integer positions): moves by id and by SwiftUI offsets, and removals
// (reads, inserts and removals by index are in LabeledList+Rows.swift).

/// Not API: a list of rows with strictly increasing labels, the face ``OrderKeyList`` and
/// ``ListLabeling`` share so that their reads, inserts, moves and removals are written
/// once. Use those two types; do not conform other types.
public protocol _LabeledList {
  /// The rows' id.
  associatedtype ID: Hashable
  /// What orders the rows: an ``OrderKey`` or an `Int64` position.
  associatedtype Label: Hashable & Comparable
  /// Not API: how the list makes labels.
  associatedtype _Labels: _Labeler where _Labels.Label == Label
  /// Not API: the rows.
  var _table: _LabeledRows<ID, Label> { get set }
  /// Not API: the list's labeler (a ``ListLabeling``'s configuration, an ``OrderKeyList``'s
  /// key budget).
  var _labeler: _Labels { get }
}

extension _LabeledList {
  /// Places new rows (checked: not in the list, each once) at `index`, and returns their
  /// labels and the other rows re-labeled.
  @inlinable
  mutating func _place(_ ids: [ID], at index: Int) throws(OrderingError)
    -> (labels: [Label], changes: [RowChange<ID, Label>])
  {
    let labeler = _labeler
    return try _table.place(ids, at: index, using: labeler)
  }

  /// Moves the rows at `offsets` (ascending, checked) to `toOffset`.
  @inlinable
  mutating func _move(offsets: [Int], toOffset: Int) throws(OrderingError)
    -> [RowChange<ID, Label>]
  {
    let labeler = _labeler
    return try _table.move(offsets: offsets, toOffset: toOffset, using: labeler)
  }

  /// A row: its id and its label (an ``OrderKeyList``'s `key`, a ``ListLabeling``'s
  /// `position`).
  public typealias Row = LabeledRow<ID, Label>

  /// A row whose label changed: write `new` for `id` (`old` is the label before).
  public typealias Change = RowChange<ID, Label>

  /// What an insert or a move did: the row's new label (`key` or `position`) and the other
  /// rows whose labels changed (`changes`, in list order; usually empty).
  public typealias Update = LabelUpdate<ID, Label>

  /// What a bulk insert did: the new rows' labels (`keys` or `positions`) and the rows already
  /// in the list whose labels changed (`changes`, in list order).
  public typealias BulkUpdate = BulkLabelUpdate<ID, Label>

  /// Moves the rows at `offsets` so that they stand together, in their order, before the row
  /// that was at `toOffset`, and returns every row whose label changed: SwiftUI's `onMove`.
  ///
  /// `toOffset` counts positions before the rows are removed, exactly as
  /// `Array.move(fromOffsets:toOffset:)` and `List`'s `onMove(perform:)` do: `toOffset == count`
  /// moves the rows to the end. A moved row keeps its label (an ``OrderKeyList``'s key, a
  /// ``ListLabeling``'s position) when it still lies between its new neighbours, so moving one
  /// row writes one row, and a move that changes nothing writes nothing.
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
  /// - Returns: The rows whose labels changed (the moved rows and, rarely, a re-labeled
  ///   window), in list order.
  /// - Throws: ``OrderingError/Code/offsetOutOfRange`` or
  ///   ``OrderingError/Code/duplicateOffset`` naming the offset, or
  ///   ``OrderingError/Code/keySpaceExhausted`` (keys only); on error the list is unchanged.
  /// - Complexity: O(*k* · (log *n* · *m* + *B* + *n* / *B*) + *k* log *k*) for *k* moved
  ///   rows, where *n* is the number of rows, *m* the cost of comparing two labels (the key
  ///   length; 1 for positions) and *B* = 512 the storage chunk size; plus O(*w* · *m*) for a
  ///   re-label of *w* rows.
  @inlinable
  public mutating func move(fromOffsets offsets: some Sequence<Int>, toOffset: Int)
    throws(OrderingError) -> [RowChange<ID, Label>]
  {
    try _move(offsets: _table.checkedOffsets(offsets, to: "move"), toOffset: toOffset)
  }

  /// Moves the rows with these ids, keeping their order in the list, before the row that is
  /// at `toOffset` now, and returns every row whose label changed.
  ///
  /// This is ``move(fromOffsets:toOffset:)`` with the rows named by id.
  ///
  /// - Parameters:
  ///   - ids: The rows to move, each once, in any order.
  ///   - toOffset: Where they go, counted before the move, in `0...count`.
  /// - Returns: The rows whose labels changed, in list order.
  /// - Throws: ``OrderingError/Code/unknownID`` or ``OrderingError/Code/duplicateID`` naming
  ///   the id, ``OrderingError/Code/offsetOutOfRange``, or
  ///   ``OrderingError/Code/keySpaceExhausted`` (keys only); on error the list is unchanged.
  /// - Complexity: That of ``move(fromOffsets:toOffset:)``.
  @inlinable
  public mutating func move(_ ids: some Sequence<ID>, toOffset: Int) throws(OrderingError)
    -> [RowChange<ID, Label>]
  {
    try _move(offsets: _table.offsets(of: ids, to: "move"), toOffset: toOffset)
  }

  /// Moves the row with this id before the row that is at `toOffset` now, and returns every
  /// row whose label changed (the moved row's, unless a gap is full).
  ///
  /// - Parameters:
  ///   - id: The row to move.
  ///   - toOffset: Where it goes, counted before the move, in `0...count`.
  /// - Returns: The rows whose labels changed, in list order.
  /// - Throws: As the move of several ids to an offset.
  /// - Complexity: O(log *n* · *m* + *B* + *n* / *B*) without a re-label.
  @inlinable
  public mutating func move(_ id: ID, toOffset: Int) throws(OrderingError) -> [RowChange<ID, Label>]
  {
    try move(CollectionOfOne(id), toOffset: toOffset)
  }

  /// Moves the rows with these ids, keeping their order in the list, right before the row
  /// `anchor`, and returns every row whose label changed.
  ///
  /// - Parameters:
  ///   - ids: The rows to move, each once, in any order.
  ///   - anchor: The row they go before; it may be one of them.
  /// - Returns: The rows whose labels changed, in list order.
  /// - Throws: ``OrderingError/Code/unknownID`` naming the missing id, or as
  ///   ``move(fromOffsets:toOffset:)``.
  /// - Complexity: That of ``move(fromOffsets:toOffset:)``.
  @inlinable
  public mutating func move(_ ids: some Sequence<ID>, before anchor: ID) throws(OrderingError)
    -> [RowChange<ID, Label>]
  {
    try move(ids, toOffset: _table.offset(of: anchor, after: false))
  }

  /// Moves the rows with these ids, keeping their order in the list, right after the row
  /// `anchor`, and returns every row whose label changed.
  ///
  /// - Parameters:
  ///   - ids: The rows to move, each once, in any order.
  ///   - anchor: The row they go after; it may be one of them.
  /// - Returns: The rows whose labels changed, in list order.
  /// - Throws: ``OrderingError/Code/unknownID`` naming the missing id, or as
  ///   ``move(fromOffsets:toOffset:)``.
  /// - Complexity: That of ``move(fromOffsets:toOffset:)``.
  @inlinable
  public mutating func move(_ ids: some Sequence<ID>, after anchor: ID) throws(OrderingError)
    -> [RowChange<ID, Label>]
  {
    try move(ids, toOffset: _table.offset(of: anchor, after: true))
  }

  /// Removes the row with this id and returns it (delete it from the store). No other row
  /// changes.
  ///
  /// - Parameter id: The row to remove.
  /// - Returns: The removed row.
  /// - Throws: ``OrderingError/Code/unknownID`` naming the id.
  /// - Complexity: O(log *n* · *m* + *B* + *n* / *B*).
  @inlinable @discardableResult
  public mutating func remove(_ id: ID) throws(OrderingError) -> LabeledRow<ID, Label> {
    try remove(CollectionOfOne(id))[0]
  }

  /// Removes the rows with these ids and returns them in list order. No other row changes.
  ///
  /// - Parameter ids: The rows to remove, each once, in any order.
  /// - Returns: The removed rows, in the order they had in the list.
  /// - Throws: ``OrderingError/Code/unknownID`` or ``OrderingError/Code/duplicateID`` naming
  ///   the id; on error the list is unchanged.
  /// - Complexity: O(*k* · (log *n* · *m* + *B* + *n* / *B*)) for *k* rows.
  @inlinable @discardableResult
  public mutating func remove(_ ids: some Sequence<ID>) throws(OrderingError) -> [LabeledRow<
    ID, Label
  >] {
    let sorted = try _table.offsets(of: ids, to: "remove")
    return _table.remove(offsets: sorted).map { LabeledRow(id: $0.id, label: $0.label) }
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
    -> [LabeledRow<ID, Label>]
  {
    let sorted = try _table.checkedOffsets(offsets, to: "remove")
    return _table.remove(offsets: sorted).map { LabeledRow(id: $0.id, label: $0.label) }
  }
}
