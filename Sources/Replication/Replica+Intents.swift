import OrderingCore

/// Where an intent puts a node: among the children of a parent, or next to a sibling.
public enum Destination: Hashable, Sendable {
  /// The first child of a node (a collection or an item).
  case firstChild(of: NodeID)
  /// The last child of a node.
  case lastChild(of: NodeID)
  /// Right before a sibling.
  case before(NodeID)
  /// Right after a sibling.
  case after(NodeID)
}

extension Replica {
  /// Adds an item.
  ///
  /// - Parameters:
  ///   - text: The item's text.
  ///   - destination: Where it goes; its parent must be a live collection or item.
  ///   - wallTime: The device's wall time now, in milliseconds.
  /// - Returns: One create operation; ``Commit/created`` is the new id.
  /// - Throws: `ReplicationError` when the destination is not live or not allowed.
  /// - Complexity: O(*c*), *c* the new siblings.
  @discardableResult
  public mutating func add(_ text: String, to destination: Destination, wallTime: UInt64)
    throws(ReplicationError) -> Commit
  {
    let (parent, key) = try place([], at: destination, kind: .item)
    let change = Change.create(
      plannedID(), kind: .item, parent: parent, key: key, fields: [.text(text)])
    return commit([change], wallTime: wallTime)
  }

  /// Adds an item at the end of the inbox.
  ///
  /// - Parameters:
  ///   - text: The item's text.
  ///   - wallTime: The device's wall time now, in milliseconds.
  /// - Returns: One create operation.
  /// - Throws: Never in practice (the inbox always exists); typed for symmetry.
  /// - Complexity: O(*c*), *c* the inbox's items.
  @discardableResult
  public mutating func capture(_ text: String, wallTime: UInt64) throws(ReplicationError)
    -> Commit
  {
    try add(text, to: .lastChild(of: .inbox), wallTime: wallTime)
  }

  /// Moves nodes (with their subtrees) to one place, keeping their order.
  ///
  /// - Parameters:
  ///   - nodes: Live items, or live collections (which only reorder among collections).
  ///   - destination: Where they go.
  ///   - wallTime: The device's wall time now, in milliseconds.
  /// - Returns: One move operation per node.
  /// - Throws: `ReplicationError` for a node not live, a fixed node, a place the kind cannot
  ///   go, or a place inside a moved subtree.
  /// - Complexity: O(*c* + *k* · *d*), *c* siblings, *k* nodes, *d* depth.
  @discardableResult
  public mutating func move(_ nodes: [NodeID], to destination: Destination, wallTime: UInt64)
    throws(ReplicationError) -> Commit
  {
    guard let first = nodes.first else { return Commit(operations: [], created: nil) }
    let kind = state.kind(of: first) ?? .item
    for node in nodes {
      try requireLive(node)
      if node.isFixed || state.kind(of: node) != kind {
        throw ReplicationError(.notAllowed, "\(state.name(of: node)) cannot be moved there")
      }
    }
    var (parent, key) = try place(nodes, at: destination, kind: kind)
    var changes: [Change] = []
    let upper = try upperBound(after: key, under: parent, excluding: nodes)
    for node in nodes {
      changes.append(.move(node, parent: parent, key: key))
      key = try keyBetween(key, upper)
    }
    return commit(changes, wallTime: wallTime)
  }

  /// Nests an item under its previous sibling, as its last child.
  ///
  /// - Parameters:
  ///   - node: A live item.
  ///   - wallTime: The device's wall time now, in milliseconds.
  /// - Returns: One move operation.
  /// - Throws: `ReplicationError` with code `noPlace` for a first sibling.
  /// - Complexity: O(*c* log *c*), *c* siblings.
  @discardableResult
  public mutating func indent(_ node: NodeID, wallTime: UInt64) throws(ReplicationError)
    -> Commit
  {
    try requireLive(node)
    let siblings = state.children(of: state.shownParent(of: node) ?? .inbox)
    guard let index = siblings.firstIndex(of: node), index > 0 else {
      throw ReplicationError(
        .noPlace, "\(state.name(of: node)) is the first of its siblings, so it cannot indent")
    }
    return try move([node], to: .lastChild(of: siblings[index - 1]), wallTime: wallTime)
  }

  /// Moves an item out of its parent item, right after it.
  ///
  /// - Parameters:
  ///   - node: A live item under another item.
  ///   - wallTime: The device's wall time now, in milliseconds.
  /// - Returns: One move operation.
  /// - Throws: `ReplicationError` with code `noPlace` for a top-level item.
  /// - Complexity: O(*c*), *c* siblings of the parent.
  @discardableResult
  public mutating func outdent(_ node: NodeID, wallTime: UInt64) throws(ReplicationError)
    -> Commit
  {
    try requireLive(node)
    guard let parent = state.shownParent(of: node), state.kind(of: parent) == .item else {
      throw ReplicationError(
        .noPlace, "\(state.name(of: node)) is at the top of its collection, so it cannot outdent")
    }
    return try move([node], to: .after(parent), wallTime: wallTime)
  }

  /// Deletes nodes (with their subtrees): each moves to the trash, where it can be listed
  /// and restored. The inbox cannot be deleted.
  ///
  /// - Parameters:
  ///   - nodes: Live items or collections.
  ///   - wallTime: The device's wall time now, in milliseconds.
  /// - Returns: One delete operation per node.
  /// - Throws: `ReplicationError` for a node not live or fixed.
  /// - Complexity: O(*k* · *d*).
  @discardableResult
  public mutating func delete(_ nodes: [NodeID], wallTime: UInt64) throws(ReplicationError)
    -> Commit
  {
    for node in nodes {
      try requireLive(node)
      if node.isFixed {
        throw ReplicationError(.notAllowed, "\(state.name(of: node)) cannot be deleted")
      }
    }
    return commit(nodes.map { .delete($0, seen: VersionVector()) }, wallTime: wallTime)
  }

  /// Brings a deleted node back where it stood, or to the end of the inbox when that
  /// parent is not live any more.
  ///
  /// - Parameters:
  ///   - node: A node directly in the trash (see ``ReplicaState/deletedNodes()``).
  ///   - wallTime: The device's wall time now, in milliseconds.
  /// - Returns: One move operation.
  /// - Throws: `ReplicationError` with code `unknownNode` when the node is not in the trash.
  /// - Complexity: O(*t* log *t*), *t* deleted nodes.
  @discardableResult
  public mutating func restore(_ node: NodeID, wallTime: UInt64) throws(ReplicationError)
    -> Commit
  {
    guard let deleted = state.deletedNodes().first(where: { $0.node == node }) else {
      throw ReplicationError(.unknownNode, "the trash holds no \(node)")
    }
    let kind = state.kind(of: node) ?? .item
    let home = kind == .collection ? NodeID.root : .inbox
    if state.isLive(deleted.formerParent) || deleted.formerParent == .root {
      return commit(
        [.move(node, parent: deleted.formerParent, key: deleted.formerKey)], wallTime: wallTime)
    }
    let (parent, key) = try place([node], at: .lastChild(of: home), kind: kind)
    return commit([.move(node, parent: parent, key: key)], wallTime: wallTime)
  }

  /// Sets a field of a node (text, note, role, done; a collection's title and layout).
  ///
  /// - Parameters:
  ///   - value: The field and its new value.
  ///   - node: A live node.
  ///   - wallTime: The device's wall time now, in milliseconds.
  /// - Returns: One set operation.
  /// - Throws: `ReplicationError` with code `unknownNode` for a node not live.
  /// - Complexity: O(*d*).
  @discardableResult
  public mutating func set(_ value: FieldValue, of node: NodeID, wallTime: UInt64)
    throws(ReplicationError) -> Commit
  {
    try requireLive(node)
    return commit([.set(node, value)], wallTime: wallTime)
  }

  /// Throws unless the node is live here.
  func requireLive(_ node: NodeID) throws(ReplicationError) {
    guard state.isLive(node) else {
      throw ReplicationError(.unknownNode, "this device holds no live node \(node)")
    }
  }

  /// The parent and a fresh key (ending in this replica's id) for a destination, with
  /// `moving` left out of the siblings; checks kind, liveness and cycles.
  func place(_ moving: [NodeID], at destination: Destination, kind: NodeKind)
    throws(ReplicationError) -> (NodeID, OrderKey)
  {
    let parent: NodeID
    switch destination {
    case .firstChild(let node), .lastChild(let node): parent = node
    case .before(let node), .after(let node):
      try requireLive(node)
      parent = state.shownParent(of: node) ?? .root
    }
    guard state.isLive(parent) || parent == .root else {
      throw ReplicationError(.unknownNode, "this device holds no live node \(parent)")
    }
    let parentKind = state.kind(of: parent)
    if kind == .collection ? parent != .root : parentKind == nil {
      let noun = kind == .item ? "an item" : "a collection"
      throw ReplicationError(.notAllowed, "\(noun) cannot go under \(state.name(of: parent))")
    }
    var ancestor: NodeID? = parent
    while let current = ancestor {
      if moving.contains(current) {
        throw ReplicationError(
          .intoOwnSubtree,
          "cannot move \(state.name(of: current)) inside itself (under \(state.name(of: parent)))")
      }
      ancestor = state.parent(of: current)
    }
    let siblings = state.children(of: parent).filter { !moving.contains($0) }
    let keys = siblings.compactMap { state.key(of: $0) }
    var lower: OrderKey?
    var upper: OrderKey?
    switch destination {
    case .firstChild: upper = keys.first
    case .lastChild: lower = keys.last
    case .before(let node):
      upper = state.key(of: node)
      lower = keys.last { $0 < upper ?? $0 }
    case .after(let node):
      lower = state.key(of: node)
      upper = keys.first { $0 > lower ?? $0 }
    }
    return (parent, try keyBetween(lower, upper))
  }

  /// The first sibling key above `key` under `parent`, leaving out `excluding`.
  func upperBound(after key: OrderKey, under parent: NodeID, excluding: [NodeID])
    throws(ReplicationError) -> OrderKey?
  {
    state.children(of: parent).filter { !excluding.contains($0) }
      .compactMap { state.key(of: $0) }.first { $0 > key }
  }

  /// A key between two bounds ending in this replica's id.
  func keyBetween(_ lower: OrderKey?, _ upper: OrderKey?) throws(ReplicationError) -> OrderKey {
    do {
      return try OrderKey.between(lower, upper, replica: id)
    } catch {
      throw ReplicationError(.noPlace, "no order key fits there: \(error)")
    }
  }
}
