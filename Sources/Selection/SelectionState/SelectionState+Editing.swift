extension SelectionState {
  /// Enters edit mode with nothing selected.
  ///
  /// Does nothing when already editing.
  public mutating func beginEditing() {
    guard !isEditing else { return }
    isEditing = true
    removeAll()
    checkInvariants()
  }

  /// Leaves edit mode (Done) and clears the selection, as UIKit's editing lists do.
  ///
  /// The selection is cleared even when ``disallowsEmptySelection`` is set: that flag guards
  /// the user's taps inside edit mode, not leaving it.
  ///
  /// - Complexity: O(*s*), where *s* is the number of stored ids.
  public mutating func endEditing() {
    isEditing = false
    removeAll()
    checkInvariants()
  }

  /// Enters or leaves edit mode (the Edit/Done button).
  ///
  /// - Complexity: O(*s*) when leaving, where *s* is the number of stored ids.
  public mutating func setEditing(_ editing: Bool) {
    if editing { beginEditing() } else { endEditing() }
  }

  /// Changes how many rows may be selected.
  ///
  /// Going to ``SelectionMode/none`` clears the selection; going to ``SelectionMode/single``
  /// keeps the one selected row when there is exactly one, else the anchor when it is
  /// selected, else nothing.
  ///
  /// - Complexity: O(*s*), where *s* is the number of stored ids.
  public mutating func setMode(_ newMode: SelectionMode) {
    defer { checkInvariants() }
    mode = newMode
    switch newMode {
    case .none:
      removeAll()
    case .single:
      if kind == .only && members.count + hiddenMembers.count <= 1 { return }
      // The anchor is always a visible row (reconcile forgets a hidden one).
      let keep = anchor.flatMap { isSelected($0) ? $0 : nil }
      removeAll()
      if let keep {
        members = [keep]
        _anchor = keep
      }
    case .multiple:
      break
    }
  }

  /// Changes what edit mode shows; changing to ``EditStyle/deleteAndReorder`` clears the
  /// selection.
  ///
  /// - Complexity: O(*s*), where *s* is the number of stored ids.
  public mutating func setEditStyle(_ style: EditStyle) {
    editStyle = style
    if style == .deleteAndReorder { removeAll() }
    checkInvariants()
  }

  /// Replaces the set of rows that cannot be selected; they leave the selection.
  ///
  /// A row that is no longer disabled stays unselected, also after a select-all. Rows the
  /// caller's list does not have are ignored.
  ///
  /// - Parameters:
  ///   - ids: The rows that cannot be selected.
  ///   - rows: The caller's rows, to tell visible from hidden rows.
  /// - Complexity: O(*d* + *e*), where *d* is the number of rows disabled before and *e*
  ///   the number of `ids`.
  public mutating func setDisabled(_ ids: some Sequence<ID>, in rows: some SelectionRows<ID>) {
    defer { checkInvariants() }
    var newVisible: Set<ID> = []
    var newHidden: Set<ID> = []
    rows.partition(ids, visible: &newVisible, hidden: &newHidden)
    if kind == .allExcept {
      // A row that is enabled again would be selected implicitly: keep it an exception.
      let enabledAgain = disabled.union(hiddenDisabled).subtracting(newVisible)
        .subtracting(newHidden)
      rows.partition(enabledAgain, visible: &members, hidden: &hiddenMembers)
    }
    members.subtract(newVisible)
    members.subtract(newHidden)
    hiddenMembers.subtract(newVisible)
    hiddenMembers.subtract(newHidden)
    disabled = newVisible
    hiddenDisabled = newHidden
    visibleCount = rows.visibleCount
    if let anchor, isDisabled(anchor) { _anchor = nil }
  }
}
