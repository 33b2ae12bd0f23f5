import OrderingCore

/// A row as the app keeps it on disk: an id, a title and the row's order key.
struct StoredRow: Equatable, Sendable {
  var id: String
  var title: String
  var key: String
}

// snippet: list-model
/// The view model of a flat, user-ordered list (a shopping list, a reading list).
///
/// The order lives in an `OrderKeyList`; the app's storage holds one key per row. A move
/// writes the moved rows' new keys and, rarely, the few neighbours the list re-keyed to keep
/// keys short: never the rest of the list.
@MainActor
final class ReorderableListModel {
  private(set) var order: OrderKeyList<String>
  private(set) var titles: [String: String]
  /// The rows the app wrote to its storage, in the order it wrote them.
  private(set) var writes: [StoredRow] = []

  /// Loads stored rows in any order: sorted by key, ties broken by id, and rows that share
  /// a key given new keys (which are written back).
  init(stored: [StoredRow]) throws(OrderingError) {
    var rows: [OrderKeyList<String>.Row] = []
    for row in stored {
      rows.append(.init(id: row.id, key: try OrderKey(validating: row.key)))
    }
    let (order, repairs) = try OrderKeyList.loading(rows)
    self.order = order
    titles = Dictionary(uniqueKeysWithValues: stored.map { ($0.id, $0.title) })
    for change in repairs { write(change.id, change.new) }
  }

  /// The titles in list order, as the list view draws them.
  var visibleTitles: [String] { order.rows.map { titles[$0.id] ?? "" } }

  private func write(_ id: String, _ key: OrderKey) {
    writes.append(StoredRow(id: id, title: titles[id] ?? "", key: key.rawValue))
  }
}
// snippet-end

// snippet: list-move
extension ReorderableListModel {
  /// Moves rows as SwiftUI's `onMove` asks: `offsets` are the rows' indexes and
  /// `destination` the index, before the move, of the row they go in front of (the row
  /// count for the end). The moved rows keep their relative order.
  ///
  /// ```swift
  /// ForEach(rows) { RowView($0) }
  ///   .onMove { try? model.move(fromOffsets: $0, toOffset: $1) }
  /// ```
  ///
  /// - Returns: The number of rows written to storage.
  @discardableResult
  func move(fromOffsets offsets: some Sequence<Int>, toOffset destination: Int)
    throws(OrderingError) -> Int
  {
    let changes = try order.move(fromOffsets: offsets, toOffset: destination)
    for change in changes { write(change.id, change.new) }
    return changes.count
  }

  /// Moves one row, named by id, to the top: a "Move to Top" button or menu item.
  ///
  /// - Returns: The number of rows written to storage.
  @discardableResult
  func moveToTop(_ id: String) throws(OrderingError) -> Int {
    let changes = try order.move(id, toOffset: 0)
    for change in changes { write(change.id, change.new) }
    return changes.count
  }
}
// snippet-end
