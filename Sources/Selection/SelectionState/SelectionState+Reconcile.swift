/// What happens to selected rows that a change hides (a filter, a collapsed parent).
public enum ReconcilePolicy: Hashable, Sendable, CaseIterable {
  /// Hidden rows leave the selection: what you cannot see is not selected.
  case drop
  /// Hidden rows stay selected but are not counted, and count again when they show.
  case keepHidden
}

/// What a reconcile changed, in counts (so two runs report the same bytes).
public struct ReconcileReport: Hashable, Sendable {
  /// Stored rows (selected rows or select-all exceptions) that no longer exist, forgotten.
  public var removedGone = 0
  /// Selected rows that are hidden now and left the selection (``ReconcilePolicy/drop``).
  public var droppedHidden = 0
  /// Stored rows that are hidden now and kept, not counted (``ReconcilePolicy/keepHidden``).
  public var keptHidden = 0
  /// Stored rows that were hidden and are visible again.
  public var shownAgain = 0
  /// Whether the anchor of range extension was forgotten (gone or hidden).
  public var anchorCleared = false

  /// Creates an empty report.
  public init() {}
}

extension SelectionState {
  /// Brings the selection up to date after the caller's rows changed: rows deleted, filtered
  /// out, collapsed away or moved.
  ///
  /// Ids that no longer exist are forgotten, so the state never holds a deleted row. Rows
  /// that are hidden now follow `policy`. A moved row needs nothing: the selection holds ids,
  /// and ``selectedIDs(in:)`` reads the display order. The anchor is forgotten when its row
  /// is gone or hidden. With ``ReconcilePolicy/drop`` after a select-all, hidden rows become
  /// exceptions, or, when fewer rows are visible than hidden, the selection is rewritten as
  /// the visible selected rows, whichever is smaller.
  ///
  /// ```swift
  /// rows = try RowSnapshot(visible: urgent, hidden: others)  // a filter hid some rows
  /// let report = selection.reconcile(with: rows, policy: .keepHidden)
  /// let label = "\(selection.count) selected"  // counts visible rows only
  /// ```
  ///
  /// Rows inserted since the last reconcile would be selected by a select-all (it stores the
  /// exceptions, not the rows); name them in `inserted` so they start unselected, as a new file
  /// does in Finder after Select All.
  ///
  /// - Parameters:
  ///   - rows: The caller's rows as they are now.
  ///   - policy: What happens to selected rows that are hidden now.
  ///   - inserted: Rows added since the last reconcile; they start unselected.
  /// - Returns: What changed, in counts.
  /// - Complexity: O(*s* + *d*), where *s* is the number of stored ids and *d* the number of
  ///   disabled rows; with ``ReconcilePolicy/drop`` after a select-all while rows are hidden,
  ///   plus O(*h*), or O(*v* + *h*) when the selection is rewritten, for *v* visible and *h*
  ///   hidden rows; plus O(*i*) for *i* inserted rows after a select-all.
  @inlinable @discardableResult
  public mutating func reconcile(
    with rows: some SelectionRows<ID>, policy: ReconcilePolicy, inserted: [ID] = []
  ) -> ReconcileReport {
    defer { checkInvariants() }
    var report = ReconcileReport()
    visibleCount = rows.visibleCount

    // Disabled rows follow the data whatever the policy: they are a property of the rows.
    var newDisabled: Set<ID> = []
    var newHiddenDisabled: Set<ID> = []
    rows.partition(
      disabled.union(hiddenDisabled), visible: &newDisabled, hidden: &newHiddenDisabled)
    disabled = newDisabled
    hiddenDisabled = newHiddenDisabled

    var newMembers: Set<ID> = []
    var newHidden: Set<ID> = []
    /// Files a member by its row's status now; `wasHidden` counts it as shown again.
    func file(_ id: ID, wasHidden: Bool) {
      switch rows.status(of: id) {
      case .visible:
        newMembers.insert(id)
        if wasHidden { report.shownAgain += 1 }
      case .hidden:
        if policy == .keepHidden || kind == .allExcept {
          // A hidden exception stays an exception under either policy: it is not selected.
          newHidden.insert(id)
          if policy == .keepHidden { report.keptHidden += 1 }
        } else {
          report.droppedHidden += 1
        }
      case .gone: report.removedGone += 1
      }
    }
    for id in members { file(id, wasHidden: false) }
    for id in hiddenMembers { file(id, wasHidden: true) }
    members = newMembers
    hiddenMembers = newHidden
    if kind == .allExcept {
      let enabled = inserted.filter { !disabled.contains($0) && !hiddenDisabled.contains($0) }
      rows.partition(enabled, visible: &members, hidden: &hiddenMembers)
    }

    if kind == .allExcept && policy == .drop && rows.hasHiddenRows {
      dropHiddenRowsAfterSelectAll(rows, report: &report)
    }

    for end in [anchor, rangeEnd] {
      guard let end, rows.status(of: end) != .visible else { continue }
      if end == anchor { report.anchorCleared = true }
      _anchor = nil
      rangeEnd = nil
    }
    return report
  }

  /// After a select-all, makes every hidden row unselected, in the smaller representation.
  @inlinable
  mutating func dropHiddenRowsAfterSelectAll(
    _ rows: some SelectionRows<ID>, report: inout ReconcileReport
  ) {
    // Collect the implicitly selected hidden rows, stopping once they outnumber the visible
    // rows: then the explicit visible selection is the smaller form.
    var implicit: [ID] = []
    let limit = rows.visibleCount
    for id in rows.hiddenIDs
    where !hiddenMembers.contains(id) && !hiddenDisabled.contains(id) {
      implicit.append(id)
      if implicit.count > limit { break }
    }
    if implicit.count <= limit {
      hiddenMembers.formUnion(implicit)
      report.droppedHidden += implicit.count
      return
    }
    let selected = rows.visibleIDs.filter { !members.contains($0) && !disabled.contains($0) }
    var dropped = 0
    for id in rows.hiddenIDs where !hiddenMembers.contains(id) && !hiddenDisabled.contains(id) {
      dropped += 1
    }
    kind = .only
    members = Set(selected)
    hiddenMembers = []
    report.droppedHidden += dropped
  }

  /// The selected visible rows in display order.
  ///
  /// Its count equals ``count`` when the state is reconciled with `rows`.
  ///
  /// - Parameter rows: The caller's rows.
  /// - Returns: The selected visible rows, in the order of `rows.visibleIDs`.
  /// - Complexity: O(*v*), where *v* is the number of visible rows.
  @inlinable
  public func selectedIDs(in rows: some SelectionRows<ID>) -> [ID] {
    if kind == .only && members.isEmpty { return [] }
    var result: [ID] = []
    result.reserveCapacity(count)
    for id in rows.visibleIDs where isVisibleSelected(id) { result.append(id) }
    return result
  }

  /// Whether a visible row is selected.
  @inlinable @inline(__always)
  func isVisibleSelected(_ id: ID) -> Bool {
    switch kind {
    case .only: members.contains(id)
    case .allExcept: !members.contains(id) && !disabled.contains(id)
    }
  }
}
