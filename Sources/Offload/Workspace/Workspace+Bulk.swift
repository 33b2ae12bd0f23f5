import OrderingCore

/// What a bulk command did.
public struct BulkChange: Hashable, Sendable {
  /// The rows the selection named, in displayed preorder, collection by collection; for done
  /// and undone every row it covers (the selected rows' subtrees, less the excepted ones').
  public var selected: [ShortID]
  /// The rows acted on: for a move or a removal the selected rows without a selected
  /// ancestor; for done and undone every covered row whose mark changed.
  public var actedOn: [ShortID]
  /// How many items changed in all, nested items carried, removed or marked along included.
  public var affected: Int
  /// The names of the collections the change touched, in the order first met: those the
  /// selection was in, then, for a move to another collection, the destination.
  public var collections: [String]
}

extension Workspace {
  /// Removes the selected items, with everything nested under them, as one change.
  ///
  /// A selected row whose ancestor is also selected goes with that ancestor ("selected
  /// ancestor wins"); one ``undo()`` brings everything back.
  ///
  /// - Parameters:
  ///   - selection: The rows, parsed from command-line words.
  ///   - reference: The collection's name or id prefix; needed for outline numbers, ranges
  ///     and `--all`. Without it, ids may name items of several collections.
  /// - Returns: What was removed.
  /// - Throws: The errors of `ItemSelection.resolve(in:locate:)`, and
  ///   ``WorkspaceError/Code/invalidRequest`` when an excepted row sits under a selected one
  ///   (removing the ancestor would take it along).
  /// - Complexity: O(*n* log *n* + *t* · *n*) over the collections' items *n* and terms *t*,
  ///   plus the file writes.
  @discardableResult
  public func removeItems(_ selection: ItemSelection, in reference: String? = nil)
    throws(WorkspaceError) -> BulkChange
  {
    try change { (transaction) throws(WorkspaceError) in
      let groups = try resolve(selection, in: reference, transaction: &transaction)
      var result = BulkChange(selected: [], actedOn: [], affected: 0, collections: [])
      for (entryID, resolved) in groups {
        try refuseCarriedExceptions(resolved, verb: "remove")
        let (made, name) = try edit(entryID, in: &transaction, verb: "remove") { editor in
          editor.remove(resolved.topmost)
        }
        result.affected += made.placements.count
        result.selected += resolved.ids
        result.actedOn += resolved.topmost
        result.collections.append(name)
      }
      return (result, "remove \(Self.count(result.affected)) from \(Self.names(result))")
    }
  }

  /// Marks the selected items, with everything nested under them, done or not done, as one
  /// change.
  ///
  /// A selected parent takes its subtree along, as in a move: ticking a parent ticks what is
  /// nested under it, and marking it not done reopens its subtree too. Excepted rows keep
  /// their marks, with their subtrees (`ItemSelection.Resolved.covered`).
  ///
  /// - Parameters:
  ///   - selection: The rows.
  ///   - reference: The collection's name or id prefix (see ``removeItems(_:in:)``).
  ///   - done: The new mark.
  /// - Returns: What changed; ``BulkChange/actedOn`` lists the rows whose mark changed.
  /// - Throws: The errors of `ItemSelection.resolve(in:locate:)`.
  /// - Complexity: O(*n* log *n* + *t* · *n*), plus the file writes.
  @discardableResult
  public func setDone(_ selection: ItemSelection, in reference: String? = nil, _ done: Bool)
    throws(WorkspaceError) -> BulkChange
  {
    try change { (transaction) throws(WorkspaceError) in
      let groups = try resolve(selection, in: reference, transaction: &transaction)
      var result = BulkChange(selected: [], actedOn: [], affected: 0, collections: [])
      for (entryID, resolved) in groups {
        let items = try transaction.tree(entryID).items
        let (made, name) = try edit(entryID, in: &transaction, verb: "mark") { editor in
          editor.mark(resolved.covered, done: done) { items[$0]?.done == true }
        }
        let changed = Set(made.fields.map(\.id))
        let flipped = resolved.covered.filter { changed.contains($0) }
        result.selected += resolved.covered
        result.actedOn += flipped
        result.affected += flipped.count
        result.collections.append(name)
      }
      return (
        result,
        "\(done ? "done" : "undone") \(Self.count(result.affected)) in \(Self.names(result))"
      )
    }
  }

  /// Moves the selected items, with everything nested under them, to one place, as one
  /// change.
  ///
  /// The moved rows keep their relative order (displayed preorder) and stand side by side at
  /// the destination; a selected row under a selected ancestor travels with it. The
  /// destination may be in another collection.
  ///
  /// - Parameters:
  ///   - selection: The rows; they must all be in one collection.
  ///   - reference: Their collection's name or id prefix (see ``removeItems(_:in:)``).
  ///   - target: Another collection's name or id prefix; `nil` keeps them in theirs.
  ///   - placement: Where they go in the destination collection.
  /// - Returns: What moved.
  /// - Throws: ``WorkspaceError/Code/invalidRequest`` for rows of several collections or an
  ///   excepted row under a selected one, ``WorkspaceError/Code/refused`` when the forest
  ///   refuses (into a moved subtree, too deep, nesting in a list); nothing changes then.
  /// - Complexity: O(*n* log *n* + *t* · *n*) in the collections' sizes, plus the writes.
  @discardableResult
  public func moveItems(
    _ selection: ItemSelection, in reference: String? = nil, toCollection target: String? = nil,
    to placement: ItemPlacement
  ) throws(WorkspaceError) -> BulkChange {
    try change { (transaction) throws(WorkspaceError) in
      let groups = try resolve(selection, in: reference, transaction: &transaction)
      guard groups.count == 1, let (sourceID, resolved) = groups.first else {
        var names: [String] = []
        for (id, _) in groups { names.append("\"\(try transaction.collection(id).name)\"") }
        throw WorkspaceError(
          .invalidRequest,
          "the selection spans several collections (\(names.joined(separator: ", "))); a bulk move takes items of one collection, so move each collection's items separately"
        )
      }
      try refuseCarriedExceptions(resolved, verb: "move")
      let targetID =
        try target.map { (reference) throws(WorkspaceError) in
          try resolveCollection(reference, in: transaction.index).id
        } ?? sourceID
      var source = try transaction.collection(sourceID)
      let tops = resolved.topmost
      let label = tops.count == 1 ? tops[0].rawValue : "\(tops.count) items"
      var result = BulkChange(
        selected: resolved.ids, actedOn: tops, affected: 0, collections: [source.name])
      if targetID == sourceID {
        let destination: OrderedForest<ShortID>.Destination
        do {  // The forest's copy ends here, so the editor below holds the only one.
          let forest = try transaction.tree(sourceID).forest
          if placement == .lastRoot {
            let rootMovers = tops.filter { forest.parent(of: $0) == nil }.count
            destination = .root(at: forest.roots.count - rootMovers)
          } else {
            destination = try self.destination(placement, in: forest, collection: source)
          }
        }
        let (made, _) = try edit(sourceID, in: &transaction, verb: "move \(label)") {
          (editor) throws(EditRefusal) in try editor.move(tops, to: destination)
        }
        result.affected = made.placements.count
        return (result, "move \(label) in \"\(source.name)\"")
      }
      // Across collections: the source's editor hands the subtrees to the destination's.
      let place = try destination(
        placement, in: try transaction.tree(targetID).forest,
        collection: try transaction.collection(targetID))
      let carried = Dictionary(uniqueKeysWithValues: source.items.map { ($0.id, $0) })
      var roles: [ShortID: PlacementRole] = [:]
      for item in source.items { if let role = item.role { roles[item.id] = role } }
      var target = try transaction.collection(targetID)
      var sourceEditor = try transaction.takeTree(sourceID).editor
      var targetEditor = try transaction.takeTree(targetID).editor
      let moved: EditTransfer<ShortID>
      do throws(EditRefusal) {
        moved = try sourceEditor.move(tops, into: &targetEditor, at: place, roles: roles)
      } catch {
        throw refusal(
          error, collection: error.code == "fixed" ? source : target, verb: "move \(label)")
      }
      guard let removed = moved.removed.changeSet, let added = moved.added.changeSet else {
        throw WorkspaceError(.damagedStore, "the editor returned a malformed order key")
      }
      CollectionTree.apply(removed, to: &source)
      CollectionTree.apply(added, to: &target, adding: carried)
      try transaction.update(source)
      try transaction.update(target)
      result.affected = moved.count
      result.collections.append(target.name)
      return (result, "move \(label) from \"\(source.name)\" to \"\(target.name)\"")
    }
  }

  // MARK: Helpers

  /// Resolves a selection in one named collection, or, for ids only, in the collections of
  /// the ids, grouped by collection in the order first met.
  func resolve(
    _ selection: ItemSelection, in reference: String?, transaction: inout Transaction
  ) throws(WorkspaceError) -> [(ShortID, ItemSelection.Resolved<ShortID>)] {
    let index = transaction.index
    func locate(_ prefix: String) -> String? {
      guard let (_, collectionID) = try? resolveItem(prefix, in: index) else { return nil }
      return index.collections.first { $0.id == collectionID }?.name
    }
    if let reference {
      let entry = try resolveCollection(reference, in: index)
      let tree = try transaction.tree(entry.id)
      return [(entry.id, try selection.resolve(in: tree, locate: locate))]
    }
    guard !selection.needsCollection else {
      throw WorkspaceError(
        .invalidRequest,
        "outline numbers, ranges and --all need a collection: add --in COLLECTION (an id made of digits only is written id:123456)"
      )
    }
    var order: [ShortID] = []
    var terms: [ShortID: [ItemSelection.Term]] = [:]
    var exceptions: [ShortID: [ItemSelection.Term]] = [:]
    for term in selection.terms {
      guard case .id(let prefix) = term else { continue }
      let (_, collectionID) = try resolveItem(prefix, in: index)
      if terms[collectionID] == nil { order.append(collectionID) }
      terms[collectionID, default: []].append(term)
    }
    for term in selection.exceptions {
      guard case .id(let prefix) = term else { continue }
      let (_, collectionID) = try resolveItem(prefix, in: index)
      exceptions[collectionID, default: []].append(term)
    }
    var groups: [(ShortID, ItemSelection.Resolved<ShortID>)] = []
    for collectionID in order {
      let tree = try transaction.tree(collectionID)
      let part = ItemSelection(
        terms: terms[collectionID] ?? [], exceptions: exceptions[collectionID] ?? [])
      groups.append((collectionID, try part.resolve(in: tree, locate: locate)))
    }
    return groups
  }

  /// Refuses a move or removal that would carry an excepted row along with its ancestor.
  func refuseCarriedExceptions(_ resolved: ItemSelection.Resolved<ShortID>, verb: String)
    throws(WorkspaceError)
  {
    guard let first = resolved.carriedExceptions.first else { return }
    throw WorkspaceError(
      .invalidRequest,
      "cannot \(verb) \(first.ancestor) without \(first.excepted): \(first.excepted) is excepted but nested under the selected \(first.ancestor), which takes it along; except \(first.ancestor) too"
    )
  }

  static func count(_ n: Int) -> String { n == 1 ? "1 item" : "\(n) items" }

  static func names(_ change: BulkChange) -> String {
    change.collections.map { "\"\($0)\"" }.joined(separator: ", ")
  }
}
