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
    let repaired = try OrderKeyList.repairingDuplicates(rows)
    order = try OrderKeyList(rows: repaired.rows)
    titles = Dictionary(uniqueKeysWithValues: stored.map { ($0.id, $0.title) })
    for change in repaired.changes { write(change.id, change.new) }
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
  ///   .onMove { try? model.move(fromOffsets: Array($0), toOffset: $1) }
  /// ```
  ///
  /// - Returns: The number of rows written to storage.
  @discardableResult
  func move(fromOffsets offsets: [Int], toOffset destination: Int) throws(OrderingError) -> Int {
    let before = writes.count
    let ids = offsets.sorted().map { order[$0].id }
    // The first row at or after `destination` that stays put: the moved rows go before it.
    var anchor: String?
    var index = destination
    while index < order.count, anchor == nil {
      if !ids.contains(order[index].id) { anchor = order[index].id }
      index += 1
    }
    var previous: String?
    for id in ids {
      guard let source = order.firstIndex(of: id) else { continue }
      let target: Int
      if let previous, let after = order.firstIndex(of: previous) {
        target = after < source ? after + 1 : after
      } else if let anchor, let next = order.firstIndex(of: anchor) {
        target = next > source ? next - 1 : next
      } else {
        target = order.count - 1
      }
      let update = try order.move(from: source, to: target)
      if target != source { write(id, update.key) }
      for change in update.changes { write(change.id, change.new) }
      previous = id
    }
    return writes.count - before
  }
}
// snippet-end
