import Foundation
import OffloadTestSupport
import Testing

@testable import Offload
@testable import OffloadWeb

/// A page's Undo follows the library's one rule for undo here (`Workspace.undo(madeHere:)`),
/// and refuses in the words the terminal screen's `u` shows.
@Suite("Organize pages: Undo takes back only what the page made")
struct OrganizeUndoHereTests {
  func refusal(_ body: () async throws -> Void) async -> DeckFailure? {
    do {
      try await body()
      return nil
    } catch {
      return error as? DeckFailure
    }
  }

  @Test func undoRefusesWhatWasMadeElsewhereAndTakesBackItsOwn() async throws {
    let folder = try TemporaryDirectory(prefix: "offload-undo-here")
    defer { folder.remove() }
    let workspace = Workspace(root: folder.appending("store"))
    let list = try workspace.createCollection(named: "Groceries", kind: .list).id.rawValue
    let service = OrganizeService(workspace: workspace)
    var undo = OrganizeCommand.Items(collection: list, action: .undo(made: []))
    // Nothing made on the page yet: the store's own last change (the create) stays.
    let nothing = await refusal { _ = try await service.changeItems(undo) }
    #expect(nothing?.status == 409)
    #expect(
      nothing?.description
        == "nothing is left to undo here: undo here takes back only the changes made here")

    let add = OrganizeCommand.Items(
      collection: list, version: try await service.collection(list).version,
      action: .add(text: "Milk", after: nil))
    let added = try await service.changeItems(add)
    let made = try #require(added.made)
    #expect(try workspace.history(limit: 1).first?.sequence == made)

    // A command adds an item after the page's change: the page's Undo leaves it alone.
    try workspace.addItem(to: "Groceries", text: "Eggs")
    let summary = try #require(workspace.history(limit: 1).first).summary
    undo.action = .undo(made: [made])
    let elsewhere = await refusal { _ = try await service.changeItems(undo) }
    #expect(elsewhere?.status == 409)
    #expect(
      elsewhere?.description
        == "the store's last change (\(summary)) was made elsewhere: undo here takes back only the changes made here, and offloadctl undo takes it back"
    )
    #expect(try workspace.tree(of: "Groceries").rows().map(\.item.text) == ["Milk", "Eggs"])

    try workspace.undo()  // Where it was made.
    let undone = try await service.changeItems(undo)
    #expect(undone.undone == made)
    #expect(try workspace.tree(of: "Groceries").rows().isEmpty)
  }
}
