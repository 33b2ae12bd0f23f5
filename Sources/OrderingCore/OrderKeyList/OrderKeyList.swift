/// A user-ordered list of rows with order keys kept within a length budget.
///
/// Order keys (``OrderKey``) let an insert write one row, but inserting again and again into
/// one gap makes keys grow by about one byte per six inserts: 100,000 inserts right after
/// the first row give keys of about 16,700 bytes in every fractional-indexing library. An
/// `OrderKeyList` keeps every key it writes within a budget (16 bytes by default): when the
/// key for an insert would be longer, it re-keys the smallest window of neighbours around
/// the gap that ``OrderKey/spread(_:between:and:)`` can fill with short keys between the
/// window's outer bounds, and returns exactly those (id, old key, new key) changes.
///
/// ```swift
/// var list = OrderKeyList<String>()
/// let milk = try list.insert("milk", at: 0)       // milk.key == "a0"
/// let eggs = try list.insert("eggs", at: 1)       // "a1"
/// let bread = try list.insert("bread", at: 1)     // "a0V", between them
/// for change in bread.changes { save(change.id, change.new) }   // usually none
/// ```
///
/// Appending, prepending, random inserts and moves almost never rewrite another row; only a
/// gap hit again and again is rebalanced (measured: 100,000 inserts after the first row
/// rewrite 0.06 other rows per insert; see the OrderKeys guide). Keys stay in the format of the JavaScript
/// `fractional-indexing` library, so a web client can keep inserting with its own
/// `generateKeyBetween`.
///
/// A list view moves rows by SwiftUI's `onMove` offsets with ``move(fromOffsets:toOffset:)``
/// or by id (`move(_:toOffset:)`, `move(_:before:)`, `move(_:after:)`, `remove(_:)`), finds a
/// row with ``firstIndex(of:)`` in O(log *n*), and reloads stored rows in any order with
/// ``loading(_:budget:)``; each returns exactly the rows to write.
///
/// - Note: Ids must be unique in the list; inserting an id that is already there throws
///   ``OrderingError/Code/duplicateID``.
public struct OrderKeyList<ID: Hashable> {
  /// The default length budget, in bytes: 16.
  public static var defaultBudget: Int { 16 }

  /// The longest key, in bytes, that an insert or a move may write.
  public let budget: Int
  /// The rows, their keys and the index of every id.
  @usableFromInline var table: _LabeledRows<ID, OrderKey>
  @inlinable var storage: ChunkedRows<ID, OrderKey> { table.storage }

  /// Creates an empty list.
  ///
  /// - Parameter budget: The longest key, in bytes, an operation may write; at least 4.
  public init(budget: Int = 16) {
    precondition(budget >= 4, "a key budget must be at least 4 bytes")
    self.budget = budget
    self.table = _LabeledRows()
  }

  /// Creates a list from stored rows in list order, checking that keys strictly increase.
  ///
  /// Keys already over the budget are kept; the budget applies to keys written from now on.
  ///
  /// - Parameters:
  ///   - rows: The rows in list order.
  ///   - budget: The longest key, in bytes, an operation may write; at least 4.
  /// - Throws: ``OrderingError/Code/keysNotIncreasing`` (two rows out of order or with one
  ///   key: sort and repair them with ``repairingDuplicates(_:)``) or
  ///   ``OrderingError/Code/duplicateID``, naming the row's index.
  /// - Complexity: O(*n* · *m*), where *n* is the number of rows and *m* the key length.
  public init(rows: some Sequence<Row>, budget: Int = 16)
    throws(OrderingError)
  {
    precondition(budget >= 4, "a key budget must be at least 4 bytes")
    self.budget = budget
    self.table = try _LabeledRows(rows.lazy.map { ($0.id, $0.key) }) { index, id, key, previous in
      guard let previous, !(previous < key) else { return nil }
      let relation = previous == key ? "the same key as" : "a key sorting before"
      return OrderingError(
        .keysNotIncreasing, key: key.rawValue, otherKey: previous.rawValue, index: index,
        description:
          "row \(index) (\(String(reflecting: id))) has \(relation) the previous row, \(OrderingError.quoted(key.rawValue)); sort by key and id and repair duplicates first, or load the rows with loading(_:budget:)"
      )
    }
  }

  /// The key of the row at `index`.
  ///
  /// - Complexity: O(log *n*), where *n* is the number of rows.
  public func key(at index: Int) -> OrderKey {
    precondition(index >= 0 && index < count, "row index \(index) is outside 0..<\(count)")
    return storage.value(at: index)
  }

  /// The key of the row with this id, or `nil`.
  ///
  /// - Parameter id: The row's id.
  /// - Returns: Its key, or `nil` when the list has no such row.
  public func key(of id: ID) -> OrderKey? { table.labels[id] }
}

extension OrderKeyList: Sendable where ID: Sendable {}
