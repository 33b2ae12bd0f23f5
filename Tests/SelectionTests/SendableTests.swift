import Selection
import Testing

/// A global list of actions: in Swift 6 this compiles only because `BulkAction` is `Sendable`.
let sharedActions: [BulkAction<String>] = [
  .move { $0 != "tea" }, .delete(), .rename(),
  BulkAction(id: "pair", title: "Pair") { $0.count == 2 ? .enabled : .disabled(reason: "two") },
]

@Suite("Bulk actions cross concurrency domains")
struct SendableTests {
  @Test func actionsGoToATaskAndBack() async throws {
    let rows = try RowSnapshot(visible: ["milk", "tea"])
    var selection = SelectionState<String>(mode: .multiple)
    selection.beginEditing()
    selection.selectAll(in: rows)
    let snapshot = selection
    let enabled = await Task.detached {
      snapshot.toolbar(for: sharedActions, in: rows).enabledIDs
    }.value
    #expect(enabled == ["delete", "pair"])
  }
}
