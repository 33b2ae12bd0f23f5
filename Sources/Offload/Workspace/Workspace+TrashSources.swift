import Foundation
import OrderingCore
import Persistence
import Replication

/// A removed item with what was nested under it, as a store's history or trash holds it.
struct TrashEntry: Hashable {
  /// The item; its `parent` (`nil` for a top item) and `order` are where it stood.
  var root: Item
  /// The items nested under it, with their own parents and keys.
  var nested: [Item]
  /// The collection it was in.
  var collectionID: ShortID
  /// That collection's name.
  var collectionName: String
  /// Whether that collection still exists.
  var collectionExists: Bool
  /// When it was removed.
  var removed: Date
  /// The device that removed it, in a shared store.
  var removedBy: String?

  /// The entry as ``Workspace/deletedItems(in:)`` lists it.
  var listed: DeletedItem {
    DeletedItem(
      item: root, nestedCount: nested.count, collectionID: collectionID,
      collectionName: collectionName, collectionExists: collectionExists, removed: removed,
      removedBy: removedBy)
  }
}

extension Workspace {
  /// The removed items of the store, newest removal first: a shared store's merged trash,
  /// else the removals its history entries record.
  func trash(index: StoreIndex, tail: [StoreChange]) throws(WorkspaceError) -> [TrashEntry] {
    if let device, !((try? replicaFolders.replicaIDs()) ?? []).isEmpty {
      let state = mergedReplicaState(own: nil)
      return Self.trash(of: state, groups: commitGroups(), device: device) { replica in
        self.deviceName(of: replica)
      }
    }
    var entries: [HistoryEntry] = []
    for sequence in index.history.reversed() {
      if let entry = try historyEntry(sequence, tail: tail) { entries.append(entry) }
    }
    return Self.trash(of: entries, index: index)
  }

  /// The removals history entries (newest first) record: in each entry, the items it took
  /// out of the store and did not put elsewhere, the topmost of each removed subtree listed
  /// with the rest nested under it. An item in the store now, or listed from a newer entry,
  /// is left out.
  ///
  /// - Complexity: O(*h* log *h*), *h* items the entries hold.
  static func trash(of history: [HistoryEntry], index: StoreIndex) -> [TrashEntry] {
    let present = Set(index.collections.map(\.id))
    var seen: Set<ShortID> = []
    var result: [TrashEntry] = []
    for entry in history {
      let placed = Set(entry.changes.flatMap { $0.items.compactMap(\.after?.id) })
      for change in entry.changes {
        let removed = change.items.compactMap(\.before).filter { !placed.contains($0.id) }
        let ids = Set(removed.map(\.id))
        var children: [ShortID: [Item]] = [:]
        for item in removed {
          if let parent = item.parent { children[parent, default: []].append(item) }
        }
        let name =
          change.before?.name ?? index.collections.first { $0.id == change.collection }?.name
          ?? ""
        for root in removed.sorted(by: { $0.id < $1.id })
        where root.parent.map({ !ids.contains($0) }) ?? true {
          var nested: [Item] = []
          var stack = children[root.id] ?? []
          while let item = stack.popLast() {
            nested.append(item)
            stack += children[item.id] ?? []
          }
          let all = [root.id] + nested.map(\.id)
          guard index.itemLocations[root.id] == nil, !all.contains(where: seen.contains) else {
            continue
          }
          seen.formUnion(all)
          result.append(
            TrashEntry(
              root: root, nested: nested.sorted { $0.id < $1.id },
              collectionID: change.collection, collectionName: name,
              collectionExists: present.contains(change.collection), removed: entry.date,
              removedBy: nil))
        }
      }
    }
    return result
  }

  /// The change (a line of some device's log) each operation of the logs came in, so the
  /// deletes of one removal are told from earlier ones.
  ///
  /// - Complexity: O(*o*), *o* operations in the logs.
  func commitGroups() -> [HybridTimestamp: Int] {
    var groups: [HybridTimestamp: Int] = [:]
    var next = 0
    for id in (try? replicaFolders.replicaIDs()) ?? [] {
      let read: ReplicaLogRead<ReplicaLogOperations, ReplicaLogBase> = replicaFolders.readLog(
        of: id, format: Self.replicaLogFormat)
      for line in read.contents?.entries ?? [] {
        next += 1
        for operation in line.entry.operations { groups[operation.timestamp] = next }
      }
    }
    return groups
  }

  /// The removed items of a merged state: every item node in the trash but those a removal
  /// took along with their former parent (deleted by the same change, or when that is no
  /// longer known, deleted while their parent was in the trash), each with the nodes under
  /// it; rescued nodes, which the inbox shows, excepted.
  ///
  /// - Parameters:
  ///   - state: The merged state.
  ///   - groups: The change each operation came in (``commitGroups()``).
  ///   - device: This device.
  ///   - name: Another device's name, from its replica id.
  /// - Complexity: O(*t* log *t* + *s*), *t* nodes in the trash, *s* nodes under them.
  static func trash(
    of state: ReplicaState, groups: [HybridTimestamp: Int], device: DeviceContext,
    name: (String) -> String?
  ) -> [TrashEntry] {
    let deleted = state.deletedNodes()
    var byNode: [NodeID: DeletedNode] = [:]
    for node in deleted { byNode[node.node] = node }
    let rescued = Set(state.rescues().map(\.node))
    // Trash nodes a removal took along under another trash node.
    var along: [NodeID: [NodeID]] = [:]
    var taken: Set<NodeID> = []
    for node in deleted where state.kind(of: node.node) == .item {
      guard let parent = byNode[node.formerParent], state.kind(of: parent.node) == .item else {
        continue
      }
      let mine = groups[node.deletedAt]
      let theirs = groups[parent.deletedAt]
      guard mine == nil || theirs == nil || mine == theirs else { continue }
      along[parent.node, default: []].append(node.node)
      taken.insert(node.node)
    }
    func who(_ node: DeletedNode) -> String {
      let replica = node.deletedAt.replica
      if replica == device.replica { return device.name.isEmpty ? replica.rawValue : device.name }
      return name(replica.rawValue) ?? replica.rawValue
    }
    /// The collection node a node stood in, walking up through deleted parents.
    func collection(of start: NodeID) -> NodeID {
      var node = start
      for _ in 0..<10_000 {
        if node == .inbox || state.kind(of: node) == .collection { return node }
        guard let parent = state.parent(of: node) else { return .inbox }
        node = parent == .trash ? byNode[node]?.formerParent ?? .inbox : parent
      }
      return .inbox
    }
    /// The nodes under a node: its live children and what its removal took along.
    func items(under node: NodeID) -> [Item] {
      var result: [Item] = []
      var stack = [node]
      while let parent = stack.popLast() {
        for child in state.children(of: parent) where !rescued.contains(child) {
          result.append(record(child, parent: ReplicaBridge.id(parent), state: state))
          stack.append(child)
        }
        for child in along[parent] ?? [] {
          var item = record(child, parent: ReplicaBridge.id(parent), state: state)
          item.order = byNode[child]?.formerKey ?? item.order
          result.append(item)
          stack.append(child)
        }
      }
      return result.sorted { $0.id < $1.id }
    }
    var result: [TrashEntry] = []
    for deletion in deleted where !taken.contains(deletion.node) {
      let node = deletion.node
      guard state.kind(of: node) == .item else { continue }
      let former = deletion.formerParent
      var root = record(node, parent: nil, state: state)
      root.order = deletion.formerKey
      if state.kind(of: former) == .item { root.parent = ReplicaBridge.id(former) }
      let home = collection(of: former)
      result.append(
        TrashEntry(
          root: root, nested: items(under: node), collectionID: ReplicaBridge.id(home),
          collectionName: home == .inbox ? inboxName : ReplicaBridge.text(.text, home, state),
          collectionExists: home == .inbox || state.isLive(home),
          removed: Date(timeIntervalSince1970: Double(deletion.deletedAt.wallTime) / 1000),
          removedBy: who(deletion)))
    }
    return result
  }

  /// An item node's record, with its fields.
  static func record(_ node: NodeID, parent: ShortID?, state: ReplicaState) -> Item {
    let note = ReplicaBridge.text(.note, node, state)
    let role = ReplicaBridge.text(.role, node, state)
    var done = false
    if case .done(let flag) = state.value(3, of: node) { done = flag }
    return Item(
      id: ReplicaBridge.id(node), text: ReplicaBridge.text(.text, node, state),
      created: ReplicaBridge.date(ReplicaBridge.text(.created, node, state)), done: done,
      parent: parent, order: state.key(of: node) ?? .first, note: note.isEmpty ? nil : note,
      role: role.isEmpty ? nil : try? PlacementRole(parsing: role))
  }
}
