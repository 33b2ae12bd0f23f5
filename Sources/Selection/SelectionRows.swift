/// Where a row stands in the caller's data right now.
public enum RowStatus: Hashable, Sendable {
  /// The row exists and is displayed.
  case visible
  /// The row exists but is not displayed: filtered out, or under a collapsed parent.
  case hidden
  /// The row no longer exists.
  case gone
}

/// The caller's rows, as a selection sees them: which exist, which are displayed, in what order.
///
/// A selection never copies the list. Operations that need the rows take a value of this
/// protocol: ``SelectionState/selectAll(in:)`` and `SelectionState.reconcile(with:policy:)`
/// read ``visibleCount`` (the total a select-all count is taken from) and ask ``status(of:)``
/// about the few rows the selection stores; range extension and materialization walk
/// ``visibleIDs``. ``RowSnapshot`` is a ready-made conformance over arrays; a list with its own
/// index (a tree, a database cursor) conforms directly and avoids the copy.
public protocol SelectionRows<ID> {
  /// The row identifier.
  associatedtype ID: Hashable
  /// The displayed rows, in display order.
  associatedtype VisibleIDs: Collection where VisibleIDs.Element == ID
  /// The rows that exist but are not displayed, in any order.
  associatedtype HiddenIDs: Sequence where HiddenIDs.Element == ID

  /// The number of displayed rows.
  ///
  /// - Complexity: Should be O(1); select-all counts depend on it.
  var visibleCount: Int { get }

  /// The displayed rows in display order (each once).
  var visibleIDs: VisibleIDs { get }

  /// Whether any row exists that is not displayed.
  ///
  /// - Complexity: Should be O(1).
  var hasHiddenRows: Bool { get }

  /// The rows that exist but are not displayed. Enumerated only when a select-all must leave
  /// them out, so it may be slow when ``hasHiddenRows`` is usually false.
  var hiddenIDs: HiddenIDs { get }

  /// Whether `id` is displayed, hidden, or gone.
  ///
  /// - Complexity: Should be O(1).
  func status(of id: ID) -> RowStatus
}

extension SelectionRows {
  /// Adds each of `ids` to `visible` or `hidden` by its status here; a gone row goes to
  /// neither.
  ///
  /// - Complexity: O(*k*) status lookups, where *k* is the number of `ids`.
  @inlinable
  func partition(
    _ ids: some Sequence<ID>, visible: inout Set<ID>, hidden: inout Set<ID>
  ) {
    for id in ids {
      switch status(of: id) {
      case .visible: visible.insert(id)
      case .hidden: hidden.insert(id)
      case .gone: break
      }
    }
  }
}

/// Rows given as arrays: the displayed order and the hidden rows.
///
/// ```swift
/// let rows = try RowSnapshot(visible: ["a", "b", "c"], hidden: ["d"])
/// rows.status(of: "d")  // .hidden
/// ```
public struct RowSnapshot<ID: Hashable>: SelectionRows {
  /// The displayed rows, in display order.
  public let visibleIDs: [ID]
  /// The rows that exist but are not displayed.
  public let hiddenIDs: [ID]
  private let statuses: [ID: RowStatus]

  /// Creates a snapshot from the displayed order and the hidden rows.
  ///
  /// - Parameters:
  ///   - visible: The displayed rows in display order.
  ///   - hidden: The rows that exist but are not displayed.
  /// - Throws: ``SelectionError/Code/duplicateRow`` when a row occurs twice in either list.
  /// - Complexity: O(*v* + *h*), where *v* and *h* are the lengths of the two lists.
  public init(visible: [ID], hidden: [ID] = []) throws(SelectionError) {
    var statuses: [ID: RowStatus] = [:]
    var positions: [ID: Int] = [:]
    statuses.reserveCapacity(visible.count + hidden.count)
    for (position, id) in (visible + hidden).enumerated() {
      if let first = positions.updateValue(position, forKey: id) {
        throw SelectionError.duplicateRow(id, first: first, second: position)
      }
      statuses[id] = position < visible.count ? .visible : .hidden
    }
    self.visibleIDs = visible
    self.hiddenIDs = hidden
    self.statuses = statuses
  }

  /// The number of displayed rows.
  public var visibleCount: Int { visibleIDs.count }

  /// Whether any row is hidden.
  public var hasHiddenRows: Bool { !hiddenIDs.isEmpty }

  /// Whether `id` is displayed, hidden, or gone.
  public func status(of id: ID) -> RowStatus { statuses[id] ?? .gone }
}

extension RowSnapshot: Sendable where ID: Sendable {}
