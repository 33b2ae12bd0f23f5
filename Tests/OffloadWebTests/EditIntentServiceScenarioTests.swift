import Foundation
import OffloadTestSupport
import Testing

@testable import Offload
@testable import OffloadWeb

/// Text and role edits and moves to another collection through the organize service: the
/// editor's refusals, word for word as the command line prints them, and nothing changed.
@Suite("Organize service: text, role and cross-collection edits refused with the editor's reason")
struct EditIntentServiceScenarioTests {
  @Test func refusalsMatchAndChangeNothing() async throws {
    let folder = try TemporaryDirectory(prefix: "offload-edit-intents")
    defer { folder.remove() }
    let workspace = Workspace(root: folder.appending("store"))
    let service = OrganizeService(workspace: workspace)
    let (trip, ids) = try ItineraryServiceScenarioTests.seed(workspace)
    let groceries = try workspace.createCollection(named: SeedItinerary.groceries, kind: .list)
      .id.rawValue
    let milk = try workspace.addItem(to: groceries, text: SeedItinerary.milk).id.rawValue
    let tripView = try await service.collection(trip)
    let listView = try await service.collection(groceries)
    func command(_ action: OrganizeCommand.Items.Action, in view: OrganizeShapes.Collection)
      -> OrganizeCommand.Items
    {
      OrganizeCommand.Items(collection: view.id, version: view.version, action: action)
    }
    let edit = command(.edit(id: ids["Museum"] ?? "", text: "   "), in: tripView)
    #expect(
      await ItineraryServiceScenarioTests.refusal { _ = try await service.changeItems(edit) }
        == SeedItinerary.emptyTextReason)
    for (id, word) in [(SeedItinerary.travel, "segment:3"), ("Museum", "day")] {
      let json =
        #"{"collection":"\#(trip)","version":"\#(tripView.version)","id":"\#(ids[id] ?? "")","role":"\#(word)"}"#
      let role = try JSONDecoder().decode(OrganizeRoleCommand.self, from: Data(json.utf8))
      #expect(
        await ItineraryServiceScenarioTests.refusal { _ = try await service.setRole(role) }
          == SeedItinerary.placementReason,
        "\(id) \(word)")
    }
    let gameOut = command(
      .moveTo(.ids([ids[SeedItinerary.game] ?? ""]), target: groceries), in: tripView)
    #expect(
      await ItineraryServiceScenarioTests.refusal { _ = try await service.changeItems(gameOut) }
        == SeedItinerary.fixedReason)
    let milkIn = command(.moveTo(.ids([milk]), target: trip), in: listView)
    #expect(
      await ItineraryServiceScenarioTests.refusal { _ = try await service.changeItems(milkIn) }
        == SeedItinerary.placementReason)
    #expect(try await service.collection(trip) == tripView)
    #expect(try await service.collection(groceries) == listView)
    // The rows carry the roles the rules read, in the words of --role.
    let roles = Dictionary(uniqueKeysWithValues: tripView.rows.map { ($0.text, $0.role) })
    #expect(roles["Boston"] == "day" && roles[SeedItinerary.game] == "fixed")
    #expect(roles[SeedItinerary.travel] == "segment:1-2" && roles["Museum"] == .some(nil))
  }

  @Test("a view's version ignores the items' order in the file and sees every field")
  func versionIsOrderFree() throws {
    let folder = try TemporaryDirectory(prefix: "offload-version")
    defer { folder.remove() }
    let workspace = Workspace(root: folder.appending("store"))
    let (trip, _) = try ItineraryServiceScenarioTests.seed(workspace)
    let collection = try workspace.tree(of: trip).collection
    let version = OrganizeService.version(of: collection)
    var random = SplitMix64(seed: 27)
    for round in 0..<20 {
      var shuffled = collection
      shuffled.items.shuffle(using: &random)
      #expect(OrganizeService.version(of: shuffled) == version, "round \(round)")
      let index = Int(random.next() % UInt64(shuffled.items.count))
      var changed = shuffled
      switch round % 4 {
      case 0: changed.items[index].text += "!"
      case 1: changed.items[index].done.toggle()
      case 2: changed.items[index].role = changed.items[index].role == nil ? .free : nil
      default: changed.name += "!"
      }
      #expect(OrganizeService.version(of: changed) != version, "round \(round)")
    }
  }
}
