import Foundation
import OffloadTestSupport
import Testing

/// `offloadctl item deleted` and `item restore`, run as a user runs them.
@Suite("offloadctl item deleted and restore: end to end", .timeLimit(.minutes(5)))
struct TrashCommandTests {
  /// A plan Trip: Pack > Socks > Wool; Tent. Returns the ids.
  static func trip(_ fixture: StoreFixture) throws -> (pack: String, socks: String, tent: String) {
    try fixture.ok("collection", "create", "Trip", "--kind", "plan")
    try fixture.ok("item", "add", "Trip", "Pack")
    try fixture.ok("item", "add", "Trip", "Tent")
    let pack = try fixture.id(of: "Pack", in: "Trip")
    try fixture.ok("item", "add", "Trip", "Socks", "--parent", pack)
    let socks = try fixture.id(of: "Socks", in: "Trip")
    try fixture.ok("item", "add", "Trip", "Wool", "--parent", socks)
    try fixture.ok("item", "done", socks)
    return (pack, socks, try fixture.id(of: "Tent", in: "Trip"))
  }

  @Test("list, restore, undo: the exact lines and exit codes")
  func listAndRestore() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    let (pack, socks, tent) = try Self.trip(fixture)
    let shown = try fixture.ok("collection", "show", "Trip")
    #expect(try fixture.ok("item", "deleted") == "Nothing removed to restore.\n")
    try fixture.ok("item", "remove", socks)
    #expect(
      try fixture.ok("item", "deleted")
        == "\(socks)  Socks (+1 nested)  from \"Trip\"  removed 2027-01-15T08:00:00Z\n")
    let json = try fixture.ok("item", "deleted", "--in", "Trip", "--json")
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let first = try #require((document["deleted"] as? [[String: Any]])?.first)
    #expect(first["id"] as? String == socks)
    #expect(first["nested"] as? Int == 1)
    #expect((first["collection"] as? [String: Any])?["name"] as? String == "Trip")
    #expect(first["removed"] as? String == "2027-01-15T08:00:00Z")
    #expect(try fixture.ok("item", "deleted", "--in", "Inbox") == "Nothing removed to restore.\n")
    #expect(
      try fixture.ok("item", "restore", String(socks.prefix(4)))
        == "restored \(socks) Socks (+1 nested) to \"Trip\" under \(pack), where it stood\n")
    #expect(try fixture.ok("collection", "show", "Trip") == shown)
    #expect(try fixture.ok("undo") == "undid: restore \(socks)\n")
    // An id that is not removed, and one that names nothing: one line, exit 66, nothing written.
    let files = fixture.files()
    let live = try fixture.run("item", "restore", tent)
    #expect(live.status == 66)
    #expect(live.stdout.isEmpty)
    #expect(live.stderr == "offloadctl: error: item \(tent) is not removed: it is in the store\n")
    let unknown = try fixture.run("item", "restore", "zzz", "--json")
    #expect(unknown.status == 66)
    #expect(unknown.stderr.contains("no removed item has an id starting with \"zzz\""))
    let none = try fixture.run("item", "restore")
    #expect(none.status == 64)
    #expect(fixture.files() == files)
    // The parent removed too: the child goes to the end, as its line says.
    try fixture.ok("item", "remove", pack)
    #expect(
      try fixture.ok("item", "restore", socks)
        == "restored \(socks) Socks (+1 nested) to \"Trip\", at the end: its parent is gone\n")
    let restored = try fixture.ok("item", "restore", pack, "--json")
    let shape = try #require(
      try JSONSerialization.jsonObject(with: Data(restored.utf8)) as? [String: Any])
    let entry = try #require((shape["restored"] as? [[String: Any]])?.first)
    #expect(entry["id"] as? String == pack)
    #expect(entry["place"] as? String == "formerPlace")
    #expect(entry["parent"] == nil)
  }

  @Test("an item of a deleted collection goes to the inbox")
  func deletedCollection() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    try fixture.ok("collection", "create", "Shop")
    try fixture.ok("item", "add", "Shop", "Bread")
    let bread = try fixture.id(of: "Bread", in: "Shop")
    try fixture.ok("item", "remove", bread)
    try fixture.ok("collection", "delete", "Shop")
    let listed = try fixture.ok("item", "deleted", "--in", "Shop")
    #expect(listed.hasPrefix("\(bread)  Bread"))
    #expect(listed.contains("from \"Shop\" (deleted)"))
    let restored = try fixture.ok("item", "restore", bread)
    #expect(restored.hasSuffix(" to \"Inbox\", at the end: its collection is gone\n"))
    #expect(try fixture.ok("item", "deleted") == "Nothing removed to restore.\n")
  }

  @Test("the guide's example replays on a fresh store")
  func guideExample() throws {
    let section = try ConsoleExamples.section(
      try ConsoleExamples.text("Docs/Guides/Workspace.md"),
      heading: "Removed items: list and restore")
    let blocks = ConsoleExamples.consoleBlocks(section)
    #expect(blocks.count == 1)
    let steps = try blocks.flatMap(ConsoleExamples.steps)
    #expect(steps.count == 11)
    try ConsoleExamples.replay(steps, from: "Docs/Guides/Workspace.md")
  }

  @Test("help", arguments: [["item", "deleted"], ["item", "restore"]])
  func help(_ path: [String]) throws {
    let result = try BuiltProduct.run(
      "offloadctl", path + ["--help"], environment: ["COLUMNS": "100"])
    #expect(result.status == 0)
    expectSnapshot(result.stdout, named: "help-\(path.joined(separator: "-")).txt")
  }
}
