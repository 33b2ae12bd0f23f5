extension OrderedForest {
  /// Re-keys the smallest window of siblings around every node of `changes` whose new key is
  /// longer than `budget`, and returns the changes with those re-keys added.
  ///
  /// ``OrderKeyList`` finds the smallest window of neighbours that short keys can fill, so a
  /// list edited for years keeps keys within the budget. Called by every move and insert when
  /// ``Constraints/keyBudget`` is set.
  ///
  /// - Complexity: O(*k* · *m*) per over-budget node, where *k* is its number of siblings and
  ///   *m* the key length; O(*c*) when no key is over the budget, for *c* changes.
  @usableFromInline
  mutating func keepingKeysInBudget(_ changes: ChangeSet, budget: Int) -> ChangeSet {
    var result = changes
    for change in changes.changes {
      guard let placement = change.new, placement.key.length > budget, contains(change.id)
      else { continue }
      let siblings = placement.parent.map { children(of: $0) } ?? roots
      guard
        var list = try? OrderKeyList<ID>(
          rows: siblings.map { .init(id: $0, key: key(of: $0)) }, budget: budget),
        let index = list.firstIndex(of: change.id)
      else { continue }
      _ = list.remove(at: index)
      guard let update = try? list.insert(change.id, at: index) else { continue }
      var rekeys = ChangeSet()
      for moved in update.changes {
        rekeys.changes.append(
          .init(
            id: moved.id, old: .init(parent: placement.parent, key: key(of: moved.id)),
            new: .init(parent: placement.parent, key: moved.new)))
      }
      rekeys.changes.append(
        .init(
          id: change.id, old: .init(parent: placement.parent, key: key(of: change.id)),
          new: .init(parent: placement.parent, key: update.key)))
      guard (try? apply(rekeys)) != nil else { continue }
      // The node's own change now ends at its short key; its siblings' re-keys follow.
      if let own = result.changes.firstIndex(where: { $0.id == change.id }) {
        result.changes[own].new?.key = update.key
      }
      result.changes += rekeys.changes.dropLast()
    }
    return result
  }
}
