import OrderingCore

// Undo as an intent: the inverse of a change, checked against the arrangement and the fields
// as they are now (the stale check) and against the collection's rules, then carried out.

extension Editor {
  /// Takes a change back: applies its inverse's placements to the arrangement (the fields
  /// are not checked; see ``undo(_:current:)``).
  ///
  /// - Parameter change: A change this editor (or one over the same items) made.
  /// - Returns: The inverse change, to save as the undo.
  /// - Throws: ``EditRefusal`` with code `stale` when an item is no longer where the change
  ///   left it, `placement` or `too-deep` when the rules refuse a place the undo restores,
  ///   `damaged` for a malformed order key (nothing changes then).
  /// - Complexity: O(*c* log *n*), where *c* is the number of placements.
  public mutating func undo(_ change: EditChange<ID>) throws(EditRefusal) -> EditChange<ID> {
    var after: [ID: [String: String?]] = [:]
    for field in change.fields { after[field.id, default: [:]][field.name] = field.after }
    return try undo(change) { id, name in after[id]?[name] ?? nil }
  }

  /// Takes a change back when every item it touched is still as it left it: each placement
  /// where the change put it, each field at the value the change gave it. Otherwise it
  /// refuses rather than overwrite what changed since, naming the first such item (by id).
  ///
  /// The inverse puts removed items back (with their fields, which the change lists with a
  /// nil `after`), takes added ones away, and moves moved ones back. A row the undo moves
  /// back (not one it restores) must be accepted by the rules as they become with the
  /// change's roles taken back, so a day header that stopped being one since refuses the
  /// rows that would return under it with the rules' reason.
  ///
  /// ```swift
  /// var editor = Editor(forest: forest, rules: rules)
  /// let change = try editor.move(["t"], to: .lastChild(of: "d1"))
  /// let inverse = try editor.undo(change) { _, _ in nil }   // "t" is back
  /// ```
  ///
  /// - Parameters:
  ///   - change: A change made to these items.
  ///   - current: The value of an item's field now (`done`, `text`, `role`, `note`), or nil
  ///     for none (an absent item has none).
  /// - Returns: The inverse change, to save as the undo (intent ``EditChange/Intent/undo``).
  /// - Throws: ``EditRefusal`` with code `stale` and the reason `item ID changed since, and
  ///   undo would overwrite that`; `placement` or `too-deep` with the rules' reason; `damaged`
  ///   for a malformed order key. Nothing changes then.
  /// - Complexity: O(*c* log *n* + *r*), where *c* is the number of placements and fields and
  ///   *r* of roles.
  public mutating func undo(_ change: EditChange<ID>, current: (ID, String) -> String?)
    throws(EditRefusal) -> EditChange<ID>
  {
    let inverse = change.inverse
    guard let changes = inverse.changeSet else {
      throw EditRefusal(code: "damaged", reason: "the change holds a malformed order key")
    }
    var stale: ID?
    func note(_ id: ID) { if stale.map({ id < $0 }) ?? true { stale = id } }
    for placement in changes.changes where forest.placement(of: placement.id) != placement.old {
      note(placement.id)
    }
    for field in inverse.fields where current(field.id, field.name) != field.before {
      note(field.id)
    }
    if let stale {
      throw EditRefusal(
        code: "stale", reason: "item \(stale) changed since, and undo would overwrite that")
    }
    let before = (forest, rules)
    do {
      try forest.apply(changes)
    } catch {
      throw EditRefusal(code: "stale", reason: "the items changed since: \(error)")
    }
    if rules.nests { adopt(restoredRules(inverse)) }
    if let refusal = refusalOfRestoredPlaces(changes) {
      forest = before.0
      adopt(before.1)
      throw refusal
    }
    return inverse
  }

  /// The rules once the inverse's roles are back and its removed items gone.
  private func restoredRules(_ inverse: EditChange<ID>) -> PlacementRules<ID> {
    var roles = rules.roles
    for field in inverse.fields where field.name == "role" {
      roles[field.id] = field.after.flatMap { try? PlacementRole(parsing: $0) }
    }
    roles = roles.filter { forest.contains($0.key) }
    return .plan(roots: forest.roots, roles: roles, maximumDepth: rules.maximumDepth)
  }

  /// The rules' refusal of a row the undo moved back, or nil when every one is accepted.
  /// Rows the undo restores, and rows returning under one it restores, were accepted there
  /// with the restored rows' roles, which the rules may not know (a day header named by the
  /// text convention): the depth limit alone is asked of them.
  private func refusalOfRestoredPlaces(_ changes: OrderedForest<ID>.ChangeSet) -> EditRefusal? {
    let restored = Set(changes.changes.filter { $0.old == nil }.map(\.id))
    for change in changes.changes {
      guard let new = change.new else { continue }
      let depth = forest.depth(of: change.id)
      if depth > rules.maximumDepth {
        return EditRefusal(
          code: "too-deep", reason: "the undo would put item \(change.id) too deep")
      }
      guard change.old != nil, new.parent.map({ restored.contains($0) }) != true,
        rules.isItinerary || !rules.roles.isEmpty
      else { continue }
      if !rules.policy.accepts(change.id, new.parent, depth) {
        return EditRefusal(code: "placement", reason: rules.policy.placementReason)
      }
    }
    return nil
  }
}
