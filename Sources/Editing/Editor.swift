public import Gestures
public import OrderingCore

/// The one editor of a list or plan: one function per intent, each applying the collection's
/// ``PlacementRules`` and giving one ``EditChange``.
///
/// The editor holds the arrangement (an `OrderedForest` whose constraints are the rules) and
/// nothing of storage: a surface (the command line, a terminal screen, a web page, an app)
/// hands it an intent, saves the change it returns, and shows a refusal's
/// ``EditRefusal/reason`` as it is. The same intent is refused with the same reason whichever
/// surface asked.
///
/// ```swift
/// var editor = Editor(forest: forest, rules: rules)
/// do {
///   let change = try editor.move(["game"], to: .lastChild(of: "day2"))
///   save(change)
/// } catch {
///   print(error.reason)   // "day headers and games stay where they are"
/// }
/// ```
public struct Editor<ID: Hashable & Comparable & Sendable>: Sendable {
  /// The arrangement, checked against ``rules``.
  public internal(set) var forest: OrderedForest<ID>
  /// The collection's rules.
  public private(set) var rules: PlacementRules<ID>

  /// An editor over an arrangement.
  ///
  /// - Parameters:
  ///   - forest: The items' arrangement; its rules are replaced by `rules`' (its key budget
  ///     is kept).
  ///   - rules: The collection's rules.
  public init(forest: OrderedForest<ID>, rules: PlacementRules<ID>) {
    self.forest = forest
    self.rules = rules
    self.forest.constraints = rules.constraints(keyBudget: forest.constraints.keyBudget)
  }

  // MARK: Intents

  /// Adds a new item (a leaf) with a role at a destination.
  ///
  /// - Parameters:
  ///   - id: The new item's id.
  ///   - role: Its role, or nil for a free item.
  ///   - destination: Where it goes.
  /// - Returns: The change: the new item's place.
  /// - Throws: ``EditRefusal`` when the rules refuse the place (nothing changes then).
  /// - Complexity: That of `OrderedForest.insert(_:at:)`, plus O(*r*) to take the role in.
  public mutating func add(
    _ id: ID, role: PlacementRole? = nil, at destination: OrderedForest<ID>.Destination
  ) throws(EditRefusal) -> EditChange<ID> {
    let before = rules
    if let role { adopt(rules.adding(id, role: role, asRoot: isRoot(destination))) }
    do {
      return EditChange(intent: .add, try forest.insert(id, at: destination))
    } catch {
      adopt(before)
      throw EditRefusal(error)
    }
  }

  /// Moves items with their subtrees to one place, side by side in the order given (a
  /// command's move, a bulk move, a move of the checked rows).
  ///
  /// - Parameters:
  ///   - ids: The items; one for a single move.
  ///   - destination: Where they go.
  ///   - intent: ``EditChange/Intent/move`` or ``EditChange/Intent/drop``.
  /// - Returns: The change.
  /// - Throws: ``EditRefusal`` (nothing changes then).
  /// - Complexity: That of `OrderedForest.move(_:to:)`.
  public mutating func move(
    _ ids: [ID], to destination: OrderedForest<ID>.Destination,
    intent: EditChange<ID>.Intent = .move
  ) throws(EditRefusal) -> EditChange<ID> {
    do {
      return EditChange(intent: intent, try forest.move(ids, to: destination))
    } catch {
      throw EditRefusal(error)
    }
  }

  /// Carries out the drop resolver's answer for a drag of `ids`: the drop's move when it is
  /// allowed, its refusal when it is blocked, and a fixed row's refusal whatever the target
  /// (as a command's move of it is refused).
  ///
  /// - Parameters:
  ///   - ids: The dragged items.
  ///   - target: The resolver's answer.
  /// - Returns: The change.
  /// - Throws: ``EditRefusal`` with the blocked target's reason, or the forest's refusal.
  /// - Complexity: That of ``move(_:to:intent:)``.
  public mutating func drop(_ ids: [ID], on target: DropTarget<ID>) throws(EditRefusal)
    -> EditChange<ID>
  {
    if let refusal = DropTargetResolver.canLift(ids, rules: rules.policy) {
      throw EditRefusal(code: "fixed", reason: refusal.reason)
    }
    switch target {
    case .blocked(let refusal, _):
      throw EditRefusal(code: refusal.code, reason: refusal.reason)
    case .allowed(let instruction):
      return try move(ids, to: OrderedForest<ID>.Destination(instruction.move), intent: .drop)
    }
  }

  /// Moves a row one step by keyboard (up, down, indent, outdent) among the rows shown, as
  /// the drop resolver answers it.
  ///
  /// - Parameters:
  ///   - step: The step.
  ///   - id: The row.
  ///   - collapsed: The rows whose children are hidden.
  /// - Returns: The change.
  /// - Throws: ``EditRefusal`` with the resolver's or the forest's reason.
  /// - Complexity: O(*v*) for the shown rows, plus the move.
  public mutating func step(_ step: KeyboardMove, _ id: ID, collapsed: Set<ID> = [])
    throws(EditRefusal) -> EditChange<ID>
  {
    guard forest.contains(id) else {
      throw EditRefusal(code: "unknown", reason: "no such item in this collection")
    }
    let target = DropTargetResolver.keyboardMove(
      step, of: id, in: dropRows(collapsed: collapsed), rules: rules.policy,
      configuration: rules.dropConfiguration)
    var change = try drop([id], on: target)
    change.intent = .move
    return change
  }

  /// Nests items under their previous siblings (each becomes that sibling's last child).
  ///
  /// - Parameter ids: The items; one for a single indent.
  /// - Returns: The change.
  /// - Throws: ``EditRefusal`` (nothing changes then).
  /// - Complexity: That of `OrderedForest.indent(_:)`.
  public mutating func indent(_ ids: [ID]) throws(EditRefusal) -> EditChange<ID> {
    do {
      return EditChange(intent: .indent, try forest.indent(ids))
    } catch {
      throw EditRefusal(error)
    }
  }

  /// Lifts items out of their parents (each becomes its parent's next sibling).
  ///
  /// - Parameter ids: The items; one for a single outdent.
  /// - Returns: The change.
  /// - Throws: ``EditRefusal`` (nothing changes then).
  /// - Complexity: That of `OrderedForest.outdent(_:)`.
  public mutating func outdent(_ ids: [ID]) throws(EditRefusal) -> EditChange<ID> {
    do {
      return EditChange(intent: .outdent, try forest.outdent(ids))
    } catch {
      throw EditRefusal(error)
    }
  }

  /// Removes items with everything nested under them; an item already gone with an
  /// ancestor named before it is skipped.
  ///
  /// - Parameter ids: The items; one for a single removal.
  /// - Returns: The change: every removed item, in preorder per named item.
  /// - Complexity: O(*s* log *n*) over the removed subtrees' sizes *s*.
  public mutating func remove(_ ids: [ID]) -> EditChange<ID> {
    var change = EditChange<ID>(intent: .remove)
    for id in ids where forest.contains(id) {
      guard let removed = try? forest.remove(id) else { continue }
      change.placements += EditChange(intent: .remove, removed).placements
    }
    return change
  }

  /// Marks items done or not done.
  ///
  /// - Parameters:
  ///   - ids: The items (for a parent, the caller lists its subtree too).
  ///   - done: The new mark.
  ///   - current: Each item's mark now.
  /// - Returns: The change: the items whose mark changed.
  /// - Complexity: O(*k*), where *k* is the number of ids.
  public func mark(_ ids: [ID], done: Bool, current: (ID) -> Bool) -> EditChange<ID> {
    EditChange(
      intent: .mark,
      fields: ids.filter { current($0) != done }.map {
        .init(id: $0, name: "done", before: String(!done), after: String(done))
      })
  }

  /// Replaces an item's text or role.
  ///
  /// - Parameters:
  ///   - id: The item.
  ///   - field: `text` or `role`.
  ///   - old: The value now.
  ///   - new: The new value (for a role, its word; nil for none).
  /// - Returns: The change (empty when nothing differs).
  public func edit(_ id: ID, _ field: String, from old: String?, to new: String?)
    -> EditChange<ID>
  {
    EditChange(
      intent: .edit,
      fields: old == new ? [] : [.init(id: id, name: field, before: old, after: new)])
  }

  // MARK: Rows

  /// The drop resolver's rows for the shown rows, every row one point tall (a keyboard move
  /// uses only their order and depth).
  ///
  /// - Parameter collapsed: The rows whose children are hidden.
  /// - Returns: One row per shown item, in preorder.
  /// - Complexity: O(*v*), where *v* is the number of shown rows.
  public func dropRows(collapsed: Set<ID> = []) -> [DropRow<ID>] {
    forest.visibleRows(collapsed: collapsed).enumerated().map { index, row in
      DropRow(
        id: row.id, minY: Double(index), height: 1, depth: row.depth,
        isExpanded: row.childCount > 0 && !collapsed.contains(row.id),
        acceptsChildren: rules.acceptsChildren(row.id, depth: row.depth))
    }
  }

  // MARK: Helpers

  mutating func adopt(_ new: PlacementRules<ID>) {
    rules = new
    forest.constraints = new.constraints(keyBudget: forest.constraints.keyBudget)
  }

  func isRoot(_ destination: OrderedForest<ID>.Destination) -> Bool {
    switch destination {
    case .root, .lastRoot: true
    case .before(let anchor), .after(let anchor): forest.parent(of: anchor) == nil
    case .firstChild, .lastChild: false
    }
  }
}
