import Foundation
import OrderingCore
import Replication

// Between the workspace's records (collections of items) and the replicated tree of decision
// 0010: the collections a merged state shows, and the operations a committed change makes.
enum ReplicaBridge {
  /// The node of a collection or item id; the inbox is the fixed inbox node.
  static func node(_ id: ShortID) -> NodeID {
    id == Workspace.inboxID ? .inbox : NodeID(id.rawValue)
  }

  /// The id of a node; the inbox node is the inbox collection.
  static func id(_ node: NodeID) -> ShortID {
    node == .inbox ? Workspace.inboxID : ShortID(unchecked: node.rawValue)
  }

  /// A date as the `created` field's text: whole milliseconds since 1970.
  static func createdText(_ date: Date) -> String {
    String(Int64((date.timeIntervalSince1970 * 1000).rounded()))
  }

  /// The date of a `created` field's text.
  static func date(_ text: String?) -> Date {
    Date(timeIntervalSince1970: Double(Int64(text ?? "") ?? 0) / 1000)
  }

  // MARK: - The collections of a merged state

  /// The collections a merged state shows, the inbox first, each with its items in preorder.
  ///
  /// - Complexity: O(*n* log *n*), *n* nodes.
  static func collections(of state: ReplicaState, created inboxCreated: Date)
    -> [ItemCollection]
  {
    var result: [ItemCollection] = []
    let roots = [NodeID.inbox] + state.children(of: .root).filter { $0 != .inbox }
    for node in roots where state.kind(of: node) == .collection {
      var collection = ItemCollection(
        id: id(node), name: node == .inbox ? Workspace.inboxName : text(.text, node, state),
        kind: CollectionKind(rawValue: text(.layout, node, state)) ?? .list,
        created: node == .inbox && state.value(5, of: node) == nil
          ? inboxCreated : date(text(.created, node, state)))
      var stack: [(NodeID, ShortID?)] = state.children(of: node).reversed().map { ($0, nil) }
      while let (child, parent) = stack.popLast() {
        guard let key = state.key(of: child) else { continue }
        let note = text(.note, child, state)
        let role = text(.role, child, state)
        var done = false
        if case .done(let flag) = state.value(3, of: child) { done = flag }
        collection.items.append(
          Item(
            id: id(child), text: text(.text, child, state),
            created: date(text(.created, child, state)), done: done, parent: parent,
            order: key, note: note.isEmpty ? nil : note,
            role: role.isEmpty ? nil : try? PlacementRole(parsing: role)))
        stack += state.children(of: child).reversed().map { ($0, id(child)) }
      }
      result.append(collection)
    }
    return result
  }

  enum Field { case text, note, role, layout, created }

  /// A text field's value, or empty.
  static func text(_ field: Field, _ node: NodeID, _ state: ReplicaState) -> String {
    let number =
      switch field {
      case .text: 0
      case .note: 1
      case .role: 2
      case .layout: 4
      case .created: 5
      }
    switch state.value(number, of: node) {
    case .text(let text), .note(let text), .role(let text), .layout(let text),
      .created(let text):
      return text
    default: return ""
    }
  }

  // MARK: - The operations of a change

  /// The changes (for ``Replica``-style stamping) that take a merged state to what a
  /// committed change says: creates, moves (a restore is a move out of the trash), field
  /// sets, deletes, and collection keys for the collection order.
  ///
  /// Creates and moves come in order of their depth after the change, so a node's new parent
  /// stands where it ends before the node moves under it (no move makes a cycle); deletes come
  /// last.
  ///
  /// - Parameters:
  ///   - change: The committed change.
  ///   - order: The collection order after the change (the inbox first).
  ///   - state: The merged state before the change.
  ///   - replica: This device's replica id (order keys it makes end in it).
  /// - Returns: The changes, in the order to apply them.
  static func changes(
    for change: StoreChange, order: [ShortID], state: ReplicaState, replica: ReplicaID
  ) -> [Change] {
    var afterItems: [ShortID: (item: Item, collection: ShortID)] = [:]
    var beforeItems: [ShortID: Item] = [:]
    var collectionsAfter: [ShortID: HistoryEntry.CollectionChange.Metadata] = [:]
    var collectionsDeleted: [ShortID] = []
    for collectionChange in change.changes {
      if let after = collectionChange.after {
        collectionsAfter[collectionChange.collection] = after
      } else if collectionChange.before != nil {
        collectionsDeleted.append(collectionChange.collection)
      }
      for item in collectionChange.items {
        if let after = item.after { afterItems[after.id] = (after, collectionChange.collection) }
        if let before = item.before { beforeItems[before.id] = before }
      }
    }
    var result: [Change] = []
    // Collections: keys for the order, creates and restores, then their fields.
    let keys = collectionKeys(order: order, state: state, replica: replica)
    for id in order where id != Workspace.inboxID {
      let node = node(id)
      guard let key = keys[id] else { continue }
      if state.kind(of: node) == nil, let metadata = collectionsAfter[id] {
        result.append(
          .create(
            node, kind: .collection, parent: .root, key: key,
            fields: [
              .text(metadata.name), .layout(metadata.kind.rawValue),
              .created(createdText(metadata.created)),
            ]))
      } else {
        result.append(.move(node, parent: .root, key: key))
      }
    }
    if let inbox = collectionsAfter[Workspace.inboxID],
      text(.created, .inbox, state) != createdText(inbox.created)
    {
      result.append(.set(.inbox, .created(createdText(inbox.created))))
    }
    for (id, metadata) in collectionsAfter.sorted(by: { $0.key < $1.key })
    where id != Workspace.inboxID {
      let node = node(id)
      guard state.kind(of: node) != nil else { continue }
      if text(.text, node, state) != metadata.name {
        result.append(.set(node, .text(metadata.name)))
      }
      if text(.layout, node, state) != metadata.kind.rawValue {
        result.append(.set(node, .layout(metadata.kind.rawValue)))
      }
    }
    // Items, shallowest first.
    var depths: [ShortID: Int] = [:]
    func depth(_ item: ShortID) -> Int {
      if let known = depths[item] { return known }
      var value = 1
      depths[item] = value  // a cycle in the records stops here
      if let (record, _) = afterItems[item] {
        value = record.parent.map { depth($0) + 1 } ?? 1
      } else if let parent = state.parent(of: node(item)), state.kind(of: parent) == .item {
        value = depth(id(parent)) + 1
      }
      depths[item] = value
      return value
    }
    let placed = afterItems.keys.sorted { (depth($0), $0) < (depth($1), $1) }
    for id in placed {
      guard let (item, collection) = afterItems[id] else { continue }
      let node = node(id)
      let parent = item.parent.map { self.node($0) } ?? self.node(collection)
      guard state.kind(of: node) != nil else {
        var fields: [FieldValue] = [.text(item.text), .created(createdText(item.created))]
        if item.done { fields.append(.done(true)) }
        if let note = item.note { fields.append(.note(note)) }
        if let role = item.role { fields.append(.role(role.description)) }
        result.append(.create(node, kind: .item, parent: parent, key: item.order, fields: fields))
        continue
      }
      if state.parent(of: node) != parent || state.key(of: node) != item.order {
        result.append(.move(node, parent: parent, key: item.order))
      }
      result += fieldChanges(item, node: node, state: state)
    }
    // Deletes: items gone from every collection, then deleted collections.
    for (id, _) in beforeItems.sorted(by: { $0.key < $1.key }) where afterItems[id] == nil {
      if state.isLive(node(id)) { result.append(.delete(node(id), seen: VersionVector())) }
    }
    for id in collectionsDeleted.sorted() where id != Workspace.inboxID {
      if state.isLive(node(id)) { result.append(.delete(node(id), seen: VersionVector())) }
    }
    return result
  }

  /// The sets that give a node an item's fields.
  static func fieldChanges(_ item: Item, node: NodeID, state: ReplicaState) -> [Change] {
    var result: [Change] = []
    if text(.text, node, state) != item.text { result.append(.set(node, .text(item.text))) }
    var done = false
    if case .done(let flag) = state.value(3, of: node) { done = flag }
    if done != item.done { result.append(.set(node, .done(item.done))) }
    if text(.note, node, state) != item.note ?? "" {
      result.append(.set(node, .note(item.note ?? "")))
    }
    let role = item.role?.description ?? ""
    if text(.role, node, state) != role { result.append(.set(node, .role(role))) }
    return result
  }

  /// Order keys for collections so they sort as `order` says: the longest run of present
  /// keys already in order keeps its keys, every other collection gets a new key between
  /// its neighbours (ending in this replica's id).
  ///
  /// - Returns: A key per collection in `order` whose key must be set (new or changed).
  /// - Complexity: O(*c*²), *c* collections.
  static func collectionKeys(order: [ShortID], state: ReplicaState, replica: ReplicaID)
    -> [ShortID: OrderKey]
  {
    let ids = order.filter { $0 != Workspace.inboxID }
    let floor = state.key(of: .inbox) ?? .first
    let current: [OrderKey?] = ids.map { id in
      let node = node(id)
      guard state.parent(of: node) == .root, let key = state.key(of: node), key > floor else {
        return nil
      }
      return key
    }
    // Longest strictly increasing subsequence of the present keys.
    var length = [Int](repeating: 0, count: ids.count)
    var previous = [Int](repeating: -1, count: ids.count)
    for index in ids.indices {
      guard let key = current[index] else { continue }
      length[index] = 1
      for earlier in 0..<index {
        if let other = current[earlier], other < key, length[earlier] + 1 > length[index] {
          length[index] = length[earlier] + 1
          previous[index] = earlier
        }
      }
    }
    var keep = Set<Int>()
    if var index = length.indices.max(by: { length[$0] < length[$1] }), length[index] > 0 {
      while index >= 0 {
        keep.insert(index)
        index = previous[index]
      }
    }
    var result: [ShortID: OrderKey] = [:]
    var lower = floor
    for index in ids.indices {
      if keep.contains(index), let key = current[index] {
        lower = key
        continue
      }
      let upper = ids.indices.dropFirst(index + 1).first { keep.contains($0) }.flatMap {
        current[$0]
      }
      guard let key = try? OrderKey.between(lower, upper, replica: replica) else { continue }
      result[ids[index]] = key
      lower = key
    }
    return result
  }
}
