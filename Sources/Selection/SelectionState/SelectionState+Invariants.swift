extension SelectionState {
  /// Traps when the stored sets contradict each other. Runs after every mutation in debug
  /// builds; compiled out of release builds.
  ///
  /// - Complexity: O(*s* + *d*), where *s* is the number of stored ids and *d* the number of
  ///   disabled rows.
  @inlinable
  func checkInvariants() {
    #if DEBUG
      precondition(members.isDisjoint(with: hiddenMembers), "a row is both visible and hidden")
      precondition(disabled.isDisjoint(with: hiddenDisabled), "a disabled row is in both sets")
      precondition(members.isDisjoint(with: disabled), "a disabled row is stored as selectable")
      precondition(hiddenMembers.isDisjoint(with: hiddenDisabled), "a hidden row is disabled")
      if kind == .allExcept {
        precondition(mode == .multiple, "select-all outside multiple selection")
        precondition(
          members.count + disabled.count <= visibleCount,
          "more exceptions (\(members.count)) and disabled rows than visible rows")
      }
      if mode == .single {
        precondition(kind == .only && members.count + hiddenMembers.count <= 1, "single mode")
      }
      if !allowsSelection {
        precondition(kind == .only && members.isEmpty && hiddenMembers.isEmpty, "no selection")
      }
      if let anchor { precondition(!isDisabled(anchor), "the anchor is disabled") }
    #endif
  }
}
