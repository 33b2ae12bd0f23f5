extension ListLabeling {
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
