import TerminalUI

extension OrganizeScreen {
  /// Opens the new-item row below `id` (or in an empty screen): as the first child of an
  /// expanded parent, so it appears right under the cursor, else as the next sibling.
  mutating func beginAdding(below id: ShortID?) {
    guard let id else {
      prompt = .add(.lastRoot)
      input = ""
      return
    }
    let expanded = tree.forest.childCount(of: id) > 0 && !collapsed.contains(id)
    prompt = .add(expanded ? .firstChild(of: id.rawValue) : .after(id.rawValue))
    input = ""
  }

  /// Where the new-item row is drawn: its index among the rows and its depth.
  var addingRow: (index: Int, depth: Int)? {
    guard case .add(let placement) = prompt else { return nil }
    guard !rows.isEmpty else { return (0, 0) }
    let cursor = viewport.cursor
    let depth = rows[cursor].depth
    switch placement {
    case .firstChild: return (cursor + 1, depth + 1)
    default:
      // After the cursor's item and every displayed row nested under it.
      var index = cursor + 1
      while index < rows.count && rows[index].depth > depth { index += 1 }
      return (index, depth)
    }
  }

  /// Removes the items at once, or asks first when they have nested items.
  mutating func remove(_ ids: [ShortID]) -> OrganizeAction {
    let forest = tree.forest
    let nested = ids.reduce(0) { $0 + forest.subtree(of: $1).count - 1 }
    guard nested > 0 else { return .change(.remove(ids)) }
    prompt = .confirmDelete(ids, nested: nested)
    return .redraw
  }

  /// Keys while the filter is typed: the rows follow every key; Enter keeps the filter, Esc
  /// clears it.
  mutating func handleFilter(_ key: KeyPress) -> OrganizeAction {
    switch (key.key, key.modifiers) {
    case (.escape, _), (.character("c"), [.control]):
      prompt = nil
      input = ""
      status = "Filter cleared"
    case (.enter, _):
      prompt = nil
      status = filter.isEmpty ? "No filter" : "Filtered by \"\(filter)\" · / changes it"
    default:
      guard type(key) else { return .redraw }
    }
    if filter != input {
      filter = input
      rebuildRows(keepingCursorOn: cursorID, orIndex: viewport.cursor)
    }
    return .redraw
  }

  /// The rows the filter and the done switch let through: with a filter, the items whose text
  /// holds it (ignoring case) and their ancestors; without done items, no done item nor
  /// anything nested under one.
  ///
  /// - Complexity: O(*r* × *d*), where *r* is the number of rows and *d* the depth.
  func filtered(_ rows: [CollectionTree.Row]) -> [CollectionTree.Row] {
    let forest = tree.forest
    func ancestorsAndSelf(_ id: ShortID) -> some Sequence<ShortID> {
      sequence(first: id) { forest.parent(of: $0) }
    }
    var shown = rows
    if hidesDone {
      shown.removeAll { row in
        ancestorsAndSelf(row.item.id).contains { tree.items[$0]?.done == true }
      }
    }
    let needle = filter.lowercased()
    if !needle.isEmpty {
      var keep = Set<ShortID>()
      for (id, item) in tree.items where item.text.lowercased().contains(needle) {
        for ancestor in ancestorsAndSelf(id) {
          if !keep.insert(ancestor).inserted { break }  // The rest is in already.
        }
      }
      shown.removeAll { !keep.contains($0.item.id) }
    }
    return shown
  }
}
