// Runs each view model through what a person does in the app and checks the result; any
// wrong result prints what differs and exits with status 1.

import Gestures
import OrderingCore
import Selection

var failures: [String] = []

/// Prints one check; a mismatch counts as a failure.
@MainActor
func check<T: Equatable>(_ what: String, _ actual: T, _ expected: T) {
  if actual == expected {
    print("ok    \(what): \(actual)")
  } else {
    failures.append("\(what): got \(actual), expected \(expected)")
    print("FAIL  \(failures.last ?? "")")
  }
}

// A flat list, loaded from rows stored out of order (two share a key), then reordered as
// SwiftUI's onMove asks.
do {
  let list = try ReorderableListModel(stored: [
    StoredRow(id: "eggs", title: "Eggs", key: "a1"),
    StoredRow(id: "milk", title: "Milk", key: "a0"),
    StoredRow(id: "bread", title: "Bread", key: "a2"),
    StoredRow(id: "apples", title: "Apples", key: "a2"),
    StoredRow(id: "tea", title: "Tea", key: "a4"),
  ])
  check("list loaded", list.visibleTitles, ["Milk", "Eggs", "Apples", "Bread", "Tea"])
  check("rows re-keyed on load (a shared key)", list.writes.map(\.id), ["bread"])
  var written = try list.move(fromOffsets: [0], toOffset: 3)  // Milk before Bread
  check("after moving Milk down", list.visibleTitles, ["Eggs", "Apples", "Milk", "Bread", "Tea"])
  check("rows written for one move", written, 1)
  written = try list.move(fromOffsets: [3, 4], toOffset: 0)  // Bread and Tea to the top
  check("after moving two rows up", list.visibleTitles, ["Bread", "Tea", "Eggs", "Apples", "Milk"])
  check("rows written for a two-row move", written, 2)
  written = try list.move(fromOffsets: [1], toOffset: 2)  // Tea onto its own place
  check("rows written for a move in place", written, 0)
  written = try list.move(fromOffsets: [0, 2], toOffset: 5)  // Bread and Eggs to the end
  check(
    "after moving two rows to the end", list.visibleTitles,
    ["Tea", "Apples", "Milk", "Bread", "Eggs"])
  check("rows written for a move to the end", written, 2)
  written = try list.moveToTop("milk")
  check("after Move to Top", list.visibleTitles, ["Milk", "Tea", "Apples", "Bread", "Eggs"])
  check("rows written for Move to Top", written, 1)
  let keys = list.order.rows.map(\.key)
  check("keys strictly increase", zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 }, true)
} catch {
  check("list operations throw nothing", "\(error)", "")
}

// A plan: a row cannot go inside what is nested under it; the refusal is the alert.
do {
  let plan = PlanModel()
  try plan.add("trip")
  try plan.add("pack", under: "trip")
  try plan.add("socks", under: "pack")
  try plan.add("book")
  let before = plan.outline
  check("plan refuses a cycle", plan.move("trip", to: .lastChild(of: "socks")), false)
  check(
    "refusal reason", plan.alert,
    "cannot move trip as the last child of socks: socks is inside trip's subtree, "
      + "and a node cannot go inside its own subtree")
  check("plan unchanged after the refusal", plan.outline, before)
  let writesBefore = plan.writes.count
  check("plan moves a row into another", plan.move("book", to: .firstChild(of: "trip")), true)
  check("plan after the move", plan.outline, ["trip", "  book", "  pack", "    socks"])
  check("rows written for the move", plan.writes.count - writesBefore, 1)
  check("alert cleared", plan.alert, nil)
  try plan.reorder([1], 0, in: "trip")  // pack above book
  check("plan after onMove", plan.outline, ["trip", "  pack", "    socks", "  book"])
  check("rows written for onMove", plan.writes.count - writesBefore, 2)
  do {
    try plan.add("book", under: "pack")
    check("adding a row twice throws", true, false)
  } catch {
    check("a refused add, wrapped", error.refusal(of: String.self)?.reason, .duplicateNode("book"))
  }
} catch {
  check("plan inserts throw nothing", "\(error)", "")
}

// Edit mode on a list of 10,000 rows: select all is one flag, a deselect stores one id.
do {
  let ids = (0..<10_000).map { "row\($0)" }
  let edit = try EditModeModel(ids: ids)
  edit.tap("row7")
  check("a tap in normal mode opens the row", edit.opened, "row7")
  edit.edit()
  edit.tap("row1")
  check("a tap in edit mode checks the row", edit.selection.isSelected("row1"), true)
  check("rename enabled for one row", edit.toolbar.enabledIDs, ["rename", "delete"])
  edit.toggleSelectAll()
  check("select all counts every row", edit.selection.count, 10_000)
  check("select all is stored as all except", edit.selection.isStoredAsAllExcept, true)
  edit.tap("row42")
  check("deselect after select all", edit.selection.count, 9_999)
  check("ids stored after a deselect", edit.selection.storedCount, 1)
  check("rename disabled for many rows", edit.toolbar.enabledIDs, ["delete"])
  edit.done()
  check("Done clears the selection", edit.selection.isEmpty, true)
} catch {
  check("selection throws nothing", "\(error)", "")
}

// Row gestures: a quick swipe deletes, a slow drag never does (nor shows an armed trash
// icon), a row with quick actions rests open on them until a tap or the app closes it, and a
// resting finger lifts the row once the frame clock passes the long-press timeout.
@MainActor
func swipe(_ row: RowGestureModel, to endX: Double, steps: Int, every interval: Double)
  -> (armed: Bool, strongestTrash: Double)
{
  var armed = false
  var strongest = 0.0
  for step in 0...steps {
    let phase: TouchPhase = step == 0 ? .began : step == steps ? .ended : .moved
    let x = 300 + (endX - 300) * Double(step) / Double(steps)
    row.touch(TouchSample(time: 1 + Double(step) * interval, x: x, y: 200, phase: phase))
    if step < steps {
      armed = armed || row.releaseDeletes
      strongest = max(strongest, row.trashOpacity)
    }
  }
  return (armed, strongest)
}

let quick = RowGestureModel()
let quickSwipe = swipe(quick, to: 150, steps: 6, every: 0.016)
check("a quick swipe deletes", quick.requests.filter { !$0.hasPrefix("haptic") }, ["delete"])
check("its trash icon was armed before the release", quickSwipe.armed, true)

let slow = RowGestureModel()
let slowDrag = swipe(slow, to: 90, steps: 60, every: 0.033)
check(
  "a slow 210 pt drag snaps back", slow.requests.filter { !$0.hasPrefix("haptic") },
  [
    "snap back"
  ])
check("its trash icon never armed", slowDrag.armed, false)
check("its trash icon stayed at half strength or less", slowDrag.strongestTrash <= 0.5, true)
check("the row is back in place", slow.offset, 0)

let actions = RowGestureModel(actionsWidth: 160)
_ = swipe(actions, to: 190, steps: 30, every: 0.033)
check("a slow drag past half the actions reveals them", actions.isRevealed, true)
check("the revealed row rests open", actions.offset, -160)
actions.touch(TouchSample(time: 3, x: 100, y: 200, phase: .began))
actions.touch(TouchSample(time: 3.05, x: 100, y: 200, phase: .ended))
check("a tap on the row closes it", actions.requests.last, "close by tap")
check("closed", actions.isRevealed, false)
_ = swipe(actions, to: 190, steps: 30, every: 0.033)
actions.closeActions(at: 5)
check("a touch elsewhere closes it", actions.requests.last, "close by request")

let press = RowGestureModel()
press.touch(TouchSample(time: 0, x: 100, y: 200, phase: .began))
press.tick(at: 0.2)
check("no lift before the timeout", press.isLifted, false)
press.tick(at: 0.6)
check("a resting finger lifts the row", press.isLifted, true)
press.touch(TouchSample(time: 0.7, x: 100, y: 260, phase: .moved))
press.touch(TouchSample(time: 0.8, x: 100, y: 260, phase: .ended))
check("the drop lowers the row", press.isLifted, false)

// Without Foundation there is no `exit(1)`: a trap is the non-zero status, and its message
// (on standard error, which a trap does not lose as it loses buffered output) names each
// failed check.
if !failures.isEmpty {
  fatalError("\(failures.count) checks failed:\n" + failures.joined(separator: "\n"))
}
print("adoption client: all checks passed")
