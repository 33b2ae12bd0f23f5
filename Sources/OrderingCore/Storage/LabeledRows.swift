// The one labeling both `OrderKeyList` (order keys) and `ListLabeling` (integer positions) run
// on: rows in chunks, each id's label, and the window search that re-labels the fewest
// neighbours when a gap has no room. The two types differ only in how labels are made for a
// gap (`direct`) and for a window (`window`); everything else lives here once.
//
// Labels strictly increase in list order, so `labels[id]` and a binary search over the chunks
// find a row's index in O(log n) comparisons without a second index to keep in step.

/// A row whose label changed: write `new` for `id`.
///
/// ``OrderKeyList/Change`` (labels are ``OrderKey``s) and ``ListLabeling/Change`` (labels are
/// `Int64` positions) are this type.
public struct RowChange<ID: Hashable, Label: Hashable>: Hashable {
  /// The row's id.
  public var id: ID
  /// The label before the operation.
  public var old: Label
  /// The label after the operation.
  public var new: Label

  /// Creates a change.
  ///
  /// - Parameters:
  ///   - id: The row's id.
  ///   - old: The label before the operation.
  ///   - new: The label after the operation.
  @inlinable
  public init(id: ID, old: Label, new: Label) {
    self.id = id
    self.old = old
    self.new = new
  }
}

extension RowChange: Sendable where ID: Sendable, Label: Sendable {}

extension RowChange: CustomStringConvertible {
  /// `id: old -> new`.
  public var description: String { "\(id): \(old) -> \(new)" }
}

/// Not API: how a labeling makes labels: for a gap between two neighbours, and for a window
/// of rows being re-labeled between the window's outer neighbours. ``ListLabeling``'s
/// configuration and ``OrderKeyList``'s key budget are the two; do not conform other types.
public protocol _Labeler {
  /// What orders the rows: an ``OrderKey`` or an `Int64` position.
  associatedtype Label: Hashable & Comparable

  /// Not API: labels for `count` new rows between `lower` and `upper`, or `nil` when the gap
  /// is too small (the caller then re-labels a window). `listCount` is the list's size
  /// afterwards, `index` where the rows go (for an error to name).
  func _direct(
    _ count: Int, between lower: Label?, and upper: Label?, listCount: Int, at index: Int
  ) throws(OrderingError) -> [Label]?

  /// Not API: labels for `count` rows between `lower` and `upper`, or `nil` when the window
  /// is too dense; `whole` (the window is the whole list, open at both ends) must succeed.
  func _window(
    _ count: Int, between lower: Label?, and upper: Label?, whole: Bool, listCount: Int
  ) throws(OrderingError) -> [Label]?
}

/// Not API: rows with strictly increasing labels, findable by id, under ``OrderKeyList`` and
/// ``ListLabeling``.
public struct _LabeledRows<ID: Hashable, Label: Hashable & Comparable> {
  @usableFromInline typealias Change = RowChange<ID, Label>

  @usableFromInline var storage: ChunkedRows<ID, Label>
  /// Every row's label, by id.
  @usableFromInline var labels: [ID: Label]

  @inlinable init() {
    storage = ChunkedRows()
    labels = [:]
  }

  /// Rows in list order; `check` names a row whose label is out of place (it gets the index,
  /// the id, the label and the previous row's label), and a repeated id throws here.
  @inlinable
  init(
    _ rows: some Sequence<(id: ID, label: Label)>,
    check: (Int, ID, Label, Label?) -> OrderingError?
  ) throws(OrderingError) {
    var ids: [ID] = []
    var values: [Label] = []
    var labels: [ID: Label] = [:]
    for (index, row) in rows.enumerated() {
      if let error = check(index, row.id, row.label, values.last) { throw error }
      guard labels.updateValue(row.label, forKey: row.id) == nil else {
        throw OrderingError(
          .duplicateID, index: index,
          description:
            "row \(index) has id \(String(reflecting: row.id)), which an earlier row already has")
      }
      ids.append(row.id)
      values.append(row.label)
    }
    self.storage = ChunkedRows(ids: ids, values: values)
    self.labels = labels
  }

  @inlinable var count: Int { storage.count }

  /// The index of the row with this id: a binary search for its label.
  ///
  /// - Complexity: O(log *n*) label comparisons.
  @inlinable
  func index(of id: ID) -> Int? {
    guard let label = labels[id] else { return nil }
    let chunks = storage.chunks
    var low = 0
    var high = chunks.count - 1
    while low < high {
      let middle = (low + high + 1) >> 1
      if chunks[middle].values[0] <= label { low = middle } else { high = middle - 1 }
    }
    let values = chunks[low].values
    var first = 0
    var last = values.count
    while first < last {
      let middle = (first + last) >> 1
      if values[middle] < label { first = middle + 1 } else { last = middle }
    }
    return storage.starts[low] + first
  }

  @inlinable
  mutating func insert(_ id: ID, _ label: Label, at index: Int) {
    storage.insert(id: id, value: label, at: index)
    labels[id] = label
  }

  @inlinable @discardableResult
  mutating func remove(at index: Int) -> (id: ID, label: Label) {
    let (id, label) = storage.remove(at: index)
    labels[id] = nil
    return (id, label)
  }

  /// Gives `newIDs` labels at `index`: the labeler's labels for the gap between the
  /// neighbours, or else, for windows of 1, 2, 4, … neighbours around the gap, its labels for
  /// the window's rows and the new ones between the window's outer neighbours. Inserts the
  /// rows (membership is the caller's business); returns their labels and the changes of the
  /// rows already in the list. Throws before changing anything.
  @inlinable
  mutating func place<L: _Labeler>(_ newIDs: [ID], at index: Int, using labeler: L)
    throws(OrderingError) -> (labels: [Label], changes: [Change]) where L.Label == Label
  {
    let n = count
    let k = newIDs.count
    guard k > 0 else { return ([], []) }
    let lower = index > 0 ? storage.value(at: index - 1) : nil
    let upper = index < n ? storage.value(at: index) : nil
    if let placed = try labeler._direct(
      k, between: lower, and: upper, listCount: n + k, at: index)
    {
      for (offset, id) in newIDs.enumerated() { insert(id, placed[offset], at: index + offset) }
      return (placed, [])
    }
    var size = 1
    while true {
      let half = size / 2
      var start = index - half
      var end = index + (size - half)
      if start < 0 {
        end -= start
        start = 0
      }
      if end > n {
        start = Swift.max(0, start - (end - n))
        end = n
      }
      let whole = start == 0 && end == n
      if let spread = try labeler._window(
        end - start + k, between: start > 0 ? storage.value(at: start - 1) : nil,
        and: end < n ? storage.value(at: end) : nil, whole: whole, listCount: n + k)
      {
        return apply(spread, window: start..<end, inserting: newIDs, at: index)
      }
      precondition(!whole, "a labeling must always fit the whole list")
      size *= 2
    }
  }

  /// Rewrites the window's rows with `spread` and inserts the new rows in their places.
  @inlinable
  mutating func apply(
    _ spread: [Label], window: Range<Int>, inserting newIDs: [ID], at index: Int
  ) -> (labels: [Label], changes: [Change]) {
    let k = newIDs.count
    var changes: [Change] = []
    storage.updateValues(in: window) { row, id, label in
      let new = spread[row < index ? row - window.lowerBound : row - window.lowerBound + k]
      if new != label {
        changes.append(Change(id: id, old: label, new: new))
        label = new
      }
    }
    for change in changes { labels[change.id] = change.new }
    let first = index - window.lowerBound
    let placed = Array(spread[first..<(first + k)])
    for (offset, id) in newIDs.enumerated() { insert(id, placed[offset], at: index + offset) }
    return (placed, changes)
  }
}

extension _LabeledRows: Sendable where ID: Sendable, Label: Sendable {}
