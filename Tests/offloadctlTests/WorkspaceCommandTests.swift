import Foundation
import OffloadTestSupport
import Testing

/// A temporary store and a way to run the built `offloadctl` against it.
struct StoreFixture {
  let folder: TemporaryDirectory
  var store: String { folder.appending("store") }

  init() throws {
    folder = try TemporaryDirectory(prefix: "offloadctl-e2e")
  }

  /// Runs `offloadctl` with the store in `OFFLOAD_HOME` and a fixed clock.
  func run(_ arguments: String..., stdin: String? = nil) throws -> ProcessResult {
    try run(arguments, stdin: stdin)
  }

  func run(_ arguments: [String], stdin: String? = nil) throws -> ProcessResult {
    try BuiltProduct.run(
      "offloadctl", arguments,
      environment: ["OFFLOAD_HOME": store, "SOURCE_DATE_EPOCH": "1800000000", "HOME": folder.path],
      stdin: stdin)
  }

  /// Runs a command that must succeed and returns its standard output.
  @discardableResult
  func ok(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws
    -> String
  {
    let result = try run(arguments)
    #expect(result.status == 0, "\(arguments): \(result)", sourceLocation: sourceLocation)
    return result.stdout
  }

  /// The id of the item whose text is `text`, from `collection show --json`.
  func id(of text: String, in collection: String) throws -> String {
    let result = try run("collection", "show", collection, "--json")
    let document =
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    let items = document?["items"] as? [[String: Any]] ?? []
    return try #require(items.first { $0["text"] as? String == text }?["id"] as? String)
  }

  /// Every file of the store with its bytes, to prove a command wrote nothing.
  func files() -> [String: Data] {
    var result: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: store)
    while let path = enumerator?.nextObject() as? String {
      if let data = FileManager.default.contents(atPath: store + "/" + path) { result[path] = data }
    }
    return result
  }

  func remove() { folder.remove() }
}

@Suite("offloadctl workspace commands: end to end", .timeLimit(.minutes(5)))
struct WorkspaceCommandTests {
  @Test func captureAndInbox() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    #expect(try fixture.ok("inbox") == "The inbox is empty.\n")
    let first = try fixture.run("capture", "call", "the", "plumber")
    #expect(first.status == 0)
    #expect(first.stdout.hasPrefix("captured "))
    #expect(first.stdout.hasSuffix(": call the plumber\n"))
    #expect(first.stderr == "offloadctl: created a new store at \(fixture.store)\n")
    let second = try fixture.run("capture", "buy milk")
    #expect(second.stderr.isEmpty)
    let inbox = try fixture.ok("inbox")
    #expect(inbox.hasSuffix("  1  [ ] call the plumber\n" + inbox.split(separator: "\n")[1] + "\n"))
    expectSnapshot(try fixture.ok("inbox", "--json"), named: "inbox.json")
  }

  @Test func collectionsLifecycle() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    try fixture.ok("collection", "create", "Trip", "--kind", "plan")
    try fixture.ok("collection", "create", "Groceries")
    let pack = try fixture.ok("item", "add", "trip", "Pack").split(separator: " ")[1].dropLast()
    try fixture.ok("item", "add", "Trip", "Socks", "--parent", String(pack))
    try fixture.ok("item", "add", "Trip", "Boots", "--parent", String(pack), "--first")
    try fixture.ok("item", "add", "Trip", "Book flights", "--first")
    let show = try fixture.ok("collection", "show", "Trip")
    // Each row is "<id>  <number>  <indent>[ ] text"; drop the 6-character id and its gap.
    let lines = show.split(separator: "\n").dropFirst().map { String($0.dropFirst(8)) }
    #expect(show.hasPrefix("Trip (plan, 4 items)\n"))
    #expect(
      lines == ["1    [ ] Book flights", "2    [ ] Pack", "2.1    [ ] Boots", "2.2    [ ] Socks"])
    let collapsed = try fixture.ok("collection", "show", "Trip", "--collapsed", String(pack))
    #expect(collapsed.contains("[ ] Pack  (+2 hidden)"))
    #expect(!collapsed.contains("Boots"))
    #expect(
      try fixture.ok("collection", "show", "Trip", "--depth", "1").split(separator: "\n").count == 3
    )
    let list = try fixture.ok("collection", "list")
    #expect(list.contains("Trip       plan  4 items"))
    #expect(list.contains("Groceries  list  0 items"))
    try fixture.ok("collection", "rename", "groceries", "Shopping")
    try fixture.ok("collection", "convert", "Trip", "--to", "list", "--yes")
    let flat = try fixture.ok("collection", "show", "Trip")
    #expect(flat.contains("4  [ ] Socks"))
    try fixture.ok("undo")
    #expect(try fixture.ok("collection", "show", "Trip").contains("2.2    [ ] Socks"))
    let refused = try fixture.run("collection", "delete", "Trip")
    #expect(refused.status == 1)
    #expect(
      refused.stderr
        == "offloadctl: error: \"Trip\" still has 4 items; pass --force to delete it with them (undo brings them back)\n"
    )
    #expect(try fixture.ok("collection", "delete", "Trip", "--force").contains("with 4 items"))
    try fixture.ok("undo")
    #expect(try fixture.ok("collection", "show", "Trip").contains("Book flights"))
  }

  @Test func itemCommands() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    try fixture.ok("collection", "create", "P", "--kind", "plan")
    for text in ["a", "b", "c"] { try fixture.ok("item", "add", "P", text) }
    let a = try fixture.id(of: "a", in: "P")
    let b = try fixture.id(of: "b", in: "P")
    let c = try fixture.id(of: "c", in: "P")
    try fixture.ok("item", "indent", b)
    try fixture.ok("item", "move", c, "--into", b, "--first")
    try fixture.ok("item", "done", c)
    try fixture.ok("item", "edit", a, "A", "edited")
    var shown = try fixture.ok("collection", "show", "P")
    #expect(shown.contains("1      [ ] A edited"))
    #expect(shown.contains("1.1.1      [x] c"))
    try fixture.ok("item", "outdent", b)
    try fixture.ok("item", "undone", String(c.prefix(4)))
    try fixture.ok("item", "move", a, "--root", "--last")
    shown = try fixture.ok("collection", "show", "P")
    #expect(shown.split(separator: "\n").last?.hasSuffix("[ ] A edited") == true)
    // Between collections, with the inbox.
    let captured = try fixture.ok("capture", "stray").split(separator: " ")[1].dropLast()
    try fixture.ok("item", "move", String(captured), "--to", "P", "--after", a)
    #expect(try fixture.ok("inbox") == "The inbox is empty.\n")
    #expect(
      try fixture.ok("item", "remove", b, String(captured))
        == "removed 3 items (offloadctl undo brings them back)\n")
    try fixture.ok("undo")
    #expect(try fixture.ok("collection", "show", "P").contains("stray"))
    let history = try fixture.ok("history", "--limit", "2")
    #expect(history.split(separator: "\n").count == 2)
    #expect(history.contains("move \(captured) from \"Inbox\" to \"P\""))
  }

  @Test func refusalsPrintTheReasonAndWriteNothing() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    try fixture.ok("collection", "create", "P", "--kind", "plan")
    try fixture.ok("collection", "create", "L")
    try fixture.ok("item", "add", "P", "parent")
    let parent = try fixture.id(of: "parent", in: "P")
    try fixture.ok("item", "add", "P", "child", "--parent", parent)
    let child = try fixture.id(of: "child", in: "P")
    try fixture.ok("item", "add", "L", "flat")
    let flat = try fixture.id(of: "flat", in: "L")
    let before = fixture.files()
    let cases: [([String], Int32, String)] = [
      (["item", "move", parent, "--into", child], 1, "cannot move \(parent)"),
      (["item", "move", parent, "--to", "L"], 1, "\"L\" is a list, and lists are flat"),
      (["item", "add", "L", "x", "--parent", flat], 1, "lists are flat"),
      (["item", "indent", parent], 1, "first of its siblings"),
      (["item", "outdent", parent], 1, "is a root"),
      (["item", "move", "zzzz", "--root"], 66, "no item has an id starting with \"zzzz\""),
      (["item", "done", ""], 64, "matches several items"),
      (["item", "add", "Nope", "x"], 66, "no collection is named \"Nope\""),
      (["collection", "create", "p"], 1, "a collection named \"P\" exists already"),
      (["item", "move", parent], 64, "say where to"),
      (["item", "move", parent, "--before", child, "--into", child], 64, "choose one of"),
      (["collection", "show", "P", "--depth", "0"], 64, "--depth must be at least 1"),
      (["collection", "import", "X", fixture.folder.appending("missing.md")], 66, "no such file"),
      (["item", "edit", child, " "], 65, "text cannot be empty"),
    ]
    for (arguments, status, message) in cases {
      let result = try fixture.run(arguments)
      #expect(result.status == status, "\(arguments): \(result)")
      #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
      #expect(result.stderr.split(separator: "\n").count <= 3, "\(arguments): \(result.stderr)")
      #expect(!result.stderr.contains("Fatal error"))
      #expect(result.stdout.isEmpty, "\(arguments)")
    }
    #expect(fixture.files() == before)
  }

  @Test func importExportRoundTripAndBadOutline() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    let outline = "# Plan\n- [ ] one\n  - [x] one.one\n    - deep\n- two\n"
    let file = fixture.folder.appending("plan.md")
    try Data(outline.utf8).write(to: URL(fileURLWithPath: file))
    #expect(
      try fixture.ok("collection", "import", "Plan", file)
        == "imported 4 items into plan \"Plan\"\n")
    let markdown = try fixture.ok("collection", "export", "Plan")
    #expect(markdown == "# Plan\n\n- [ ] one\n  - [x] one.one\n    - [ ] deep\n- [ ] two\n")
    let json = try fixture.ok("collection", "export", "Plan", "--format", "json")
    expectSnapshot(json, named: "export.json")
    let copy = fixture.folder.appending("copy.json")
    try Data(json.utf8).write(to: URL(fileURLWithPath: copy))
    try fixture.ok("collection", "import", "Copy", copy)
    #expect(
      try fixture.ok("collection", "export", "Copy")
        == markdown.replacingOccurrences(of: "# Plan", with: "# Copy"))
    let piped = try fixture.run(["collection", "import", "Piped", "-"], stdin: markdown)
    #expect(piped.status == 0)
    let bad = fixture.folder.appending("bad.md")
    try Data("- fine\n- [ ]\n  - oops\n".utf8).write(to: URL(fileURLWithPath: bad))
    let before = fixture.files()
    let result = try fixture.run("collection", "import", "Bad", bad)
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "offloadctl: error: \(bad): line 2: the item has no text, yet the item on line 3 is nested under it\n"
    )
    #expect(fixture.files() == before)
  }

  @Test func corruptStoreFileIsReportedNotOverwritten() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    try fixture.ok("collection", "create", "P", "--kind", "plan")
    try fixture.ok("item", "add", "P", "a")
    try fixture.ok("item", "add", "P", "b")
    let collections = try FileManager.default.contentsOfDirectory(
      atPath: fixture.store + "/collections")
    let file = try #require(collections.first { $0.hasSuffix(".json") && !$0.contains("backup") })
    let path = fixture.store + "/collections/" + file
    try Data("{\"format\": \"offload.collection\", \"version\": 1, \"data\": {\"items\": [".utf8)
      .write(to: URL(fileURLWithPath: path))
    let result = try fixture.run("collection", "show", "P")
    #expect(result.status == 65)
    #expect(result.stderr.contains(path))
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(result.stderr.contains("Run `offloadctl store repair` to restore it."))
    let added = try fixture.run("item", "add", "P", "c")
    #expect(added.status == 65)
    let verify = try fixture.run("store", "verify")
    #expect(verify.status == 65, "\(verify)")
    #expect(verify.stdout.contains("restore the backup") || verify.stdout.contains("problems"))
    let repair = try fixture.run("store", "repair")
    #expect(repair.status == 0, "\(repair)")
    #expect(repair.stdout.contains("repaired; the store as it was is in"))
    #expect(try fixture.ok("store", "verify").contains("all good"))
    // The file is a checkpoint: the store's change journal still holds both adds, so repair
    // replays them over the backup (or an empty collection) and loses nothing. The damaged
    // bytes are kept aside, never overwritten.
    let shown = try fixture.ok("collection", "show", "P")
    #expect(shown.contains("[ ] a") && shown.contains("[ ] b"), "\(shown)")
    let aside = try FileManager.default.contentsOfDirectory(
      atPath: fixture.store + "/collections")
    #expect(aside.contains { $0.contains(".unreadable-") })
  }

  @Test func demoIsReproducibleAndLeavesNothing() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    let first = try fixture.ok("demo")
    #expect(first == (try fixture.ok("demo")))
    expectSnapshot(first, named: "demo.txt")
    #expect(!FileManager.default.fileExists(atPath: fixture.store))
  }

  @Test func twoProcessesAddingAtOnceLoseNothing() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    try fixture.ok("collection", "create", "Shared")
    let binary = BuiltProduct.path("offloadctl")
    // Two shell loops, each adding 500 items one process at a time, run side by side.
    let script = """
      for i in $(seq 1 500); do "\(binary)" item add Shared "$1 $i" --quiet || exit 1; done
      """
    let workers = try ["left", "right"].map { name -> Process in
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = ["-c", script, "sh", name]
      process.environment = ["OFFLOAD_HOME": fixture.store, "PATH": "/usr/bin:/bin"]
      try process.run()
      return process
    }
    for worker in workers {
      worker.waitUntilExit()
      #expect(worker.terminationStatus == 0)
    }
    let document =
      try JSONSerialization.jsonObject(
        with: Data(try fixture.ok("collection", "show", "Shared", "--json").utf8)) as? [String: Any]
    let items = document?["items"] as? [[String: Any]] ?? []
    #expect(items.count == 1_000)
    #expect(Set(items.compactMap { $0["text"] as? String }).count == 1_000)
    #expect(try fixture.ok("store", "verify").contains("1000 items: all good"))
  }
}

@Suite("offloadctl help, completions and JSON: snapshots", .timeLimit(.minutes(5)))
struct SnapshotTests {
  @Test(arguments: [
    [], ["capture"], ["collection"], ["collection", "show"], ["item"], ["item", "move"], ["undo"],
    ["store", "verify"], ["key", "spread"],
  ])
  func help(_ path: [String]) throws {
    let result = try BuiltProduct.run(
      "offloadctl", path + ["--help"], environment: ["COLUMNS": "100"])
    #expect(result.status == 0)
    expectSnapshot(
      result.stdout, named: "help-\(path.isEmpty ? "root" : path.joined(separator: "-")).txt")
  }

  @Test(arguments: ["bash", "zsh", "fish"])
  func completions(_ shell: String) throws {
    let result = try BuiltProduct.run("offloadctl", ["--generate-completion-script", shell])
    #expect(result.status == 0)
    #expect(result.stdout.contains("offloadctl"))
    expectSnapshot(result.stdout, named: "completion.\(shell)")
  }
}
