import Foundation
import OffloadTestSupport
import Persistence
import Testing

@testable import Offload

/// A workspace that keeps what it reads and writes (`Workspace.remembering()`) answers as a
/// workspace that reads the files every time, whatever another process changes, and reads
/// nothing while no other process changed the store.
@Suite("Workspace.remembering(): the store kept in memory between changes")
struct StoreMemoryTests {
  /// What a workspace that keeps nothing reads: every collection's rows, and the history.
  static func snapshot(_ workspace: Workspace) throws -> [String] {
    var lines: [String] = []
    for entry in try workspace.collections() {
      lines.append("\(entry.id) \(entry.name) \(entry.kind) \(entry.itemCount)")
      for row in try workspace.tree(of: "id:" + entry.id.rawValue).rows() {
        let item = row.item
        lines.append("  \(row.number) \(item.id) \(item.text) \(item.done) \(item.order)")
      }
    }
    lines += try workspace.history(limit: 1000).map { "history \($0.sequence) \($0.summary)" }
    return lines
  }

  @Test(
    "over seeded runs of changes through a remembering workspace and another process, with checkpoints, every read is a fresh read's",
    arguments: 0..<6)
  func interleaved(seed: UInt64) throws {
    let folder = try TemporaryDirectory(prefix: "offload-memory")
    defer { folder.remove() }
    let root = folder.appending("store")
    let kept = Workspace(root: root).remembering()
    _ = try kept.createCollection(named: "Plan", kind: .plan)
    _ = try kept.createCollection(named: "List", kind: .list)
    var random = SplitMix64(seed: seed)
    for round in 0..<90 {
      // Half the changes come from another process (a workspace value keeping nothing).
      let byOther = random.next() % 2 == 0
      let writer = byOther ? Workspace(root: root) : kept
      let rows = try writer.tree(of: "Plan").rows()
      let pick = rows.isEmpty ? nil : rows[Int(random.next() % UInt64(rows.count))].item.id
      switch (random.next() % 6, pick) {
      case (0, let id?):
        _ = try writer.addItem(to: "Plan", text: "Under \(round)", at: .lastChild(of: id.rawValue))
      case (1, let id?):
        try writer.editText(id, to: "Edited \(round)")
      case (2, let id?):
        // Refused when the row has rows under it (a list is flat) or the list was undone.
        _ = try? writer.moveItems(
          ItemSelection(terms: [.id(id.rawValue)]), in: "Plan", toCollection: "List",
          to: .lastRoot)
      case (3, _):
        _ = try? writer.undo()
      case (4, let id?):
        _ = try writer.setDone(ItemSelection(terms: [.id(id.rawValue)]), in: "Plan", true)
      default:
        _ = try writer.addItem(to: "Plan", text: "Step \(round)")
      }
      let fresh = try Self.snapshot(Workspace(root: root))
      #expect(try Self.snapshot(kept) == fresh, "seed \(seed) round \(round)")
    }
    #expect(try Workspace(root: root).verify().isClean)
  }

  @Test("while the store's stamp stays, a remembering workspace reads no collection file")
  func readsNothing() throws {
    let folder = try TemporaryDirectory(prefix: "offload-memory")
    defer { folder.remove() }
    let root = folder.appending("store")
    let kept = Workspace(root: root).remembering()
    let plan = try kept.createCollection(named: "Plan", kind: .plan)
    for step in 0..<5 { _ = try kept.addItem(to: "Plan", text: "Step \(step)") }
    let before = try Self.snapshot(kept)
    // The plan's file is damaged behind the workspace's back, without touching the journal:
    // the kept state answers reads and the next change, which read no file.
    let path = root + "/collections/\(plan.id.rawValue).json"
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    try Data("not json".utf8).write(to: URL(fileURLWithPath: path))
    #expect(try Self.snapshot(kept) == before)
    _ = try kept.addItem(to: "Plan", text: "Step 5")
    #expect(try kept.tree(of: "Plan").rows().count == 6)
    try bytes.write(to: URL(fileURLWithPath: path))
    #expect(try Self.snapshot(Workspace(root: root)) == (try Self.snapshot(kept)))
    // Another process's change moves the stamp: the remembering workspace reads it.
    _ = try Workspace(root: root).addItem(to: "Plan", text: "Elsewhere")
    #expect(try kept.tree(of: "Plan").rows().map(\.item.text).last == "Elsewhere")
  }
}
