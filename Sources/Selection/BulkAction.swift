/// Whether a bulk action can run on the current selection, and if not, why.
public enum BulkAvailability: Hashable, Sendable {
  /// The action can run.
  case enabled
  /// The action cannot run; the reason is one short sentence for a tooltip or a status line.
  case disabled(reason: String)

  /// Whether the action can run.
  public var isEnabled: Bool { self == .enabled }
}

/// What a bulk action's rule sees: the count at once, the rows only when the rule asks.
///
/// The selected rows are materialized on first use of ``ids`` and then shared by every action
/// of one toolbar, so rules that only need the count stay O(1) after a select-all.
public struct BulkSelection<ID: Hashable> {
  /// The number of selected visible rows.
  public let count: Int
  /// Whether every selectable visible row is selected.
  public let isAllSelected: Bool
  private let storage: MaterializedIDs<ID>

  init(count: Int, isAllSelected: Bool, materialize: @escaping () -> [ID]) {
    self.count = count
    self.isAllSelected = isAllSelected
    self.storage = MaterializedIDs(materialize)
  }

  /// The selected visible rows in display order, materialized once.
  ///
  /// - Complexity: O(*v*) on first use, where *v* is the number of visible rows; O(1) after.
  public var ids: [ID] { storage.value }
}

/// A lazily computed, then cached, array of ids.
private final class MaterializedIDs<ID> {
  private var cached: [ID]?
  private let make: () -> [ID]

  init(_ make: @escaping () -> [ID]) { self.make = make }

  var value: [ID] {
    if let cached { return cached }
    let made = make()
    cached = made
    return made
  }
}

/// A command that acts on the selected rows, declared with the rule that enables it.
///
/// The toolbar is never stored: ``SelectionState/toolbar(for:in:)`` evaluates every action's
/// rule against the selection each time it is drawn, so it cannot fall out of step.
///
/// ```swift
/// let actions: [BulkAction<ItemID>] = [
///   .move(title: "Move to Groceries") { id in store.canMove(id, to: groceries) },
///   .delete(), .export(), .rename(), .addToCollection(),
/// ]
/// let toolbar = selection.toolbar(for: actions, in: rows)
/// ```
///
/// An action is `Sendable` (its rule is a `@Sendable` closure), so a list of actions can be a
/// global or a static constant, and a view model on the main actor can hand it to a task.
public struct BulkAction<ID: Hashable>: Identifiable, Sendable {
  /// A stable name for the action (`"rename"`, `"move"`), for key bindings and tests.
  public let id: String
  /// The label the toolbar shows.
  public let title: String
  private let rule: @Sendable (BulkSelection<ID>) -> BulkAvailability

  /// Declares an action with a rule over the selection.
  ///
  /// - Parameters:
  ///   - id: A stable name for the action.
  ///   - title: The label the toolbar shows.
  ///   - rule: Whether the action can run on a selection; it never sees an empty selection.
  public init(
    id: String, title: String, rule: @escaping @Sendable (BulkSelection<ID>) -> BulkAvailability
  ) {
    self.id = id
    self.title = title
    self.rule = rule
  }

  /// Whether the action can run on `selection`; an empty selection disables every action.
  ///
  /// - Complexity: That of the rule.
  public func availability(for selection: BulkSelection<ID>) -> BulkAvailability {
    guard selection.count > 0 else { return .disabled(reason: "nothing is selected") }
    return rule(selection)
  }
}

// The rules below are `@Sendable` closures that name `ID`, so its metatype must be sendable
// (every concrete type's is).
extension BulkAction where ID: SendableMetatype {
  /// An action enabled for any non-empty selection.
  ///
  /// - Parameters:
  ///   - id: A stable name for the action.
  ///   - title: The label the toolbar shows.
  public static func anySelection(id: String, title: String) -> BulkAction {
    BulkAction(id: id, title: title) { _ in .enabled }
  }

  /// Rename: enabled for exactly one selected row.
  ///
  /// - Parameter title: The label the toolbar shows.
  public static func rename(title: String = "Rename") -> BulkAction {
    BulkAction(id: "rename", title: title) { selection in
      selection.count == 1
        ? .enabled : .disabled(reason: "rename needs exactly one row, \(selection.count) selected")
    }
  }

  /// Delete: enabled for any non-empty selection.
  ///
  /// - Parameter title: The label the toolbar shows.
  public static func delete(title: String = "Delete") -> BulkAction {
    anySelection(id: "delete", title: title)
  }

  /// Export: enabled for any non-empty selection.
  ///
  /// - Parameter title: The label the toolbar shows.
  public static func export(title: String = "Export") -> BulkAction {
    anySelection(id: "export", title: title)
  }

  /// Add to collection: enabled for any non-empty selection.
  ///
  /// - Parameter title: The label the toolbar shows.
  public static func addToCollection(title: String = "Add to Collection") -> BulkAction {
    anySelection(id: "add-to-collection", title: title)
  }

  /// Move: enabled when every selected row can move to the destination.
  ///
  /// - Parameters:
  ///   - title: The label the toolbar shows.
  ///   - canMove: Whether one row can move to the destination.
  /// - Complexity: The rule is O(*v* + *k*·*m*), where *v* is the number of visible rows, *k*
  ///   the number selected and *m* the cost of `canMove`; it stops at the first refusal.
  public static func move(title: String = "Move", canMove: @escaping @Sendable (ID) -> Bool)
    -> BulkAction
  {
    BulkAction(id: "move", title: title) { selection in
      if let refused = selection.ids.first(where: { !canMove($0) }) {
        return .disabled(reason: "row \(refused) cannot move there")
      }
      return .enabled
    }
  }
}

/// One button of the bulk-action toolbar.
public struct ToolbarItem: Hashable, Sendable, Identifiable {
  /// The action's stable name.
  public var id: String
  /// The label.
  public var title: String
  /// Whether the button is enabled, and why not.
  public var availability: BulkAvailability
}

/// The bulk-action toolbar as it should look now: derived from the selection, never stored.
public struct Toolbar: Hashable, Sendable {
  /// Whether the toolbar is shown (multi-select edit mode).
  public var isShown: Bool
  /// The number of selected visible rows.
  public var selectedCount: Int
  /// The buttons, in the order the actions were declared.
  public var items: [ToolbarItem]

  /// The line a status bar shows: "3 selected" or "Select items".
  public var summary: String {
    selectedCount == 0 ? "Select items" : "\(selectedCount) selected"
  }

  /// The enabled buttons' ids.
  public var enabledIDs: [String] { items.filter(\.availability.isEnabled).map(\.id) }
}

extension SelectionState {
  /// The selection as bulk-action rules see it.
  ///
  /// - Parameter rows: The caller's rows, materialized only if a rule reads the ids.
  public func bulkSelection(in rows: some SelectionRows<ID>) -> BulkSelection<ID> {
    BulkSelection(count: count, isAllSelected: isAllSelected) { selectedIDs(in: rows) }
  }

  /// The toolbar for these actions and the current selection.
  ///
  /// Outside multi-select edit mode the toolbar is hidden and every action disabled.
  ///
  /// - Parameters:
  ///   - actions: The actions, in toolbar order.
  ///   - rows: The caller's rows.
  /// - Returns: The toolbar to draw.
  /// - Complexity: O(*a*) plus the rules' cost, where *a* is the number of actions; the
  ///   selected rows are materialized at most once, in O(*v*), if a rule reads them.
  public func toolbar(for actions: [BulkAction<ID>], in rows: some SelectionRows<ID>) -> Toolbar {
    guard allowsSelection else {
      let reason = isEditing ? "this list has no selection" : "not in edit mode"
      return Toolbar(
        isShown: false, selectedCount: 0,
        items: actions.map {
          ToolbarItem(id: $0.id, title: $0.title, availability: .disabled(reason: reason))
        })
    }
    let selection = bulkSelection(in: rows)
    return Toolbar(
      isShown: true, selectedCount: selection.count,
      items: actions.map {
        ToolbarItem(id: $0.id, title: $0.title, availability: $0.availability(for: selection))
      })
  }
}
