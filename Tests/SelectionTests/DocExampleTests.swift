import OffloadTestSupport
import Selection
import Testing

/// The examples of Selection's doc comments, DocC catalog and guide, compiled and run here;
/// `everyExampleIsHere` fails when an example is written that this file does not hold.
@Suite("Selection: documentation examples compile and do what they say")
struct DocExampleTests {
  typealias ItemID = Int

  @Test func everyExampleIsHere() {
    let root = DocExamples.packageRoot(from: #filePath)
    let blocks = DocExamples.blocks(
      module: "Selection", guides: ["Docs/Guides/Selection.md"], root: root)
    #expect(blocks.count >= 10)
    let missing = DocExamples.missing(
      blocks, in: ["Tests/SelectionTests/DocExampleTests.swift"], root: root)
    #expect(missing.isEmpty, "examples not compiled by a test: \(missing)")
  }

  @Test func overview() throws {
    let rows = try RowSnapshot(visible: Array(0..<10))
    var selection = SelectionState<Int>(mode: .multiple)
    selection.beginEditing()
    selection.tap(3)  // .selected(3)
    selection.selectAll(in: rows)  // O(1)
    selection.tap(7)  // .deselected(7): stores {7} as an exception
    selection.count  // rows.visibleCount - 1
    selection.endEditing()  // back to normal mode, nothing selected
    #expect(selection.isEmpty && !selection.isEditing)
  }

  @Test func catalogTour() throws {
    var rows = try RowSnapshot(visible: [1, 2, 3, 4, 5])
    let row = 2
    let other = 4
    let urgent = [1, 2, 3]
    let others = [4, 5]
    let parent: [ItemID: ItemID] = [2: 1]
    var redrawn: [ItemID] = []
    var opened: [ItemID] = []
    func redraw(_ id: ItemID) { redrawn.append(id) }
    func open(_ id: ItemID) { opened.append(id) }
    @Sendable func canMove(_ id: ItemID) -> Bool { id != 5 }
    var selection = SelectionState<ItemID>(mode: .multiple)
    selection.beginEditing()  // Edit
    switch selection.tap(row) {  // a tap in edit mode
    case .selected, .deselected: redraw(row)
    case .navigate(let id): open(id)  // normal mode
    default: break
    }
    selection.selectAll(in: rows)  // O(1)
    try selection.extend(to: other, in: rows)  // Shift-click: a range from the anchor
    rows = try RowSnapshot(visible: urgent, hidden: others)  // a filter hid some rows
    selection.reconcile(with: rows, policy: .keepHidden)
    let toolbar = selection.toolbar(for: [.move { canMove($0) }, .delete(), .rename()], in: rows)
    let targets = try selection.topmostSelectedIDs(in: rows, parent: { parent[$0] })
    selection.endEditing()  // Done: nothing selected
    #expect(redrawn == [2] && opened.isEmpty)
    #expect(toolbar.isShown && targets == [1, 3])
    #expect(selection.isEmpty)
  }

  @Test func tapOutcomes() throws {
    var selection = SelectionState<ItemID>(mode: .multiple)
    let row = 1
    var shown: [ItemID] = []
    var redraws = 0
    func showDetail(_ id: ItemID) { shown.append(id) }
    func redrawCheckmarks() { redraws += 1 }
    switch selection.tap(row) {
    case .navigate(let id): showDetail(id)
    case .selected, .deselected, .replaced, .extended: redrawCheckmarks()
    case .ignored: break
    }
    #expect(shown == [1] && redraws == 0)
  }

  @Test func rangeExtension() throws {
    var selection = SelectionState<String>(mode: .multiple)
    let rows = try RowSnapshot(visible: ["a", "b", "c", "d", "e"])
    selection.beginEditing()
    selection.tap("b")  // anchor b
    try selection.extend(to: "e", in: rows)  // b c d e selected
    try selection.extend(to: "c", in: rows)  // b c selected, d e deselected again
    #expect(selection.selectedIDs(in: rows) == ["b", "c"])
  }

  @Test func reconcileAfterAFilter() throws {
    var selection = SelectionState<ItemID>(mode: .multiple)
    var rows = try RowSnapshot(visible: [1, 2, 3, 4])
    let urgent = [1, 2]
    let others = [3, 4]
    selection.beginEditing()
    selection.selectAll(in: rows)
    rows = try RowSnapshot(visible: urgent, hidden: others)  // a filter hid some rows
    let report = selection.reconcile(with: rows, policy: .keepHidden)
    let label = "\(selection.count) selected"  // counts visible rows only
    #expect(label == "2 selected")
    #expect(report.removedGone == 0 && selection.storedCount == 0)
  }

  @Test func rowStatus() throws {
    let rows = try RowSnapshot(visible: ["a", "b", "c"], hidden: ["d"])
    rows.status(of: "d")  // .hidden
    #expect(rows.status(of: "d") == .hidden && rows.status(of: "z") == .gone)
  }

  @Test func selectedAncestorWins() throws {
    let parents = ["b": "a", "c": "b"]
    // a ─ b ─ c,  d
    try SelectionState<String>.topmost(of: ["c", "a", "d"], parent: { parents[$0] })  // ["a", "d"]
    #expect(
      try SelectionState<String>.topmost(of: ["c", "a", "d"], parent: { parents[$0] }) == [
        "a", "d",
      ])
  }

  @Test func errorsAreOneSentence() throws {
    var selection = SelectionState<Int>(mode: .multiple)
    let rows = try RowSnapshot(visible: [1, 2, 3])
    selection.beginEditing()
    selection.tap(1)
    var printed = ""
    func print(_ value: Any) { printed = "\(value)" }
    do {
      try selection.extend(to: 42, in: rows)
    } catch {
      print(error)  // cannot extend the selection to row 42: it is not among the visible rows
    }
    #expect(printed == "cannot extend the selection to row 42: it is not among the visible rows")
  }

  @Test func toolbarFromActions() throws {
    struct Store {
      func canMove(_ id: ItemID, to collection: String) -> Bool { id != 2 }
    }
    let store = Store()
    let groceries = "Groceries"
    var selection = SelectionState<ItemID>(mode: .multiple)
    let rows = try RowSnapshot(visible: [1, 2, 3])
    selection.beginEditing()
    selection.tap(2)
    let actions: [BulkAction<ItemID>] = [
      .move(title: "Move to Groceries") { id in store.canMove(id, to: groceries) },
      .delete(), .export(), .rename(), .addToCollection(),
    ]
    let toolbar = selection.toolbar(for: actions, in: rows)
    #expect(toolbar.items.map(\.title).first == "Move to Groceries")
    #expect(toolbar.items.first?.availability.isEnabled == false)
  }

  @Test func guideWalkThrough() throws {
    var selection = SelectionState<String>(mode: .multiple)
    let rows = try RowSnapshot(visible: ["milk", "eggs", "bread", "tea"])

    selection.tap("milk")  // .navigate("milk"): normal mode opens the row
    selection.beginEditing()  // Edit
    selection.tap("milk")  // .selected("milk")
    try selection.extend(to: "bread", in: rows)  // milk eggs bread
    selection.selectAll(in: rows)  // all four, stored as "all except {}"
    selection.tap("eggs")  // .deselected: stored as "all except {eggs}"
    selection.count  // 3

    let actions: [BulkAction<String>] = [
      .move { $0 != "tea" }, .delete(), .export(), .rename(), .addToCollection(),
    ]
    selection.toolbar(for: actions, in: rows).enabledIDs
    // ["delete", "export", "add-to-collection"]: rename needs exactly one row, tea cannot move

    let filtered = try RowSnapshot(visible: ["milk", "tea"], hidden: ["eggs", "bread"])
    selection.reconcile(with: filtered, policy: .keepHidden)
    selection.count  // 2: bread is kept selected but hidden, not counted

    selection.endEditing()  // Done: nothing selected
    #expect(selection.isEmpty)
  }
}
