import OffloadTestSupport
import Testing

@testable import Selection

/// The reference: the list as plain arrays, the selection as a plain set of selected rows.
private struct Model {
  var order: [Int] = []
  var hidden: Set<Int> = []
  var nextID = 0
  var selected: Set<Int> = []
  var disabled: Set<Int> = []
  var anchor: Int?
  var rangeEnd: Int?
  var editing = false
  var mode = SelectionMode.multiple
  var style = EditStyle.multiSelect
  var disallowsEmpty = false

  var allowsSelection: Bool { editing && style == .multiSelect && mode != .none }
  var visibleSelected: [Int] { order.filter { selected.contains($0) } }
  var exists: Set<Int> { hidden.union(order) }

  func rows() throws -> RowSnapshot<Int> {
    try RowSnapshot(visible: order, hidden: hidden.sorted())
  }

  mutating func clear() {
    selected = []
    anchor = nil
    rangeEnd = nil
  }

  mutating func select(_ id: Int) {
    guard allowsSelection, !disabled.contains(id) else { return }
    if mode == .single {
      replace(id)
      return
    }
    selected.insert(id)
    anchor = id
    rangeEnd = id
  }

  mutating func replace(_ id: Int) {
    if selected.contains(id) {
      if !disallowsEmpty { clear() }
      return
    }
    clear()
    selected = [id]
    anchor = id
    rangeEnd = id
  }

  mutating func tap(_ id: Int) {
    guard allowsSelection, !disabled.contains(id) else { return }
    if mode == .single {
      replace(id)
    } else if selected.contains(id) {
      if disallowsEmpty && visibleSelected.count <= 1 { return }
      selected.remove(id)
    } else {
      select(id)
    }
  }

  mutating func extend(_ target: Int) {
    guard allowsSelection else { return }
    if mode == .single {
      tap(target)
      return
    }
    guard let anchor, order.contains(anchor) else {
      select(target)
      return
    }
    let a = order.firstIndex(of: anchor)!
    let t = order.firstIndex(of: target)!
    let e = rangeEnd.flatMap { order.firstIndex(of: $0) }
    let saved = selected
    if let e {
      for index in min(a, e)...max(a, e) where !disabled.contains(order[index]) {
        selected.remove(order[index])
      }
    }
    for index in min(a, t)...max(a, t) where !disabled.contains(order[index]) {
      selected.insert(order[index])
    }
    if disallowsEmpty && visibleSelected.isEmpty {
      selected = saved
      return
    }
    rangeEnd = target
  }

  mutating func reconcile(_ policy: ReconcilePolicy) {
    let exists = exists
    selected.formIntersection(exists)
    disabled.formIntersection(exists)
    if policy == .drop { selected.subtract(hidden) }
    for end in [anchor, rangeEnd] where end.map({ !order.contains($0) }) ?? false {
      anchor = nil
      rangeEnd = nil
    }
  }
}

/// Reads the stored sets of a state, for invariant checks.
private func stored(_ state: SelectionState<Int>) -> Set<Int> {
  state.members.union(state.hiddenMembers).union(state.disabled).union(state.hiddenDisabled)
    .union([state.anchor, state.rangeEnd].compactMap { $0 })
}

@Suite("SelectionState: random operations against a plain-set model")
struct SelectionPropertyTests {
  @Test(arguments: 0..<32)
  func agreesWithModel(run: Int) throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(0x5E1E_C7) &+ UInt64(run))
    var model = Model()
    model.disallowsEmpty = run % 4 == 3
    model.mode = run % 6 == 5 ? .single : .multiple
    var state = SelectionState<Int>(
      mode: model.mode, disallowsEmptySelection: model.disallowsEmpty)
    let initial = 1 + rng.index(below: 60)
    model.order = Array(0..<initial)
    model.nextID = initial
    var deselectionsSinceSelectAll = 0
    var operations = 0

    for step in 0..<1000 {
      var rows = try model.rows()
      let choice = rng.index(below: 100)
      let visible = model.order
      let someVisible = visible.isEmpty ? nil : visible[rng.index(below: visible.count)]
      switch choice {
      case 0..<30:
        guard let id = someVisible else { break }
        if state.isSelected(id) && state.isStoredAsAllExcept { deselectionsSinceSelectAll += 1 }
        state.tap(id)
        model.tap(id)
      case 30..<36:
        // Toggling twice is the identity on what is selected (in single mode the first
        // toggle replaces the selected row, by design).
        guard let id = someVisible, model.mode != .single else { break }
        let before = state
        state.toggle(id)
        state.toggle(id)
        model.tap(id)
        model.tap(id)
        // With disallowed empty selection, an empty start is the exception: the second toggle
        // may not take the only selected row away again.
        if model.disallowsEmpty && before.isEmpty { break }
        #expect(state.kind == before.kind, "\(rng)")
        #expect(state.members == before.members, "\(rng) step \(step)")
        #expect(state.hiddenMembers == before.hiddenMembers, "\(rng)")
      case 36..<44:
        guard let id = someVisible else { break }
        try state.extend(to: id, in: rows)
        model.extend(id)
      case 44..<48:
        if state.selectAll(in: rows) {
          model.clear()
          model.selected = Set(visible).subtracting(model.disabled)
          deselectionsSinceSelectAll = 0
        }
      case 48..<50:
        if state.deselectAll() { model.clear() }
      case 50..<54:
        let editing = !model.editing
        state.setEditing(editing)
        model.editing = editing
        model.clear()
      case 54..<56:
        let newMode = SelectionMode.allCases[rng.index(below: 3)]
        state.setMode(newMode)
        model.mode = newMode
        switch newMode {
        case .none: model.clear()
        case .single:
          if model.selected.count > 1 {
            let keep = model.anchor.flatMap { model.selected.contains($0) ? $0 : nil }
            model.clear()
            if let keep {
              model.selected = [keep]
              model.anchor = keep
            }
          }
        case .multiple: break
        }
      case 56..<57:
        let style = EditStyle.allCases[rng.index(below: 2)]
        state.setEditStyle(style)
        model.style = style
        if style == .deleteAndReorder { model.clear() }
      case 57..<60:
        let all = model.exists.sorted()
        let newDisabled = all.filter { _ in rng.chance(0.1) }
        state.setDisabled(newDisabled, in: rows)
        model.disabled = Set(newDisabled)
        model.selected.subtract(model.disabled)
        if let anchor = model.anchor, model.disabled.contains(anchor) { model.anchor = nil }
      default:
        // A data change, then a reconcile.
        var inserted: [Int] = []
        switch rng.index(below: 5) {
        case 0:  // delete visible rows
          model.order.removeAll { _ in rng.chance(0.15) }
        case 1:  // filter some rows out
          let moving = model.order.filter { _ in rng.chance(0.2) }
          model.order.removeAll { moving.contains($0) }
          model.hidden.formUnion(moving)
        case 2:  // show hidden rows again at random places
          for id in model.hidden.sorted() where rng.chance(0.5) {
            model.hidden.remove(id)
            model.order.insert(id, at: rng.index(below: model.order.count + 1))
          }
        case 3:  // move rows
          model.order.shuffle(using: &rng)
        default:  // insert rows, delete hidden rows
          for _ in 0..<rng.index(below: 5) {
            model.order.insert(model.nextID, at: rng.index(below: model.order.count + 1))
            inserted.append(model.nextID)
            model.nextID += 1
          }
          model.hidden = Set(model.hidden.sorted().filter { _ in rng.chance(0.7) })
        }
        rows = try model.rows()
        let policy: ReconcilePolicy = rng.chance(0.5) ? .drop : .keepHidden
        state.reconcile(with: rows, policy: policy, inserted: inserted)
        model.reconcile(policy)
        // Reconcile never leaves an id that no longer exists.
        #expect(stored(state).isSubset(of: model.exists), "\(rng) step \(step)")
      }
      operations += 1

      let materialized = state.selectedIDs(in: rows)
      #expect(state.count == materialized.count, "\(rng) step \(step)")
      #expect(materialized == model.visibleSelected, "\(rng) step \(step) choice \(choice)")
      #expect(state.anchor == model.anchor, "\(rng) step \(step) choice \(choice)")
      for id in model.hidden.sorted() {
        #expect(state.isSelected(id) == model.selected.contains(id), "\(rng) step \(step)")
      }
      if state.isStoredAsAllExcept {
        // Compact: the exceptions are never more than the rows that are not selected.
        let unselected = model.exists.count - model.selected.count
        #expect(state.storedCount <= unselected, "\(rng) step \(step)")
        #expect(state.members.count <= deselectionsSinceSelectAll + model.order.count, "\(rng)")
      }
    }
    // 32 runs × 1,000 = 32,000 random operations, every one checked against the model.
    #expect(operations == 1000)
  }

}
