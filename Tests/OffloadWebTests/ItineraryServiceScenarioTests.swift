import Foundation
import Gestures
import OffloadTestSupport
import Testing

@testable import Offload
@testable import OffloadWeb

/// The seed itinerary through the organize service in process: a keyboard move and a drop
/// refused with the editor's one-line reason, nothing changed.
@Suite("Organize service: the itinerary's roles refuse moves with the editor's reason")
struct ItineraryServiceScenarioTests {
  /// Builds the seed itinerary with stored roles in `workspace`; returns the plan's id and
  /// each text's id.
  static func seed(_ workspace: Workspace) throws -> (trip: String, ids: [String: String]) {
    let trip = try workspace.createCollection(named: "Trip", kind: .plan).id.rawValue
    var ids: [String: String] = [:]
    for (day, items) in SeedItinerary.days {
      let header = try workspace.addItem(to: "Trip", text: day, role: .day(nil)).id.rawValue
      ids[day] = header
      for (text, role) in items {
        ids[text] =
          try workspace.addItem(
            to: "Trip", text: text, at: .lastChild(of: header),
            role: try role.map { try PlacementRole(parsing: $0) }
          ).id.rawValue
      }
    }
    return (trip, ids)
  }

  /// What `body` throws, as its one line, or nil when it does not throw.
  static func refusal(_ body: () async throws -> Void) async -> String? {
    do {
      try await body()
      return nil
    } catch {
      return "\(error)"
    }
  }

  @Test func refusalsMatchAndChangeNothing() async throws {
    let folder = try TemporaryDirectory(prefix: "offload-itinerary")
    defer { folder.remove() }
    let workspace = Workspace(root: folder.appending("store"))
    let service = OrganizeService(workspace: workspace)
    let (trip, ids) = try Self.seed(workspace)
    let before = try await service.collection(trip)
    // A keyboard move of the game, down among its siblings.
    let move = OrganizeCommand.Items(
      collection: trip, version: before.version,
      action: .move(id: ids[SeedItinerary.game] ?? "", .down, collapsed: []))
    #expect(
      await Self.refusal { _ = try await service.changeItems(move) } == SeedItinerary.fixedReason)
    // A drop of the game onto another day, and of the segment onto day 3.
    let (tree, rules, version) = try await service.load(trip)
    let rows = tree.editor.dropRows()
    for (text, onto, reason) in [
      (SeedItinerary.game, "Museum", SeedItinerary.fixedReason),
      (SeedItinerary.travel, "Cheesesteak", SeedItinerary.placementReason),
    ] {
      let dragged = try #require(ids[text].flatMap(ShortID.init))
      let index = try #require(rows.firstIndex { $0.id.rawValue == ids[onto] })
      let target = try #require(
        DropTargetResolver.resolve(
          pointer: TouchPoint(x: 0.5, y: rows[index].minY + 0.9), rows: rows, dragged: [dragged],
          rules: rules.policy, configuration: rules.dropConfiguration
        ).target)
      let refused = await Self.refusal {
        try await service.drop(target, moving: dragged.rawValue, in: trip, version: version)
      }
      #expect(refused == reason, "\(text): \(target)")
    }
    #expect(try await service.collection(trip) == before)
  }
}
