import Gestures
import OrderingCore
import Testing

@testable import Offload

/// A trip itinerary: three days (roots) with games, travel segments and custom items.
private struct Itinerary {
  static let days: [String: Int] = ["day1": 1, "day2": 2, "day3": 3]
  static let games: Set<String> = ["game1", "game3"]
  static let travel: [String: ClosedRange<Int>] = ["travel1": 1...2, "travel2": 2...3]
  static let children: [(String, [String])] = [
    ("day1", ["game1", "travel1", "custom1"]),
    ("day2", ["custom2", "travel2"]),
    ("day3", ["game3", "custom3"]),
  ]

  static let policy = PlacementPolicy<String>(
    name: "itinerary",
    fixedReason: "day headers and games stay where they are",
    isFixed: { days[$0] != nil || games.contains($0) },
    placementReason:
      "items go on a day (inside a travel segment's valid range), never on a header's level",
    accepts: { node, parent, depth in
      guard depth == 1, let day = parent.flatMap({ days[$0] }) else { return false }
      return travel[node].map { $0.contains(day) } ?? true
    })

  static func forest() -> OrderedForest<String> {
    var records: [OrderedForest<String>.Record] = []
    for (index, (day, items)) in children.enumerated() {
      records.append(.init(id: day, parent: nil, order: .position(index)))
      for (position, item) in items.enumerated() {
        records.append(.init(id: item, parent: day, order: .position(position)))
      }
    }
    return OrderedForest.build(from: records, constraints: .init(rules: policy.forestRules)).forest
  }

  /// The visible rows, 44 points tall, every row offering to take children so the policy
  /// (not the geometry) decides.
  static func rows(_ forest: OrderedForest<String>) -> [DropRow<String>] {
    forest.flattened().enumerated().map { index, row in
      DropRow(
        id: row.id, minY: Double(index) * 44, height: 44, depth: row.depth,
        isExpanded: row.childCount > 0, acceptsChildren: true)
    }
  }
}

/// The forest destination a drop instruction stands for.
private func destination(
  _ instruction: DropInstruction<String>, in forest: OrderedForest<String>, moving: String
) -> OrderedForest<String>.Destination {
  switch instruction.move {
  case .before(let id): return .before(id)
  case .after(let id): return .after(id)
  case .firstChild(let id): return .firstChild(of: id)
  case .lastChild(let id): return .lastChild(of: id)
  case .rootIndex(let index):
    let roots = forest.roots.filter { $0 != moving }.count
    return .root(at: min(index, roots))
  }
}

@Suite("PlacementPolicy: one rule value for drags, keyboard moves and the forest")
struct PlacementPolicyTests {
  @Test func pointerDropsAgreeWithTheForestEverywhere() {
    let forest = Itinerary.forest()
    let rows = Itinerary.rows(forest)
    var checked = 0
    var blocked = 0
    for dragged in forest.flattened().map(\.id) {
      var y = 0.0
      while y < Double(rows.count) * 44 {
        for x in stride(from: 0.0, through: 96, by: 12) {
          let resolution = DropTargetResolver.resolve(
            pointer: TouchPoint(x: x, y: y), rows: rows, dragged: [dragged],
            rules: Itinerary.policy, configuration: DropConfiguration())
          guard let target = resolution.target else { continue }
          let place = destination(target.instruction, in: forest, moving: dragged)
          let verdict = forest.resolve([dragged], to: place)
          let forestRefuses: Bool
          if case .failure = verdict { forestRefuses = true } else { forestRefuses = false }
          if DropTargetResolver.canLift([dragged], rules: Itinerary.policy) != nil {
            #expect(forestRefuses, "\(dragged) is fixed, yet the forest would move it to \(place)")
          } else {
            #expect(
              target.isBlocked == forestRefuses,
              "\(dragged) at (\(x), \(y)): drop \(target), forest \(verdict)")
          }
          checked += 1
          if target.isBlocked { blocked += 1 }
        }
        y += 4
      }
    }
    // Not vacuous: thousands of pointer positions, both verdicts seen.
    #expect(checked > 1_000)
    #expect(blocked > 100 && blocked < checked)
  }

  @Test func keyboardMovesAgreeWithTheForest() {
    let forest = Itinerary.forest()
    let rows = Itinerary.rows(forest)
    var compared = 0
    for dragged in forest.flattened().map(\.id) {
      for move in [KeyboardMove.up, .down, .indent, .outdent] {
        let target = DropTargetResolver.keyboardMove(
          move, of: dragged, in: rows, rules: Itinerary.policy)
        if case .blocked(let refusal, _) = target, refusal == .edge { continue }
        let place = destination(target.instruction, in: forest, moving: dragged)
        let forestRefuses: Bool
        if case .failure = forest.resolve([dragged], to: place) {
          forestRefuses = true
        } else {
          forestRefuses = false
        }
        #expect(target.isBlocked == forestRefuses, "\(move) of \(dragged): \(target)")
        compared += 1
      }
    }
    #expect(compared > 10)
  }

  @Test func theSeedsRulesHold() throws {
    var forest = Itinerary.forest()
    // Headers and games cannot be dragged.
    #expect(throws: OrderedForest<String>.Refusal.self) {
      try forest.move("day1", to: .after("day3"))
    }
    #expect(throws: OrderedForest<String>.Refusal.self) {
      try forest.move("game1", to: .after("custom1"))
    }
    // A travel segment only lands on days inside its range.
    _ = try forest.move("travel1", to: .lastChild(of: "day2"))
    do {
      _ = try forest.move("travel1", to: .lastChild(of: "day3"))
      Issue.record("travel1 landed on day 3")
    } catch {
      #expect(error.description.contains("inside a travel segment's valid range"))
    }
    // A custom item goes on any day at any position, never on a header's level.
    _ = try forest.move("custom1", to: .firstChild(of: "day3"))
    #expect(throws: OrderedForest<String>.Refusal.self) {
      try forest.move("custom1", to: .after("day1"))
    }
    #expect(throws: OrderedForest<String>.Refusal.self) {
      try forest.move("custom1", to: .lastChild(of: "custom2"))
    }
    #expect(
      Itinerary.policy.canDrag("game3")?.reason == "day headers and games stay where they are")
  }
}
