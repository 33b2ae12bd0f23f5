import Foundation
import OffloadTestSupport
import TerminalUI
import Testing

@testable import Offload

private let size = TerminalSize(columns: 60, rows: 12)
private func press(_ key: Key, _ modifiers: KeyModifiers = []) -> KeyPress {
  KeyPress(key, modifiers)
}
private func char(_ character: Character) -> KeyPress { KeyPress(.character(character)) }
private func type(_ text: String) -> [KeyPress] {
  text.map { $0 == " " ? KeyPress(.space) : KeyPress(.character($0)) }
}

/// Trip: 1 A, 2 B (2.1 B1 (2.1.1 B2), 2.2 B3), 3 C, 4 D.
@Suite("OrganizeScreen: everyday keys (done, add, filter, hide done, confirm, reorder)")
struct OrganizeEverydayScreenTests {
  func screen() throws -> (OrganizeScreen, [String: ShortID], TemporaryDirectory) {
    let (screen, ids, folder, _) = try screenAndWorkspace()
    return (screen, ids, folder)
  }

  func screenAndWorkspace() throws -> (
    OrganizeScreen, [String: ShortID], TemporaryDirectory, Workspace
  ) {
    let (workspace, folder) = try makeWorkspace()
    let ids = try makeTrip(workspace).mapValues { ShortID(unchecked: $0) }
    return (OrganizeScreen(tree: try workspace.tree(of: "Trip")), ids, folder, workspace)
  }

  @Test func xTicksTheCursorRowInNormalMode() throws {
    var (screen, ids, folder) = try screen()
    defer { folder.remove() }
    #expect(screen.handle(char("x")) == .change(.setDone([try #require(ids["A"])], true)))
    #expect(!screen.isEditing)
  }

  @Test func addingBelowTheCursorTypesOnItsOwnRow() throws {
    var (screen, ids, folder) = try screen()
    defer { folder.remove() }
    let a = try #require(ids["A"])
    let b = try #require(ids["B"])
    // On a leaf: the next sibling, drawn right below it.
    #expect(screen.handle(char("a")) == .redraw)
    #expect(screen.prompt == .add(.after(a.rawValue)))
    for key in type("Tent pegs") { #expect(screen.handle(key) == .redraw) }
    var frame = screen.frame(size: size)
    #expect(frame.lines[1].text.hasPrefix("1 [ ] A"))
    #expect(frame.lines[2].text.hasPrefix("+ [ ] Tent pegs▏"))
    #expect(frame.lines[2].style == .reverse)
    #expect(frame.lines[1].style == .plain)
    #expect(frame.lines[3].text.hasPrefix("2 [ ] ▾ B"))
    #expect(frame.lines[10].text.hasPrefix("New item: Enter saves, Esc cancels"))
    #expect(screen.handle(press(.enter)) == .change(.add("Tent pegs", .after(a.rawValue))))
    #expect(screen.prompt == nil)
    // On an expanded parent: its first child; Esc cancels without a change.
    _ = screen.handle(press(.down))
    #expect(screen.handle(char("o")) == .redraw)
    #expect(screen.prompt == .add(.firstChild(of: b.rawValue)))
    frame = screen.frame(size: size)
    #expect(frame.lines[3].text.hasPrefix("+   [ ] ▏"))
    #expect(screen.handle(press(.enter)) == .redraw, "empty text is not saved")
    #expect(screen.handle(press(.escape)) == .redraw)
    #expect(screen.prompt == nil)
    #expect(screen.status == "Cancelled")
    // A collapsed parent gets a sibling after its whole subtree.
    _ = screen.handle(press(.left))
    _ = screen.handle(char("a"))
    #expect(screen.prompt == .add(.after(b.rawValue)))
    #expect(screen.frame(size: size).lines[3].text.hasPrefix("+ [ ] ▏"))
  }

  @Test func slashFiltersAsYouTypeAndHHidesDone() throws {
    var (screen, ids, folder, workspace) = try screenAndWorkspace()
    defer { folder.remove() }
    _ = screen.handle(char("/"))
    for key in type("b2") { _ = screen.handle(key) }
    // The match and its ancestors, for context.
    #expect(screen.rows.map(\.item.text) == ["B", "B1", "B2"])
    #expect(screen.frame(size: size).lines[0].text.contains("· /b2"))
    _ = screen.handle(press(.enter))
    #expect(screen.filter == "b2")
    #expect(screen.status == "Filtered by \"b2\" · / changes it")
    _ = screen.handle(char("/"))
    _ = screen.handle(press(.backspace))
    #expect(screen.rows.map(\.item.text) == ["B", "B1", "B2", "B3"])
    _ = screen.handle(press(.escape))
    #expect(screen.filter.isEmpty)
    #expect(screen.rows.count == 7)

    // Hide done: B1 done hides B1 and B2 under it.
    let done = [try #require(ids["B1"]), try #require(ids["D"])]
    try workspace.setDone(ItemSelection(terms: done.map { .id($0.rawValue) }), in: "Trip", true)
    screen.reload(try workspace.tree(of: "Trip"), status: "")
    #expect(screen.handle(char("h")) == .redraw)
    #expect(screen.rows.map(\.item.text) == ["A", "B", "B3", "C"])
    #expect(screen.status == "Done items hidden · h shows them")
    _ = screen.handle(char("h"))
    #expect(screen.rows.count == 7)
  }

  @Test func deletingAParentAsksFirstInBothModes() throws {
    var (screen, ids, folder) = try screen()
    defer { folder.remove() }
    let a = try #require(ids["A"])
    let b = try #require(ids["B"])
    #expect(screen.handle(press(.backspace)) == .change(.remove([a])), "a leaf goes at once")
    _ = screen.handle(press(.down))
    #expect(screen.handle(press(.delete)) == .redraw)
    #expect(screen.prompt == .confirmDelete([b], nested: 3))
    #expect(
      screen.frame(size: size).lines[10].text.hasPrefix(
        "Delete 1 item and 3 items nested? y deletes, any other"))
    #expect(screen.handle(char("n")) == .redraw)
    #expect(screen.prompt == nil)
    _ = screen.handle(press(.delete))
    #expect(screen.handle(char("y")) == .change(.remove([b])))
    // Edit mode: d on checked rows with nested items asks too.
    _ = screen.handle(char("e"))
    _ = screen.handle(press(.space))
    #expect(screen.handle(char("d")) == .redraw)
    #expect(screen.prompt == .confirmDelete([b], nested: 3))
    #expect(screen.handle(char("Y")) == .change(.remove([b])))
  }

  @Test func reorderWithoutAlt() throws {
    var (screen, ids, folder) = try screen()
    defer { folder.remove() }
    let a = try #require(ids["A"])
    let b = try #require(ids["B"])
    #expect(screen.handle(char("J")) == .change(.move([a], .after(b.rawValue))))
    #expect(screen.handle(press(.down, .alt)) == .change(.move([a], .after(b.rawValue))))
    #expect(screen.handle(char("K")) == .redraw)
    #expect(screen.status == "Already at the top of its level")
    _ = screen.handle(char("e"))
    _ = screen.handle(press(.down))
    #expect(screen.handle(char("K")) == .change(.move([b], .before(a.rawValue))))
  }

  @Test func reorderStopsAtTheBottomOfTheLevel() throws {
    var (screen, ids, folder) = try screen()
    defer { folder.remove() }
    let c = try #require(ids["C"])
    let d = try #require(ids["D"])
    for _ in 0..<10 { _ = screen.handle(press(.down)) }
    #expect(screen.handle(char("J")) == .redraw)
    #expect(screen.status == "Already at the bottom of its level")
    #expect(screen.handle(char("K")) == .change(.move([d], .before(c.rawValue))))
  }
}

@Suite("OrganizeSession: adding, and undo that stays on the screen")
struct OrganizeEverydaySessionTests {
  @Test func addSavesBelowTheCursorAndFocusesTheNewItem() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    _ = try makeTrip(workspace)
    var session = try OrganizeSession(workspace: workspace, collection: "Trip")
    for key in [char("a")] + type("Tent") + [press(.enter)] { _ = session.handle(key) }
    #expect(try outline(workspace, "Trip").prefix(3) == ["1 A", "2 Tent", "3 B"])
    #expect(session.screen.cursorID.flatMap { session.screen.tree.items[$0]?.text } == "Tent")
    #expect(session.screen.status == "Added \"Tent\" · a adds another")
    _ = session.handle(char("x"))
    #expect(try workspace.tree(of: "Trip").rows()[1].item.done)
    // An empty collection takes its first item too.
    try workspace.createCollection(named: "Empty", kind: .list)
    var empty = try OrganizeSession(workspace: workspace, collection: "Empty")
    for key in [char("o")] + type("first") + [press(.enter)] { _ = empty.handle(key) }
    #expect(try outline(workspace, "Empty") == ["1 first"])
  }

  static let nothingHere =
    "Cannot: nothing is left to undo here: undo here takes back only the changes made here"

  @Test func undoTakesBackOnlyThisScreensChanges() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    // The collection comes from an import: undoing it from the screen must not happen.
    try workspace.importCollection(named: "Trip", from: "- A\n- B\n", source: "t.md")
    var session = try OrganizeSession(workspace: workspace, collection: "Trip")
    _ = session.handle(char("u"))
    #expect(session.screen.status == Self.nothingHere)
    #expect(try outline(workspace, "Trip") == ["1 A", "2 B"])

    _ = session.handle(char("x"))  // A done, on the screen.
    try workspace.addItem(to: "Inbox", text: "elsewhere")  // Another change, elsewhere.
    _ = session.handle(char("u"))
    let added = try #require(workspace.history(limit: 1).first).summary
    #expect(
      session.screen.status
        == "Cannot: the store's last change (\(added)) was made elsewhere: undo here takes back only the changes made here, and offloadctl undo takes it back"
    )
    #expect(try workspace.tree(of: "Trip").rows()[0].item.done, "nothing was undone")
    try workspace.undo()  // The other change, undone where it was made.
    _ = session.handle(char("u"))
    #expect(session.screen.status.hasPrefix("Undid: "))
    #expect(session.screen.status.hasSuffix(" · nothing left to undo"))
    #expect(try !workspace.tree(of: "Trip").rows()[0].item.done)
    _ = session.handle(char("u"))
    #expect(session.screen.status == Self.nothingHere)
    #expect(try outline(workspace, "Trip") == ["1 A", "2 B"])
  }
}
