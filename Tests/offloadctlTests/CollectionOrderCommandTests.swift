import Foundation
import OffloadTestSupport
import Testing

/// The names `collection list` prints, in order.
private func names(_ fixture: StoreFixture) throws -> [String] {
  try fixture.ok("collection", "list").split(separator: "\n").map {
    String($0.dropFirst(8).prefix { $0 != " " })
  }
}

/// A plan `Trip` whose item Pack holds Socks.
private func makeNestedTrip(_ fixture: StoreFixture) throws {
  try fixture.ok("collection", "create", "Trip", "--kind", "plan")
  try fixture.ok("item", "add", "Trip", "Pack")
  let pack = try fixture.id(of: "Pack", in: "Trip")
  try fixture.ok("item", "add", "Trip", "Socks", "--parent", pack)
}

@Suite("offloadctl collection move, delete and convert: end to end", .timeLimit(.minutes(5)))
struct CollectionOrderCommandTests {
  @Test func moveReordersKeepsTheInboxFirstAndUndoesExactly() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    for name in ["A", "B", "C"] { try fixture.ok("collection", "create", name) }
    #expect(try names(fixture) == ["Inbox", "A", "B", "C"])
    #expect(
      try fixture.ok("collection", "move", "C", "--first")
        == "moved \"C\" to position 2 of the collections\n")
    #expect(try names(fixture) == ["Inbox", "C", "A", "B"])
    try fixture.ok("collection", "move", "c", "--after", "A")
    #expect(try names(fixture) == ["Inbox", "A", "C", "B"])
    try fixture.ok("collection", "move", "A", "--last")
    #expect(try names(fixture) == ["Inbox", "C", "B", "A"])
    try fixture.ok("collection", "move", "A", "--before", "C")
    #expect(try names(fixture) == ["Inbox", "A", "C", "B"])
    #expect(try fixture.ok("undo") == "undid: move collection \"A\"\n")
    #expect(try names(fixture) == ["Inbox", "C", "B", "A"])
    // The inbox stays first; bad places name the problem and change nothing.
    let before = fixture.files()
    for (arguments, message) in [
      (["Inbox", "--last"], "the inbox stays first and cannot be moved"),
      (["A", "--before", "Inbox"], "the inbox stays first: nothing goes before it; use --first"),
      (["A", "--after", "A"], "\"A\" cannot be placed next to itself"),
      (["Nope", "--first"], "no collection is named \"Nope\""),
    ] {
      let result = try fixture.run(["collection", "move"] + arguments)
      #expect(result.status != 0, "\(arguments)")
      #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
    }
    let usage = try fixture.run("collection", "move", "A", "--first", "--last")
    #expect(usage.status == 64)
    #expect(usage.stderr.contains("choose one of --before, --after, --first, --last"))
    #expect(fixture.files() == before)
    // The order survives a checkpoint of the journal (32 changes) and reads back the same.
    for n in 0..<40 { try fixture.ok("capture", "t\(n)") }
    #expect(try names(fixture) == ["Inbox", "C", "B", "A"])
    #expect(try fixture.ok("store", "verify").contains("all good"))
  }

  @Test func deleteTakesSeveralNamesAsOneChange() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    for name in ["A", "B", "C", "D"] { try fixture.ok("collection", "create", name) }
    try fixture.ok("item", "add", "B", "one")
    try fixture.ok("item", "add", "C", "two")
    let before = fixture.files()
    let refused = try fixture.run("collection", "delete", "A", "B")
    #expect(refused.status != 0)
    #expect(
      refused.stderr
        == "offloadctl: error: \"B\" still has 1 item; pass --force to delete it with them (undo brings them back)\n"
    )
    #expect(fixture.files() == before)
    #expect(
      try fixture.ok("collection", "delete", "A", "B", "c", "--force")
        == "deleted \"A\", \"B\", \"c\" with 2 items (offloadctl undo brings them back)\n")
    #expect(try names(fixture) == ["Inbox", "D"])
    #expect(try fixture.ok("undo") == "undid: delete \"A\", \"B\", \"C\"\n")
    // Each comes back in its place, with its items.
    #expect(try names(fixture) == ["Inbox", "A", "B", "C", "D"])
    #expect(try fixture.ok("collection", "show", "C").contains("two"))
    let inbox = try fixture.run("collection", "delete", "D", "Inbox")
    #expect(inbox.stderr == "offloadctl: error: the inbox cannot be deleted\n")
  }

  @Test func convertingANestedPlanNeedsYesWithoutATerminal() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    try makeNestedTrip(fixture)
    let before = fixture.files()
    let refused = try fixture.run("collection", "convert", "Trip", "--to", "list")
    #expect(refused.status == 64)
    #expect(
      refused.stderr
        == "offloadctl: error: \"Trip\" has 1 nested item; a list cannot nest, so converting flattens them and standard input is not a terminal to confirm: pass --yes (undo brings the nesting back)\n"
    )
    #expect(fixture.files() == before)
    #expect(
      try fixture.ok("collection", "convert", "Trip", "--to", "list", "--yes")
        == "\"Trip\" is now a list (offloadctl undo brings the nesting back)\n")
    try fixture.ok("undo")
    #expect(try fixture.ok("collection", "show", "Trip").contains("1.1"))
    // A plan without nesting, or a list to a plan, needs no question.
    try fixture.ok("collection", "create", "Flat", "--kind", "plan")
    try fixture.ok("item", "add", "Flat", "x")
    #expect(
      try fixture.ok("collection", "convert", "Flat", "--to", "list") == "\"Flat\" is now a list\n")
  }

  @Test(
    .enabled(if: PseudoTerminal.isAvailable, "needs /dev/ptmx to open a pseudo-terminal"))
  func convertingANestedPlanAsksOnATerminal() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    try makeNestedTrip(fixture)
    func convert(answer: String) throws -> (PseudoTerminal.Termination, String) {
      let terminal = try PseudoTerminal(
        product: "offloadctl", ["collection", "convert", "Trip", "--to", "list"], columns: 200,
        rows: 10,
        environment: [
          "OFFLOAD_HOME": fixture.store, "SOURCE_DATE_EPOCH": "1800000000",
          "HOME": fixture.folder.path,
        ])
      try terminal.waitForScreen { $0.contains("Convert? [y/N]") }
      terminal.send(answer + "\r")
      let end = try terminal.waitForExit()
      return (end, terminal.outputText)
    }
    let (declined, said) = try convert(answer: "n")
    #expect(declined == .exited(1))
    #expect(said.contains("convert cancelled; nothing was changed"))
    #expect(try fixture.ok("collection", "show", "Trip").contains("plan"))
    let (accepted, output) = try convert(answer: "y")
    #expect(accepted == .exited(0))
    #expect(output.contains("\"Trip\" is now a list (offloadctl undo brings the nesting back)"))
    #expect(try fixture.ok("collection", "show", "Trip").contains("(list, 2 items)"))
  }
}
