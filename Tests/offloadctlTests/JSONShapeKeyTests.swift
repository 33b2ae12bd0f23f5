import Foundation
import Testing

/// The `--json` documents of items and collections carry the model's own keys (an item's as
/// the store writes them, a collection's as the index lists it) beside the listing's: these
/// tests pin the key sets, so a change to the model's coding shows up here as a change to the
/// command line's output.
@Suite("offloadctl --json: the keys of an item and of a collection", .timeLimit(.minutes(5)))
struct JSONShapeKeyTests {
  /// The top-level object of a JSON document.
  func object(_ text: String) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  @Test func itemKeysAreTheStoredOnesBesideTheirPlace() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    let file = fixture.folder.appending("trip.md")
    try Data("- Day one\n  - Museum\n    Bring the ticket.\n".utf8)
      .write(to: URL(fileURLWithPath: file))
    _ = try fixture.ok("collection", "import", "Trip", file)
    let museum = try fixture.id(of: "Museum", in: "Trip")
    _ = try fixture.ok("item", "edit", museum, "--role", "fixed")

    let shown = try object(fixture.ok("collection", "show", "Trip", "--json"))
    let items = try #require(shown["items"] as? [[String: Any]])
    try #require(items.count == 2)
    #expect(
      Set(items[0].keys) == ["created", "depth", "done", "id", "number", "order", "text"])
    #expect(
      Set(items[1].keys) == [
        "created", "depth", "done", "id", "note", "number", "order", "parent", "role", "text",
      ])
    #expect(items[1]["parent"] as? String == items[0]["id"] as? String)
    #expect(items[1]["role"] as? String == "fixed")
    #expect(items[1]["note"] as? String == "Bring the ticket.")
    #expect(items[1]["number"] as? String == "1.1")
    #expect(items[1]["depth"] as? Int == 1)
    #expect(items[1]["created"] as? String == "2027-01-15T08:00:00Z")
    let collection = try #require(shown["collection"] as? [String: Any])
    #expect(Set(collection.keys) == ["created", "id", "itemCount", "kind", "name"])

    let captured = try object(fixture.ok("capture", "call", "the", "plumber", "--json"))
    #expect(
      Set(captured.keys) == [
        "collection", "created", "done", "id", "order", "schemaVersion", "text",
      ])
    #expect(captured["collection"] as? String == "Inbox")

    let listed = try object(fixture.ok("collection", "list", "--json"))
    let entries = try #require(listed["collections"] as? [[String: Any]])
    #expect(entries.map { $0["name"] as? String } == ["Inbox", "Trip"])
    for entry in entries {
      #expect(Set(entry.keys) == ["created", "id", "itemCount", "kind", "name"])
    }
    #expect(entries.map { $0["itemCount"] as? Int } == [1, 2])
    #expect(entries.map { $0["kind"] as? String } == ["list", "plan"])
  }
}
