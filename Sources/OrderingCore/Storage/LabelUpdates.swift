// The rows and results both labelings return, declared once: `OrderKeyList<ID>.Row` is
// `LabeledRow<ID, OrderKey>` with `key`, `ListLabeling<ID>.Row` is `LabeledRow<ID, Int64>` with
// `position`; likewise for updates.

/// A row of a labeled list: its id and its label (``OrderKeyList/Row`` has a `key`,
/// ``ListLabeling/Row`` a `position`).
public struct LabeledRow<ID: Hashable, Label: Hashable>: Hashable {
  /// The row's id.
  public var id: ID
  /// The row's label: its order key or its position.
  public var label: Label

  /// Creates a row (the labelings' own rows say which label: ``init(id:key:)`` and
  /// ``init(id:position:)``).
  ///
  /// - Parameters:
  ///   - id: The row's id.
  ///   - label: Its order key or position.
  @inlinable
  init(id: ID, label: Label) {
    self.id = id
    self.label = label
  }
}

/// What an insert or a move did: the row's new label and the other rows re-labeled.
public struct LabelUpdate<ID: Hashable, Label: Hashable>: Hashable {
  /// The label of the inserted or moved row.
  public var label: Label
  /// The other rows whose labels changed, in list order; usually empty.
  public var changes: [RowChange<ID, Label>]

  @inlinable
  init(label: Label, changes: [RowChange<ID, Label>]) {
    self.label = label
    self.changes = changes
  }
}

/// What a bulk insert did: the new rows' labels and the other rows re-labeled.
public struct BulkLabelUpdate<ID: Hashable, Label: Hashable>: Hashable {
  /// The labels of the inserted rows, in order.
  public var labels: [Label]
  /// The rows that were already in the list and whose labels changed, in list order.
  public var changes: [RowChange<ID, Label>]

  @inlinable
  init(labels: [Label], changes: [RowChange<ID, Label>]) {
    self.labels = labels
    self.changes = changes
  }
}

extension LabeledRow: Sendable where ID: Sendable, Label: Sendable {}
extension LabelUpdate: Sendable where ID: Sendable, Label: Sendable {}
extension BulkLabelUpdate: Sendable where ID: Sendable, Label: Sendable {}

extension LabeledRow where Label == OrderKey {
  /// Creates a row of an ``OrderKeyList``.
  ///
  /// - Parameters:
  ///   - id: The row's id.
  ///   - key: The row's order key.
  @inlinable
  public init(id: ID, key: OrderKey) { self.init(id: id, label: key) }

  /// The row's order key.
  @inlinable public var key: OrderKey {
    get { label }
    set { label = newValue }
  }
}

extension LabeledRow where Label == Int64 {
  /// Creates a row of a ``ListLabeling``.
  ///
  /// - Parameters:
  ///   - id: The row's id.
  ///   - position: The row's position.
  @inlinable
  public init(id: ID, position: Int64) { self.init(id: id, label: position) }

  /// The row's position.
  @inlinable public var position: Int64 {
    get { label }
    set { label = newValue }
  }
}

extension LabelUpdate where Label == OrderKey {
  @inlinable
  init(key: OrderKey, changes: [RowChange<ID, OrderKey>]) {
    self.init(label: key, changes: changes)
  }

  /// The key of the inserted or moved row.
  @inlinable public var key: OrderKey { label }
}

extension LabelUpdate where Label == Int64 {
  @inlinable
  init(position: Int64, changes: [RowChange<ID, Int64>]) {
    self.init(label: position, changes: changes)
  }

  /// The position of the inserted or moved row.
  @inlinable public var position: Int64 { label }
}

extension BulkLabelUpdate where Label == OrderKey {
  /// The keys of the inserted rows, in order.
  @inlinable public var keys: [OrderKey] { labels }
}

extension BulkLabelUpdate where Label == Int64 {
  /// The positions of the inserted rows, in order.
  @inlinable public var positions: [Int64] { labels }
}
