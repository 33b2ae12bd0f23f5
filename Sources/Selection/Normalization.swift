extension SelectionState {
  /// The selected visible rows with every row whose ancestor is also selected left out, in
  /// display order: what a bulk move or delete of nested rows must act on.
  ///
  /// Deleting a selected parent deletes its children, and moving it carries them; acting on a
  /// selected child as well would delete it twice or tear it from its parent.
  ///
  /// - Parameters:
  ///   - rows: The caller's rows.
  ///   - parent: The parent of a row, or `nil` for a top-level row.
  /// - Returns: The selected rows that have no selected ancestor, in display order.
  /// - Throws: ``SelectionError/Code/parentCycle`` when following parents loops.
  /// - Complexity: O(*v* + *a*), where *v* is the number of visible rows and *a* the number of
  ///   distinct ancestors of the selected rows.
  public func topmostSelectedIDs(
    in rows: some SelectionRows<ID>, parent: (ID) -> ID?
  ) throws(SelectionError) -> [ID] {
    try Self.topmost(of: selectedIDs(in: rows), parent: parent)
  }

  /// Leaves out of `ids` every id that has an ancestor in `ids` ("selected ancestor wins").
  ///
  /// ```swift
  /// // a ─ b ─ c,  d
  /// try SelectionState<String>.topmost(of: ["c", "a", "d"], parent: { parents[$0] })  // ["a", "d"]
  /// ```
  ///
  /// - Parameters:
  ///   - ids: The selected rows, in the order the result keeps.
  ///   - parent: The parent of a row, or `nil` for a top-level row.
  /// - Returns: The ids with no ancestor among `ids`, in their order.
  /// - Throws: ``SelectionError/Code/parentCycle`` when following parents loops.
  /// - Complexity: O(*k* + *a*), where *k* is the number of ids and *a* the number of their
  ///   distinct ancestors: each ancestor is visited once.
  public static func topmost(
    of ids: [ID], parent: (ID) -> ID?
  ) throws(SelectionError) -> [ID] {
    let selected = Set(ids)
    // Whether a row has a selected proper ancestor, memoized along every walked path.
    var covered: [ID: Bool] = [:]
    var result: [ID] = []
    for id in ids {
      var path: [ID] = []
      var onPath: Set<ID> = [id]
      var current = parent(id)
      var answer = false
      while let row = current {
        guard onPath.insert(row).inserted else {
          let start = row == id ? -1 : path.firstIndex(of: row) ?? -1
          throw SelectionError.parentCycle(row, length: path.count - start)
        }
        if selected.contains(row) {
          answer = true
          break
        }
        if let known = covered[row] {
          answer = known
          break
        }
        path.append(row)
        current = parent(row)
      }
      // Every row on the path (none of them selected) shares the answer.
      for row in path { covered[row] = answer }
      if !answer { result.append(id) }
    }
    return result
  }
}
