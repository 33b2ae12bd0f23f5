extension ListLabeling {
  /// Creates a labeling from stored rows in list order, checking their positions.
  ///
  /// - Parameters:
  ///   - rows: The rows in list order, with strictly increasing positions inside the range.
  ///   - configuration: The position range and end gap.
  /// - Throws: ``OrderingError/Code/positionOutOfRange``,
  ///   ``OrderingError/Code/positionsNotIncreasing`` or ``OrderingError/Code/duplicateID``,
  ///   naming the row's index. Use ``backfill(_:configuration:)`` to repair such rows.
  /// - Complexity: O(*n*), where *n* is the number of rows.
  public init(rows: some Sequence<Row>, configuration: Configuration = .default)
    throws(OrderingError)
  {
    self.configuration = configuration
    self.table = try _LabeledRows(rows.lazy.map { ($0.id, $0.position) }) {
      index, id, position, previous in
      guard configuration.range.contains(position) else {
        return OrderingError(
          .positionOutOfRange, index: index,
          description:
            "row \(index) (\(String(reflecting: id))) has position \(position), outside \(configuration.range.lowerBound)...\(configuration.range.upperBound)"
        )
      }
      if let previous, position <= previous {
        return OrderingError(
          .positionsNotIncreasing, index: index,
          description:
            "row \(index) (\(String(reflecting: id))) has position \(position), not above the previous row's \(previous); backfill the list to repair it"
        )
      }
      return nil
    }
  }

  /// Creates a labeling of `ids` in order, spread evenly and centred in the range.
  ///
  /// - Parameters:
  ///   - ids: The rows' ids in list order, each once.
  ///   - configuration: The position range and end gap.
  /// - Throws: ``OrderingError/Code/duplicateID`` or
  ///   ``OrderingError/Code/positionSpaceExhausted``.
  /// - Complexity: O(*n*), where *n* is the number of ids.
  public init(ids: some Sequence<ID>, configuration: Configuration = .default)
    throws(OrderingError)
  {
    self.init(configuration: configuration)
    _ = try insert(contentsOf: ids, at: 0)
  }
}

extension ListLabeling where ID: Comparable {
  /// A row as stored, whose position may be missing.
  public struct StoredRow: Hashable {
    /// The row's id.
    public var id: ID
    /// The stored position, or `nil` when the row has none yet.
    public var position: Int64?
    /// When the row was created (a timestamp or an auto-increment number): the tie-break
    /// between rows with the same or no position.
    public var creationOrder: Int64

    /// Creates a stored row.
    public init(id: ID, position: Int64?, creationOrder: Int64) {
      self.id = id
      self.position = position
      self.creationOrder = creationOrder
    }
  }

  /// A position the backfill wrote: `old` is `nil` for a row that had none.
  public struct Assignment: Hashable {
    /// The row's id.
    public var id: ID
    /// The stored position before the backfill, if there was one.
    public var old: Int64?
    /// The position to write.
    public var new: Int64
  }

  /// The result of a backfill: the repaired labeling and every position it assigned.
  public struct Backfill {
    /// The labeling, in the order the backfill decided.
    public var labeling: ListLabeling
    /// The rows whose stored position must be written, in list order.
    public var assignments: [Assignment]
  }

  /// Orders stored rows deterministically and gives a position to every row that has none,
  /// shares one with another row, or lies outside the range.
  ///
  /// Rows are ordered by stored position (rows without one come last), then by creation
  /// order, then by id. Walking that order, a row keeps its position when it is inside the
  /// range and above the last kept position; every other row (a missing position, the later
  /// rows of a duplicated one) is placed in the gap where it sorted, relabeling the smallest
  /// window of neighbours when the gap is too small. Nothing is repaired silently: every
  /// position to write is in ``Backfill/assignments``.
  ///
  /// ```swift
  /// let repaired = try ListLabeling.backfill([
  ///   .init(id: "a", position: 10, creationOrder: 1),
  ///   .init(id: "b", position: 10, creationOrder: 2),   // duplicate: placed after "a"
  ///   .init(id: "c", position: nil, creationOrder: 3),  // missing: placed last
  /// ])
  /// ```
  ///
  /// - Parameters:
  ///   - rows: The stored rows, in any order.
  ///   - configuration: The position range and end gap.
  /// - Returns: The labeling and the assignments.
  /// - Throws: ``OrderingError/Code/duplicateID`` when two rows have one id;
  ///   ``OrderingError/Code/positionSpaceExhausted`` when the range is too small.
  /// - Complexity: O(*n* log *n*), where *n* is the number of rows.
  public static func backfill(
    _ rows: some Sequence<StoredRow>, configuration: Configuration = .default
  ) throws(OrderingError) -> Backfill {
    let input = Array(rows)
    var original: [ID: Int64?] = [:]
    original.reserveCapacity(input.count)
    for (index, row) in input.enumerated() {
      guard original.updateValue(row.position, forKey: row.id) == nil else {
        throw OrderingError(
          .duplicateID, index: index,
          description:
            "row \(index) has id \(String(reflecting: row.id)), which an earlier row already has")
      }
    }
    let sorted = input.sorted { left, right in
      switch (left.position, right.position) {
      case (let a?, let b?) where a != b: return a < b
      case (nil, _?): return false
      case (_?, nil): return true
      default:
        if left.creationOrder != right.creationOrder {
          return left.creationOrder < right.creationOrder
        }
        return left.id < right.id
      }
    }
    // Keep the positions that are in range and increasing; collect the rest into runs.
    var keptIDs: [ID] = []
    var keptPositions: [Int64] = []
    var runs: [(index: Int, ids: [ID])] = []
    for (index, row) in sorted.enumerated() {
      if let position = row.position, configuration.range.contains(position),
        keptPositions.last.map({ position > $0 }) ?? true
      {
        keptIDs.append(row.id)
        keptPositions.append(position)
      } else if let last = runs.last, last.index + last.ids.count == index {
        runs[runs.count - 1].ids.append(row.id)
      } else {
        runs.append((index, [row.id]))
      }
    }
    var labeling = ListLabeling(configuration: configuration)
    labeling.table.storage = ChunkedRows(ids: keptIDs, values: keptPositions)
    labeling.table.labels = Dictionary(uniqueKeysWithValues: zip(keptIDs, keptPositions))
    for run in runs {
      _ = try labeling.insert(contentsOf: run.ids, at: run.index)
    }
    var assignments: [Assignment] = []
    labeling.storage.forEach(in: 0..<labeling.count) { _, id, position in
      let old = original[id] ?? nil
      if old != position { assignments.append(Assignment(id: id, old: old, new: position)) }
    }
    return Backfill(labeling: labeling, assignments: assignments)
  }
}

extension ListLabeling.StoredRow: Sendable where ID: Sendable {}
extension ListLabeling.Assignment: Sendable where ID: Sendable {}
extension ListLabeling.Backfill: Sendable where ID: Sendable {}
