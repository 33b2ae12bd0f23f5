import Foundation
import OffloadTestSupport
import TerminalUI
import Testing

@testable import Offload

/// Builds the seed itinerary with stored roles; returns each text's id.
func seedItinerary(_ workspace: Workspace) throws -> [String: ShortID] {
  _ = try workspace.createCollection(named: "Trip", kind: .plan)
  var ids: [String: ShortID] = [:]
  for (day, items) in SeedItinerary.days {
    let header = try workspace.addItem(to: "Trip", text: day, role: .day(nil)).id
    ids[day] = header
    for (text, role) in items {
      ids[text] =
        try workspace.addItem(
          to: "Trip", text: text, at: .lastChild(of: header.rawValue),
          role: try role.map { try PlacementRole(parsing: $0) }
        ).id
    }
  }
  return ids
}

@Suite("Organize screen: the itinerary's roles refuse moves with the editor's reason")
struct ItineraryScreenScenarioTests {
  private func press(_ session: inout OrganizeSession, _ keys: KeyPress...) {
    for key in keys { _ = session.handle(key) }
  }

  @Test func refusalsMatchAndChangeNothing() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    _ = try seedItinerary(workspace)
    let before = try snapshot(workspace)
    let history = try workspace.history(limit: 100).count
    var session = try OrganizeSession(workspace: workspace, collection: "Trip")
    // Row 2 is the game: J moves it down among its siblings.
    press(&session, KeyPress(.down), KeyPress(.character("J")))
    #expect(session.screen.status == "Cannot: \(SeedItinerary.fixedReason)")
    // A bulk move in edit mode: the game and the segment checked, moved down together.
    press(
      &session, KeyPress(.character("e")), KeyPress(.space), KeyPress(.down), KeyPress(.space),
      KeyPress(.character("J")))
    #expect(session.screen.status == "Cannot: \(SeedItinerary.fixedReason)")
    // Tab nests the segment under the game: off the day's level.
    press(&session, KeyPress(.tab))
    #expect(session.screen.status == "Cannot: \(SeedItinerary.placementReason)")
    #expect(try snapshot(workspace) == before)
    #expect(try workspace.history(limit: 100).count == history)
  }
}
