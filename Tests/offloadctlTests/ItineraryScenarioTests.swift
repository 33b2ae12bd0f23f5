import Foundation
import OffloadTestSupport
import Testing

/// The seed itinerary through the built `offloadctl`: roles set with `--role`, the rules they
/// make refusing a single and a bulk move with the editor's one-line reason.
@Suite(
  "offloadctl: the itinerary's roles refuse moves with the editor's reason", .timeLimit(.minutes(5))
)
struct ItineraryScenarioTests {
  /// Builds the seed itinerary; returns each text's id.
  static func seed(_ fixture: StoreFixture) throws -> [String: String] {
    try fixture.ok("collection", "create", "Trip", "--kind", "plan")
    var ids: [String: String] = [:]
    for (day, items) in SeedItinerary.days {
      try fixture.ok("item", "add", "Trip", day, "--role", "day")
      ids[day] = try fixture.id(of: day, in: "Trip")
      for (text, role) in items {
        let result = try fixture.run(
          ["item", "add", "Trip", text, "--parent", ids[day] ?? ""]
            + (role.map { ["--role", $0] } ?? []))
        #expect(result.status == 0, "\(text): \(result)")
        ids[text] = try fixture.id(of: text, in: "Trip")
      }
    }
    return ids
  }

  @Test func refusalsMatchAndChangeNothing() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    let ids = try Self.seed(fixture)
    let game = ids[SeedItinerary.game] ?? "", travel = ids[SeedItinerary.travel] ?? ""
    let before = fixture.files()
    let shown = try fixture.ok("collection", "show", "Trip")
    for (arguments, reason) in [
      (["item", "move", game, "--into", ids["New York"] ?? ""], SeedItinerary.fixedReason),
      (
        ["item", "move", game, ids["Lobster roll"] ?? "", "--into", ids["New York"] ?? ""],
        SeedItinerary.fixedReason
      ),
      (["item", "move", "1.1", "1.3", "--in", "Trip", "--root"], SeedItinerary.fixedReason),
      (
        ["item", "move", travel, "--into", ids["Philadelphia"] ?? ""], SeedItinerary.placementReason
      ),
      (["item", "move", ids["Museum"] ?? "", "--root"], SeedItinerary.placementReason),
      (["item", "indent", ids["Lobster roll"] ?? ""], SeedItinerary.placementReason),
    ] {
      let result = try fixture.run(arguments)
      #expect(result.status != 0, "\(arguments)")
      #expect(result.stderr == "offloadctl: error: \(reason)\n", "\(arguments)")
    }
    #expect(fixture.files() == before)
    #expect(try fixture.ok("collection", "show", "Trip") == shown)
    // Inside its days the segment moves; a role set later changes the rules.
    try fixture.ok("item", "move", travel, "--into", ids["New York"] ?? "")
    try fixture.ok("item", "edit", travel, "--role", "free")
    try fixture.ok("item", "move", travel, "--into", ids["Philadelphia"] ?? "")
    let show = try fixture.ok("collection", "show", "Trip", "--json")
    #expect(show.contains("\"role\" : \"free\"") || show.contains("\"role\":\"free\""))
  }

  @Test func badRoleWordsAreRefusedWithTheWord() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    try fixture.ok("collection", "create", "Trip", "--kind", "plan")
    let bad = try fixture.run("item", "add", "Trip", "Day one", "--role", "weekday")
    #expect(bad.status != 0)
    #expect(
      bad.stderr.contains(
        "--role \"weekday\" is not a role: use day, day:N, fixed, segment:N-M or free"))
  }

  @Test func storesWithoutRolesKeepTheTextConvention() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    try fixture.ok("collection", "create", "Trip", "--kind", "plan")
    try fixture.ok("item", "add", "Trip", "Day 1 Boston")
    try fixture.ok("item", "add", "Trip", "Day 2 New York")
    let day1 = try fixture.id(of: "Day 1 Boston", in: "Trip")
    let day2 = try fixture.id(of: "Day 2 New York", in: "Trip")
    try fixture.ok("item", "add", "Trip", "Game: Red Sox", "--parent", day1)
    let game = try fixture.id(of: "Game: Red Sox", in: "Trip")
    let moved = try fixture.run("item", "move", game, "--into", day2)
    #expect(moved.stderr == "offloadctl: error: \(SeedItinerary.fixedReason)\n")
    // No role was written: the store's items carry none.
    #expect(!(try fixture.ok("collection", "show", "Trip", "--json")).contains("\"role\""))
  }
}
