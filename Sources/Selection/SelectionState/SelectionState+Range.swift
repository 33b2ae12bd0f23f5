extension SelectionState {
  /// Extends the selection from the anchor to a visible row (Shift-click, Shift-arrow).
  ///
  /// The rows between the anchor and the row, both included, become selected, skipping
  /// disabled rows; the rows of the previous extension from the same anchor that fall outside
  /// the new range are deselected again, so extending back and forth behaves like a rubber
  /// band. Without an anchor (nothing tapped yet, or the anchor was removed) the row becomes
  /// the anchor. After a select-all the range edits the exceptions, so the selection stays
  /// compact. In single mode this is a tap.
  ///
  /// ```swift
  /// selection.tap("b")                     // anchor b
  /// try selection.extend(to: "e", in: rows) // b c d e selected
  /// try selection.extend(to: "c", in: rows) // b c selected, d e deselected again
  /// ```
  ///
  /// - Parameters:
  ///   - target: The visible row to extend to.
  ///   - rows: The caller's rows, for the display order.
  /// - Returns: ``TapOutcome/extended(to:selected:deselected:)`` with how many rows changed,
  ///   or ``TapOutcome/ignored(_:_:)`` outside edit mode, in mode none, or when
  ///   ``disallowsEmptySelection`` would be broken.
  /// - Throws: ``SelectionError/Code/unknownRow`` when `target` is not a visible row.
  /// - Complexity: O(*v*), where *v* is the number of visible rows.
  @discardableResult
  public mutating func extend(to target: ID, in rows: some SelectionRows<ID>) throws(SelectionError)
    -> TapOutcome<ID>
  {
    guard rows.status(of: target) == .visible else {
      throw SelectionError.unknownRow(target, "extend the selection to")
    }
    guard isEditing else { return .ignored(target, .notEditing) }
    guard editStyle == .multiSelect else { return .ignored(target, .styleHasNoSelection) }
    switch mode {
    case .none: return .ignored(target, .selectionNotAllowed)
    case .single: return tap(target)
    case .multiple: break
    }
    guard let anchor, rows.status(of: anchor) == .visible else {
      if isDisabled(target) { return .ignored(target, .disabled) }
      _ = select(target)
      return .extended(to: target, selected: 1, deselected: 0)
    }
    // One pass for the positions, one over the union of the old and new ranges.
    var anchorIndex = -1
    var endIndex = -1
    var targetIndex = -1
    for (index, id) in rows.visibleIDs.enumerated() {
      if id == anchor { anchorIndex = index }
      if id == rangeEnd { endIndex = index }
      if id == target { targetIndex = index }
    }
    let newRange = min(anchorIndex, targetIndex)...max(anchorIndex, targetIndex)
    let oldRange =
      endIndex < 0 ? newRange : min(anchorIndex, endIndex)...max(anchorIndex, endIndex)
    let span =
      min(
        newRange.lowerBound, oldRange.lowerBound)...max(
        newRange.upperBound, oldRange.upperBound)
    let saved = self
    var selectedCount = 0
    var deselectedCount = 0
    for (index, id) in rows.visibleIDs.enumerated() {
      guard index >= span.lowerBound else { continue }
      if index > span.upperBound { break }
      if isDisabled(id) { continue }
      let wasSelected = isSelected(id)
      if newRange.contains(index) {
        if !wasSelected {
          setMembership(id, selected: true)
          selectedCount += 1
        }
      } else if oldRange.contains(index) && wasSelected {
        setMembership(id, selected: false)
        deselectedCount += 1
      }
    }
    if disallowsEmptySelection && isEmpty {
      self = saved
      return .ignored(target, .wouldEmptySelection)
    }
    rangeEnd = target
    checkInvariants()
    return .extended(to: target, selected: selectedCount, deselected: deselectedCount)
  }

  /// Selects or deselects a visible, enabled row in place, whatever the kind.
  mutating func setMembership(_ id: ID, selected: Bool) {
    switch (kind, selected) {
    case (.only, true), (.allExcept, false): members.insert(id)
    case (.only, false), (.allExcept, true): members.remove(id)
    }
  }
}
