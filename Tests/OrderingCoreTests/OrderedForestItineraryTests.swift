import OffloadTestSupport
import Testing

@testable import OrderingCore

/// A trip itinerary as an acceptance test of the rule type: day headers and games are
/// not draggable, a travel segment may only land on days inside its valid range, and a
/// custom item may go on any day at any position, but not directly on a header (in the
/// forest: not at the headers' own level, and not inside another item). One set of rule
/// values drives pointer drops (`resolve` while hovering, `move` on drop), keyboard
/// indent and outdent, selection moves and programmatic inserts.
@Suite("OrderedForest: itinerary rules")
struct OrderedForestItineraryTests {
  enum Kind: Hashable, Sendable {
    case header(day: Int)
    case game
    case travel(days: ClosedRange<Int>)
    case custom
  }

  static let kinds: [String: Kind] = [
    "day1": .header(day: 1), "day2": .header(day: 2), "day3": .header(day: 3),
    "day4": .header(day: 4), "day5": .header(day: 5),
    "game1": .game, "game3": .game, "game5": .game,
    "drive": .travel(days: 2...3),
    "lunch": .custom, "museum": .custom, "hotel": .custom,
  ]

  static var rules: [Forest.Rule] {
    let kinds = Self.kinds
    @Sendable func day(_ id: String?) -> Int? {
      guard let id, case .header(let day) = kinds[id] else { return nil }
      return day
    }
    return [
      .fixed("schedule", reason: "day headers and games follow the schedule") { id in
        switch kinds[id] {
        case .header, .game: true
        default: false
        }
      },
      .parents("items on days", reason: "an item goes on a day, not on a header or in an item") {
        _, parent in day(parent) != nil
      },
      Forest.Rule(
        "travel days", resolution: .clamp,
        allows: { proposal, _ in
          guard case .travel(let days) = kinds[proposal.node] else { return .allow }
          guard let day = day(proposal.parent), days.contains(day) else {
            return .refuse(
              "\(proposal.node) can only go on days \(days.lowerBound)-\(days.upperBound)")
          }
          return .allow
        }),
    ]
  }

  func itinerary() throws -> Forest {
    try outline(
      "day1(game1 lunch) day2(drive) day3(game3 museum) day4 day5(game5 hotel)",
      constraints: .init(rules: Self.rules))
  }

  @Test func customItemsGoOnAnyDayAtAnyPosition() throws {
    var forest = try itinerary()
    try forest.move("lunch", to: .before("game3"))
    #expect(
      render(forest) == "day1(game1) day2(drive) day3(lunch game3 museum) day4 day5(game5 hotel)")
    try forest.move("lunch", to: .lastChild(of: "day4"))
    try forest.move("museum", to: .firstChild(of: "day1"))
    try forest.move("hotel", to: .after("drive"))
    #expect(
      render(forest) == "day1(museum game1) day2(drive hotel) day3(game3) day4(lunch) day5(game5)")
  }

  @Test func headersAndGamesAreNotDraggable() throws {
    let forest = try itinerary()
    for id in ["day1", "day4", "game3"] {
      let refusal = try #require(forest.resolve(id, to: .root(at: 0)).failure)
      #expect(
        refusal.reason
          == .notMovable(
            node: id, rule: "schedule", reason: "day headers and games follow the schedule"))
    }
    var copy = forest
    #expect(throws: Forest.Refusal.self) { try copy.indent("game3") }
    #expect(throws: Forest.Refusal.self) {
      try copy.move(["lunch", "game1"], to: .lastChild(of: "day4"))
    }
    #expect(copy == forest)
  }

  @Test func customItemsNeverLandDirectlyOnAHeader() throws {
    var forest = try itinerary()
    let reason = Forest.Refusal.Reason.ruleRefused(
      node: "lunch", rule: "items on days",
      reason: "an item goes on a day, not on a header or in an item")
    // Pointer: hovering between two headers shows the refusal, and the drop is refused.
    #expect(forest.resolve("lunch", to: .before("day3")).failure?.reason == reason)
    #expect(throws: Forest.Refusal.self) { try forest.move("lunch", to: .after("day4")) }
    // Pointer: dropping onto a game would nest the item inside it.
    #expect(forest.resolve("lunch", to: .lastChild(of: "game3")).failure != nil)
    // Keyboard: indent would put lunch inside game1; outdent would put it at the headers' level.
    do {
      try forest.indent("lunch")
      Issue.record("indented an item into a game")
    } catch {
      #expect(
        error.description
          == "cannot indent lunch: lunch may not go there (rule \"items on days\": an item goes on a day, not on a header or in an item)"
      )
    }
    do {
      try forest.outdent("lunch")
      Issue.record("outdented an item onto the headers' level")
    } catch {
      #expect(error.reason == reason)
    }
    // Programmatic: a new item cannot be inserted between headers either.
    #expect(throws: Forest.Refusal.self) { try forest.insert("dinner", at: .root(at: 2)) }
    try forest.insert("dinner", at: .lastChild(of: "day4"))
    #expect(
      render(forest)
        == "day1(game1 lunch) day2(drive) day3(game3 museum) day4(dinner) day5(game5 hotel)")
  }

  @Test func travelStaysInsideItsDaysAndClampsToTheNearestOne() throws {
    var forest = try itinerary()
    // Inside its range: moves as asked.
    try forest.move("drive", to: .after("museum"))
    #expect(
      render(forest) == "day1(game1 lunch) day2 day3(game3 museum drive) day4 day5(game5 hotel)")
    // Dropped on day 5 (outside 2-3): the nearest allowed place is the end of day 3.
    let hover = try forest.resolve("drive", to: .before("hotel")).get()
    #expect(hover.clampedBy == "travel days")
    #expect(hover.parent == "day3")
    #expect(hover.index == 2)
    #expect(hover.changesNothing)
    // Dropped on day 1: the nearest allowed place is the start of day 2.
    let changes = try forest.move("drive", to: .after("game1"))
    #expect(
      render(forest) == "day1(game1 lunch) day2(drive) day3(game3 museum) day4 day5(game5 hotel)")
    #expect(changes.changes.map(\.new?.parent) == ["day2"])
    // With nowhere allowed nearby, the refusal names the clamping rule.
    var narrow = forest
    narrow.constraints.clampSearchLimit = 1
    #expect(
      narrow.resolve("drive", to: .lastChild(of: "day5")).failure?.reason
        == .noAllowedPlace(
          node: "drive", rule: "travel days", reason: "drive can only go on days 2-3"))
  }

  @Test func aSelectionClampsToAPlaceEveryMemberAccepts() throws {
    var forest = try itinerary()
    // lunch may go anywhere, drive only on days 2-3: together they stop at the end of day 3.
    try forest.move(["hotel", "drive"], to: .lastChild(of: "day5"))
    #expect(
      render(forest) == "day1(game1 lunch) day2 day3(game3 museum drive hotel) day4 day5(game5)")
  }

  @Test func theDepthLimitKeepsTheItineraryTwoLevelsDeep() throws {
    let forest = try itinerary()
    // A day is depth 0 and its items depth 1: a depth limit says the same without rules.
    var bare = forest
    bare.constraints = .init(maximumDepth: 1)
    #expect(
      bare.resolve("lunch", to: .lastChild(of: "game1")).failure?.reason
        == .tooDeep(node: "lunch", depth: 2, limit: 1))
  }
}
