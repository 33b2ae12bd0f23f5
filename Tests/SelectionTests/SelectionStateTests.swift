import OffloadTestSupport
import Testing

@testable import Selection

/// Rows 0..<n, all visible, without storing them: a list of any size.
private struct RangeRows: SelectionRows {
  var count: Int
  var visibleCount: Int { count }
  var visibleIDs: Range<Int> { 0..<count }
  var hasHiddenRows: Bool { false }
  var hiddenIDs: [Int] { [] }
  func status(of id: Int) -> RowStatus { (0..<count).contains(id) ? .visible : .gone }
}

private func editing(
  _ mode: SelectionMode = .multiple, disallowsEmpty: Bool = false
) -> SelectionState<String> {
  var state = SelectionState<String>(mode: mode, disallowsEmptySelection: disallowsEmpty)
  state.beginEditing()
  return state
}

private let abcdef = try! RowSnapshot(visible: ["a", "b", "c", "d", "e", "f"])

@Suite("SelectionState: taps")
struct SelectionTapTests {
  @Test(arguments: SelectionMode.allCases)
  func normalModeTapNavigates(mode: SelectionMode) {
    var state = SelectionState<String>(mode: mode)
    let result1 = state.tap("a")
    #expect(result1 == .navigate("a"))
    #expect(state.isEmpty)
    #expect(state.accessory(for: "a") == RowAccessory.none)
  }

  @Test func multipleTapToggles() {
    var state = editing()
    let result2 = state.tap("a")
    #expect(result2 == .selected("a"))
    let result3 = state.tap("b")
    #expect(result3 == .selected("b"))
    let result4 = state.tap("a")
    #expect(result4 == .deselected("a"))
    #expect(state.selectedIDs(in: abcdef) == ["b"])
    #expect(state.accessory(for: "b") == .checkmark(isSelected: true))
    #expect(state.accessory(for: "a") == .checkmark(isSelected: false))
  }

  @Test func singleTapReplaces() {
    var state = editing(.single)
    let result5 = state.tap("a")
    #expect(result5 == .replaced("a", previous: nil))
    let result6 = state.tap("c")
    #expect(result6 == .replaced("c", previous: "a"))
    #expect(state.selectedIDs(in: abcdef) == ["c"])
    let result7 = state.tap("c")
    #expect(result7 == .deselected("c"))
    #expect(state.isEmpty)
    let result8 = state.selectAll(in: abcdef)
    #expect(!result8)
  }

  @Test func modeNoneAndDeleteStyleIgnoreTaps() {
    var none = editing(.none)
    let result9 = none.tap("a")
    #expect(result9 == .ignored("a", .selectionNotAllowed))
    #expect(none.accessory(for: "a") == RowAccessory.none)
    var reorder = SelectionState<String>(editStyle: .deleteAndReorder)
    reorder.beginEditing()
    let result10 = reorder.tap("a")
    #expect(result10 == .ignored("a", .styleHasNoSelection))
    #expect(reorder.accessory(for: "a") == .deleteAndReorder)
    let result11 = reorder.selectAll(in: abcdef)
    #expect(!result11)
    let outcome1 = try? reorder.extend(to: "b", in: abcdef)
    #expect(outcome1 == .ignored("b", .styleHasNoSelection))
  }

  @Test func selectOutsideEditModeIsRefused() {
    var state = SelectionState<String>()
    let result12 = state.select("a")
    #expect(result12 == .ignored("a", .notEditing))
    let result13 = state.deselect("a")
    #expect(result13 == .ignored("a", .notEditing))
    let result14 = state.selectAll(in: abcdef)
    #expect(!result14)
    #expect(state.isEmpty)
  }

  @Test func leavingEditModeClearsEvenWhenEmptyIsDisallowed() {
    var state = editing(disallowsEmpty: true)
    state.tap("a")
    state.selectAll(in: abcdef)
    #expect(state.count == 6)
    state.setEditing(false)
    #expect(!state.isEditing)
    #expect(state.isEmpty)
    #expect(state.anchor == nil)
    #expect(state.storedCount == 0)
    state.setEditing(true)
    #expect(state.isEmpty)
  }

  @Test func disallowEmptyRefusesLastDeselection() {
    var state = editing(disallowsEmpty: true)
    state.tap("a")
    let result15 = state.tap("a")
    #expect(result15 == .ignored("a", .wouldEmptySelection))
    let result16 = state.deselectAll()
    #expect(!result16)
    state.tap("b")
    let result17 = state.tap("a")
    #expect(result17 == .deselected("a"))
    #expect(state.selectedIDs(in: abcdef) == ["b"])
    var single = editing(.single, disallowsEmpty: true)
    single.tap("a")
    let result18 = single.tap("a")
    #expect(result18 == .ignored("a", .wouldEmptySelection))
    let result19 = single.tap("b")
    #expect(result19 == .replaced("b", previous: "a"))
  }

  @Test func disabledRowsCannotBeSelected() {
    var state = editing()
    state.tap("b")
    state.setDisabled(["b", "c", "zz"], in: abcdef)
    #expect(!state.isSelected("b"))
    let result20 = state.tap("c")
    #expect(result20 == .ignored("c", .disabled))
    #expect(state.accessory(for: "c") == .unavailable)
    state.selectAll(in: abcdef)
    #expect(state.count == 4)
    #expect(state.selectedIDs(in: abcdef) == ["a", "d", "e", "f"])
    #expect(state.isAllSelected)
    // Enabling a row again after a select-all leaves it unselected.
    state.setDisabled(["c"], in: abcdef)
    #expect(!state.isSelected("b"))
    #expect(state.count == 4)
    #expect(state.selectedIDs(in: abcdef) == ["a", "d", "e", "f"])
    // In normal mode a disabled row still navigates.
    state.endEditing()
    let result21 = state.tap("c")
    #expect(result21 == .navigate("c"))
  }

  @Test func modeChangesKeepWhatFits() {
    var state = editing()
    state.tap("a")
    state.tap("b")
    state.setMode(.single)
    #expect(state.selectedIDs(in: abcdef) == ["b"])
    state.setMode(.multiple)
    state.tap("a")
    state.tap("c")
    state.tap("c")  // deselects: the anchor stays c, which is not selected; a and b are left
    state.setMode(.single)
    #expect(state.isEmpty)
    state.setMode(.multiple)
    state.tap("d")
    state.setMode(.none)
    #expect(state.isEmpty)
    state.setMode(.multiple)
    state.tap("e")
    state.setEditStyle(.deleteAndReorder)
    #expect(state.isEmpty)
  }
}

@Suite("SelectionState: select all and its count")
struct SelectionSelectAllTests {
  @Test(arguments: [0, 1, 1_000, 1_000_000])
  func selectAllIsCompact(count: Int) throws {
    let rows = RangeRows(count: count)
    var state = SelectionState<Int>()
    state.beginEditing()
    let result22 = state.selectAll(in: rows)
    #expect(result22)
    #expect(state.count == count)
    #expect(state.storedCount == 0)
    #expect(state.isAllSelected == true)
    guard count > 0 else { return }
    let picked = Set([0, count / 2, count - 1])
    for id in picked.sorted() { state.tap(id) }
    #expect(state.count == count - picked.count)
    #expect(state.storedCount == picked.count)
    #expect(!state.isAllSelected)
    if count <= 1_000 { #expect(state.selectedIDs(in: rows).count == state.count) }
    state.tap(0)
    #expect(state.storedCount == picked.count - 1)
    #expect(state.count == count - picked.count + 1)
  }

  @Test func selectAllLeavesHiddenRowsOut() throws {
    let rows = try RowSnapshot(visible: ["a", "b"], hidden: ["c"])
    var state = editing()
    state.selectAll(in: rows)
    #expect(state.count == 2)
    #expect(!state.isSelected("c"))
    let shown = try RowSnapshot(visible: ["a", "b", "c"])
    let report = state.reconcile(with: shown, policy: .keepHidden)
    #expect(report.shownAgain == 1)
    #expect(state.selectedIDs(in: shown) == ["a", "b"])
    #expect(state.count == 2)
  }

  @Test func toggleSelectAllFlips() {
    var state = editing()
    let result23 = state.toggleSelectAll(in: abcdef)
    #expect(result23)
    #expect(state.count == 6)
    let result24 = state.toggleSelectAll(in: abcdef)
    #expect(result24)
    #expect(state.isEmpty)
    for id in ["a", "b", "c", "d", "e", "f"] { state.tap(id) }
    #expect(state.isAllSelected)
    let result25 = state.toggleSelectAll(in: abcdef)
    #expect(result25)
    #expect(state.isEmpty)
  }

  @Test func insertedRowsStartUnselected() throws {
    var state = editing()
    state.selectAll(in: abcdef)
    let grown = try RowSnapshot(visible: ["a", "new", "b", "c", "d", "e", "f"])
    state.reconcile(with: grown, policy: .drop, inserted: ["new"])
    #expect(state.count == 6)
    #expect(!state.isSelected("new"))
    // Without naming it, a select-all covers the new row too: documented.
    var other = editing()
    other.selectAll(in: abcdef)
    other.reconcile(with: grown, policy: .drop)
    #expect(other.count == 7)
  }
}

@Suite("SelectionState: range extension")
struct SelectionRangeTests {
  @Test func rubberBand() throws {
    var state = editing()
    state.tap("b")
    let outcome2 = try state.extend(to: "e", in: abcdef)
    #expect(outcome2 == .extended(to: "e", selected: 3, deselected: 0))
    #expect(state.selectedIDs(in: abcdef) == ["b", "c", "d", "e"])
    let outcome3 = try state.extend(to: "c", in: abcdef)
    #expect(outcome3 == .extended(to: "c", selected: 0, deselected: 2))
    #expect(state.selectedIDs(in: abcdef) == ["b", "c"])
    let outcome4 = try state.extend(to: "a", in: abcdef)
    #expect(outcome4 == .extended(to: "a", selected: 1, deselected: 1))
    #expect(state.selectedIDs(in: abcdef) == ["a", "b"])
    #expect(state.anchor == "b")
  }

  @Test func skipsDisabledRowsAndKeepsOtherSelections() throws {
    var state = editing()
    state.tap("f")
    state.tap("b")
    state.setDisabled(["c"], in: abcdef)
    try state.extend(to: "d", in: abcdef)
    #expect(state.selectedIDs(in: abcdef) == ["b", "d", "f"])
  }

  @Test func withoutAnchorSelectsTheRow() throws {
    var state = editing()
    let outcome5 = try state.extend(to: "c", in: abcdef)
    #expect(outcome5 == .extended(to: "c", selected: 1, deselected: 0))
    #expect(state.anchor == "c")
    state.setDisabled(["d"], in: abcdef)
    var fresh = editing()
    fresh.setDisabled(["d"], in: abcdef)
    let outcome6 = try fresh.extend(to: "d", in: abcdef)
    #expect(outcome6 == .ignored("d", .disabled))
  }

  @Test func afterSelectAllEditsTheExceptions() throws {
    var state = editing()
    state.selectAll(in: abcdef)
    state.tap("b")
    state.tap("c")
    state.tap("d")
    state.tap("b")  // anchor b
    try state.extend(to: "d", in: abcdef)
    #expect(state.isStoredAsAllExcept)
    #expect(state.storedCount == 0)
    #expect(state.count == 6)
  }

  @Test func disablingTheAnchorForgetsIt() throws {
    var state = editing(disallowsEmpty: true)
    state.tap("b")
    state.setDisabled(["b", "c"], in: abcdef)
    #expect(state.anchor == nil)
    #expect(state.isEmpty)
    let outcome = try state.extend(to: "c", in: abcdef)
    #expect(outcome == .ignored("c", .disabled))
    let next = try state.extend(to: "e", in: abcdef)
    #expect(next == .extended(to: "e", selected: 1, deselected: 0))
    #expect(state.anchor == "e")
  }

  @Test func singleModeExtensionIsATap() throws {
    var state = editing(.single)
    state.tap("a")
    let outcome8 = try state.extend(to: "d", in: abcdef)
    #expect(outcome8 == .replaced("d", previous: "a"))
  }

  @Test func unknownTargetThrows() {
    var state = editing()
    #expect {
      try state.extend(to: "zz", in: abcdef)
    } throws: { error in
      let error = error as? SelectionError
      return error?.code == .unknownRow && error?.row == "zz"
        && error?.description
          == "cannot extend the selection to row zz: it is not among the visible rows"
    }
  }
}

@Suite("SelectionState: reconcile")
struct SelectionReconcileTests {
  @Test func deletedRowsAreForgotten() throws {
    var state = editing()
    state.tap("a")
    state.tap("c")
    let rows = try RowSnapshot(visible: ["b", "c"])
    let report = state.reconcile(with: rows, policy: .drop)
    #expect(report.removedGone == 1)
    #expect(report.anchorCleared == false)
    #expect(!state.members.contains("a"))
    #expect(state.selectedIDs(in: rows) == ["c"])
  }

  @Test func dropPolicyDeselectsHiddenRows() throws {
    var state = editing()
    state.tap("a")
    state.tap("b")
    let filtered = try RowSnapshot(visible: ["a"], hidden: ["b"])
    let report = state.reconcile(with: filtered, policy: .drop)
    #expect(report.droppedHidden == 1)
    #expect(report.anchorCleared)
    #expect(state.count == 1)
    state.reconcile(with: abcdef, policy: .drop)
    #expect(state.selectedIDs(in: abcdef) == ["a"])
  }

  @Test func keepHiddenPolicyKeepsButDoesNotCount() throws {
    var state = editing()
    state.tap("a")
    state.tap("b")
    let collapsed = try RowSnapshot(visible: ["a"], hidden: ["b"])
    let report = state.reconcile(with: collapsed, policy: .keepHidden)
    #expect(report.keptHidden == 1)
    #expect(state.count == 1)
    #expect(state.isSelected("b"))
    #expect(state.selectedIDs(in: collapsed) == ["a"])
    let expanded = try RowSnapshot(visible: ["b", "a"])
    let result26 = state.reconcile(with: expanded, policy: .keepHidden)
    #expect(result26.shownAgain == 1)
    #expect(state.selectedIDs(in: expanded) == ["b", "a"])
  }

  @Test(arguments: [2, 200])
  func dropAfterSelectAllPicksTheSmallerForm(hiddenCount: Int) throws {
    let visible = ["v1", "v2", "v3"]
    let hidden = (0..<hiddenCount).map { "h\($0)" }
    var state = editing()
    state.selectAll(in: try RowSnapshot(visible: visible + hidden))
    state.tap("v2")
    let filtered = try RowSnapshot(visible: visible, hidden: hidden)
    let report = state.reconcile(with: filtered, policy: .drop)
    #expect(report.droppedHidden == hiddenCount)
    #expect(state.count == 2)
    #expect(state.isStoredAsAllExcept == (hiddenCount <= visible.count))
    #expect(state.storedCount <= max(hiddenCount + 1, visible.count))
    let all = try RowSnapshot(visible: hidden + visible)
    state.reconcile(with: all, policy: .drop)
    #expect(state.selectedIDs(in: all) == ["v1", "v3"])
  }

  @Test func keepHiddenAfterSelectAllKeepsRowsSelected() throws {
    var state = editing()
    state.selectAll(in: abcdef)
    state.tap("a")
    let filtered = try RowSnapshot(visible: ["b", "c"], hidden: ["a", "d", "e", "f"])
    state.reconcile(with: filtered, policy: .keepHidden)
    #expect(state.count == 2)
    #expect(state.isSelected("d"))
    #expect(!state.isSelected("a"))
    state.reconcile(with: abcdef, policy: .keepHidden)
    #expect(state.selectedIDs(in: abcdef) == ["b", "c", "d", "e", "f"])
  }

  @Test func disabledRowsFollowTheData() throws {
    var state = editing()
    state.setDisabled(["a", "b"], in: abcdef)
    let rows = try RowSnapshot(visible: ["b", "c"], hidden: ["d"])
    state.reconcile(with: rows, policy: .drop)
    #expect(state.disabled == ["b"])
    #expect(state.isDisabled("b"))
    #expect(!state.isDisabled("a"))
  }

  @Test func duplicateRowsAreRejected() {
    #expect {
      _ = try RowSnapshot(visible: ["a", "b"], hidden: ["a"])
    } throws: { error in
      let error = error as? SelectionError
      return error?.code == .duplicateRow
        && error?.description == "row a occurs twice in the display order, at positions 0 and 2"
    }
  }
}

@Suite("SelectionState: nested rows")
struct SelectionNormalizationTests {
  // a ─ b ─ c      d ─ e      f
  private let parents: [String: String] = ["b": "a", "c": "b", "e": "d"]

  @Test func selectedAncestorWins() throws {
    let parents = parents
    let parent: (String) -> String? = { parents[$0] }
    #expect(
      try SelectionState.topmost(of: ["c", "a", "e", "f"], parent: parent) == ["a", "e", "f"])
    #expect(try SelectionState.topmost(of: ["c", "b"], parent: parent) == ["b"])
    #expect(try SelectionState.topmost(of: ["c", "e"], parent: parent) == ["c", "e"])
    #expect(try SelectionState.topmost(of: [], parent: parent) == [])
    var state = editing()
    for id in ["a", "c", "d", "e"] { state.tap(id) }
    let rows = try RowSnapshot(visible: ["a", "b", "c", "d", "e", "f"])
    #expect(try state.topmostSelectedIDs(in: rows, parent: parent) == ["a", "d"])
  }

  @Test func cyclesAreReported() {
    let loop: [String: String] = ["x": "y", "y": "z", "z": "y"]
    #expect {
      try SelectionState.topmost(of: ["x"], parent: { loop[$0] })
    } throws: { error in
      let error = error as? SelectionError
      return error?.code == .parentCycle && error?.row == "y"
        && error?.description
          == "the parents of row y form a cycle of 2 rows; repair the hierarchy before a bulk action"
    }
    #expect {
      try SelectionState.topmost(of: ["s"], parent: { $0 == "s" ? "s" : nil })
    } throws: { error in
      (error as? SelectionError)?.description
        == "the parents of row s form a cycle of 1 row; repair the hierarchy before a bulk action"
    }
  }

  @Test func randomForestsAgreeWithBruteForce() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(77))
    for _ in 0..<300 {
      let n = 1 + rng.index(below: 40)
      var parent: [Int: Int] = [:]
      for id in 1..<max(n, 1) where rng.chance(0.8) { parent[id] = rng.index(below: id) }
      let selected = (0..<n).filter { _ in rng.chance(0.3) }.shuffled(using: &rng)
      let expected = selected.filter { id in
        var current = parent[id]
        while let row = current {
          if selected.contains(row) { return false }
          current = parent[row]
        }
        return true
      }
      #expect(
        try SelectionState.topmost(of: selected, parent: { parent[$0] }) == expected, "\(rng)")
    }
  }
}

@Suite("SelectionState: bulk actions and toolbar")
struct SelectionToolbarTests {
  private let actions: [BulkAction<String>] = [
    .move(title: "Move") { $0 != "locked" }, .delete(), .export(), .rename(),
    .addToCollection(),
  ]

  @Test func toolbarFollowsTheSelection() throws {
    let rows = try RowSnapshot(visible: ["a", "b", "locked"])
    var state = SelectionState<String>()
    var toolbar = state.toolbar(for: actions, in: rows)
    #expect(!toolbar.isShown)
    #expect(toolbar.items.allSatisfy { $0.availability == .disabled(reason: "not in edit mode") })
    state.beginEditing()
    toolbar = state.toolbar(for: actions, in: rows)
    #expect(toolbar.isShown)
    #expect(toolbar.enabledIDs == [])
    #expect(toolbar.summary == "Select items")
    #expect(toolbar.items[0].availability == .disabled(reason: "nothing is selected"))
    state.tap("a")
    toolbar = state.toolbar(for: actions, in: rows)
    #expect(toolbar.enabledIDs == ["move", "delete", "export", "rename", "add-to-collection"])
    #expect(toolbar.summary == "1 selected")
    state.tap("b")
    toolbar = state.toolbar(for: actions, in: rows)
    #expect(toolbar.enabledIDs == ["move", "delete", "export", "add-to-collection"])
    #expect(
      toolbar.items[3].availability
        == .disabled(reason: "rename needs exactly one row, 2 selected"))
    state.selectAll(in: rows)
    toolbar = state.toolbar(for: actions, in: rows)
    #expect(toolbar.enabledIDs == ["delete", "export", "add-to-collection"])
    #expect(toolbar.items[0].availability == .disabled(reason: "row locked cannot move there"))
    #expect(toolbar.summary == "3 selected")
  }

  @Test func toolbarInAStyleWithoutSelection() throws {
    var state = SelectionState<String>(editStyle: .deleteAndReorder)
    state.beginEditing()
    let toolbar = state.toolbar(for: actions, in: abcdef)
    #expect(!toolbar.isShown)
    #expect(toolbar.items[1].availability == .disabled(reason: "this list has no selection"))
  }

  @Test func rulesMaterializeOnceAndOnlyWhenTheyReadIds() {
    final class Reads { var count = 0 }
    let reads = Reads()
    let rows = RangeRows(count: 1_000)
    var state = SelectionState<Int>()
    state.beginEditing()
    state.selectAll(in: rows)
    state.tap(500)
    let atMostTen = BulkAction<Int>(id: "small", title: "Small") {
      $0.count <= 10 ? .enabled : .disabled(reason: "too many")
    }
    #expect(state.toolbar(for: [atMostTen], in: rows).enabledIDs == [])
    let rows2 = CountingRows(base: rows, reads: { reads.count += 1 })
    let noEven = BulkAction<Int>.move { $0 % 2 == 1 || $0 == 0 }
    let first = BulkAction<Int>(id: "first", title: "First") {
      $0.ids.first == 0 ? .enabled : .disabled(reason: "no")
    }
    _ = state.toolbar(for: [atMostTen], in: rows2)
    #expect(reads.count == 0)
    let toolbar = state.toolbar(for: [atMostTen, noEven, first], in: rows2)
    #expect(reads.count == 1)
    #expect(toolbar.enabledIDs == ["first"])
    #expect(toolbar.items[1].availability == .disabled(reason: "row 2 cannot move there"))
  }
}

/// Rows that report every enumeration of their visible order.
private struct CountingRows: SelectionRows {
  var base: RangeRows
  var reads: () -> Void
  var visibleCount: Int { base.visibleCount }
  var visibleIDs: Range<Int> {
    reads()
    return base.visibleIDs
  }
  var hasHiddenRows: Bool { false }
  var hiddenIDs: [Int] { [] }
  func status(of id: Int) -> RowStatus { base.status(of: id) }
}

@Suite("SelectionState: the guide's example")
struct SelectionGuideExampleTests {
  @Test func guideExampleHolds() throws {
    var selection = SelectionState<String>(mode: .multiple)
    let rows = try RowSnapshot(visible: ["milk", "eggs", "bread", "tea"])
    let open = selection.tap("milk")
    #expect(open == .navigate("milk"))
    selection.beginEditing()
    let selected = selection.tap("milk")
    #expect(selected == .selected("milk"))
    try selection.extend(to: "bread", in: rows)
    #expect(selection.selectedIDs(in: rows) == ["milk", "eggs", "bread"])
    selection.selectAll(in: rows)
    #expect(selection.storedCount == 0)
    let deselected = selection.tap("eggs")
    #expect(deselected == .deselected("eggs"))
    #expect(selection.count == 3)
    let actions: [BulkAction<String>] = [
      .move { $0 != "tea" }, .delete(), .export(), .rename(), .addToCollection(),
    ]
    #expect(
      selection.toolbar(for: actions, in: rows).enabledIDs
        == ["delete", "export", "add-to-collection"])
    let filtered = try RowSnapshot(visible: ["milk", "tea"], hidden: ["eggs", "bread"])
    selection.reconcile(with: filtered, policy: .keepHidden)
    #expect(selection.count == 2)
    #expect(selection.isSelected("bread"))
    selection.endEditing()
    #expect(selection.isEmpty)
  }
}
