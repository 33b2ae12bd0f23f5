import Foundation
import OffloadTestSupport
import Testing

/// Text and role edits, moves to another collection and removal by id through the built
/// `offloadctl`: the editor's refusals, word for word, and nothing changed by them.
@Suite(
  "offloadctl: text, role and cross-collection edits refused with the editor's reason",
  .timeLimit(.minutes(5)))
struct EditIntentScenarioTests {
  @Test func refusalsMatchAndChangeNothing() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    let ids = try ItineraryScenarioTests.seed(fixture)
    try fixture.ok("collection", "create", SeedItinerary.groceries)
    try fixture.ok("item", "add", SeedItinerary.groceries, SeedItinerary.milk)
    let milk = try fixture.id(of: SeedItinerary.milk, in: SeedItinerary.groceries)
    let game = ids[SeedItinerary.game] ?? "", travel = ids[SeedItinerary.travel] ?? ""
    let museum = ids["Museum"] ?? ""
    let before = fixture.files()
    for (arguments, reason) in [
      (["item", "edit", museum, "   "], SeedItinerary.emptyTextReason),
      (["item", "edit", travel, "--role", "segment:3"], SeedItinerary.placementReason),
      (["item", "edit", museum, "--role", "day"], SeedItinerary.placementReason),
      (["item", "move", game, "--to", SeedItinerary.groceries], SeedItinerary.fixedReason),
      (["item", "move", milk, "--to", "Trip"], SeedItinerary.placementReason),
    ] {
      let result = try fixture.run(arguments)
      #expect(result.status != 0, "\(arguments)")
      #expect(result.stderr == "offloadctl: error: \(reason)\n", "\(arguments)")
    }
    #expect(fixture.files() == before)
    // The same intents where the rules allow them.
    try fixture.ok("item", "move", milk, "--to", "Trip", "--into", ids["New York"] ?? "")
    try fixture.ok("item", "edit", travel, "--role", "segment:1-3")
    try fixture.ok("item", "edit", museum, "Met", "Museum")
    let removed = try fixture.ok("item", "remove", ids["Philadelphia"] ?? "")
    #expect(removed == "removed 3 items (offloadctl undo brings them back)\n")
    let shown = try fixture.ok("collection", "show", "Trip")
    #expect(shown.contains("Met Museum") && shown.contains(SeedItinerary.milk))
    #expect(!shown.contains("Philadelphia"))
  }
}
