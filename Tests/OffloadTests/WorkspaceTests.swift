import Foundation
import OffloadTestSupport
import OrderingCore
import Testing

@testable import Offload

/// A workspace in a fresh temporary folder with a fixed, advancing clock.
func makeWorkspace() throws -> (Workspace, TemporaryDirectory) {
  let folder = try TemporaryDirectory(prefix: "offload-workspace")
  nonisolated(unsafe) var tick = 0.0
  let workspace = Workspace(root: folder.appending("store"), historyLimit: 1_000) {
    tick += 1
    return Date(timeIntervalSince1970: 1_800_000_000 + tick)
  }
  return (workspace, folder)
}

/// Every collection with its items sorted by id: the whole observable state.
func snapshot(_ workspace: Workspace) throws -> [String: [Item]] {
  var state: [String: [Item]] = [:]
  for entry in try workspace.collections() {
    let tree = try workspace.tree(of: entry.id.rawValue)
    state["\(entry.id) \(entry.name) \(entry.kind)"] = tree.collection.items.sorted {
      $0.id < $1.id
    }
  }
  return state
}

@Suite("Workspace: collections and items")
struct WorkspaceTests {
  @Test func captureGoesToTheInboxInOrder() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    #expect(!workspace.exists)
    #expect(try workspace.collections().map(\.name) == ["Inbox"])
    let a = try workspace.capture("  first  ")
    let b = try workspace.capture("second")
    #expect(workspace.exists)
    #expect(a.text == "first")
    let rows = try workspace.tree(of: "inbox").rows()
    #expect(rows.map(\.item.id) == [a.id, b.id])
    #expect(rows.map(\.number) == ["1", "2"])
    #expect(try workspace.item(String(a.id.rawValue.prefix(4))).collectionName == "Inbox")
  }

  @Test func plansNestAndListsRefuse() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    try workspace.createCollection(named: "Trip", kind: .plan)
    try workspace.createCollection(named: "Shopping", kind: .list)
    let pack = try workspace.addItem(to: "trip", text: "Pack")
    let socks = try workspace.addItem(
      to: "Trip", text: "Socks", at: .lastChild(of: pack.id.rawValue))
    let boots = try workspace.addItem(to: "Trip", text: "Boots", at: .before(socks.id.rawValue))
    let tree = try workspace.tree(of: "Trip")
    #expect(tree.rows().map(\.item.text) == ["Pack", "Boots", "Socks"])
    #expect(tree.rows().map(\.number) == ["1", "1.1", "1.2"])
    #expect(tree.rows(collapsed: [pack.id]).map(\.hiddenCount) == [2])
    #expect(tree.rows(maximumDepth: 0).count == 1)
    _ = boots
    let milk = try workspace.addItem(to: "Shopping", text: "Milk")
    #expect(throws: WorkspaceError.self) {
      try workspace.addItem(to: "Shopping", text: "Oat", at: .lastChild(of: milk.id.rawValue))
    }
    do {
      try workspace.moveItem(pack.id.rawValue, toCollection: "Shopping", to: .lastRoot)
      Issue.record("a subtree moved into a list")
    } catch {
      #expect(error.code == .refused)
      #expect(error.description.contains("\"Shopping\" is a list, and lists are flat"))
    }
    // Nothing changed by the refused move.
    #expect(try workspace.tree(of: "Trip").collection.items.count == 3)
  }

  @Test func refusedMovesChangeNothing() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    try workspace.createCollection(named: "P", kind: .plan)
    let a = try workspace.addItem(to: "P", text: "a")
    let b = try workspace.addItem(to: "P", text: "b", at: .lastChild(of: a.id.rawValue))
    let before = try snapshot(workspace)
    let historyBefore = try workspace.history().count
    for (attempt, expected) in [
      (
        { try workspace.moveItem(a.id.rawValue, to: .lastChild(of: b.id.rawValue)) },
        "inside its own subtree"
      ),
      ({ try workspace.indent(a.id.rawValue) }, "first of its siblings"),
      ({ try workspace.outdent(a.id.rawValue) }, "is a root"),
    ] as [(() throws -> Void, String)] {
      do {
        try attempt()
        Issue.record("expected a refusal: \(expected)")
      } catch let error as WorkspaceError {
        #expect(error.code == .refused)
        #expect(error.description.contains(expected), "\(error)")
      }
    }
    #expect(try snapshot(workspace) == before)
    #expect(try workspace.history().count == historyBefore)
  }

  @Test func maximumDepthIsEnforced() throws {
    let (base, folder) = try makeWorkspace()
    defer { folder.remove() }
    var workspace = base
    workspace.maximumPlanDepth = 2
    try workspace.createCollection(named: "Deep", kind: .plan)
    var parent = try workspace.addItem(to: "Deep", text: "0")
    for level in 1...2 {
      parent = try workspace.addItem(
        to: "Deep", text: "\(level)", at: .lastChild(of: parent.id.rawValue))
    }
    do {
      try workspace.addItem(to: "Deep", text: "3", at: .lastChild(of: parent.id.rawValue))
      Issue.record("went past the maximum depth")
    } catch {
      #expect(error.code == .refused)
      #expect(error.description.contains("deeper than the maximum depth 2"))
    }
  }

  @Test func namesAndIdsResolveWithClearErrors() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    try workspace.createCollection(named: "Books", kind: .list)
    #expect(throws: WorkspaceError.self) {
      try workspace.createCollection(named: "books", kind: .list)
    }
    do {
      _ = try workspace.tree(of: "Films")
    } catch {
      #expect(error.code == .notFound)
      #expect(error.description == "no collection is named \"Films\" (collections: Books, Inbox)")
    }
    for _ in 0..<40 { try workspace.capture("x") }
    do {
      _ = try workspace.item("")
      Issue.record("an empty prefix matched one item")
    } catch {
      #expect(error.code == .ambiguous)
      #expect(error.description.contains("matches several items"))
    }
    do {
      _ = try workspace.item("zzzzzzz")
    } catch {
      #expect(error.code == .notFound)
    }
    #expect(throws: WorkspaceError.self) { try workspace.capture("   ") }
    #expect(throws: WorkspaceError.self) { try workspace.capture("two\nlines") }
    #expect(throws: WorkspaceError.self) { try workspace.renameCollection("Inbox", to: "Other") }
    #expect(throws: WorkspaceError.self) { try workspace.deleteCollection("Inbox", force: true) }
  }

  @Test func deleteNeedsForceAndUndoBringsItBack() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    try workspace.createCollection(named: "Old", kind: .plan)
    let a = try workspace.addItem(to: "Old", text: "a")
    try workspace.addItem(to: "Old", text: "b", at: .lastChild(of: a.id.rawValue))
    let before = try snapshot(workspace)
    do {
      try workspace.deleteCollection("Old", force: false)
    } catch {
      #expect(error.code == .notEmpty)
      #expect(error.description.contains("still has 2 items"))
    }
    #expect(try workspace.deleteCollection("old", force: true) == 2)
    #expect(throws: WorkspaceError.self) { try workspace.item(a.id.rawValue) }
    try workspace.undo()
    #expect(try snapshot(workspace) == before)
    #expect(try workspace.item(a.id.rawValue).collectionName == "Old")
  }

  @Test func undoRefusesToOverwriteLaterEdits() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    let item = try workspace.capture("a")
    try workspace.editText(item.id.rawValue, to: "b")
    // Edit the file behind the workspace's back: undo must not overwrite it.
    let other = Workspace(root: workspace.root)
    try other.change(recordsHistory: true) { (transaction) throws(WorkspaceError) in
      var inbox = try transaction.collection(Workspace.inboxID)
      inbox.items[0].text = "c"
      try transaction.update(inbox)
      return ((), "manual")
    }
    try workspace.undo()  // Undoes "manual".
    #expect(try workspace.item(item.id.rawValue).item.text == "b")
    try workspace.setDone(item.id.rawValue, true)
    var history = try workspace.history()
    #expect(history.first?.summary.hasPrefix("done") == true)
    try workspace.undo()
    try workspace.undo()
    #expect(try workspace.item(item.id.rawValue).item.text == "a")
    try workspace.undo()
    do {
      try workspace.undo()
    } catch {
      #expect(error.code == .nothingToUndo)
    }
    history = try workspace.history()
    #expect(history.isEmpty)
  }

  @Test func exportThenImportGivesTheSameTree() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    let markdown = """
      # Ignored title
      - [ ] Pack
        - [x] Socks
        - Boots
      - [x] Book flights
      """
    let plan = try workspace.importCollection(named: "Trip", from: markdown, source: "trip.md")
    #expect(plan.kind == .plan)
    #expect(plan.items.count == 4)
    for format in OutlineFormat.allCases {
      let exported = try workspace.export("Trip", format: format)
      let copy = try workspace.importCollection(
        named: "Copy \(format)", from: exported, source: "x")
      #expect(
        Workspace.outline(of: try workspace.tree(of: copy.id.rawValue))
          == Workspace.outline(of: try workspace.tree(of: "Trip")))
      #expect(copy.kind == .plan)
    }
    do {
      try workspace.importCollection(named: "Bad", from: "- a\n- [ ]\n  - b\n", source: "bad.md")
      Issue.record("imported an empty item with a nested one")
    } catch {
      #expect(error.code == .badInput)
      #expect(
        error.description
          == "bad.md: line 2: the item has no text, yet the item on line 3 is nested under it")
    }
    do {
      try workspace.importCollection(named: "Flat", from: markdown, source: "trip.md", kind: .list)
    } catch {
      #expect(error.code == .refused)
    }
    do {
      try workspace.importCollection(named: "J", from: "{\"name\": 3}", source: "j.json")
    } catch {
      #expect(error.code == .badInput)
      #expect(error.description.hasPrefix("j.json: not an exported collection"))
    }
    #expect(throws: WorkspaceError.self) { try workspace.tree(of: "Bad") }
  }

  @Test func keysStayWithinTheBudgetWhenOneGapIsHitAgainAndAgain() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    try workspace.createCollection(named: "Hot", kind: .plan)
    let first = try workspace.addItem(to: "Hot", text: "first")
    try workspace.addItem(to: "Hot", text: "last")
    var expected = ["first", "last"]
    for index in 0..<300 {
      try workspace.addItem(to: "Hot", text: "n\(index)", at: .after(first.id.rawValue))
      expected.insert("n\(index)", at: 1)
    }
    let tree = try workspace.tree(of: "Hot")
    #expect(tree.rows().map(\.item.text) == expected)
    let longest = tree.collection.items.map(\.order.length).max() ?? 0
    #expect(longest <= CollectionTree.keyBudget, "a key of \(longest) bytes")
    #expect(try workspace.verify().isClean)
    // Undo of the last insert restores the re-keyed neighbours too.
    let before = try snapshot(workspace)
    try workspace.addItem(to: "Hot", text: "again", at: .after(first.id.rawValue))
    try workspace.undo()
    #expect(try snapshot(workspace) == before)
  }

  @Test func convertFlattensInPreorderAndBack() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    try workspace.importCollection(named: "P", from: "- a\n  - b\n    - c\n- d\n", source: "p.md")
    #expect(try workspace.convertCollection("P", to: .list) == 3)
    let rows = try workspace.tree(of: "P").rows()
    #expect(rows.map(\.item.text) == ["a", "b", "c", "d"])
    #expect(rows.allSatisfy { $0.depth == 0 })
    try workspace.convertCollection("P", to: .plan)
    #expect(try workspace.tree(of: "P").collection.kind == .plan)
  }
}

@Suite("Workspace: properties over seeded random commands")
struct WorkspacePropertyTests {
  /// Runs random commands; after each one the store verifies clean, and undoing it restores
  /// the state before it exactly.
  @Test func everyChangeVerifiesAndUndoesExactly() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    var rng = SplitMix64(seed: SplitMix64.testSeed(0xF00D))
    try workspace.createCollection(named: "Plan", kind: .plan)
    try workspace.createCollection(named: "List", kind: .list)
    let names = ["Inbox", "Plan", "List"]
    var refusals = 0
    for step in 0..<300 {
      let before = try snapshot(workspace)
      let entries = try workspace.history(limit: 1000).count
      let ids = before.values.flatMap { $0.map(\.id.rawValue) }.sorted()
      func anyID() -> String { ids.isEmpty ? "none" : ids[rng.index(below: ids.count)] }
      let collection = names[rng.index(below: names.count)]
      let operation = rng.index(below: 10)
      do {
        switch operation {
        case 0: try workspace.capture("capture \(step)")
        case 1, 2:
          let placements: [ItemPlacement] = [
            .lastRoot, .firstRoot, .after(anyID()), .lastChild(of: anyID()),
          ]
          try workspace.addItem(
            to: collection, text: "item \(step)", at: placements[rng.index(below: placements.count)]
          )
        case 3, 4:
          let placements: [ItemPlacement] = [
            .before(anyID()), .after(anyID()), .firstChild(of: anyID()), .lastRoot,
          ]
          try workspace.moveItem(
            anyID(), toCollection: rng.chance(0.3) ? collection : nil,
            to: placements[rng.index(below: placements.count)])
        case 5: try workspace.indent(anyID())
        case 6: try workspace.outdent(anyID())
        case 7: try workspace.setDone(anyID(), rng.chance(0.5))
        case 8: try workspace.removeItems([anyID()])
        default: try workspace.convertCollection("Plan", to: rng.chance(0.5) ? .list : .plan)
        }
      } catch {
        refusals += 1
        #expect(
          try snapshot(workspace) == before,
          "step \(step) op \(operation): a failed command changed the store: \(error), \(rng)")
        continue
      }
      let report = try workspace.verify()
      #expect(report.isClean, "step \(step): \(report.problems), \(rng)")
      // A command that changed nothing (done twice, convert to its own kind) adds no entry.
      let changed = try snapshot(workspace) != before
      #expect(
        try workspace.history(limit: 1000).count == entries + (changed ? 1 : 0), "step \(step)")
      if changed && rng.chance(0.25) {
        try workspace.undo()
        #expect(
          try snapshot(workspace) == before,
          "step \(step) op \(operation): undo did not restore, \(rng)")
      }
    }
    #expect(refusals < 250)
  }
}
