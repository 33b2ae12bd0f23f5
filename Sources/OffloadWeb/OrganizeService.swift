import Foundation
import Gestures
import Offload
import Synchronization

/// The store's lists and plans as the organize pages see them.
///
/// Every change is one `Workspace` change (one journaled change, one undo), exactly as the
/// matching `offloadctl` command makes it; the store lock is taken per change and released
/// before the answer, so the command line and the pages take turns. Each view carries a
/// version (a digest of what it shows); a change posted against another version is refused
/// with 409 and a sentence saying why, rather than applied to rows the page no longer shows.
/// The version is compared inside the change's own store lock (`Workspace.changing(expecting:)`),
/// so a change the command line commits between the page's read and its write is caught too.
actor OrganizeService {
  let workspace: Workspace
  /// The store's changes, pushed to the pages: this service's own as it saves them, other
  /// processes' through the store's watch.
  nonisolated let changes: StoreChanges
  /// The version of each collection (by the reference its pages use) as last read or
  /// changed here, with the store's ``Workspace/changeStamp()`` at that moment: while the
  /// stamp is the same, the change feed knows the version without reading the store.
  nonisolated let known = Mutex<[String: (stamp: String, version: String)]>([:])

  /// A service over `workspace`, whose changes answer before they checkpoint (call
  /// ``checkpointIfDue()`` once the answer is sent), and which keeps the store's state and the
  /// collections it shows in memory between changes (`Workspace.remembering()`): a drop
  /// reads nothing while no other process changed the store.
  init(workspace: Workspace) {
    self.workspace = workspace.deferringCheckpoints().remembering()
    changes = StoreChanges(folder: workspace.root)
  }

  // MARK: Views

  /// The collections page.
  ///
  /// - Complexity: O(*c*), where *c* is the number of collections, plus reading the index.
  func collections() throws(DeckFailure) -> OrganizeShapes.Collections {
    let entries = try run { () throws(WorkspaceError) in try workspace.collections() }
    let shown = entries.map { entry in
      OrganizeShapes.Collections.Entry(
        id: entry.id.rawValue, name: Printable.clean(entry.name), kind: entry.kind.rawValue,
        itemCount: entry.itemCount, isInbox: entry.id == Workspace.inboxID)
    }
    return OrganizeShapes.Collections(
      collections: shown, version: Self.version(of: entries), canUndo: try canUndo())
  }

  /// The version of the collections page: a digest of each collection's id, kind, size and
  /// name, in order.
  ///
  /// - Complexity: O(*c*), where *c* is the number of collections.
  static func version(of entries: [StoreIndex.Entry]) -> String {
    var digest = Digest()
    for entry in entries {
      digest.add("\(entry.id.rawValue)|\(entry.kind.rawValue)|\(entry.itemCount)|\(entry.name)")
    }
    return digest.hex
  }

  /// A collection's tree, its rules and its version.
  func load(_ reference: String) throws(DeckFailure) -> (
    tree: CollectionTree, rules: PlacementRules<ShortID>, version: String
  ) {
    let stamp = workspace.changeStamp()
    let tree = try run { () throws(WorkspaceError) in try workspace.tree(of: reference) }
    let version = Self.version(of: tree.collection)
    remember(version, of: reference, at: stamp)
    return (tree, tree.rules, version)
  }

  /// A collection page.
  ///
  /// - Complexity: O(*n* log *n*), where *n* is the number of its items.
  func collection(_ reference: String) throws(DeckFailure) -> OrganizeShapes.Collection {
    let stamp = workspace.changeStamp()
    let (tree, canUndo) = try run { () throws(WorkspaceError) in
      try workspace.treeAndUndo(of: reference)
    }
    let view = Self.view(of: tree, canUndo: canUndo)
    remember(view.version, of: reference, at: stamp)
    return view
  }

  /// The page of a collection already arranged as a tree.
  ///
  /// - Parameters:
  ///   - tree: The collection.
  ///   - canUndo: Whether the store has a change to take back.
  /// - Complexity: O(*n*), where *n* is the number of its items.
  static func view(of tree: CollectionTree, canUndo: Bool) -> OrganizeShapes.Collection {
    let rules = tree.rules
    let rows = tree.rows().map { row in
      OrganizeShapes.Row(
        id: row.item.id.rawValue, text: Printable.clean(row.item.text), done: row.item.done,
        depth: row.depth, number: row.number, parent: row.item.parent?.rawValue,
        childCount: row.childCount, fixed: rules.policy.canDrag(row.item.id) != nil,
        role: rules.roles[row.item.id]?.description)
    }
    let collection = tree.collection
    return OrganizeShapes.Collection(
      id: collection.id.rawValue, name: Printable.clean(collection.name),
      kind: collection.kind.rawValue, itinerary: rules.isItinerary, rows: rows,
      version: version(of: collection), canUndo: canUndo)
  }

  /// The page of a collection as a change of this service left it (the change is recorded,
  /// so Undo can take it back), without reading the store again; made off the service's
  /// queue, after the page was told the change is saved.
  ///
  /// - Parameters:
  ///   - saved: What ``drop(_:moving:in:version:shown:)`` returned.
  ///   - reference: The collection as the page names it.
  /// - Complexity: O(*n* log *n*), where *n* is the number of its items.
  nonisolated func view(after saved: Saved, of reference: String) -> OrganizeShapes.Collection {
    let tree = CollectionTree(saved.collection, maximumPlanDepth: workspace.maximumPlanDepth)
    // The next stroke's lift and drop start from this tree while the store is unchanged.
    workspace.keep(tree, at: saved.stamp)
    let view = Self.view(of: tree, canUndo: true)
    remember(view.version, of: reference, at: saved.stamp)
    return view
  }

  /// A collection as a change of this service left it, and the store's stamp taken after the
  /// commit under the change's lock (so a change another process makes later moves it).
  struct Saved: Sendable {
    var collection: ItemCollection
    var stamp: String?
    /// The change's history sequence.
    var made: UInt64? = nil
  }

  /// Keeps a collection's version as read or made at `stamp` (nothing without one).
  nonisolated func remember(_ version: String, of reference: String, at stamp: String?) {
    guard let stamp else { return }
    known.withLock { $0[reference] = (stamp, version) }
  }

  /// The version of a collection: a digest of its name, kind and every item's place, text and
  /// role (a role changed elsewhere changes the rules, so the page's view is stale).
  ///
  /// Each item's fields are digested on their own bytes and the items' digests summed, so the
  /// version does not depend on the items' order in the file and needs neither a sort nor a
  /// string per item (a drop's stroke computes it when it begins; the drop, under the
  /// change's lock and for the new view).
  ///
  /// - Complexity: O(*n*), where *n* is the number of items.
  static func version(of collection: ItemCollection) -> String {
    var digest = Digest()
    digest.add("\(collection.id.rawValue)|\(collection.kind.rawValue)|\(collection.name)")
    var sum: UInt64 = 0
    for item in collection.items {
      var line = Digest()
      line.field(item.id.rawValue)
      line.field(item.parent?.rawValue ?? "")
      line.field(item.order.rawValue)
      line.field(item.done ? "1" : "0")
      if let role = item.role { line.field(role.description) }
      line.field(item.text)
      sum &+= line.mixed
    }
    digest.add(String(sum, radix: 16))
    return digest.hex
  }

  /// Nil when `reference` names a collection (by name first, then id prefix, as the command
  /// line resolves it), else why not, in one sentence.
  func missing(_ reference: String) -> String? {
    do {
      _ = try workspace.collection(reference)
      return nil
    } catch {
      return error.description
    }
  }

  /// The version of the collection `reference` names, or nil when it is gone. Read off the
  /// service's queue (a read under the store's shared lock), so a page's change feed never
  /// holds up another page's drop.
  ///
  /// - Complexity: O(*n*), where *n* is the number of the collection's items.
  nonisolated func version(_ reference: String) -> String? {
    let stamp = workspace.changeStamp()
    if let stamp, let kept = known.withLock({ $0[reference] }), kept.stamp == stamp {
      return kept.version
    }
    guard let collection = try? workspace.storedCollection(reference) else { return nil }
    let version = Self.version(of: collection)
    remember(version, of: reference, at: stamp)
    return version
  }

  private func canUndo() throws(DeckFailure) -> Bool {
    try !run { () throws(WorkspaceError) in try workspace.history(limit: 1) }.isEmpty
  }

  // MARK: Changes on the collections page

  /// Carries out a command of the collections page.
  func changeCollections(_ command: OrganizeCommand.Collections) throws(DeckFailure)
    -> OrganizeShapes.Changed<
      OrganizeShapes.Collections
    >
  {
    let current = try collections()
    // Undo takes back the store's last change, whatever the page shows; a capture goes to
    // the end of the inbox. Every other change is checked against the view, here (a quick
    // refusal) and again under the change's lock (where no other writer can come between).
    let made = ChangesMadeHere()
    var workspace = self.workspace.recording(in: made)
    switch command.action {
    case .undo, .capture: break
    default:
      try Self.checkVersion(command.version, current.version, what: "the collections")
      workspace = workspace.changing(expecting: Self.expecting(collections: current.version))
    }
    let done: String
    var created: String?
    var undone: UInt64?
    switch command.action {
    case .create(let name, let kind):
      let made = try run { () throws(WorkspaceError) in
        try workspace.createCollection(named: name, kind: kind)
      }
      created = made.id.rawValue
      done = "Created \(kind.rawValue) \u{201C}\(made.name)\u{201D}"
    case .rename(let id, let name):
      try run { () throws(WorkspaceError) in
        try workspace.renameCollection("id:" + id, to: name)
      }
      done = "Renamed"
    case .delete(let ids):
      let items = try run { () throws(WorkspaceError) in
        try workspace.deleteCollections(ids.map { "id:" + $0 }, force: true)
      }
      done =
        "Deleted \(ids.count == 1 ? "1 collection" : "\(ids.count) collections")"
        + (items > 0 ? " with \(items) item\(items == 1 ? "" : "s")" : "")
    case .move(let id, let step):
      let placement = try Self.collectionPlacement(id, step, in: current)
      try run { () throws(WorkspaceError) in
        try workspace.moveCollection("id:" + id, to: placement)
      }
      done = "Moved"
    case .capture(let text):
      let item = try run { () throws(WorkspaceError) in try workspace.capture(text) }
      created = item.id.rawValue
      done = "Captured into the inbox"
    case .undo(let sequences):
      (done, undone) = try undo(madeHere: sequences)
    }
    changes.changed()
    return .init(
      done: done, view: try collections(), id: created, made: made.sequences.last, undone: undone)
  }

  /// Where collection `id` goes: up or down one place among the collections after the inbox,
  /// first after it, or after another (a drag).
  static func collectionPlacement(
    _ id: String, _ step: OrganizeCommand.Collections.Step, in view: OrganizeShapes.Collections
  ) throws(DeckFailure) -> CollectionPlacement {
    let movable = view.collections.filter { !$0.isInbox }.map(\.id)
    func index() throws(DeckFailure) -> Int {
      guard let index = movable.firstIndex(of: id) else {
        throw DeckFailure(status: 404, "no such collection (the inbox stays first)")
      }
      return index
    }
    switch step {
    case .after(let after):
      guard movable.contains(after) else { throw DeckFailure(status: 404, "no such collection") }
      return .after("id:" + after)
    case .up:
      let index = try index()
      guard index > 0 else {
        throw DeckFailure(status: 409, "the collection is first already (after the inbox)")
      }
      return .before("id:" + movable[index - 1])
    case .down:
      let index = try index()
      guard index + 1 < movable.count else {
        throw DeckFailure(status: 409, "the collection is last already")
      }
      return .after("id:" + movable[index + 1])
    case .first:
      _ = try index()
      return .first
    }
  }

  // MARK: Changes on a collection page

  /// Carries out a command of a collection page.
  func changeItems(_ command: OrganizeCommand.Items) throws(DeckFailure)
    -> OrganizeShapes.Changed<
      OrganizeShapes.Collection
    >
  {
    let reference = command.collection
    let (tree, _, version) = try load(reference)
    let made = ChangesMadeHere()
    var workspace = self.workspace.recording(in: made)
    switch command.action {
    case .undo: break
    default:
      try Self.checkVersion(command.version, version, what: "this list")
      workspace = workspace.changing(expecting: Self.expecting(version, of: tree.collection.id))
    }
    let done: String
    var created: String?
    var undone: UInt64?
    switch command.action {
    case .add(let text, let after):
      let placement: ItemPlacement = after.map { .after($0) } ?? .lastRoot
      let item = try run { () throws(WorkspaceError) in
        try workspace.addItem(to: reference, text: text, at: placement)
      }
      created = item.id.rawValue
      done = "Added"
    case .edit(let id, let text):
      let id = try Self.shortID(id, in: tree)
      try run { () throws(WorkspaceError) in try workspace.editText(id, to: text) }
      done = "Edited"
    case .done(let rows, let value):
      let selection = try Self.selection(rows, in: tree)
      let change = try run { () throws(WorkspaceError) in
        try workspace.setDone(selection, in: reference, value)
      }
      done = "Marked \(Self.count(change.affected)) \(value ? "done" : "not done")"
    case .delete(let rows):
      let selection = try Self.selection(rows, in: tree)
      let change = try run { () throws(WorkspaceError) in
        try workspace.removeItems(selection, in: reference)
      }
      done = "Deleted \(Self.count(change.affected))"
    case .moveTo(let rows, let target):
      let selection = try Self.selection(rows, in: tree)
      let change = try run { () throws(WorkspaceError) in
        try workspace.moveItems(
          selection, in: reference, toCollection: target, to: .lastRoot)
      }
      done = "Moved \(Self.count(change.affected))"
    case .move(let id, let step, let collapsed):
      let id = try Self.shortID(id, in: tree)
      let collapsed = Set(collapsed.compactMap(ShortID.init))
      try run { () throws(WorkspaceError) in
        try workspace.edit(tree.collection.id, verb: "move \(id)") {
          (editor) throws(EditRefusal) in
          switch step {
          case .indent: try editor.indent([id])
          case .outdent: try editor.outdent([id])
          case .up, .down: try editor.step(step, id, collapsed: collapsed)
          }
        }
      }
      done = "Moved"
    case .undo(let sequences):
      (done, undone) = try undo(madeHere: sequences)
    }
    changes.changed()
    return .init(
      done: done, view: try collection(reference), id: created, made: made.sequences.last,
      undone: undone)
  }

  /// Drops a dragged row where the resolver said, as one change of the collection's editor;
  /// refuses a blocked target with its reason. Returns once the move is on stable storage,
  /// with the collection the change left, from which ``view(after:of:)`` makes the new view
  /// (no second read of the store: one tree and one version digest after the save).
  ///
  /// - Parameter shown: The collection as the page showed it at `version`, when the caller
  ///   holds it already (a stroke loads it when it begins); read again when nil. Either way
  ///   the version is compared again under the change's lock.
  /// - Throws: 409 when the view is stale or the target is blocked; nothing changes then.
  @discardableResult
  func drop(
    _ target: DropTarget<ShortID>, moving id: String, in reference: String, version: String,
    shown: CollectionTree? = nil
  ) throws(DeckFailure) -> Saved {
    let tree: CollectionTree
    if let shown {
      tree = shown
    } else {
      let (loaded, _, current) = try load(reference)
      try Self.checkVersion(version, current, what: "this list")
      tree = loaded
    }
    let moving = try Self.shortID(id, in: tree)
    let (_, saved) = try edit(tree, shownAt: version, verb: "move \(moving)") {
      (editor) throws(EditRefusal) in try editor.drop([moving], on: target)
    }
    return saved
  }

  /// Deletes a row the page swiped away, with everything nested under it, as one change.
  ///
  /// - Returns: What the page says (`Deleted 3 items`) and the new view, made from the
  ///   collection the change left.
  /// - Throws: 409 when the view is stale; 404 when the row is not in the collection.
  func remove(_ id: String, in reference: String, version: String) throws(DeckFailure) -> (
    done: String, view: OrganizeShapes.Collection, made: UInt64?
  ) {
    let (tree, _, current) = try load(reference)
    try Self.checkVersion(version, current, what: "this list")
    let removing = try Self.shortID(id, in: tree)
    let (change, saved) = try edit(tree, shownAt: version, verb: "remove \(removing)") {
      editor in editor.remove([removing])
    }
    let view = view(after: saved, of: reference)
    return ("Deleted \(Self.count(change.placements.count))", view, saved.made)
  }

  /// Brings the store's checkpoint files up to date when the journal is due for it. Changes
  /// made here leave that to after the answer (`Workspace.deferringCheckpoints()`), so one
  /// drop in 32 does not wait for several file writes; a failure leaves the journal's tail
  /// for the next checkpoint.
  func checkpointIfDue() {
    _ = try? workspace.checkpointIfDue()
  }
}
