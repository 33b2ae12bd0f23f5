import OrderingCore

extension Replica {
  /// Creates a collection (a list or a plan) after the last one.
  ///
  /// - Parameters:
  ///   - title: The collection's title.
  ///   - layout: `list` (flat) or `plan` (nested).
  ///   - wallTime: The device's wall time now, in milliseconds.
  /// - Returns: One create operation; ``Commit/created`` is the new id.
  /// - Throws: Never in practice; typed for symmetry with the other intents.
  /// - Complexity: O(*c*), *c* collections.
  @discardableResult
  public mutating func createCollection(_ title: String, layout: String, wallTime: UInt64)
    throws(ReplicationError) -> Commit
  {
    let (parent, key) = try place([], at: .lastChild(of: .root), kind: .collection)
    let change = Change.create(
      plannedID(), kind: .collection, parent: parent, key: key,
      fields: [.text(title), .layout(layout)])
    return commit([change], wallTime: wallTime)
  }

  /// Renames a collection (or retitles any node).
  ///
  /// - Parameters:
  ///   - collection: A live collection.
  ///   - title: The new title.
  ///   - wallTime: The device's wall time now, in milliseconds.
  /// - Returns: One set operation.
  /// - Throws: `ReplicationError` with code `unknownNode`.
  @discardableResult
  public mutating func renameCollection(
    _ collection: NodeID, to title: String, wallTime: UInt64
  ) throws(ReplicationError) -> Commit {
    try set(.text(title), of: collection, wallTime: wallTime)
  }

  /// Converts a collection to a list or a plan. To a list, every nested item moves to the
  /// top level in preorder (one move per item whose place changes), so the list shows what
  /// the plan showed, flattened.
  ///
  /// - Parameters:
  ///   - collection: A live collection.
  ///   - layout: `list` or `plan`.
  ///   - wallTime: The device's wall time now, in milliseconds.
  /// - Returns: A set operation, then the moves.
  /// - Throws: `ReplicationError` with code `unknownNode`.
  /// - Complexity: O(*n* log *n*), *n* items of the collection.
  @discardableResult
  public mutating func convertCollection(
    _ collection: NodeID, to layout: String, wallTime: UInt64
  ) throws(ReplicationError) -> Commit {
    try requireLive(collection)
    var changes: [Change] = [.set(collection, .layout(layout))]
    if layout == "list" {
      var preorder: [NodeID] = []
      func walk(_ node: NodeID) {
        for child in state.children(of: node) {
          preorder.append(child)
          walk(child)
        }
      }
      walk(collection)
      var key: OrderKey? = nil
      for node in preorder {
        if state.parent(of: node) == collection, let current = state.key(of: node),
          key.map({ current > $0 }) ?? true
        {
          key = current
        } else {
          let next = try keyBetween(key, nil)
          changes.append(.move(node, parent: collection, key: next))
          key = next
        }
      }
    }
    return commit(changes, wallTime: wallTime)
  }
}
