/// Why a tap or a selection request changed nothing.
public enum TapRefusal: Hashable, Sendable {
  /// The row is disabled.
  case disabled
  /// The list's mode is ``SelectionMode/none``.
  case selectionNotAllowed
  /// Edit mode shows delete buttons and reorder handles, which the UI handles itself.
  case styleHasNoSelection
  /// Deselecting the row would leave nothing selected, and the list disallows that.
  case wouldEmptySelection
  /// The request needs edit mode (select all, range extension).
  case notEditing
}

/// What a tap on a row means, for the UI to act on.
public enum TapOutcome<ID: Hashable>: Hashable {
  /// Normal mode: open the row (push its detail view).
  case navigate(ID)
  /// The row's checkmark turned on.
  case selected(ID)
  /// The row's checkmark turned off.
  case deselected(ID)
  /// Single selection: the row is now the only selected row; `previous` lost its checkmark.
  case replaced(ID, previous: ID?)
  /// The selection was extended from the anchor to the row.
  case extended(to: ID, selected: Int, deselected: Int)
  /// Nothing changed, for the reason given.
  case ignored(ID, TapRefusal)
}

extension TapOutcome: Sendable where ID: Sendable {}

extension SelectionState {
  /// Handles a tap on a visible row and says what the UI should do.
  ///
  /// | State | Tap |
  /// | --- | --- |
  /// | normal mode | ``TapOutcome/navigate(_:)`` (also on a disabled row) |
  /// | editing, delete-and-reorder style | ignored: the style has no selection |
  /// | editing, mode none | ignored |
  /// | editing, single | replace; a tap on the selected row deselects it |
  /// | editing, multiple | toggle |
  ///
  /// In edit mode a disabled row is ignored, and with ``disallowsEmptySelection`` a tap that
  /// would deselect the last selected row is ignored.
  ///
  /// ```swift
  /// switch selection.tap(row) {
  /// case .navigate(let id): showDetail(id)
  /// case .selected, .deselected, .replaced, .extended: redrawCheckmarks()
  /// case .ignored: break
  /// }
  /// ```
  ///
  /// - Parameter id: The tapped row; it must be visible.
  /// - Returns: What the tap did.
  @inlinable @discardableResult
  public mutating func tap(_ id: ID) -> TapOutcome<ID> {
    guard isEditing else { return .navigate(id) }
    guard editStyle == .multiSelect else { return .ignored(id, .styleHasNoSelection) }
    switch mode {
    case .none: return .ignored(id, .selectionNotAllowed)
    case .single: return replace(with: id)
    case .multiple: return toggle(id)
    }
  }

  /// Toggles a visible row's checkmark in edit mode.
  ///
  /// In single mode selecting replaces the selected row. Selecting a row makes it the anchor
  /// of the next range extension.
  ///
  /// - Parameter id: A visible row.
  /// - Returns: ``TapOutcome/selected(_:)``, ``TapOutcome/deselected(_:)``,
  ///   ``TapOutcome/replaced(_:previous:)`` or ``TapOutcome/ignored(_:_:)``.
  @inlinable @discardableResult
  public mutating func toggle(_ id: ID) -> TapOutcome<ID> {
    isSelected(id) ? deselect(id) : select(id)
  }

  /// Selects a visible row in edit mode (replacing the selected row in single mode).
  ///
  /// - Parameter id: A visible row.
  /// - Returns: What changed; selecting a selected row returns ``TapOutcome/selected(_:)``
  ///   and changes nothing but the anchor.
  @inlinable @discardableResult
  public mutating func select(_ id: ID) -> TapOutcome<ID> {
    if let refusal = refusal(for: id) { return .ignored(id, refusal) }
    if mode == .single { return replace(with: id) }
    defer { checkInvariants() }
    switch kind {
    case .only: members.insert(id)
    case .allExcept: members.remove(id)
    }
    hiddenMembers.remove(id)
    _anchor = id
    rangeEnd = id
    return .selected(id)
  }

  /// Deselects a visible row in edit mode.
  ///
  /// - Parameter id: A visible row.
  /// - Returns: ``TapOutcome/deselected(_:)``, or ``TapOutcome/ignored(_:_:)`` when the list
  ///   disallows an empty selection and this is its last selected row.
  @inlinable @discardableResult
  public mutating func deselect(_ id: ID) -> TapOutcome<ID> {
    if let refusal = refusal(for: id) { return .ignored(id, refusal) }
    guard isSelected(id) else { return .deselected(id) }
    if disallowsEmptySelection && count <= 1 { return .ignored(id, .wouldEmptySelection) }
    defer { checkInvariants() }
    switch kind {
    case .only: members.remove(id)
    case .allExcept: members.insert(id)
    }
    return .deselected(id)
  }

  /// Selects every selectable visible row, in O(1) when no row is hidden.
  ///
  /// The selection becomes "all except" the hidden rows: rows a filter or a collapsed parent
  /// hides are not selected by a select-all, also when they show again. Does nothing outside
  /// edit mode, in single mode and in mode none.
  ///
  /// - Parameter rows: The caller's rows; only their count is read unless some are hidden.
  /// - Returns: Whether the selection changed to all.
  /// - Complexity: O(*s*) to release the stored ids, plus O(*h*) when rows are hidden, where
  ///   *h* is the number of hidden rows.
  @discardableResult
  public mutating func selectAll(in rows: some SelectionRows<ID>) -> Bool {
    guard allowsSelection && mode == .multiple else { return false }
    defer { checkInvariants() }
    removeAll()
    kind = .allExcept
    visibleCount = rows.visibleCount
    if rows.hasHiddenRows {
      for id in rows.hiddenIDs where !hiddenDisabled.contains(id) { hiddenMembers.insert(id) }
    }
    return true
  }

  /// Deselects every row, unless the list disallows an empty selection.
  ///
  /// - Returns: Whether the selection was cleared.
  /// - Complexity: O(*s*), where *s* is the number of stored ids.
  @discardableResult
  public mutating func deselectAll() -> Bool {
    if disallowsEmptySelection && !isEmpty { return false }
    removeAll()
    checkInvariants()
    return true
  }

  /// Selects all when not everything is selected, else deselects all (a "Select All" button
  /// that turns into "Deselect All").
  ///
  /// - Returns: Whether the selection changed.
  /// - Complexity: As ``selectAll(in:)`` or ``deselectAll()``.
  @discardableResult
  public mutating func toggleSelectAll(in rows: some SelectionRows<ID>) -> Bool {
    visibleCount = rows.visibleCount
    return isAllSelected ? deselectAll() : selectAll(in: rows)
  }

  /// Why selecting or deselecting `id` is not possible now, if it is not.
  @inlinable
  func refusal(for id: ID) -> TapRefusal? {
    if !isEditing { return .notEditing }
    if editStyle != .multiSelect { return .styleHasNoSelection }
    if mode == .none { return .selectionNotAllowed }
    if isDisabled(id) { return .disabled }
    return nil
  }

  /// Single mode: makes `id` the only selected row, or deselects it when it is.
  @inlinable
  mutating func replace(with id: ID) -> TapOutcome<ID> {
    if let refusal = refusal(for: id) { return .ignored(id, refusal) }
    if isSelected(id) {
      if disallowsEmptySelection { return .ignored(id, .wouldEmptySelection) }
      removeAll()
      checkInvariants()
      return .deselected(id)
    }
    let previous = kind == .only ? members.first ?? hiddenMembers.first : nil
    removeAll()
    members = [id]
    _anchor = id
    rangeEnd = id
    checkInvariants()
    return .replaced(id, previous: previous)
  }
}
