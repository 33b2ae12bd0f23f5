public import Selection
public import TerminalUI

/// The organize screen's state machine: keys in, frames out, changes asked for as values.
///
/// It holds a collection's rows (collapsed parents hide their descendants), a cursor over
/// them in a `ListViewport`, and a `SelectionState` for edit mode. Normal mode follows how
/// iOS lists behave, so habits carry over: ↑/↓ move, Enter opens an item's details, Delete or
/// Backspace is the swipe-to-delete quick action (a row with nested items asks first), ←/→ collapse and
/// expand, `x` ticks the row done (or not done), `a` or `o` adds an item below it (typed on
/// its own row: Enter saves, Esc cancels). `e` toggles edit mode (Edit/Done): space toggles
/// a checkmark, shift+↑/↓ extends the selection, `a` selects all, the bottom toolbar is
/// derived from the selection by `SelectionState.toolbar(for:in:)`, `x` marks done (or not
/// done when every selected row is), `d` or Delete deletes, Tab and Shift-Tab indent and
/// outdent. In both modes alt+↑/↓, or `K`/`J` where a terminal has no Alt, move the checked
/// rows (or the cursor row) among their siblings; `/` filters the rows by text, `h` hides
/// done items, `u` undoes the last change made on this screen and `q` quits.
///
/// The screen never touches the store: a key that changes data returns
/// ``OrganizeAction/change(_:)``, and the caller makes the change and calls
/// ``reload(_:status:focus:)`` with the new tree. That keeps it a value that tests drive without a
/// terminal or a disk, and that a benchmark times alone.
///
/// ```swift
/// var screen = OrganizeScreen(tree: try workspace.tree(of: "Trip"))
/// _ = screen.handle(KeyPress(.down))
/// print(screen.frame(size: TerminalSize(columns: 80, rows: 24)).text)
/// ```
public struct OrganizeScreen {
  /// The collection as last loaded.
  public internal(set) var tree: CollectionTree
  /// The displayed rows, in preorder.
  public internal(set) var rows: [CollectionTree.Row]
  /// Items whose descendants are hidden.
  public internal(set) var collapsed: Set<ShortID> = []
  /// The cursor and the scroll position.
  public internal(set) var viewport: ListViewport
  /// The checkmarks of edit mode.
  public internal(set) var selection = SelectionState<ShortID>(mode: .multiple)
  /// The item whose details are shown, if any.
  public internal(set) var detail: ShortID?
  /// The line of text being asked for, if any; keys type into ``input`` until Enter or Esc.
  public internal(set) var prompt: OrganizePrompt?
  /// The text typed at the prompt.
  public internal(set) var input = ""
  /// The text rows are filtered by (case-insensitive); empty shows every row.
  public internal(set) var filter = ""
  /// Whether done items (and what is nested under them) are hidden.
  public internal(set) var hidesDone = false
  /// The last message: what a change did, or why a key did nothing.
  public var status: String
  /// The rows as the selection sees them (displayed and collapsed-away items).
  var snapshot: OrganizeRows

  /// The bulk actions of the edit-mode toolbar, in toolbar order, with rules over the
  /// collection as it is now.
  public var actions: [BulkAction<ShortID>] {
    let forest = tree.forest
    return [
      .anySelection(id: "done", title: "x Done"),
      .delete(title: "d Delete"),
      BulkAction(id: "move", title: "alt+↑↓ Move") { selection in
        let tops =
          (try? SelectionState<ShortID>.topmost(of: selection.ids) { forest.parent(of: $0) }) ?? []
        return Set(tops.map { forest.parent(of: $0) }).count <= 1
          ? .enabled : .disabled(reason: "the selected rows have different parents")
      },
      .rename(title: "r Rename"),
      .anySelection(id: "move-to", title: "m Move to…"),
    ]
  }

  /// Creates the screen over a collection, in normal mode, with the cursor on the first row.
  ///
  /// - Complexity: O(*n*), where *n* is the number of items.
  public init(tree: CollectionTree) {
    self.tree = tree
    self.rows = tree.rows()
    self.viewport = ListViewport(rowCount: rows.count, height: 0)
    self.snapshot = OrganizeRows(rows: rows, all: tree.items.keys)
    self.status = "\(tree.collection.name): \(Self.count(tree.items.count)) · e edits, q quits"
  }

  /// The item under the cursor.
  public var cursorID: ShortID? {
    rows.isEmpty ? nil : rows[viewport.cursor].item.id
  }

  /// Whether edit mode is on.
  public var isEditing: Bool { selection.isEditing }

  /// The toolbar as it should look now: derived from the selection, never stored.
  ///
  /// - Complexity: O(*v*) when an enabled rule reads the selected rows, else O(1).
  public var toolbar: Toolbar { selection.toolbar(for: actions, in: snapshot) }

  // MARK: Reloading

  /// Shows a new version of the collection after a change, keeping the cursor on the same
  /// item when it still exists, and dropping checkmarks of items that are gone.
  ///
  /// - Parameters:
  ///   - tree: The collection as it is now.
  ///   - status: The message to show.
  ///   - focus: The item to put the cursor on (a new item), or `nil` to keep it where it was.
  /// - Complexity: O(*n*), where *n* is the number of items.
  public mutating func reload(_ tree: CollectionTree, status: String, focus: ShortID? = nil) {
    let keep = focus ?? cursorID
    let index = viewport.cursor
    self.tree = tree
    collapsed = collapsed.filter { tree.items[$0] != nil }
    if let detail, tree.items[detail] == nil { self.detail = nil }
    rebuildRows(keepingCursorOn: keep, orIndex: index)
    self.status = status
  }

  /// Rebuilds the displayed rows after a change, a collapse, or a new filter.
  mutating func rebuildRows(keepingCursorOn id: ShortID?, orIndex index: Int) {
    rows = tree.rows(collapsed: collapsed)
    if hidesDone || !filter.isEmpty { rows = filtered(rows) }
    snapshot = OrganizeRows(rows: rows, all: tree.items.keys)
    viewport.setRowCount(rows.count)
    if let id, let position = snapshot.position[id] {
      viewport.moveCursor(to: position)
    } else {
      viewport.moveCursor(to: index)
    }
    selection.reconcile(with: snapshot, policy: .keepHidden)
  }

  // MARK: Keys

  /// Handles one key.
  ///
  /// - Parameter key: The key.
  /// - Returns: Whether to redraw, make a change, or quit.
  /// - Complexity: O(1) for cursor moves and checkmarks; O(*n*) for collapsing and
  ///   expanding, and O(*v*) for keys that read the selected rows (bulk actions, range
  ///   extension), where *n* is the number of items and *v* of displayed rows.
  public mutating func handle(_ key: KeyPress) -> OrganizeAction {
    if let prompt { return handlePrompt(key, prompt) }
    switch (key.key, key.modifiers) {
    case (.character("q"), []), (.character("c"), [.control]): return .quit
    case (.character("u"), []): return .change(.undo)
    case (.character("/"), []) where detail == nil:
      prompt = .filter
      input = filter
      return .redraw
    case (.character("h"), []) where detail == nil:
      hidesDone.toggle()
      rebuildRows(keepingCursorOn: cursorID, orIndex: viewport.cursor)
      status = hidesDone ? "Done items hidden · h shows them" : "Done items shown"
      return .redraw
    default: break
    }
    if detail != nil {
      switch key.key {
      case .enter, .escape, .left, .character("i"): detail = nil
      default: status = "Enter or Esc closes the details"
      }
      return .redraw
    }
    if moveCursor(key) { return .redraw }
    return isEditing ? handleEditing(key) : handleNormal(key)
  }

  /// Cursor keys in both modes; shift extends the selection in edit mode.
  mutating func moveCursor(_ key: KeyPress) -> Bool {
    guard key.modifiers.isSubset(of: [.shift]), viewport.moveCursor(for: key.key) else {
      return false
    }
    if key.modifiers == [.shift], isEditing, let id = cursorID {
      _ = try? selection.extend(to: id, in: snapshot)
    }
    return true
  }

  mutating func handleNormal(_ key: KeyPress) -> OrganizeAction {
    guard let id = cursorID else {
      switch key.key {
      case .character("e"): selection.beginEditing()
      case .character("a"), .character("o"): beginAdding(below: nil)
      default: break
      }
      return .redraw
    }
    switch (key.key, key.modifiers) {
    case (.enter, []):
      detail = id
    case (.delete, []), (.backspace, []):
      return remove([id])
    case (.character("x"), []):
      return .change(.setDone([id], !(tree.items[id]?.done ?? false)))
    case (.character("a"), []), (.character("o"), []):
      beginAdding(below: id)
    case (.up, .alt), (.down, .alt), (.character("K"), _), (.character("J"), _):
      return reorder(up: key.key == .up || key.key == .character("K"), cursor: id)
    case (.left, []):
      collapseOrGoToParent(id)
    case (.right, []):
      expand(id)
    case (.character("e"), []):
      selection.beginEditing()
      status = "Edit: space checks, a selects all, e is Done"
    case (.tab, _):
      status = "Nesting is in edit mode: press e"
    default:
      break
    }
    return .redraw
  }

  mutating func handleEditing(_ key: KeyPress) -> OrganizeAction {
    switch (key.key, key.modifiers) {
    case (.character("e"), []), (.escape, []):
      selection.endEditing()
      status = "Done"
      return .redraw
    case (.character("a"), []):
      selection.toggleSelectAll(in: snapshot)
      return .redraw
    case (.left, []):
      if let id = cursorID { collapseOrGoToParent(id) }
      return .redraw
    case (.right, []):
      if let id = cursorID { expand(id) }
      return .redraw
    default:
      break
    }
    guard let id = cursorID else { return .redraw }
    switch (key.key, key.modifiers) {
    case (.space, []), (.enter, []):
      selection.tap(id)
    case (.character("x"), []):
      if let refused = refusal("done") { return refused }
      let ids = selection.selectedIDs(in: snapshot)
      let allDone = ids.allSatisfy { tree.items[$0]?.done == true }
      return .change(.setDone(ids, !allDone))
    case (.character("d"), []), (.delete, []), (.backspace, []):
      if let refused = refusal("delete") { return refused }
      return remove(topmost)
    case (.character("o"), []):
      beginAdding(below: id)
    case (.up, .alt), (.down, .alt), (.character("K"), _), (.character("J"), _):
      return reorder(up: key.key == .up || key.key == .character("K"), cursor: id)
    case (.tab, []):
      return .change(.indent(id))
    case (.tab, .shift):
      return .change(.outdent(id))
    case (.character("r"), []):
      if let refused = refusal("rename") { return refused }
      guard let only = selection.selectedIDs(in: snapshot).first else { return .redraw }
      prompt = .rename(only)
      input = tree.items[only]?.text ?? ""
    case (.character("m"), []):
      if let refused = refusal("move-to") { return refused }
      prompt = .moveTo(topmost)
      input = ""
    default:
      break
    }
    return .redraw
  }

  /// Keys while a prompt is open: they type, Backspace erases, Enter submits, Esc cancels.
  mutating func handlePrompt(_ key: KeyPress, _ prompt: OrganizePrompt) -> OrganizeAction {
    if case .confirmDelete(let ids, _) = prompt {
      self.prompt = nil
      guard key.key == .character("y") || key.key == .character("Y") else {
        status = "Kept \(Self.count(ids.count)) and what is nested under them"
        return .redraw
      }
      return .change(.remove(ids))
    }
    if case .filter = prompt {
      return handleFilter(key)
    }
    switch (key.key, key.modifiers) {
    case (.escape, _), (.character("c"), [.control]):
      self.prompt = nil
      status = "Cancelled"
    case (.enter, _):
      let text = input.trimmingSpaces
      switch prompt {
      case .rename, .add:
        // The editor's rule for an item's text, checked before the prompt closes so the
        // text stays to be corrected.
        do throws(EditRefusal) {
          _ = try ItemText.valid(input)
        } catch {
          status = "Cannot: \(error.reason)"
          return .redraw
        }
      case .moveTo, .filter, .confirmDelete:
        guard !text.isEmpty else {
          status = "Type some text first, or Esc to cancel"
          return .redraw
        }
      }
      self.prompt = nil
      switch prompt {
      case .rename(let id): return .change(.rename(id, text))
      case .moveTo(let ids): return .change(.moveToCollection(ids, text))
      case .add(let placement): return .change(.add(text, placement))
      case .filter, .confirmDelete: return .redraw
      }
    default:
      _ = type(key)
    }
    return .redraw
  }

  /// Types a key into ``input``: a character, a space, or Backspace erasing the last one.
  ///
  /// - Returns: Whether the key was one that types.
  mutating func type(_ key: KeyPress) -> Bool {
    switch (key.key, key.modifiers) {
    case (.backspace, _):
      if !input.isEmpty { input.removeLast() }
    case (.space, []):
      input.append(" ")
    case (.character(let character), let modifiers) where modifiers.isSubset(of: [.shift]):
      input.append(character)
    default:
      return false
    }
    return true
  }

  /// `nil` when a toolbar action is enabled, else a redraw that says why not.
  mutating func refusal(_ action: String) -> OrganizeAction? {
    guard let item = toolbar.items.first(where: { $0.id == action }) else { return .redraw }
    if case .disabled(let reason) = item.availability {
      status = "\(item.title.split(separator: " ").dropFirst().joined(separator: " ")): \(reason)"
      return .redraw
    }
    return nil
  }

  /// The selected rows without a selected ancestor, in display order.
  var topmost: [ShortID] {
    let forest = tree.forest
    return (try? selection.topmostSelectedIDs(in: snapshot) { forest.parent(of: $0) }) ?? []
  }

  /// Moves the checked rows (or the cursor row) one sibling up or down.
  mutating func reorder(up: Bool, cursor: ShortID) -> OrganizeAction {
    let forest = tree.forest
    let movers = selection.isEmpty ? [cursor] : topmost
    guard let first = movers.first, let last = movers.last else { return .redraw }
    let parent = forest.parent(of: first)
    guard movers.allSatisfy({ forest.parent(of: $0) == parent }) else {
      status = "Move: the selected rows have different parents"
      return .redraw
    }
    let moving = Set(movers)
    let sibling = { (id: ShortID) in
      up ? forest.previousSibling(of: id) : forest.nextSibling(of: id)
    }
    var anchor = sibling(up ? first : last)
    while let candidate = anchor, moving.contains(candidate) {
      anchor = sibling(candidate)
    }
    guard let anchor else {
      status = "Already at the \(up ? "top" : "bottom") of its level"
      return .redraw
    }
    return .change(.move(movers, up ? .before(anchor.rawValue) : .after(anchor.rawValue)))
  }

  mutating func collapseOrGoToParent(_ id: ShortID) {
    if tree.forest.childCount(of: id) > 0 && !collapsed.contains(id) {
      collapsed.insert(id)
      rebuildRows(keepingCursorOn: id, orIndex: viewport.cursor)
    } else if let parent = tree.forest.parent(of: id), let position = snapshot.position[parent] {
      viewport.moveCursor(to: position)
    }
  }

  mutating func expand(_ id: ShortID) {
    guard collapsed.remove(id) != nil else { return }
    rebuildRows(keepingCursorOn: id, orIndex: viewport.cursor)
  }

  static func count(_ n: Int) -> String { n == 1 ? "1 item" : "\(n) items" }
}

extension String {
  /// The string without leading and trailing spaces.
  var trimmingSpaces: String {
    var text = Substring(self)
    while text.first == " " { text.removeFirst() }
    while text.last == " " { text.removeLast() }
    return String(text)
  }
}
