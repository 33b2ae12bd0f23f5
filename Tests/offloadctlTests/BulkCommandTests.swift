import Foundation
import OffloadTestSupport
import Testing

/// A plan `Trip`: 1 A, 2 B (2.1 B1, 2.2 B2), 3 C, 4 D.
private func makeTrip(_ fixture: StoreFixture) throws -> [String: String] {
  try fixture.ok("collection", "create", "Trip", "--kind", "plan")
  for text in ["A", "B", "C", "D"] { try fixture.ok("item", "add", "Trip", text) }
  var ids: [String: String] = [:]
  ids["B"] = try fixture.id(of: "B", in: "Trip")
  try fixture.ok("item", "add", "Trip", "B1", "--parent", ids["B"] ?? "")
  try fixture.ok("item", "add", "Trip", "B2", "--parent", ids["B"] ?? "")
  for text in ["A", "C", "D", "B1", "B2"] { ids[text] = try fixture.id(of: text, in: "Trip") }
  return ids
}

/// `collection show` without the ids: "number  indent[ ] text" per row.
private func rows(_ fixture: StoreFixture, _ collection: String = "Trip") throws -> [String] {
  try fixture.ok("collection", "show", collection).split(separator: "\n").dropFirst().map {
    String($0.dropFirst(8))
  }
}

@Suite("offloadctl bulk item commands: end to end")
struct BulkCommandTests {
  @Test func bulkDoneRemoveAndOneUndo() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    let ids = try makeTrip(fixture)
    let done = try fixture.ok("item", "done", "1-2.1", "4", "--in", "Trip")
    #expect(
      done
        == "marked 4 items done in \"Trip\": \(ids["A"]!) \(ids["B"]!) \(ids["B1"]!) \(ids["D"]!)\n"
    )
    #expect(try rows(fixture).filter { $0.contains("[x]") }.count == 4)
    let undone = try fixture.ok("item", "undone", "--all", "--in", "trip", "--except", "4")
    #expect(undone.hasPrefix("marked 3 items not done in \"Trip\""))
    #expect(undone.contains("(2 already were)"))
    let before = fixture.files().filter { !$0.key.hasPrefix("history") }
    let removed = try fixture.ok("item", "remove", "2", "2.2", "3", "--in", "Trip")
    #expect(
      removed
        == "removed 4 items from \"Trip\": \(ids["B"]!) \(ids["C"]!) (offloadctl undo brings them back)\n"
    )
    #expect(try rows(fixture) == ["1  [ ] A", "2  [x] D"])
    #expect(try fixture.ok("undo") == "undid: remove 4 items from \"Trip\"\n")
    #expect(try rows(fixture).count == 6)
    #expect(fixture.files().filter { !$0.key.hasPrefix("history") }.keys == before.keys)
  }

  @Test func bulkMoveWithinAndAcrossCollectionsAsJSON() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    let ids = try makeTrip(fixture)
    try fixture.ok("item", "move", "4", "2", "--in", "Trip", "--first")
    #expect(
      try rows(fixture) == [
        "1    [ ] B", "1.1    [ ] B1", "1.2    [ ] B2", "2    [ ] D", "3    [ ] A", "4    [ ] C",
      ])
    try fixture.ok("collection", "create", "Later", "--kind", "plan")
    let json = try fixture.ok(
      "item", "move", "--all", "--in", "Trip", "--except", "3-4", "--to", "Later", "--json")
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(document["action"] as? String == "move")
    #expect(document["affected"] as? Int == 4)
    #expect(document["actedOn"] as? [String] == [ids["B"]!, ids["D"]!])
    #expect(document["collections"] as? [String] == ["Trip"])
    #expect(document["schemaVersion"] as? Int == 1)
    #expect(try rows(fixture, "Later").count == 4)
    #expect(try rows(fixture) == ["1  [ ] A", "2  [ ] C"])
    try fixture.ok("undo")
    #expect(try rows(fixture).count == 6)
    // The single-id form still prints the id.
    #expect(try fixture.ok("item", "move", ids["A"]!, "--first") == "moved \(ids["A"]!)\n")
  }

  @Test func bulkErrorsNameTheProblemAndWriteNothing() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    let ids = try makeTrip(fixture)
    let stray = try fixture.ok("capture", "stray").split(separator: " ")[1].dropLast()
    let before = fixture.files()
    let cases: [([String], Int32, String)] = [
      (["item", "done", "9", "--in", "Trip"], 66, "\"Trip\" has no row 9"),
      (["item", "remove", "4-2", "--in", "Trip"], 64, "the range 4-2 runs backwards"),
      (["item", "done", "2"], 64, "need a collection: add --in COLLECTION"),
      (["item", "remove", "--all"], 64, "--all needs --in COLLECTION"),
      (["item", "remove", "--except", "2"], 64, "name the items or pass --all"),
      (["item", "remove"], 64, "name the items"),
      (["item", "done", "1.x", "--in", "Trip"], 65, "\"1.x\" is neither an item id"),
      (
        ["item", "remove", String(stray), "--in", "Trip"], 64,
        "item \(stray) is in \"Inbox\", not in \"Trip\""
      ),
      (
        ["item", "move", ids["A"]!, String(stray), "--first"], 64,
        "the selection spans several collections (\"Trip\", \"Inbox\")"
      ),
      (
        ["item", "remove", "--all", "--in", "Trip", "--except", "2.1"], 64,
        "cannot remove \(ids["B"]!) without \(ids["B1"]!)"
      ),
      (["item", "move", "1", "--in", "Trip", "--into", ids["A"]!], 1, "cannot move"),
      (["item", "done", "1", "--in", "Nope"], 66, "no collection is named \"Nope\""),
    ]
    for (arguments, status, message) in cases {
      let result = try fixture.run(arguments)
      #expect(result.status == status, "\(arguments): \(result)")
      #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
      #expect(result.stdout.isEmpty, "\(arguments)")
    }
    #expect(fixture.files() == before)
  }
}
