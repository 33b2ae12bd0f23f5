import Foundation
import OffloadTestSupport
import TerminalUI
import Testing

@testable import Offload

/// A rename and moves to another collection on the organize screen: the editor's refusals,
/// word for word as the command line and the pages give them, and nothing changed.
@Suite("Organize screen: renames and cross-collection moves refused with the editor's reason")
struct EditIntentScreenScenarioTests {
  private func press(_ session: inout OrganizeSession, _ keys: KeyPress...) {
    for key in keys { _ = session.handle(key) }
  }

  private func type(_ session: inout OrganizeSession, _ text: String) {
    for character in text {
      _ = session.handle(character == " " ? KeyPress(.space) : KeyPress(.character(character)))
    }
  }

  @Test func refusalsMatchAndChangeNothing() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    _ = try seedItinerary(workspace)
    _ = try workspace.createCollection(named: SeedItinerary.groceries, kind: .list)
    try workspace.addItem(to: SeedItinerary.groceries, text: SeedItinerary.milk)
    let before = try snapshot(workspace)
    let history = try workspace.history(limit: 100).count
    var session = try OrganizeSession(workspace: workspace, collection: "Trip")
    // Row 2 is the game: checked, moved to the list.
    press(&session, KeyPress(.down), KeyPress(.character("e")), KeyPress(.space))
    press(&session, KeyPress(.character("m")))
    type(&session, SeedItinerary.groceries)
    press(&session, KeyPress(.enter))
    #expect(session.screen.status == "Cannot: \(SeedItinerary.fixedReason)")
    // Row 6 is the museum: renamed to blanks, the prompt stays open with the reason.
    press(&session, KeyPress(.space))
    for _ in 0..<4 { press(&session, KeyPress(.down)) }
    press(&session, KeyPress(.space), KeyPress(.character("r")))
    for _ in "Museum" { press(&session, KeyPress(.backspace)) }
    type(&session, "   ")
    press(&session, KeyPress(.enter))
    #expect(session.screen.status == "Cannot: \(SeedItinerary.emptyTextReason)")
    #expect(session.screen.prompt != nil)
    press(&session, KeyPress(.escape))
    // The list's row moved into the itinerary: not beside a day header.
    var list = try OrganizeSession(workspace: workspace, collection: SeedItinerary.groceries)
    press(&list, KeyPress(.character("e")), KeyPress(.space), KeyPress(.character("m")))
    type(&list, "Trip")
    press(&list, KeyPress(.enter))
    #expect(list.screen.status == "Cannot: \(SeedItinerary.placementReason)")
    #expect(try snapshot(workspace) == before)
    #expect(try workspace.history(limit: 100).count == history)
  }
}
