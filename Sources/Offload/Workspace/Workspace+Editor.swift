import OrderingCore
import Persistence

// The workspace composes the editor with the store: each intent runs on the collection's
// `Editor` (its arrangement under its rules) inside one store change, so the journal, the
// lock and the history stay the only way a change is saved.

extension Workspace {
  /// Carries out one editor intent on a collection as one change, named by typed id (a
  /// surface that already knows the collection and its rows, such as a web page's drop).
  ///
  /// - Parameters:
  ///   - collectionID: The collection.
  ///   - verb: What the change does, for its history entry (`move 3 items`).
  ///   - intent: The intent, run on the collection's editor.
  /// - Returns: The change the editor made.
  /// - Throws: ``WorkspaceError/Code/refused`` with the editor's reason (nothing changes
  ///   then), ``WorkspaceError/Code/notFound`` for a missing collection.
  /// - Complexity: O(*n* log *n*) in the collection's size, plus the intent and the writes.
  @discardableResult
  public func edit(
    _ collectionID: ShortID, verb: String,
    _ intent: (inout Editor<ShortID>) throws(EditRefusal) -> EditChange<ShortID>
  ) throws(WorkspaceError) -> EditChange<ShortID> {
    try editReturningCollection(collectionID, verb: verb, intent).change
  }

  /// Carries out one editor intent on a collection as one change, as
  /// ``edit(_:verb:_:)`` does, and returns the collection as the change left it, so a surface
  /// that shows the collection next draws it without reading the store again.
  ///
  /// - Parameters:
  ///   - collectionID: The collection.
  ///   - verb: What the change does, for its history entry (`move 3 items`).
  ///   - intent: The intent, run on the collection's editor.
  /// - Returns: The change the editor made and the collection after it (as committed).
  /// - Throws: As ``edit(_:verb:_:)``.
  /// - Complexity: O(*n* log *n*) in the collection's size, plus the intent and the writes.
  public func editReturningCollection(
    _ collectionID: ShortID, verb: String,
    _ intent: (inout Editor<ShortID>) throws(EditRefusal) -> EditChange<ShortID>
  ) throws(WorkspaceError) -> (change: EditChange<ShortID>, collection: ItemCollection) {
    let edited = try editStamped(collectionID, verb: verb, intent)
    return (edited.change, edited.collection)
  }

  /// Carries out one editor intent on a collection as one change, as
  /// ``editReturningCollection(_:verb:_:)`` does, and returns with the collection the store's
  /// ``changeStamp()`` taken right after the commit, before the store's lock is let go. A
  /// surface that knows the collection at that stamp (a page's change feed) then sees any
  /// change another process makes afterwards: it always moves the stamp, even when it comes
  /// between this change's end and the surface's next look.
  ///
  /// - Parameters:
  ///   - collectionID: The collection.
  ///   - verb: What the change does, for its history entry (`move 3 items`).
  ///   - intent: The intent, run on the collection's editor.
  /// - Returns: The change, the collection after it, and the stamp (nil for a shared store).
  /// - Throws: As ``edit(_:verb:_:)``.
  /// - Complexity: O(*n* log *n*) in the collection's size, plus the intent and the writes;
  ///   O(*n*) plus the intent when the workspace kept the collection's tree
  ///   (``remembering()``).
  public func editStamped(
    _ collectionID: ShortID, verb: String,
    _ intent: (inout Editor<ShortID>) throws(EditRefusal) -> EditChange<ShortID>
  ) throws(WorkspaceError) -> (
    change: EditChange<ShortID>, collection: ItemCollection, stamp: String?
  ) {
    let ((made, after), stamp) = try changeStamped(stamped: true) {
      (transaction) throws(WorkspaceError) in
      let (made, name) = try edit(collectionID, in: &transaction, verb: verb, intent)
      return ((made, try transaction.collection(collectionID)), "\(verb) in \"\(name)\"")
    }
    // A shared store gives the keys this device placed its replica's suffix as it commits
    // (after the intent), so the committed collection is read back there.
    guard device != nil else { return (made, after, stamp) }
    return (made, try storedCollection("id:" + collectionID.rawValue), nil)
  }

  /// A value that changes whenever a change is committed to this store, by any process: the
  /// name, inode, size and modification time of each of the change journal's files (a change
  /// appends to the journal; a checkpoint writes its snapshot and starts a new one). A surface
  /// that knows what it last read at a stamp need not read the store again while the stamp is
  /// the same.
  ///
  /// Nil for a shared store (other devices' changes arrive in their own logs, which a read
  /// merges) and when the journal's folder cannot be listed: read the store then.
  ///
  /// - Complexity: O(*f*) system calls, where *f* is the number of the journal's files.
  public func changeStamp() -> String? {
    guard device == nil, let names = try? fileSystem.listDirectory(cacheRoot) else { return nil }
    var stamp = ""
    for name in names.sorted() where name.hasPrefix(Self.journalName + ".") {
      guard let status = try? fileSystem.status(cacheRoot + "/" + name, followingLinks: false)
      else { return nil }
      stamp += "\(name):\(status.inode):\(status.size):\(status.modified.nanosecondsSince1970)|"
    }
    return stamp
  }

  /// A collection's items as committed, named as ``collection(_:)`` names it, without
  /// arranging them as a tree (a surface that only digests or compares them).
  ///
  /// - Parameter reference: A name, an id prefix, or `id:PREFIX`.
  /// - Returns: The collection with the journal's tail replayed over its file.
  /// - Throws: ``WorkspaceError/Code/notFound`` or ``WorkspaceError/Code/ambiguous``, or an
  ///   error reading the store.
  /// - Complexity: O(*n* + *t*), where *n* is the collection's size and *t* the journal's tail.
  public func storedCollection(_ reference: String) throws(WorkspaceError) -> ItemCollection {
    try reading { (state) throws(WorkspaceError) in
      try collection(try resolveCollection(reference, in: state.index), in: state)
    }
  }

  /// Finds a collection as every surface does: by name (any case) first, then by a unique id
  /// prefix (`id:PREFIX` looks at ids only). The command line's arguments and the web pages'
  /// addresses (`/collections/NAME-or-ID`) both resolve through it.
  ///
  /// - Parameter reference: A name, an id prefix, or `id:PREFIX`.
  /// - Returns: The collection's index entry.
  /// - Throws: ``WorkspaceError/Code/notFound`` or ``WorkspaceError/Code/ambiguous`` with a
  ///   sentence naming the reference.
  /// - Complexity: O(*c*), where *c* is the number of collections, plus reading the index.
  public func collection(_ reference: String) throws(WorkspaceError) -> StoreIndex.Entry {
    try resolveCollection(reference, in: try loadIndex())
  }

  /// Replaces an item's text, through its collection's editor, as one change.
  ///
  /// - Parameters:
  ///   - prefix: The item's id prefix.
  ///   - text: The new text (see `ItemText.valid(_:)` in Editing).
  /// - Throws: ``WorkspaceError/Code/notFound``, ``WorkspaceError/Code/ambiguous`` or
  ///   ``WorkspaceError/Code/badInput`` for text that is empty, spans lines or holds a
  ///   control character.
  /// - Complexity: O(*n* log *n*) in the collection's size, plus the writes.
  public func editText(_ prefix: String, to text: String) throws(WorkspaceError) {
    try editFields(.prefix(prefix), role: nil, text: text)
  }

  /// Replaces the text of an item named by its id (a surface that shows the item already).
  ///
  /// - Parameters:
  ///   - id: The item's id.
  ///   - text: The new text.
  /// - Throws: As the form that takes an id prefix.
  /// - Complexity: O(*n* log *n*) in the collection's size, plus the writes.
  public func editText(_ id: ShortID, to text: String) throws(WorkspaceError) {
    try editFields(.id(id), role: nil, text: text)
  }

  /// Sets or clears an item's role (see `PlacementRole` in Editing), and its text when given,
  /// as one change through its collection's editor, which keeps the rules whole (see
  /// `Editor.setRole(_:to:stored:)`).
  ///
  /// - Parameters:
  ///   - prefix: The item's id prefix.
  ///   - role: The new role, or nil for none.
  ///   - text: The new text, or nil to keep it.
  /// - Throws: ``WorkspaceError/Code/notFound``, ``WorkspaceError/Code/ambiguous``,
  ///   ``WorkspaceError/Code/badInput`` for bad text, or ``WorkspaceError/Code/refused`` with
  ///   the rules' reason when the role would refuse the item's own place.
  /// - Complexity: O(*n* log *n*) in the collection's size, plus the writes.
  public func setRole(_ prefix: String, to role: PlacementRole?, text: String? = nil)
    throws(WorkspaceError)
  {
    try editFields(.prefix(prefix), role: .some(role), text: text)
  }

  /// Sets or clears the role of an item named by its id (a page's Role menu).
  ///
  /// - Parameters:
  ///   - id: The item's id.
  ///   - role: The new role, or nil for none.
  /// - Throws: As the form that takes an id prefix.
  /// - Complexity: O(*n* log *n*) in the collection's size, plus the writes.
  public func setRole(_ id: ShortID, to role: PlacementRole?) throws(WorkspaceError) {
    try editFields(.id(id), role: .some(role), text: nil)
  }

  /// How a surface names an item: a prefix typed, or an id it shows.
  enum ItemName {
    case prefix(String)
    case id(ShortID)
  }

  /// Edits an item's text and role through its collection's editor, as one change.
  private func editFields(_ name: ItemName, role: PlacementRole??, text: String?)
    throws(WorkspaceError)
  {
    try change { (transaction) throws(WorkspaceError) in
      let id: ShortID
      let collectionID: ShortID
      switch name {
      case .prefix(let prefix): (id, collectionID) = try resolveItem(prefix, in: transaction.index)
      case .id(let known):
        guard let location = transaction.index.itemLocations[known] else {
          throw WorkspaceError(.notFound, "no item has the id \(known)")
        }
        (id, collectionID) = (known, location)
      }
      let items = try transaction.tree(collectionID).items
      let verb = role == nil ? "edit \(id)" : "role \(id) \(role??.description ?? "none")"
      _ = try edit(collectionID, in: &transaction, verb: verb) { (editor) throws(EditRefusal) in
        var change = EditChange<ShortID>(intent: .edit)
        if let text {
          change = try editor.editText(id, to: text, from: items[id]?.text ?? "")
        }
        if let role {
          change.fields += try editor.setRole(id, to: role) { items[$0]?.role }.fields
        }
        return change
      }
      return ((), verb)
    }
  }

  /// Runs an intent on a collection's editor inside a transaction and saves what it changed.
  ///
  /// - Returns: The change and the collection's name.
  func edit(
    _ collectionID: ShortID, in transaction: inout Transaction, verb: String,
    adding newItems: [ShortID: Item] = [:],
    _ intent: (inout Editor<ShortID>) throws(EditRefusal) -> EditChange<ShortID>
  ) throws(WorkspaceError) -> (EditChange<ShortID>, String) {
    var collection = try transaction.collection(collectionID)
    // The tree leaves the cache (the update below drops it anyway), so the editor's forest is
    // the only copy and the intent changes it in place.
    var editor = try transaction.takeTree(collectionID).editor
    let made: EditChange<ShortID>
    do throws(EditRefusal) {
      made = try intent(&editor)
    } catch {
      throw refusal(error, collection: collection, verb: verb)
    }
    guard let changes = made.changeSet else {
      throw WorkspaceError(.damagedStore, "the editor returned a malformed order key")
    }
    CollectionTree.apply(changes, to: &collection, adding: newItems)
    if !made.fields.isEmpty { Self.apply(made.fields, to: &collection) }
    try transaction.update(collection)
    return (made, collection.name)
  }

  /// Applies an editor change's field values (`done`, `text`, `role`, `note`) to the stored
  /// items.
  ///
  /// - Complexity: O(*n* + *f*), where *f* is the number of fields.
  static func apply(_ fields: [EditChange<ShortID>.Field], to collection: inout ItemCollection) {
    var position: [ShortID: Int] = [:]
    for (index, item) in collection.items.enumerated() { position[item.id] = index }
    for field in fields {
      guard let index = position[field.id] else { continue }
      switch field.name {
      case "done": collection.items[index].done = field.after == "true"
      case "text": collection.items[index].text = field.after ?? collection.items[index].text
      case "role":
        collection.items[index].role = field.after.flatMap { try? PlacementRole(parsing: $0) }
      case "note": collection.items[index].note = field.after
      default: break
      }
    }
  }

  /// An editor's refusal as a workspace error: the editor's reason as it is, or, for a list
  /// asked to nest, that lists are flat.
  func refusal(_ refusal: EditRefusal, collection: ItemCollection, verb: String)
    -> WorkspaceError
  {
    if refusal.code == "too-deep", collection.kind == .list {
      return WorkspaceError(
        .refused,
        "cannot \(verb): \"\(collection.name)\" is a list, and lists are flat; convert it to a plan to nest items"
      )
    }
    if refusal.code == "text" { return WorkspaceError(.badInput, refusal.reason) }
    if refusal.code == "unknown" { return WorkspaceError(.notFound, refusal.reason) }
    return WorkspaceError(.refused, refusal.reason)
  }
}
