import Foundation
import OrderingCore

/// Where a new or moved item goes, naming other items by id prefix.
public enum ItemPlacement: Hashable, Sendable {
  /// Right before an item, as its sibling.
  case before(String)
  /// Right after an item, as its sibling.
  case after(String)
  /// The first child of an item.
  case firstChild(of: String)
  /// The last child of an item.
  case lastChild(of: String)
  /// The first root of the collection.
  case firstRoot
  /// The last root of the collection.
  case lastRoot
}

/// An item and the collection that holds it.
public struct LocatedItem: Hashable, Sendable {
  /// The item.
  public var item: Item
  /// The id of its collection.
  public var collectionID: ShortID
  /// The name of its collection.
  public var collectionName: String
}

extension Workspace {
  /// Adds a thought to the inbox.
  ///
  /// - Parameter text: One line of text.
  /// - Returns: The new item.
  /// - Throws: ``WorkspaceError/Code/badInput`` for empty or multi-line text.
  /// - Complexity: O(*n* log *n*) in the inbox's size, plus the file writes.
  @discardableResult
  public func capture(_ text: String) throws(WorkspaceError) -> Item {
    try addItem(to: Self.inboxName, text: text, at: .lastRoot)
  }

  /// Adds an item to a collection.
  ///
  /// - Parameters:
  ///   - reference: The collection's name or id prefix.
  ///   - text: One line of text.
  ///   - placement: Where it goes; the last root by default.
  ///   - role: The item's role in a plan's rules (`PlacementRole`), or `nil` for none.
  /// - Returns: The new item.
  /// - Throws: ``WorkspaceError/Code/notFound``, ``WorkspaceError/Code/ambiguous``,
  ///   ``WorkspaceError/Code/badInput``, or ``WorkspaceError/Code/refused`` (nesting in a
  ///   list, too deep).
  /// - Complexity: O(*n* log *n*) in the collection's size, plus the file writes.
  @discardableResult
  public func addItem(
    to reference: String, text: String, at placement: ItemPlacement = .lastRoot,
    role: PlacementRole? = nil
  ) throws(WorkspaceError) -> Item {
    let text = try Self.validText(text)
    return try change { (transaction) throws(WorkspaceError) in
      let entry = try resolveCollection(reference, in: transaction.index)
      let collection = try transaction.collection(entry.id)
      let id = try transaction.nextID()
      let destination: OrderedForest<ShortID>.Destination
      let effective: PlacementRole?
      do {  // The tree's copy ends here, so the editor below holds the only one.
        let tree = try transaction.tree(entry.id)
        destination = try self.destination(placement, in: tree.forest, collection: collection)
        // A plan read by the text convention gives the new item its role the same way.
        let conventional =
          tree.rules.isItinerary && tree.collection.items.allSatisfy { $0.role == nil }
        let isRoot = Self.isRoot(destination, in: tree.forest)
        effective = role ?? (conventional ? RoleConvention.role(of: text, isRoot: isRoot) : nil)
      }
      let item = Item(id: id, text: text, created: now(), order: .first, role: role)
      let (_, name) = try edit(
        entry.id, in: &transaction, verb: "add the item", adding: [id: item]
      ) { (editor) throws(EditRefusal) in try editor.add(id, role: effective, at: destination) }
      let added = try transaction.collection(entry.id).items.first { $0.id == id } ?? item
      return (added, "add \(id) to \"\(name)\"")
    }
  }

  /// Whether a destination is among the roots.
  static func isRoot(
    _ destination: OrderedForest<ShortID>.Destination, in forest: OrderedForest<ShortID>
  )
    -> Bool
  {
    switch destination {
    case .root, .lastRoot: true
    case .before(let anchor), .after(let anchor): forest.parent(of: anchor) == nil
    case .firstChild, .lastChild: false
    }
  }

  /// Finds an item by a unique id prefix.
  ///
  /// - Complexity: O(*n*) over the store's items, plus loading the item's collection.
  public func item(_ prefix: String) throws(WorkspaceError) -> LocatedItem {
    try reading { (state) throws(WorkspaceError) in
      let index = state.index
      let (id, collectionID) = try resolveItem(prefix, in: index)
      guard let entry = index.collections.first(where: { $0.id == collectionID }) else {
        throw WorkspaceError(.damagedStore, "item \(id) points at a missing collection")
      }
      let collection = try loadCollection(entry, tail: state.tail)
      guard let item = collection.items.first(where: { $0.id == id }) else {
        throw WorkspaceError(
          .damagedStore, "the index places item \(id) in \"\(entry.name)\" but it is not there")
      }
      return LocatedItem(item: item, collectionID: entry.id, collectionName: entry.name)
    }
  }

  /// Moves an item with everything nested under it, within its collection or to another.
  ///
  /// - Parameters:
  ///   - prefix: The item's id prefix.
  ///   - target: Another collection's name or id prefix; `nil` keeps the item where it is.
  ///   - placement: Where it goes in the destination collection.
  /// - Throws: ``WorkspaceError/Code/refused`` when the move would put the item inside
  ///   itself, nest it in a list or go too deep; nothing changes then.
  /// - Complexity: O(*n* log *n*) in the collections' sizes, plus the file writes.
  public func moveItem(
    _ prefix: String, toCollection target: String? = nil, to placement: ItemPlacement
  )
    throws(WorkspaceError)
  {
    // One move path: a single move is a selection of one.
    _ = try moveItems(
      ItemSelection(terms: [.id(Self.bareID(prefix))]), toCollection: target, to: placement)
  }

  /// An item id as a command wrote it, without the `id:` that may come first.
  static func bareID(_ word: String) -> String {
    word.hasPrefix("id:") ? String(word.dropFirst(3)) : word
  }

  /// Nests an item under its previous sibling (it becomes that sibling's last child).
  public func indent(_ prefix: String) throws(WorkspaceError) {
    try reshape(prefix, verb: "indent") { (editor, id) throws(EditRefusal) in
      try editor.indent([id])
    }
  }

  /// Lifts an item out of its parent (it becomes the parent's next sibling).
  public func outdent(_ prefix: String) throws(WorkspaceError) {
    try reshape(prefix, verb: "outdent") { (editor, id) throws(EditRefusal) in
      try editor.outdent([id])
    }
  }

  private func reshape(
    _ prefix: String, verb: String,
    _ operation: (inout Editor<ShortID>, ShortID) throws(EditRefusal) -> EditChange<ShortID>
  ) throws(WorkspaceError) {
    try change { (transaction) throws(WorkspaceError) in
      let (id, collectionID) = try resolveItem(prefix, in: transaction.index)
      _ = try edit(collectionID, in: &transaction, verb: "\(verb) \(id)") {
        (editor) throws(EditRefusal) in try operation(&editor, id)
      }
      return ((), "\(verb) \(id)")
    }
  }

  /// Marks an item done or not done, with everything nested under it (see
  /// ``setDone(_:in:_:)``).
  ///
  /// - Returns: What changed.
  /// - Complexity: O(*n* log *n*) in the size of the item's collection, plus the writes.
  @discardableResult
  public func setDone(_ prefix: String, _ done: Bool) throws(WorkspaceError) -> BulkChange {
    try setDone(ItemSelection(terms: [.id(Self.bareID(prefix))]), in: nil, done)
  }

  /// Removes items with everything nested under them, as one change: each collection's
  /// items through its editor, once however many of them are named.
  ///
  /// - Parameter prefixes: The items' id prefixes.
  /// - Returns: How many items were removed in all (nested ones included).
  /// - Throws: ``WorkspaceError/Code/invalidRequest`` for no prefix,
  ///   ``WorkspaceError/Code/notFound`` or ``WorkspaceError/Code/ambiguous`` for a prefix.
  /// - Complexity: O(*n* log *n*) in the touched collections' sizes, plus the writes.
  @discardableResult
  public func removeItems(_ prefixes: [String]) throws(WorkspaceError) -> Int {
    guard !prefixes.isEmpty else {
      throw WorkspaceError(.invalidRequest, "name at least one item to remove")
    }
    return try change { (transaction) throws(WorkspaceError) in
      var order: [ShortID] = []
      var named: [ShortID: [ShortID]] = [:]
      for prefix in prefixes {
        let (id, collectionID) = try resolveItem(prefix, in: transaction.index)
        if named[collectionID] == nil { order.append(collectionID) }
        named[collectionID, default: []].append(id)
      }
      var removed = 0
      for collectionID in order {
        let ids = named[collectionID] ?? []
        let (made, _) = try edit(collectionID, in: &transaction, verb: "remove") { editor in
          editor.remove(ids)
        }
        removed += made.placements.count
      }
      let ids = order.flatMap { named[$0] ?? [] }
      return (removed, "remove \(ids.map(\.rawValue).joined(separator: " "))")
    }
  }

  // MARK: Helpers

  /// Finds an item id and its collection from a prefix, written bare or as `id:PREFIX` (the
  /// form that keeps an id made of digits only from reading as an outline number, accepted
  /// wherever an item id is).
  func resolveItem(_ word: String, in index: StoreIndex) throws(WorkspaceError) -> (
    ShortID, ShortID
  ) {
    let prefix = Self.bareID(word)
    switch ShortID.match(prefix, in: index.itemLocations.keys) {
    case .unique(let id):
      guard let collection = index.itemLocations[id] else { break }
      return (id, collection)
    case .ambiguous(let ids):
      throw WorkspaceError(
        .ambiguous,
        "\"\(prefix)\" matches several items (\(ids.map(\.rawValue).joined(separator: ", "))); type more of the id"
      )
    case .none:
      break
    }
    throw WorkspaceError(.notFound, "no item has an id starting with \"\(prefix)\"")
  }

  /// The forest destination a placement names, checking that named items are in `collection`.
  func destination(
    _ placement: ItemPlacement, in forest: OrderedForest<ShortID>, collection: ItemCollection
  ) throws(WorkspaceError) -> OrderedForest<ShortID>.Destination {
    func local(_ word: String) throws(WorkspaceError) -> ShortID {
      let prefix = Self.bareID(word)
      switch ShortID.match(prefix, in: collection.items.map(\.id)) {
      case .unique(let id): return id
      case .ambiguous(let ids):
        throw WorkspaceError(
          .ambiguous,
          "\"\(prefix)\" matches several items of \"\(collection.name)\" (\(ids.map(\.rawValue).joined(separator: ", ")))"
        )
      case .none:
        throw WorkspaceError(
          .notFound, "no item of \"\(collection.name)\" has an id starting with \"\(prefix)\"")
      }
    }
    switch placement {
    case .before(let prefix): return .before(try local(prefix))
    case .after(let prefix): return .after(try local(prefix))
    case .firstChild(let prefix): return .firstChild(of: try local(prefix))
    case .lastChild(let prefix): return .lastChild(of: try local(prefix))
    case .firstRoot: return .root(at: 0)
    case .lastRoot: return .lastRoot
    }
  }

  /// A forest refusal as a workspace error, in the words of the collection.
  func refusal(
    _ refusal: OrderedForest<ShortID>.Refusal, collection: ItemCollection, verb: String
  ) -> WorkspaceError {
    self.refusal(EditRefusal(refusal), collection: collection, verb: verb)
  }

  /// An item's text as ``ItemText/valid(_:)`` takes it, its refusal as bad input.
  static func validText(_ text: String) throws(WorkspaceError) -> String {
    do {
      return try ItemText.valid(text)
    } catch {
      throw WorkspaceError(.badInput, error.reason)
    }
  }
}
