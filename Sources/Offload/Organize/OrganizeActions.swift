/// A change the organize screen asks for; ``OrganizeSession`` makes it through ``Workspace``.
public enum OrganizeChange: Hashable, Sendable {
  /// Remove these items with everything nested under them.
  case remove([ShortID])
  /// Mark these items done or not done.
  case setDone([ShortID], Bool)
  /// Move these items (side by side, relative order kept) to a place.
  case move([ShortID], ItemPlacement)
  /// Nest an item under its previous sibling.
  case indent(ShortID)
  /// Lift an item out of its parent.
  case outdent(ShortID)
  /// Replace an item's text.
  case rename(ShortID, String)
  /// Move these items (relative order kept) to the end of another collection.
  case moveToCollection([ShortID], String)
  /// Add an item with this text at a place.
  case add(String, ItemPlacement)
  /// Undo the last change made on this screen.
  case undo
}

/// A line of text the organize screen is asking for.
public enum OrganizePrompt: Hashable, Sendable {
  /// The new text of an item.
  case rename(ShortID)
  /// The collection the checked items move to.
  case moveTo([ShortID])
  /// The text of a new item, typed on a row of its own where it will appear.
  case add(ItemPlacement)
  /// The text the rows are filtered by; the rows follow each key typed.
  case filter
  /// Whether to delete items that have nested items: `y` deletes, any other key keeps.
  case confirmDelete([ShortID], nested: Int)

  /// The words before the text being typed.
  public var label: String {
    switch self {
    case .rename: "Rename to"
    case .moveTo(let ids): "Move \(OrganizeScreen.count(ids.count)) to collection"
    case .add: "New item"
    case .filter: "Filter"
    case .confirmDelete(let ids, let nested):
      "Delete \(OrganizeScreen.count(ids.count)) and \(OrganizeScreen.count(nested)) nested? y deletes"
    }
  }
}

/// What the screen wants after a key.
public enum OrganizeAction: Hashable, Sendable {
  /// Redraw.
  case redraw
  /// Make a change, then ``OrganizeScreen/reload(_:status:focus:)`` and redraw.
  case change(OrganizeChange)
  /// Leave the screen.
  case quit
}
