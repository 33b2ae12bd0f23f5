import Foundation
import OffloadTestSupport
import OrderingCore
import Selection
import TerminalUI
import Testing

@testable import Offload

private let size = TerminalSize(columns: 60, rows: 12)
private func key(_ key: Key, _ modifiers: KeyModifiers = []) -> KeyPress {
  KeyPress(key, modifiers)
}
private func char(_ character: Character) -> KeyPress { KeyPress(.character(character)) }

/// A collection of `count` flat items built in memory (no store).
private func flatTree(_ count: Int, name: String = "Big") -> CollectionTree {
  var forest = OrderedForest<ShortID>()
  var items: [Item] = []
  for n in 0..<count {
    let id = ShortID(sequence: UInt64(n + 1))
    _ = try? forest.insert(id, at: .root(at: n))
    items.append(
      Item(
        id: id, text: "item \(n + 1)", created: Date(timeIntervalSince1970: 0),
        order: forest.key(of: id)))
  }
  let collection = ItemCollection(
    id: ShortID(unchecked: "c"), name: name, kind: .list,
    created: Date(timeIntervalSince1970: 0), items: items)
  return CollectionTree(collection, maximumPlanDepth: 9)
}

@Suite("OrganizeScreen: keys in, frames out")
struct OrganizeScreenTests {
  @Test func normalModeDrawsRowsAndHints() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    _ = try makeTrip(workspace)
    var screen = OrganizeScreen(tree: try workspace.tree(of: "Trip"))
    let frame = screen.frame(size: size)
    #expect(
      frame.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) == [
        "Trip · plan · 7 items · row 1/7",
        "1 [ ] A",
        "2 [ ] ▾ B",
        "2.1   [ ] ▾ B1",
        "2.1.1     [ ] B2",
        "2.2   [ ] B3",
        "3 [ ] C",
        "4 [ ] D",
        "",
        "",
        "Trip: 7 items · e edits, q quits",
        TerminalText.fit(OrganizeScreen.normalHints, width: 60),
      ])
    #expect(frame.lines[1].style == .reverse)
    #expect(frame.lines[2].style == .plain)
  }

  @Test func cursorCollapseExpandAndDetails() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    let ids = try makeTrip(workspace)
    var screen = OrganizeScreen(tree: try workspace.tree(of: "Trip"))
    do {
      let action = screen.handle(key(.down))
      #expect(action == .redraw)
    }
    #expect(screen.cursorID?.rawValue == ids["B"])
    _ = screen.handle(key(.left))
    #expect(screen.rows.map(\.item.text) == ["A", "B", "C", "D"])
    #expect(screen.frame(size: size).lines[2].text.hasPrefix("2 [ ] ▸ B  (+3)"))
    _ = screen.handle(key(.left))  // Collapsed already, a root: stays.
    #expect(screen.cursorID?.rawValue == ids["B"])
    _ = screen.handle(key(.right))
    #expect(screen.rows.count == 7)
    _ = screen.handle(key(.down))
    _ = screen.handle(key(.down))
    _ = screen.handle(key(.left))  // B2 has no children: go to its parent B1.
    #expect(screen.cursorID?.rawValue == ids["B1"])
    _ = screen.handle(key(.enter))
    let details = screen.frame(size: size)
    #expect(details.lines[0].text.hasPrefix("Trip · item 2.1"))
    #expect(details.text.contains("id        \(ids["B1"] ?? "")"))
    #expect(details.text.contains("nested    1 item"))
    _ = screen.handle(key(.down))
    #expect(screen.detail != nil, "the details stay until Enter or Esc")
    _ = screen.handle(key(.escape))
    #expect(screen.detail == nil)
    do {
      let action = screen.handle(key(.end))
      #expect(action == .redraw)
    }
    #expect(screen.cursorID?.rawValue == ids["D"])
    do {
      let action = screen.handle(key(.backspace))
      #expect(action == .change(.remove([ShortID(unchecked: ids["D"] ?? "")])))
    }
    do {
      let action = screen.handle(char("u"))
      #expect(action == .change(.undo))
    }
    do {
      let action = screen.handle(char("q"))
      #expect(action == .quit)
    }
    do {
      let action = screen.handle(KeyPress.controlC)
      #expect(action == .quit)
    }
    _ = screen.handle(KeyPress(.tab))
    #expect(screen.status == "Nesting is in edit mode: press e")
  }

  @Test func editModeChecksToolbarAndBulkActions() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    let ids = try makeTrip(workspace)
    let id = { (text: String) in ShortID(unchecked: ids[text] ?? "") }
    var screen = OrganizeScreen(tree: try workspace.tree(of: "Trip"))
    _ = screen.handle(char("e"))
    #expect(screen.isEditing)
    var frame = screen.frame(size: size)
    #expect(frame.lines[0].text.hasPrefix("Trip · plan · 7 items · Edit · select items"))
    #expect(frame.lines[1].text.hasPrefix("○ 1 [ ] A"))
    #expect(frame.lines[10].text.hasPrefix("Select items  (x Done)  (d Delete)  (alt+↑↓ Move)"))
    _ = screen.handle(char("d"))
    #expect(screen.status == "Delete: nothing is selected")
    _ = screen.handle(key(.space))
    _ = screen.handle(key(.down))
    _ = screen.handle(key(.down, .shift))  // Range from A to B1.
    frame = screen.frame(size: size)
    #expect(screen.selection.count == 3)
    #expect(frame.lines[10].text.hasPrefix("3 selected  [x Done]  [d Delete]  [alt+↑↓ Move]"))
    #expect(frame.lines[3].text.hasPrefix("● 2.1   [ ] ▾ B1"))
    do {
      let action = screen.handle(char("x"))
      #expect(action == .change(.setDone([id("A"), id("B"), id("B1")], true)))
    }
    // Ancestor wins for delete; B has nested items, so the screen asks first.
    do {
      let action = screen.handle(char("d"))
      #expect(action == .redraw)
      #expect(screen.prompt == .confirmDelete([id("A"), id("B")], nested: 3))
      #expect(screen.handle(char("y")) == .change(.remove([id("A"), id("B")])))
    }
    do {
      let action = screen.handle(key(.down, .alt))
      #expect(action == .change(.move([id("A"), id("B")], .after(id("C").rawValue))))
    }
    do {
      let action = screen.handle(key(.up, .alt))
      #expect(action == .redraw)
    }
    #expect(screen.status == "Already at the top of its level")
    do {
      let action = screen.handle(key(.tab))
      #expect(action == .change(.indent(id("B1"))))
    }
    do {
      let action = screen.handle(key(.tab, .shift))
      #expect(action == .change(.outdent(id("B1"))))
    }
    // Different parents: the move is refused by the toolbar rule and by the key.
    _ = screen.handle(char("a"))
    #expect(screen.selection.isAllSelected)
    #expect(
      screen.toolbar.enabledIDs == ["done", "delete", "move", "move-to"], "all roots: one parent")
    _ = screen.handle(char("a"))
    #expect(screen.selection.isEmpty)
    _ = screen.handle(key(.space))  // B1
    _ = screen.handle(key(.end))
    _ = screen.handle(key(.space))  // D
    #expect(screen.toolbar.enabledIDs == ["done", "delete", "move-to"])
    _ = screen.handle(key(.down, .alt))
    #expect(screen.status == "Move: the selected rows have different parents")
    _ = screen.handle(char("a"))
    #expect(screen.selection.isAllSelected)
    _ = screen.handle(char("e"))
    #expect(!screen.isEditing)
    #expect(screen.selection.isEmpty, "Done clears the checks")
    #expect(screen.frame(size: size).lines[1].text == "1 [ ] A" + String(repeating: " ", count: 53))
  }

  @Test func onlyVisibleRowsAreDrawnAndResizeFollows() {
    var screen = OrganizeScreen(tree: flatTree(2_000))
    _ = screen.handle(key(.end))
    var frame = screen.frame(size: size)
    #expect(frame.lines[1].text.hasPrefix("1992 [ ] item 1992"))
    #expect(frame.lines[9].text.hasPrefix("2000 [ ] item 2000"))
    #expect(frame.lines[9].style == .reverse)
    frame = screen.frame(size: TerminalSize(columns: 30, rows: 6))
    #expect(frame.lines.count == 6)
    #expect(frame.lines[3].text.hasPrefix("2000 [ ] item 2000"))
    #expect(frame.lines[0].text.hasPrefix("Big · list · 2000 items"))
    _ = screen.handle(key(.pageUp))
    #expect(screen.viewport.cursor == 1_997)
  }

  @Test func emptyCollection() {
    var screen = OrganizeScreen(tree: flatTree(0, name: "Empty"))
    do {
      let action = screen.handle(key(.down))
      #expect(action == .redraw)
    }
    do {
      let action = screen.handle(key(.backspace))
      #expect(action == .redraw)
    }
    _ = screen.handle(char("e"))
    do {
      let action = screen.handle(key(.space))
      #expect(action == .redraw)
    }
    #expect(screen.frame(size: size).lines[1].text.hasPrefix("  (no items"))
  }

  /// Random keys: the cursor stays on a row, the selection's count matches its rows, frames
  /// fit the terminal.
  @Test func randomKeysKeepInvariants() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(0x0D6A))
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    _ = try makeTrip(workspace)
    let tree = try workspace.tree(of: "Trip")
    let keys: [KeyPress] = [
      key(.up), key(.down), key(.left), key(.right), key(.enter), key(.escape), key(.space),
      key(.down, .shift), key(.up, .shift), key(.pageDown), key(.home), key(.end), char("e"),
      char("a"), char("x"), char("d"), key(.tab), key(.tab, .shift), key(.up, .alt),
      key(.down, .alt), key(.backspace), char("r"), char("m"), char("z"),
    ]
    for round in 0..<200 {
      var screen = OrganizeScreen(tree: tree)
      let columns = 10 + rng.index(below: 60)
      let rows = 1 + rng.index(below: 15)
      for _ in 0..<50 {
        let press = keys[rng.index(below: keys.count)]
        let action = screen.handle(press)
        #expect(action != .quit)
        #expect(screen.rows.isEmpty || screen.viewport.cursor < screen.rows.count)
        #expect(
          screen.selection.count == screen.selection.selectedIDs(in: screen.snapshot).count,
          "round \(round), \(rng)")
        let frame = screen.frame(size: TerminalSize(columns: columns, rows: rows))
        #expect(frame.lines.count == rows)
        #expect(frame.lines.allSatisfy { TerminalText.width(of: $0.text) == columns })
      }
    }
  }
}

@Suite("OrganizeSession: every change saved through the workspace")
struct OrganizeSessionTests {
  @Test func swipeDeleteUndoCheckAndMarkDone() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    _ = try makeTrip(workspace)
    let before = try snapshot(workspace)
    var session = try OrganizeSession(workspace: workspace, collection: "trip")
    _ = session.handle(key(.down))
    do {
      let quits = session.handle(key(.delete))
      #expect(!quits)
    }
    // B has nested items: the screen asks, and only y deletes.
    #expect(session.screen.prompt == .confirmDelete([session.screen.cursorID!], nested: 3))
    #expect(try snapshot(workspace) == before)
    _ = session.handle(char("n"))
    #expect(session.screen.status == "Kept 1 item and what is nested under them")
    #expect(try snapshot(workspace) == before)
    _ = session.handle(key(.delete))
    _ = session.handle(char("y"))
    #expect(try outline(workspace, "Trip") == ["1 A", "2 C", "3 D"])
    #expect(session.screen.status == "Deleted \"B\" and 3 items nested · u undoes")
    #expect(session.screen.cursorID == session.screen.rows[1].item.id)
    _ = session.handle(char("u"))
    #expect(try snapshot(workspace) == before)
    #expect(session.screen.status == "Undid: remove 4 items from \"Trip\" · nothing left to undo")
    _ = session.handle(char("e"))
    _ = session.handle(key(.home))
    _ = session.handle(key(.space))
    _ = session.handle(key(.end))
    _ = session.handle(key(.space))
    _ = session.handle(char("x"))
    #expect(session.screen.status == "Marked 2 items done")
    let done = try workspace.tree(of: "Trip").rows().filter(\.item.done).map(\.item.text)
    #expect(done == ["A", "D"])
    _ = session.handle(char("x"))  // All checked are done: mark them not done.
    #expect(try workspace.tree(of: "Trip").rows().filter(\.item.done).isEmpty)
    #expect(session.screen.selection.count == 2, "checks survive a change")
    _ = session.handle(char("d"))
    #expect(try outline(workspace, "Trip").first == "1 B")
    #expect(session.screen.selection.isEmpty)
    do {
      let quits = session.handle(char("q"))
      #expect(quits)
    }
  }

  @Test func reorderIndentOutdentAndRefusals() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    _ = try makeTrip(workspace)
    var session = try OrganizeSession(workspace: workspace, collection: "Trip")
    #expect(
      workspaceError { try OrganizeSession(workspace: workspace, collection: "Nope") }?.code
        == .notFound)
    _ = session.handle(char("e"))
    _ = session.handle(key(.down, .alt))  // A after B.
    #expect(try outline(workspace, "Trip").prefix(2) == ["1 B", "1.1 B1"])
    #expect(session.screen.cursorID == session.screen.rows[4].item.id, "the cursor follows A")
    _ = session.handle(key(.tab))  // A under B, last.
    #expect(try outline(workspace, "Trip").contains("1.3 A"))
    _ = session.handle(key(.tab, .shift))
    #expect(try outline(workspace, "Trip").contains("2 A"))
    _ = session.handle(key(.home))
    let history = try workspace.history().count
    let before = try snapshot(workspace)
    _ = session.handle(key(.tab))  // B is the first root: refused.
    #expect(session.screen.status.hasPrefix("Cannot: "))
    #expect(try snapshot(workspace) == before)
    #expect(try workspace.history().count == history)
    for _ in 0..<3 { _ = session.handle(char("u")) }
    #expect(try outline(workspace, "Trip").prefix(2) == ["1 A", "2 B"])
  }

  @Test func promptsRenameAndMoveToAnotherCollection() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    _ = try makeTrip(workspace)
    try workspace.createCollection(named: "Later", kind: .plan)
    var session = try OrganizeSession(workspace: workspace, collection: "Trip")
    _ = session.handle(char("e"))
    _ = session.handle(char("r"))
    #expect(session.screen.status == "Rename: nothing is selected")
    _ = session.handle(key(.space))
    _ = session.handle(char("r"))
    #expect(session.screen.prompt != nil)
    #expect(session.frame(size: size).lines[9].text.hasPrefix("Rename to: A▏"))
    _ = session.handle(key(.backspace))
    for character in "Alfama quay" {
      _ = session.handle(character == " " ? key(.space) : char(character))
    }
    _ = session.handle(key(.enter))
    #expect(session.screen.prompt == nil)
    #expect(session.screen.status == "Renamed to \"Alfama quay\"")
    #expect(try outline(workspace, "Trip").first == "1 Alfama quay")
    // Esc cancels and changes nothing.
    _ = session.handle(char("r"))
    _ = session.handle(char("u"))  // Typed, not undo.
    _ = session.handle(key(.escape))
    #expect(session.screen.status == "Cancelled")
    #expect(try outline(workspace, "Trip").first == "1 Alfama quay")
    // Move A and B (with B's subtree) to the end of another collection.
    _ = session.handle(key(.down))
    _ = session.handle(key(.space))
    _ = session.handle(char("m"))
    for character in "nope" { _ = session.handle(char(character)) }
    _ = session.handle(key(.enter))
    #expect(session.screen.status.hasPrefix("Cannot: no collection is named \"nope\""))
    _ = session.handle(char("m"))
    _ = session.handle(key(.enter))
    #expect(session.screen.status == "Type some text first, or Esc to cancel")
    for character in "Later" { _ = session.handle(char(character)) }
    _ = session.handle(key(.enter))
    #expect(session.screen.status == "Moved 2 items (5 items in all) to \"Later\"")
    #expect(try outline(workspace, "Trip") == ["1 C", "2 D"])
    #expect(try outline(workspace, "Later").count == 5)
    #expect(session.screen.selection.isEmpty, "the moved rows left the selection")
    _ = session.handle(char("u"))
    #expect(try outline(workspace, "Trip").count == 7)
  }
}
