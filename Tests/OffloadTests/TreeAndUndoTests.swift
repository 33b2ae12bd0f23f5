import Foundation
import OffloadTestSupport
import Testing

@testable import Offload

/// `Workspace.treeAndUndo(of:)`: one read of the store gives what `tree(of:)` and
/// `history(limit: 1)` give.
@Suite("Workspace: a collection and its Undo in one read")
struct TreeAndUndoTests {
  @Test("agrees with tree(of:) and history(limit: 1) through changes, undos and checkpoints")
  func agreesWithTheTwoReads() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    func check(_ step: String) throws {
      let (tree, canUndo) = try workspace.treeAndUndo(of: "Plan")
      #expect(
        tree.rows().map(\.item) == (try workspace.tree(of: "Plan").rows().map(\.item)), "\(step)")
      #expect(canUndo == !(try workspace.history(limit: 1).isEmpty), "\(step)")
    }
    try workspace.createCollection(named: "Plan", kind: .plan)
    try check("created")
    var random = SplitMix64(seed: 7)
    for step in 0..<60 {
      switch random.next() % 4 {
      case 0 where try workspace.history(limit: 1_000).count > 1:  // keep the plan itself
        try workspace.undo()
      case 1:
        let rows = try workspace.tree(of: "Plan").rows()
        if let row = rows.last { try workspace.moveItem(row.item.id.rawValue, to: .firstRoot) }
      default: try workspace.addItem(to: "Plan", text: "Step \(step)")
      }
      try check("step \(step)")
    }
    // Undo back to the empty plan, then its creation: nothing is left to undo.
    while try workspace.history(limit: 1_000).count > 1 { try workspace.undo() }
    try check("back to the empty plan")
    try workspace.undo()
    #expect(throws: WorkspaceError.self) { try workspace.treeAndUndo(of: "Plan") }
    #expect(try workspace.treeAndUndo(of: Workspace.inboxName).canUndo == false)
  }
}
