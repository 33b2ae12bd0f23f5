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

@Suite("offloadctl bulk item commands: end to end", .timeLimit(.minutes(5)))
struct BulkCommandTests {
  @Test func bulkDoneRemoveAndOneUndo() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    let ids = try makeTrip(fixture)
    // The range selects B, which takes B2 along.
    let done = try fixture.ok("item", "done", "1-2.1", "4", "--in", "Trip")
    #expect(
      done
        == "marked 5 items done in \"Trip\": \(ids["A"]!) \(ids["B"]!) \(ids["B1"]!) \(ids["B2"]!) \(ids["D"]!)\n"
    )
    #expect(try rows(fixture).filter { $0.contains("[x]") }.count == 5)
    let undone = try fixture.ok("item", "undone", "--all", "--in", "trip", "--except", "4")
    #expect(undone.hasPrefix("marked 4 items not done in \"Trip\""))
    #expect(undone.contains("(1 already was)"))
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
    #expect(document["collections"] as? [String] == ["Trip", "Later"])
    #expect(document["schemaVersion"] as? Int == 1)
    #expect(try rows(fixture, "Later").count == 4)
    #expect(try rows(fixture) == ["1  [ ] A", "2  [ ] C"])
    try fixture.ok("undo")
    #expect(try rows(fixture).count == 6)
    // The single-id form still prints the id.
    #expect(try fixture.ok("item", "move", ids["A"]!, "--first") == "moved \(ids["A"]!)\n")
  }

  @Test func anExceptedParentLeavesItsSubtreeAndASelectedOneTakesIt() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    let ids = try makeTrip(fixture)
    try fixture.ok("collection", "create", "Later", "--kind", "plan")
    // Everything but B and what is in it: B keeps B1 and B2.
    let moved = try fixture.ok(
      "item", "move", "--all", "--in", "Trip", "--except", "2", "--to", "Later")
    #expect(
      moved
        == "moved 3 items from \"Trip\" to \"Later\": \(ids["A"]!) \(ids["C"]!) \(ids["D"]!)\n")
    #expect(try rows(fixture) == ["1    [ ] B", "1.1    [ ] B1", "1.2    [ ] B2"])
    #expect(try rows(fixture, "Later") == ["1  [ ] A", "2  [ ] C", "3  [ ] D"])
    // Ticking a parent ticks its subtree, one change; undone reopens it.
    #expect(
      try fixture.ok("item", "done", ids["B"]!)
        == "done \(ids["B"]!) and 2 nested items under it\n")
    #expect(try rows(fixture) == ["1    [x] B", "1.1    [x] B1", "1.2    [x] B2"])
    #expect(try fixture.ok("item", "undone", ids["B1"]!) == "not done \(ids["B1"]!)\n")
    #expect(try fixture.ok("undo") == "undid: undone 1 item in \"Trip\"\n")
    try fixture.ok("item", "undone", "1", "--in", "Trip", "--except", "1.2")
    #expect(try rows(fixture) == ["1    [ ] B", "1.1    [ ] B1", "1.2    [x] B2"])
    // A move of a parent whose child is excepted is refused: it would carry the child along.
    let refused = try fixture.run(
      "item", "move", "1", "--in", "Trip", "--except", "1.1", "--to", "Later")
    #expect(refused.status == 64)
    #expect(refused.stderr.contains("is excepted but nested under the selected"))
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
