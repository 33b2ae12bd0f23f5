import Foundation
import OffloadTestSupport
import OrderingCore
import Testing

@testable import Offload

/// Removed items listed and restored (issue 28, "nothing lost"), in a store never shared (its
/// history) and in a shared store (the merged trash).
@Suite("Trash: deleted items listed and restored")
struct TrashTests {
  /// A workspace of either layout in a fresh folder.
  static func workspace(shared: Bool) throws -> (Workspace, TemporaryDirectory) {
    guard shared else { return try makeWorkspace() }
    let folder = try TemporaryDirectory(prefix: "offload-trash")
    let workspace = try Workspace(
      root: folder.appending("store"), stateDirectory: folder.appending("state")
    ).share()
    return (workspace, folder)
  }

  /// Sets an item's note, as an import or a page does.
  static func setNote(_ workspace: Workspace, _ id: ShortID, _ note: String) throws {
    try workspace.change { (transaction) throws(WorkspaceError) in
      let (_, collectionID) = try workspace.resolveItem(id.rawValue, in: transaction.index)
      var collection = try transaction.collection(collectionID)
      for index in collection.items.indices where collection.items[index].id == id {
        collection.items[index].note = note
      }
      try transaction.update(collection)
      return ((), "note \(id)")
    }
  }

  /// A collection's rows as `id depth text done note role`, in outline order.
  static func rows(_ workspace: Workspace, _ collection: String) throws -> [String] {
    try workspace.tree(of: collection).rows().map { row in
      let item = row.item
      return "\(item.id) \(row.depth) \(item.text) \(item.done) \(item.note ?? "-") "
        + "\(item.role.map(String.init(describing:)) ?? "-")"
    }
  }

  /// A plan Trip: Pack > Socks (done, a note, a role) > Wool; Tent.
  static func trip(_ workspace: Workspace) throws -> (pack: Item, socks: Item, wool: Item) {
    try workspace.createCollection(named: "Trip", kind: .plan)
    let pack = try workspace.addItem(to: "Trip", text: "Pack")
    try workspace.addItem(to: "Trip", text: "Tent")
    let socks = try workspace.addItem(
      to: "Trip", text: "Socks", at: .lastChild(of: pack.id.rawValue), role: .fixed)
    let wool = try workspace.addItem(
      to: "Trip", text: "Wool", at: .lastChild(of: socks.id.rawValue))
    try workspace.setDone(socks.id.rawValue, true)
    try setNote(workspace, socks.id, "two pairs")
    return (pack, socks, wool)
  }

  @Test(
    "a nested item comes back with its subtree and fields; undo takes it back",
    arguments: [false, true])
  func restoresSubtree(shared: Bool) throws {
    let (workspace, folder) = try Self.workspace(shared: shared)
    defer { folder.remove() }
    let (pack, socks, _) = try Self.trip(workspace)
    let before = try Self.rows(workspace, "Trip")
    #expect(try workspace.deletedItems().isEmpty)
    #expect(try workspace.removeItems([socks.id.rawValue]) == 2)
    let deleted = try workspace.deletedItems()
    #expect(deleted.count == 1)
    let entry = try #require(deleted.first)
    #expect(entry.item.id == socks.id)
    #expect(entry.item.text == "Socks")
    #expect(entry.nestedCount == 1)
    #expect(entry.collectionName == "Trip")
    #expect(entry.collectionExists)
    #expect((entry.removedBy != nil) == shared)
    #expect(try workspace.deletedItems(in: "Trip").count == 1)
    #expect(try workspace.deletedItems(in: "Inbox").isEmpty)
    let result = try workspace.restoreItems([String(socks.id.rawValue.prefix(4))])
    #expect(
      result.restored == [
        RestoredItem(
          id: socks.id, text: "Socks", nestedCount: 1, collectionID: entry.collectionID,
          collectionName: "Trip", parent: pack.id, place: .formerPlace)
      ])
    #expect(try Self.rows(workspace, "Trip") == before)
    #expect(try workspace.deletedItems().isEmpty)
    let undone = try workspace.undo()
    #expect(undone.summary == "restore \(socks.id)")
    #expect(try Self.rows(workspace, "Trip").count == 2)
    #expect(try workspace.deletedItems().map(\.item.id) == [socks.id])
  }

  @Test(
    "an item whose parent was removed too goes to the end; with its parent, under it",
    arguments: [false, true])
  func parentRemovedToo(shared: Bool) throws {
    let (workspace, folder) = try Self.workspace(shared: shared)
    defer { folder.remove() }
    let (pack, socks, wool) = try Self.trip(workspace)
    let tent = try #require(
      try workspace.tree(of: "Trip").collection.items.first { $0.text == "Tent" }
    ).id
    let before = try Self.rows(workspace, "Trip")
    try workspace.removeItems([socks.id.rawValue])
    try workspace.removeItems([pack.id.rawValue])
    #expect(try workspace.deletedItems().map(\.item.id) == [pack.id, socks.id])
    // The child alone: its parent is gone, so the end of the collection.
    let child = try workspace.restoreItems([socks.id.rawValue])
    #expect(child.restored.first?.place == .endOfCollection)
    #expect(child.restored.first?.parent == nil)
    let rows = try Self.rows(workspace, "Trip")
    #expect(rows.count == 3)
    #expect(rows[1].hasPrefix("\(socks.id) 0 Socks true two pairs"))
    try workspace.undo()
    #expect(Set(try workspace.deletedItems().map(\.item.id)) == [pack.id, socks.id])
    // Both at once: the parent first, the child under it where it stood.
    let both = try workspace.restoreItems([socks.id.rawValue, pack.id.rawValue])
    #expect(both.restored.map(\.id) == [socks.id, pack.id])
    #expect(both.restored.map(\.place) == [.formerPlace, .formerPlace])
    #expect(try workspace.deletedItems().isEmpty)
    if shared {
      // A shared store's undo put the child back in the trash from where the restore had
      // put it (the end of Trip), so that is its former place now.
      #expect(both.restored.first?.parent == nil)
      let ids = try Self.rows(workspace, "Trip").map { String($0.split(separator: " ")[0]) }
      #expect(ids == [pack.id, tent, socks.id, wool.id].map(\.rawValue))
    } else {
      #expect(both.restored.first?.parent == pack.id)
      #expect(try Self.rows(workspace, "Trip") == before)
    }
  }

  @Test(
    "a former parent moved to a list cannot nest it: the end of its collection",
    arguments: [false, true])
  func parentInAList(shared: Bool) throws {
    let (workspace, folder) = try Self.workspace(shared: shared)
    defer { folder.remove() }
    let (pack, socks, wool) = try Self.trip(workspace)
    try workspace.removeItems([socks.id.rawValue])
    try workspace.moveItem(pack.id.rawValue, toCollection: "Inbox", to: .lastRoot)
    let result = try workspace.restoreItems([socks.id.rawValue])
    #expect(result.restored.map(\.place) == [.endOfCollection])
    // A shared store's trash knows the former parent, not where it stood then: the
    // collection is the one the parent is in now.
    let home = shared ? "Inbox" : "Trip"
    #expect(result.restored.first?.collectionName == home)
    let ids = try Self.rows(workspace, home).map { String($0.split(separator: " ")[0]) }
    #expect(ids.suffix(2) == [socks.id.rawValue, wool.id.rawValue])
  }

  @Test(
    "an item whose collection was deleted goes to the end of the inbox", arguments: [false, true])
  func collectionDeleted(shared: Bool) throws {
    let (workspace, folder) = try Self.workspace(shared: shared)
    defer { folder.remove() }
    try workspace.capture("Call the plumber")
    try workspace.createCollection(named: "Shop", kind: .list)
    let bread = try workspace.addItem(to: "Shop", text: "Bread")
    try workspace.removeItems([bread.id.rawValue])
    try workspace.deleteCollection("Shop", force: true)
    let listed = try workspace.deletedItems(in: "Shop")
    #expect(listed.map(\.item.text) == ["Bread"])
    #expect(listed.first?.collectionExists == false)
    #expect(listed.first?.collectionName == "Shop")
    let result = try workspace.restoreItems([bread.id.rawValue])
    #expect(result.restored.first?.place == .inbox)
    #expect(result.restored.first?.collectionName == "Inbox")
    #expect(
      try Self.rows(workspace, "Inbox").map { $0.split(separator: " ")[2] } == ["Call", "Bread"])
  }

  @Test(
    "a bad id is refused with one line naming it, and nothing is written", arguments: [false, true])
  func badID(shared: Bool) throws {
    let (workspace, folder) = try Self.workspace(shared: shared)
    defer { folder.remove() }
    let (_, socks, wool) = try Self.trip(workspace)
    try workspace.removeItems([socks.id.rawValue])
    let history = try workspace.history(limit: 100)
    func refusal(_ ids: [String]) -> WorkspaceError? {
      do {
        try workspace.restoreItems(ids)
        return nil
      } catch { return error }
    }
    let live = try #require(try workspace.tree(of: "Trip").collection.items.first)
    let notRemoved = try #require(refusal([socks.id.rawValue, live.id.rawValue]))
    #expect(notRemoved.code == .notFound)
    #expect(notRemoved.description == "item \(live.id) is not removed: it is in the store")
    let unknown = try #require(refusal(["zzz"]))
    #expect(unknown.description == "no removed item has an id starting with \"zzz\"")
    // A nested item comes back with the item it was under, not alone.
    let nested = try #require(refusal([wool.id.rawValue]))
    #expect(nested.code == .notFound)
    #expect(try #require(refusal([])).code == .invalidRequest)
    #expect(try workspace.history(limit: 100) == history)
    #expect(try workspace.deletedItems().count == 1)
  }
}
