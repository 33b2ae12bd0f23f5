public import Selection

/// The organize screen's rows as a selection sees them: displayed rows in preorder, and the
/// items collapsed parents hide.
public struct OrganizeRows: SelectionRows {
  /// The displayed rows, in display order.
  public let visibleIDs: [ShortID]
  /// Each displayed row's position.
  let position: [ShortID: Int]
  /// Every item of the collection.
  let all: Set<ShortID>

  /// Builds the rows from the displayed rows and every item of the collection.
  ///
  /// - Complexity: O(*n*), where *n* is the number of items.
  init(rows: [CollectionTree.Row], all: some Sequence<ShortID>) {
    visibleIDs = rows.map(\.item.id)
    var position: [ShortID: Int] = [:]
    position.reserveCapacity(visibleIDs.count)
    for (index, id) in visibleIDs.enumerated() { position[id] = index }
    self.position = position
    self.all = Set(all)
  }

  /// The number of displayed rows.
  public var visibleCount: Int { visibleIDs.count }

  /// Whether a collapsed parent hides any item.
  public var hasHiddenRows: Bool { all.count > visibleIDs.count }

  /// The items collapsed parents hide.
  ///
  /// - Complexity: O(*n*), where *n* is the number of items.
  public var hiddenIDs: [ShortID] { all.filter { position[$0] == nil }.sorted() }

  /// Whether an item is displayed, hidden under a collapsed parent, or gone.
  public func status(of id: ShortID) -> RowStatus {
    if position[id] != nil { return .visible }
    return all.contains(id) ? .hidden : .gone
  }
}
