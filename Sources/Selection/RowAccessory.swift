/// What a row shows beside its content in the current mode: derived, never stored.
public enum RowAccessory: Hashable, Sendable {
  /// Normal mode: nothing (a disclosure indicator, if the UI has one).
  case none
  /// Multi-select edit mode: an empty or a filled circle.
  case checkmark(isSelected: Bool)
  /// Multi-select edit mode on a disabled row: a dimmed circle that does not respond.
  case unavailable
  /// Delete-and-reorder edit mode: a delete button and a reorder handle.
  case deleteAndReorder
}

extension SelectionState {
  /// What a row shows beside its content now.
  ///
  /// - Parameter id: A row of the caller's list.
  public func accessory(for id: ID) -> RowAccessory {
    guard isEditing else { return .none }
    switch editStyle {
    case .deleteAndReorder: return .deleteAndReorder
    case .multiSelect:
      if mode == .none { return .none }
      if isDisabled(id) { return .unavailable }
      return .checkmark(isSelected: isSelected(id))
    }
  }
}
