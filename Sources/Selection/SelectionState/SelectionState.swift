/// How many rows a list lets the user select.
public enum SelectionMode: Hashable, Sendable, CaseIterable {
  /// Nothing can be selected; edit mode only deletes and reorders.
  case none
  /// At most one row is selected; tapping another row replaces it.
  case single
  /// Any number of rows are selected; tapping toggles one.
  case multiple
}

/// What edit mode shows on each row.
public enum EditStyle: Hashable, Sendable, CaseIterable {
  /// Checkmarks: a tap toggles a row, a toolbar offers bulk actions (Files, Photos, Mail).
  case multiSelect
  /// Delete buttons and reorder handles, no selection (Reminders, a project list).
  case deleteAndReorder
}

/// The selection state of one list: normal or edit mode, and which rows are checked.
///
/// In normal mode a tap navigates; in edit mode with the ``EditStyle/multiSelect`` style a tap
/// toggles a checkmark, and leaving edit mode clears the selection. The selected rows are kept
/// either as a set of ids or as "all except" a set of ids, so ``selectAll(in:)`` and ``count``
/// are O(1) on a list of any size, and deselecting a few rows after a select-all stores only
/// those few. The state never copies the list: operations that need it take the caller's
/// ``SelectionRows``.
///
/// ```swift
/// var selection = SelectionState<Int>(mode: .multiple)
/// selection.beginEditing()
/// selection.tap(3)                 // .selected(3)
/// selection.selectAll(in: rows)    // O(1)
/// selection.tap(7)                 // .deselected(7): stores {7} as an exception
/// selection.count                  // rows.visibleCount - 1
/// selection.endEditing()           // back to normal mode, nothing selected
/// ```
///
/// Every id the state is asked about must be a row of the caller's list; after the list
/// changes (rows deleted, filtered out, collapsed away), call `reconcile(with:policy:)`
/// before reading ``count`` again.
public struct SelectionState<ID: Hashable> {
  /// How the stored ids are read.
  @usableFromInline
  enum Kind: Hashable, Sendable {
    /// The stored ids are the selected rows.
    case only
    /// Every row is selected except the stored ids and the disabled rows.
    case allExcept
  }

  /// How many rows may be selected.
  public internal(set) var mode: SelectionMode
  /// What edit mode shows on each row.
  public internal(set) var editStyle: EditStyle
  /// Whether the list is in edit mode.
  public internal(set) var isEditing: Bool
  /// Whether the user may deselect the last selected row (leaving edit mode still clears).
  public var disallowsEmptySelection: Bool

  /// How ``members`` and ``hiddenMembers`` are read.
  @usableFromInline var kind: Kind = .only
  /// Visible rows: the selected ones (``Kind/only``) or the exceptions (``Kind/allExcept``).
  @usableFromInline var members: Set<ID> = []
  /// Hidden rows kept by ``ReconcilePolicy/keepHidden``: selected, or exceptions.
  @usableFromInline var hiddenMembers: Set<ID> = []
  /// Visible rows that cannot be selected.
  @usableFromInline var disabled: Set<ID> = []
  /// Hidden rows that cannot be selected.
  @usableFromInline var hiddenDisabled: Set<ID> = []
  /// The number of visible rows at the last select-all or reconcile.
  @usableFromInline var visibleCount = 0
  /// The row a range extension starts from: the last row the user selected by a tap.
  public var anchor: ID? { _anchor }
  /// Storage of ``anchor``.
  @usableFromInline var _anchor: ID?
  /// The row the last range extension went to.
  @usableFromInline var rangeEnd: ID?

  /// Creates a state in normal mode with nothing selected.
  ///
  /// - Parameters:
  ///   - mode: How many rows may be selected.
  ///   - editStyle: What edit mode shows on each row.
  ///   - disallowsEmptySelection: Whether the user may deselect the last selected row.
  public init(
    mode: SelectionMode = .multiple, editStyle: EditStyle = .multiSelect,
    disallowsEmptySelection: Bool = false
  ) {
    self.mode = mode
    self.editStyle = editStyle
    self.isEditing = false
    self.disallowsEmptySelection = disallowsEmptySelection
  }

  /// Whether the current mode and style let a tap select rows at all.
  @inlinable
  public var allowsSelection: Bool {
    isEditing && editStyle == .multiSelect && mode != .none
  }

  /// The number of selected visible rows.
  ///
  /// After a select-all this is the visible row count given by the last ``selectAll(in:)`` or
  /// `reconcile(with:policy:)`, less the exceptions and the disabled rows.
  @inlinable
  public var count: Int {
    switch kind {
    case .only: members.count
    case .allExcept: visibleCount - members.count - disabled.count
    }
  }

  /// Whether no visible row is selected.
  @inlinable
  public var isEmpty: Bool { count == 0 }

  /// Whether every selectable visible row is selected.
  public var isAllSelected: Bool {
    switch kind {
    case .only: visibleCount > 0 && members.count == visibleCount - disabled.count
    case .allExcept: members.isEmpty
    }
  }

  /// Whether the selection is stored as "all except" a set of rows.
  public var isStoredAsAllExcept: Bool { kind == .allExcept }

  /// The number of ids the state stores for its selection: the selected rows, or the
  /// exceptions after a select-all. This is what stays small after a select-all.
  public var storedCount: Int { members.count + hiddenMembers.count }

  /// Whether `id` is selected. A hidden row kept by ``ReconcilePolicy/keepHidden`` answers
  /// true but is not in ``count``.
  ///
  /// - Parameter id: A row of the caller's list.
  @inlinable
  public func isSelected(_ id: ID) -> Bool {
    switch kind {
    case .only:
      return members.contains(id) || hiddenMembers.contains(id)
    case .allExcept:
      return
        !(members.contains(id) || hiddenMembers.contains(id) || disabled.contains(id)
        || hiddenDisabled.contains(id))
    }
  }

  /// Whether `id` cannot be selected.
  @inlinable
  public func isDisabled(_ id: ID) -> Bool {
    disabled.contains(id) || hiddenDisabled.contains(id)
  }

  /// Empties the selection and forgets the anchor, whatever the policy.
  @inlinable
  mutating func removeAll() {
    kind = .only
    members.removeAll()
    hiddenMembers.removeAll()
    _anchor = nil
    rangeEnd = nil
  }
}

/// Two states are equal when they have the same modes, the same selected rows stored the same
/// way, and the same disabled rows and anchor: every stored property, compared in O(*s*) for
/// *s* stored ids.
extension SelectionState: Equatable {}

extension SelectionState: Sendable where ID: Sendable {}
