extension OrderedForest {
  /// The nodes a mutation changed, each with its old and new placement: the rows a
  /// repository writes, and the undo record.
  ///
  /// A `nil` old placement means the node was inserted; a `nil` new placement means it was
  /// removed. ``inverted`` swaps old and new, so undo is `forest.apply(changes.inverted)`
  /// and redo is `forest.apply(changes)`.
  ///
  /// ```swift
  /// let changes = try forest.indent("pack")
  /// for change in changes.changes { store.write(change.id, change.new) }
  /// try forest.apply(changes.inverted)   // undo
  /// ```
  public struct ChangeSet: Hashable, Sendable, CustomStringConvertible {
    /// One changed node.
    public struct Change: Hashable, Sendable, CustomStringConvertible {
      /// The node.
      public var id: ID
      /// Where it was, or `nil` when it did not exist.
      public var old: Placement?
      /// Where it is now, or `nil` when it no longer exists.
      public var new: Placement?

      /// Creates a change.
      @inlinable
      public init(id: ID, old: Placement?, new: Placement?) {
        self.id = id
        self.old = old
        self.new = new
      }

      /// The change with old and new swapped.
      @inlinable
      public var inverted: Change { Change(id: id, old: new, new: old) }

      /// `4: root at a0 -> under 7 at a1V`.
      public var description: String {
        "\(id): \(old.map { "\($0)" } ?? "absent") -> \(new.map { "\($0)" } ?? "absent")"
      }
    }

    /// The changed nodes, each listed once.
    public var changes: [Change]

    /// Creates a change set.
    @inlinable
    public init(_ changes: [Change] = []) {
      self.changes = changes
    }

    /// Whether nothing changed.
    @inlinable
    public var isEmpty: Bool { changes.isEmpty }

    /// The number of changed nodes.
    @inlinable
    public var count: Int { changes.count }

    /// The change set that undoes this one.
    ///
    /// - Complexity: O(*c*), where *c* is the number of changes.
    @inlinable
    public var inverted: ChangeSet { ChangeSet(changes.reversed().map(\.inverted)) }

    /// One change per line.
    public var description: String {
      changes.map(\.description).joined(separator: "\n")
    }
  }

  /// Applies a change set: the undo and redo path, and the way to replay changes made by
  /// another copy of the forest.
  ///
  /// Every change's old placement must be the node's current placement, and the result must
  /// be a valid forest (every parent exists, no cycle, sibling keys distinct, no node left
  /// under a removed parent). Nothing changes when the change set is refused. Constraints
  /// (depth, rules) are not asked: they govern moves, and an undo restores a state that was
  /// valid.
  ///
  /// - Parameter changeSet: The changes, as a mutation (or its ``ChangeSet/inverted``)
  ///   returned them.
  /// - Throws: ``OrderingError/Code/staleChange`` when a node is not where the change says
  ///   it was; ``OrderingError/Code/invalidChange`` when the result would not be a valid
  ///   forest or a node is listed twice.
  /// - Complexity: O(*c* · (*d* + log *k* + *k*)), where *c* is the number of changes, *d*
  ///   the depth and *k* the number of siblings at each place.
  @inlinable
  public mutating func apply(_ changeSet: ChangeSet) throws(OrderingError) {
    try validate(changeSet)
    let changes = changeSet.changes
    // Take every changed node that exists out of its sibling list first, so keys can move
    // freely between the changed nodes.
    for change in changes where change.old != nil {
      detach(slot(change.id))
    }
    for change in changes where change.old == nil {
      // The key is a placeholder until the node is attached below.
      _ = appendSlot(change.id, key: change.new?.key ?? .first)
    }
    for change in changes {
      guard let new = change.new else { continue }
      let parent = new.parent.map { slot($0) } ?? Self.rootLevel
      attach(slot(change.id), under: parent, key: new.key)
    }
    // Remove from the highest slot down, so the slot that fills a hole is always attached.
    let removed = changes.filter { $0.new == nil }.map { slot($0.id) }.sorted(by: >)
    for slot in removed { removeSlot(slot) }
    checkInvariantsInDebug()
  }

  /// Checks that a change set applies cleanly, without changing anything.
  @inlinable
  func validate(_ changeSet: ChangeSet) throws(OrderingError) {
    var changed: [ID: Int] = [:]
    for (index, change) in changeSet.changes.enumerated() {
      guard changed.updateValue(index, forKey: change.id) == nil else {
        throw OrderingError(
          .invalidChange,
          description: "cannot apply the change set: node \(change.id) is listed more than once")
      }
      let current = placement(of: change.id)
      guard current == change.old else {
        throw OrderingError(
          .staleChange, key: current?.key.rawValue, otherKey: change.old?.key.rawValue,
          description:
            "cannot apply the change set: node \(change.id) is \(current.map { "\($0)" } ?? "absent"), not \(change.old.map { "\($0)" } ?? "absent") as the change expects"
        )
      }
    }
    let changes = changeSet.changes
    func existsAfter(_ id: ID) -> Bool {
      if let index = changed[id] { return changes[index].new != nil }
      return contains(id)
    }
    func parentAfter(_ id: ID) -> ID? {
      if let index = changed[id] { return changes[index].new?.parent }
      return placement(of: id)?.parent
    }
    var taken: [Placement: ID] = [:]
    for change in changes {
      guard let new = change.new else {
        // A removed node must take its children with it or give them new parents.
        for child in childSlots(slot(change.id)) where changed[nodes[child].id] == nil {
          throw OrderingError(
            .invalidChange,
            description:
              "cannot apply the change set: removing \(change.id) would leave its child \(nodes[child].id) without a parent"
          )
        }
        continue
      }
      if let parent = new.parent, !existsAfter(parent) {
        throw OrderingError(
          .invalidChange,
          description:
            "cannot apply the change set: \(change.id) would be under \(parent), which would not exist"
        )
      }
      if let other = taken.updateValue(change.id, forKey: new) {
        throw OrderingError(
          .invalidChange, key: new.key.rawValue,
          description:
            "cannot apply the change set: \(other) and \(change.id) would share key \(new.key) under \(new.parent.map { "\($0)" } ?? "the root")"
        )
      }
      // A sibling that stays where it is must not hold the key already.
      let parent = new.parent.flatMap { slotOf($0) } ?? (new.parent == nil ? Self.rootLevel : nil)
      if let parent {
        let index = lowerBound(new.key, prefix: new.key.prefix, under: parent)
        let list = siblingSlots(under: parent)
        if index < list.count, keys[list[index]] == new.key, changed[nodes[list[index]].id] == nil {
          throw OrderingError(
            .invalidChange, key: new.key.rawValue,
            description:
              "cannot apply the change set: \(change.id) would share key \(new.key) with \(nodes[list[index]].id) under \(new.parent.map { "\($0)" } ?? "the root")"
          )
        }
      }
      // Walk up from the node: every cycle the change set makes passes through a changed node.
      var current = new.parent
      var steps = 0
      let limit = count + changes.count
      while let ancestor = current {
        if ancestor == change.id || steps > limit {
          throw OrderingError(
            .invalidChange,
            description:
              "cannot apply the change set: \(change.id) would be inside its own subtree")
        }
        current = parentAfter(ancestor)
        steps += 1
      }
    }
  }
}
