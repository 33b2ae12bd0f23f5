import Editing
import Gestures
import OffloadTestSupport
import OrderingCore
import Testing

/// The seed itinerary: three days, games, travel segments, free items, with stored roles.
private enum Trip {
  static let plan: [(String, PlacementRole, [(String, PlacementRole?)])] = [
    ("day1", .day(nil), [("game1", .fixed), ("travel1", .segment(1...2)), ("lobster", nil)]),
    ("day2", .day(nil), [("museum", .free)]),
    ("day3", .day(nil), [("game3", .fixed), ("steak", nil)]),
  ]

  static func editor() -> Editor<String> {
    var records: [OrderedForest<String>.Record] = []
    var roles: [String: PlacementRole] = [:]
    for (index, (day, role, items)) in plan.enumerated() {
      records.append(.init(id: day, parent: nil, order: .position(index)))
      roles[day] = role
      for (position, (item, role)) in items.enumerated() {
        records.append(.init(id: item, parent: day, order: .position(position)))
        roles[item] = role
      }
    }
    let forest = OrderedForest.build(from: records, constraints: .init(keyBudget: 16)).forest
    let rules = PlacementRules.plan(roots: forest.roots, roles: roles, maximumDepth: 3)
    return Editor(forest: forest, rules: rules)
  }
}

@Suite("Editor: one function per intent under the collection's rules")
struct EditorTests {
  static let fixed = PlacementRules<String>.fixedReason
  static let placement = PlacementRules<String>.itineraryReason

  @Test(
    "every refusal of the itinerary has its rule's reason, whatever the intent",
    arguments: [
      ("game1", "move to day 2", fixed),
      ("day2", "move up", fixed),
      ("travel1", "move to day 3", placement),
      ("museum", "outdent", placement),
      ("lobster", "indent", placement),
      ("museum", "move to the top", placement),
    ])
  func refusals(id: String, intent: String, reason: String) throws {
    var editor = Trip.editor()
    let before = editor.forest.flattened()
    let refusal: EditRefusal? = { () -> EditRefusal? in
      do throws(EditRefusal) {
        switch intent {
        case "move to day 2": _ = try editor.move([id], to: .lastChild(of: "day2"))
        case "move to day 3": _ = try editor.move([id], to: .lastChild(of: "day3"))
        case "move up": _ = try editor.step(.up, id)
        case "outdent": _ = try editor.outdent([id])
        case "indent": _ = try editor.indent([id])
        default: _ = try editor.move([id], to: .root(at: 0))
        }
        return nil
      } catch {
        return error
      }
    }()
    #expect(refusal?.reason == reason, "\(id) \(intent)")
    #expect(editor.forest.flattened() == before)
  }

  @Test("a blocked drop, a keyboard move and a command move agree on the travel segment")
  func surfacesAgree() throws {
    var editor = Trip.editor()
    let rows = editor.dropRows()
    let day3 = try #require(rows.firstIndex { $0.id == "game3" })
    let target = DropTargetResolver.resolve(
      pointer: TouchPoint(x: 60, y: rows[day3].minY + 0.5), rows: rows, dragged: ["travel1"],
      rules: editor.rules.policy, configuration: editor.rules.dropConfiguration
    ).target
    var reasons: Set<String> = []
    if let target {
      do { _ = try editor.drop(["travel1"], on: target) } catch { reasons.insert(error.reason) }
    }
    do { _ = try editor.move(["travel1"], to: .after("game3")) } catch {
      reasons.insert(error.reason)
    }
    #expect(reasons == [Self.placement])
    // Inside its range it moves.
    let change = try editor.move(["travel1"], to: .lastChild(of: "day2"))
    #expect(change.intent == .move && change.placements.map(\.id) == ["travel1"])
    #expect(editor.forest.parent(of: "travel1") == "day2")
  }

  @Test("a new day header goes among the roots; a new segment only on its days")
  func adds() throws {
    var editor = Trip.editor()
    _ = try editor.add("day4", role: .day(nil), at: .lastRoot)
    #expect(editor.rules.days["day4"] == 4)
    #expect(throws: EditRefusal.self) {
      try editor.add("late", role: .segment(1...1), at: .lastChild(of: "day3"))
    }
    _ = try editor.add("early", role: .segment(1...1), at: .lastChild(of: "day1"))
    #expect(throws: EditRefusal.self) { try editor.add("loose", at: .lastRoot) }
  }

  @Test("seeded: every allowed change keeps the rules, and its inverse restores the forest")
  func seededInvariants() throws {
    var random = SplitMix64(seed: SplitMix64.testSeed(27))
    for _ in 0..<300 {
      var editor = Trip.editor()
      let ids = editor.forest.flattened().map(\.id)
      let start = editor.forest.flattened()
      var changes: [EditChange<String>] = []
      for _ in 0..<6 {
        let id = ids[random.index(below: ids.count)]
        let other = ids[random.index(below: ids.count)]
        let destinations: [OrderedForest<String>.Destination] = [
          .before(other), .after(other), .firstChild(of: other), .lastChild(of: other),
          .root(at: 0),
        ]
        let destination = destinations[random.index(below: destinations.count)]
        let step = [KeyboardMove.up, .down, .indent, .outdent][random.index(below: 4)]
        let change =
          random.chance(0.5)
          ? try? editor.move([id], to: destination) : try? editor.step(step, id)
        guard let change else { continue }
        changes.append(change)
        // The rules hold: days are roots in order, everything else sits on a day in range.
        for row in editor.forest.flattened() {
          let role = editor.rules.roles[row.id]
          if case .day = role {
            #expect(row.depth == 0)
          } else {
            #expect(row.depth == 1)
            let day = row.parent.flatMap { editor.rules.days[$0] }
            if case .segment(let range) = role { #expect(day.map(range.contains) == true) }
          }
        }
        #expect(editor.forest.parent(of: "game1") == "day1")
        #expect(EditChange(intent: .move, try #require(change.changeSet)) == change)
      }
      for change in changes.reversed() { _ = try editor.undo(change) }
      #expect(editor.forest.flattened() == start, "\(random)")
    }
  }

  @Test("roles read their words and refuse others with one line naming the word")
  func roleWords() throws {
    for (word, role) in [
      ("day", PlacementRole.day(nil)), ("DAY:3", .day(3)), ("fixed", .fixed), ("free", .free),
      ("segment:1-3", .segment(1...3)), ("segment:2", .segment(2...2)),
    ] {
      #expect(try PlacementRole(parsing: word) == role)
      #expect(try PlacementRole(parsing: role.description) == role)
    }
    for (word, message) in [
      ("daily", "\"daily\" is not a role: use day, day:N, fixed, segment:N-M or free"),
      ("day:0", "\"day:0\": a day's number is a whole number from 1, as in day:3"),
      ("segment", "\"segment\" needs its days, as in segment:1-3"),
      (
        "segment:3-1",
        "\"segment:3-1\": a segment names its days as segment:N or segment:N-M with 1 ≤ N ≤ M"
      ),
    ] {
      #expect(throws: PlacementRoleError(message)) { try PlacementRole(parsing: word) }
    }
  }

  @Test("the text convention reads days, games and travel ranges")
  func convention() {
    #expect(RoleConvention.role(of: "Day 2 New York", isRoot: true) == .day(2))
    #expect(RoleConvention.role(of: "Day 2 New York", isRoot: false) == nil)
    #expect(RoleConvention.role(of: "Game: Mets", isRoot: false) == .fixed)
    #expect(RoleConvention.role(of: "Travel (days 2-3): train", isRoot: false) == .segment(2...3))
    #expect(RoleConvention.travelRange("Travel (days 3-2): train") == nil)
    #expect(RoleConvention.dayNumber("Day 12: Rome") == 12)
    #expect(RoleConvention.dayNumber("Daytrip") == nil)
  }

  @Test("a change and its inverse are plain values that round-trip through a coder's shape")
  func changeValues() throws {
    var editor = Trip.editor()
    let change = try editor.move(["museum"], to: .lastChild(of: "day1"))
    #expect(change.inverse.inverse.placements == change.placements)
    #expect(change.inverse.intent == .undo)
    let marked = editor.mark(["museum", "steak"], done: true, current: { $0 == "steak" })
    #expect(marked.fields.map(\.id) == ["museum"])
    #expect(editor.edit("museum", "text", from: "a", to: "a").isEmpty)
    #expect(editor.remove(["day2", "day2"]).placements.map(\.id) == ["day2"])
  }
}

@Suite("Editing: the documentation's examples")
struct EditingDocExampleTests {
  @Test func placementRulesExample() {
    let rules = PlacementRules<String>.plan(
      roots: ["d1", "d2"], roles: ["d1": .day(nil), "d2": .day(nil), "t": .segment(1...1)],
      maximumDepth: 3)
    #expect(
      rules.policy.canPlace(["t"], under: "d2", depth: 1)?.reason
        == "items go on a day (a travel segment only on a day of its range), never beside a day header"
    )
    #expect(rules.policy.canPlace(["t"], under: "d1", depth: 1) == nil)
  }

  @Test func roleExample() throws {
    let role = try PlacementRole(parsing: "segment:2-3")
    #expect(role == .segment(2...3) && role.description == "segment:2-3")
    #expect(RoleConvention.role(of: "Day 2 New York", isRoot: true) == .day(2))
    #expect(RoleConvention.role(of: "Travel (days 1-2): drive", isRoot: false) == .segment(1...2))
  }
}
