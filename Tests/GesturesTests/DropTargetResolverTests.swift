import Gestures
import OffloadTestSupport
import Testing

/// A trip itinerary: day headers, games, travel segments and custom items.
enum ItineraryItem: Hashable, Sendable {
  case day(Int)
  case game
  case travel(ClosedRange<Int>)
  case custom
}

/// The itinerary's rules: headers and games stay put; travel only on days in its range; custom
/// items on any day at any position, but never directly on a header (at the header level).
struct ItineraryRules: DropRules {
  var items: [String: ItineraryItem]

  func canDrag(_ id: String) -> DropRefusal? {
    switch items[id] {
    case .day?: DropRefusal(code: "header", reason: "day headers cannot be moved")
    case .game?: DropRefusal(code: "game", reason: "games are fixed to their day")
    default: nil
    }
  }

  func canPlace(_ dragged: [String], under parent: String?, depth: Int) -> DropRefusal? {
    guard let parent else {
      return DropRefusal(code: "onHeader", reason: "items go inside a day, not on a header")
    }
    guard case .day(let day)? = items[parent] else {
      return DropRefusal(code: "notADay", reason: "items cannot go inside other items")
    }
    for id in dragged {
      if case .travel(let range)? = items[id], !range.contains(day) {
        return DropRefusal(
          code: "outsideRange",
          reason: "this travel segment fits days \(range.lowerBound)–\(range.upperBound) only")
      }
    }
    return nil
  }
}

let itinerary: [(String, ItineraryItem, Int)] = [
  ("day1", .day(1), 0), ("game1", .game, 1), ("travelA", .travel(1...2), 1),
  ("custom1", .custom, 1), ("day2", .day(2), 0), ("custom2", .custom, 1), ("day3", .day(3), 0),
  ("game3", .game, 1),
]

let itineraryRows: [DropRow<String>] = itinerary.enumerated().map { index, entry in
  let isDay: Bool = if case .day = entry.1 { true } else { false }
  return DropRow(
    id: entry.0, minY: Double(index) * 44, height: 44, depth: entry.2, isExpanded: isDay,
    acceptsChildren: isDay)
}

let itineraryRules = ItineraryRules(
  items: Dictionary(uniqueKeysWithValues: itinerary.map { ($0.0, $0.1) }))

/// An insertion line as `[y, x, depth]`, to compare with the place a test expects.
func place(_ line: InsertionLine?) -> [Double]? { line.map { [$0.y, $0.x, Double($0.depth)] } }

let listConfiguration = DropConfiguration(
  originX: 16, indentationWidth: 24, hysteresis: 4, viewportMinY: 0, viewportMaxY: 800)

func drop(_ dragged: String, at x: Double, _ y: Double, previous: DropInstruction<String>? = nil)
  -> DropResolution<String>
{
  DropTargetResolver.resolve(
    pointer: TouchPoint(x: x, y: y), rows: itineraryRows, dragged: [dragged],
    rules: itineraryRules, configuration: listConfiguration, previous: previous)
}

@Suite("Itinerary drop rules")
struct ItineraryAcceptanceTests {
  @Test func headersAndGamesCannotBeDragged() {
    #expect(DropTargetResolver.canLift(["day1"], rules: itineraryRules)?.code == "header")
    #expect(
      DropTargetResolver.canLift(["custom1", "game3"], rules: itineraryRules)?.code == "game")
    #expect(DropTargetResolver.canLift(["custom1", "travelA"], rules: itineraryRules) == nil)
    #expect(
      DropTargetResolver.keyboardMove(.down, of: "game1", in: itineraryRows, rules: itineraryRules)
        == .blocked(
          DropRefusal(code: "game", reason: "games are fixed to their day"),
          wanted: .insertBelow("travelA")))
  }

  @Test func travelLandsOnADayInsideItsRange() {
    let resolution = drop("travelA", at: 50, 225)  // top half of custom2, in day 2
    #expect(resolution.target == .allowed(.insertAbove("custom2")))
    #expect(resolution.target?.instruction.move == .before("custom2"))
    #expect(place(resolution.line) == [220, 40, 1])
    #expect(!resolution.showsInvalidTint)
    #expect(resolution.hapticOnRelease == .drop && resolution.motionOnRelease == nil)
  }

  @Test func travelOutsideItsRangeIsBlockedWithTheWantedMove() {
    let resolution = drop("travelA", at: 50, 285)  // middle of day 3
    guard case .blocked(let refusal, let wanted)? = resolution.target else {
      Issue.record("expected a blocked target, got \(String(describing: resolution.target))")
      return
    }
    #expect(refusal.code == "outsideRange")
    #expect(refusal.reason == "this travel segment fits days 1–2 only")
    #expect(wanted == .makeChild(of: "day3", first: true))
    #expect(wanted.move == .firstChild(of: "day3"))
    #expect(resolution.line == nil && resolution.showsInvalidTint)
    #expect(resolution.hapticOnRelease == .refusedDrop && resolution.motionOnRelease == .snapBack)
  }

  @Test func customItemsGoAnywhereInsideADay() {
    for (y, expected) in [
      (50.0, DropInstruction<String>.insertAbove("game1")),
      (300, .makeChild(of: "day3", first: true)),
      (250, .insertBelow("custom2")), (190, .makeChild(of: "day2", first: true)),
      (340, .insertBelow("game3")),
    ] {
      #expect(drop("custom1", at: 60, y).target == .allowed(expected), "y = \(y)")
    }
  }

  @Test func customItemsNeverLandDirectlyOnAHeader() {
    // The top quarter of a day header means "above the header": the header level.
    let resolution = drop("custom2", at: 60, 266)
    #expect(resolution.target?.isBlocked == true)
    if case .blocked(let refusal, let wanted)? = resolution.target {
      #expect(refusal.code == "onHeader")
      #expect(wanted == .insertAbove("day3"))
    }
    // Dragging left below the last item of a day climbs to the header level: blocked too.
    let climbed = drop("custom2", at: 10, 170)
    #expect(
      climbed.target
        == .blocked(
          DropRefusal(code: "onHeader", reason: "items go inside a day, not on a header"),
          wanted: .reparent(after: "day1", depth: 0)))
  }

  @Test func keyboardMovesFollowTheSameRules() {
    func move(_ m: KeyboardMove, _ id: String) -> DropTarget<String> {
      DropTargetResolver.keyboardMove(m, of: id, in: itineraryRows, rules: itineraryRules)
    }
    #expect(move(.up, "custom2") == .allowed(.makeChild(of: "day1", first: false)))
    #expect(move(.down, "custom1") == .allowed(.makeChild(of: "day2", first: true)))
    #expect(move(.up, "custom1") == .allowed(.insertAbove("travelA")))
    #expect(move(.down, "travelA") == .allowed(.insertBelow("custom1")))
    #expect(move(.indent, "custom1") == .blocked(.edge, wanted: .insertAbove("custom1")))
    #expect(move(.outdent, "custom1").isBlocked)
    #expect(move(.down, "custom2") == .allowed(.makeChild(of: "day3", first: true)))
    // A travel segment valid on day 1 only cannot move down into day 2.
    var rules = itineraryRules
    rules.items["travelA"] = .travel(1...1)
    let target = DropTargetResolver.keyboardMove(
      .up, of: "custom2", in: itineraryRows, rules: rules)
    #expect(target == .allowed(.makeChild(of: "day1", first: false)))
    var rows = itineraryRows
    rows.swapAt(2, 3)  // travelA is now the last item of day 1
    for index in rows.indices { rows[index].minY = Double(index) * 44 }
    let blocked = DropTargetResolver.keyboardMove(.down, of: "travelA", in: rows, rules: rules)
    #expect(
      blocked
        == .blocked(
          DropRefusal(code: "outsideRange", reason: "this travel segment fits days 1–1 only"),
          wanted: .makeChild(of: "day2", first: true)))
    #expect(move(.up, "missing") == .blocked(.edge, wanted: .insertAbove("missing")))
  }
}

@Suite("DropTargetResolver")
struct DropTargetResolverTests {
  // An outline: a (0), a1 (1), a1x (2), a2 (1), b (0).
  let rows: [DropRow<String>] = [
    DropRow(id: "a", minY: 0, height: 40, depth: 0, isExpanded: true, acceptsChildren: true),
    DropRow(id: "a1", minY: 40, height: 40, depth: 1, isExpanded: true, acceptsChildren: true),
    DropRow(id: "a1x", minY: 80, height: 40, depth: 2, acceptsChildren: true),
    DropRow(id: "a2", minY: 120, height: 40, depth: 1, acceptsChildren: true),
    DropRow(id: "b", minY: 160, height: 40, depth: 0, acceptsChildren: true),
  ]

  func resolve(
    _ dragged: [String], _ x: Double, _ y: Double, maximumDepth: Int? = nil,
    previous: DropInstruction<String>? = nil
  ) -> DropResolution<String> {
    var configuration = listConfiguration
    configuration.maximumDepth = maximumDepth
    return DropTargetResolver.resolve(
      pointer: TouchPoint(x: x, y: y), rows: rows, dragged: dragged, rules: OpenDropRules<String>(),
      configuration: configuration, previous: previous)
  }

  @Test func zonesOfARowThatTakesChildren() {
    #expect(resolve(["b"], 100, 125).target == .allowed(.insertAbove("a2")))
    #expect(resolve(["b"], 100, 140).target == .allowed(.makeChild(of: "a2", first: false)))
    #expect(resolve(["b"], 100, 155).target == .allowed(.insertBelow("a2")))
    #expect(place(resolve(["b"], 100, 155).line) == [160, 40, 1])
  }

  @Test func belowAnExpandedParentIsItsFirstChild() {
    let resolution = resolve(["b"], 100, 75)
    #expect(resolution.target == .allowed(.makeChild(of: "a1", first: true)))
    #expect(place(resolution.line) == [80, 64, 2])
  }

  @Test func xChoosesTheLevelBelowTheEndOfASubtree() {
    // Below a1x (depth 2), whose next row a2 is at depth 1: depth 1 or 2 by x.
    #expect(resolve(["b"], 70, 115).target == .allowed(.insertBelow("a1x")))
    #expect(resolve(["b"], 45, 115).target == .allowed(.reparent(after: "a1", depth: 1)))
    #expect(resolve(["b"], 0, 115).target == .allowed(.reparent(after: "a1", depth: 1)))
    // Below the last row: any level down to the root.
    #expect(resolve(["a2"], 0, 199).target == .allowed(.insertBelow("b")))
    let climbed = DropTargetResolver.resolve(
      pointer: TouchPoint(x: 20, y: 155), rows: Array(rows.prefix(4)), dragged: ["x"],
      rules: OpenDropRules<String>(), configuration: listConfiguration)
    #expect(climbed.target == .allowed(.reparent(after: "a", depth: 0)))
    #expect(climbed.target?.instruction.move == .after("a"))
    #expect(place(climbed.line) == [160, 16, 0])
  }

  @Test func aRowCannotGoInsideItself() {
    #expect(
      resolve(["a1"], 100, 100).target
        == .blocked(.cycle, wanted: .makeChild(of: "a1x", first: false)))
    #expect(resolve(["a1"], 100, 60).target == nil)
    #expect(resolve(["a1"], 100, 60).motionOnRelease == .snapBack)
  }

  @Test func aTargetIsItsInstructionAndItsRefusal() {
    let above = DropInstruction<String>.insertAbove("a")
    let allowed = DropTarget<String>.allowed(above)
    let blocked = DropTarget<String>.blocked(.cycle, wanted: above)
    #expect(allowed.refusal == nil && !allowed.isBlocked)
    #expect(blocked.refusal == .cycle && blocked.isBlocked && blocked.instruction == above)
    #expect(allowed != blocked)
    #expect(blocked != .blocked(.edge, wanted: above))
    #expect(blocked != .blocked(.cycle, wanted: .insertBelow("a")))
    #expect(Set([allowed, blocked, .blocked(.cycle, wanted: above), .allowed(above)]).count == 2)
  }

  @Test func maximumDepthCountsTheDraggedSubtree() {
    // a1 carries a1x one level below it: into a2 (depth 2 + 1) exceeds a maximum of 2.
    let blocked = resolve(["a1"], 100, 140, maximumDepth: 2)
    guard case .blocked(let refusal, _)? = blocked.target else {
      Issue.record("expected blocked")
      return
    }
    #expect(refusal.code == "maximumDepth")
    #expect(refusal.reason == "the outline allows 3 levels; this drop would make 4")
    #expect(resolve(["a1"], 100, 165, maximumDepth: 2).target == .allowed(.insertAbove("b")))
  }

  @Test func hysteresisKeepsTheTargetNearABoundary() {
    let above = resolve(["b"], 100, 129)
    #expect(above.target == .allowed(.insertAbove("a2")))
    // Just past the boundary (130), the previous target is kept.
    let kept = resolve(["b"], 100, 132, previous: above.target?.instruction)
    #expect(kept.target == .allowed(.insertAbove("a2")))
    #expect(kept.line?.y == 120)
    let moved = resolve(["b"], 100, 136, previous: above.target?.instruction)
    #expect(moved.target == .allowed(.makeChild(of: "a2", first: false)))
  }

  @Test func edgesAndEmptyLists() {
    #expect(resolve(["b"], 100, -20).target == .allowed(.insertAbove("a")))
    #expect(resolve(["a"], 100, -20).target == nil)
    #expect(resolve(["a"], 100, 400).target == .allowed(.insertBelow("b")))
    let empty = DropTargetResolver.resolve(
      pointer: TouchPoint(x: 0, y: 10), rows: [DropRow<String>](), dragged: ["x"],
      rules: OpenDropRules<String>(), configuration: listConfiguration)
    #expect(empty.target == .allowed(.rootIndex(0)))
    #expect(empty.target?.instruction.move == .rootIndex(0))
  }

  @Test func autoScrollRampsInTheEdgeZones() {
    let c = listConfiguration
    #expect(DropTargetResolver.autoScrollSpeed(y: 400, configuration: c) == 0)
    #expect(DropTargetResolver.autoScrollSpeed(y: 60, configuration: c) == 0)
    #expect(DropTargetResolver.autoScrollSpeed(y: 30, configuration: c) == -300)
    #expect(DropTargetResolver.autoScrollSpeed(y: 0, configuration: c) == -1200)
    #expect(DropTargetResolver.autoScrollSpeed(y: -50, configuration: c) == -1200)
    #expect(DropTargetResolver.autoScrollSpeed(y: 770, configuration: c) == 300)
    #expect(DropTargetResolver.autoScrollSpeed(y: 900, configuration: c) == 1200)
    var speeds: [Double] = []
    for y in stride(from: 740.0, through: 800, by: 5) {
      speeds.append(DropTargetResolver.autoScrollSpeed(y: y, configuration: c))
    }
    #expect(zip(speeds, speeds.dropFirst()).allSatisfy { $0 <= $1 })
    var none = c
    none.autoScrollEdge = 0
    #expect(DropTargetResolver.autoScrollSpeed(y: 0, configuration: none) == 0)
  }

  @Test(arguments: [11, 12])
  func randomOutlinesKeepTheInvariants(seed: UInt64) {
    var rng = SplitMix64(seed: SplitMix64.testSeed(seed))
    for _ in 0..<300 {
      // A random valid outline: each depth at most one more than the previous row's.
      var outline: [DropRow<Int>] = []
      var depth = 0
      for index in 0..<Int.random(in: 1...14, using: &rng) {
        depth = index == 0 ? 0 : Int.random(in: 0...(depth + 1), using: &rng)
        outline.append(
          DropRow(
            id: index, minY: Double(index) * 30, height: 30, depth: depth, isExpanded: true,
            acceptsChildren: rng.chance(0.7)))
      }
      let dragged = [outline[rng.index(below: outline.count)].id]
      let pointer = TouchPoint(
        x: Double.random(in: -20...200, using: &rng),
        y: Double.random(in: -30...(Double(outline.count) * 30 + 30), using: &rng))
      var configuration = listConfiguration
      configuration.maximumDepth = rng.chance(0.5) ? 3 : nil
      let resolution = DropTargetResolver.resolve(
        pointer: pointer, rows: outline, dragged: dragged, rules: OpenDropRules<Int>(),
        configuration: configuration)
      let again = DropTargetResolver.resolve(
        pointer: pointer, rows: outline, dragged: dragged, rules: OpenDropRules<Int>(),
        configuration: configuration)
      #expect(resolution == again, "\(rng)")
      #expect(
        (resolution.line != nil) == (resolution.target.map { !$0.isBlocked } ?? false), "\(rng)")
      guard case .allowed(let instruction)? = resolution.target else { continue }
      // An allowed drop never lands inside the dragged subtree.
      let start = outline.firstIndex { $0.id == dragged[0] } ?? 0
      var end = start + 1
      while end < outline.count && outline[end].depth > outline[start].depth { end += 1 }
      let subtree = Set(outline[(start + 1)..<end].map(\.id))
      switch instruction.move {
      case .firstChild(let id), .lastChild(let id):
        #expect(!subtree.contains(id) && id != dragged[0], "\(rng)")
      case .before(let id), .after(let id):
        #expect(!subtree.contains(id), "\(rng)")
      case .rootIndex: break
      }
      if let maximum = configuration.maximumDepth, let line = resolution.line {
        #expect(line.depth <= maximum, "\(rng)")
      }
    }
  }
}
