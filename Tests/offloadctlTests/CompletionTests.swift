import Foundation
import OffloadTestSupport
import Testing

/// Completions of collection names and item ids, through the built binary: the protocol the
/// generated scripts call (`offloadctl ---completion …`), and bash itself sourcing the script.
@Suite("offloadctl completions: collection names and item ids, end to end", .timeLimit(.minutes(5)))
struct CompletionTests {
  /// A store with `Lisbon trip` (a plan holding Pack and, under it, Socks) and `Later`.
  func makeStore() throws -> (StoreFixture, [String: String]) {
    let fixture = try StoreFixture()
    try fixture.ok("collection", "create", "Lisbon trip", "--kind", "plan", "--quiet")
    try fixture.ok("collection", "create", "Later", "--quiet")
    try fixture.ok("item", "add", "Lisbon trip", "Pack", "--quiet")
    let pack = try fixture.id(of: "Pack", in: "Lisbon trip")
    try fixture.ok("item", "add", "Lisbon trip", "Socks", "--parent", pack, "--quiet")
    try fixture.ok("item", "add", "Later", "Call", "--quiet")
    return (
      fixture,
      [
        "Pack": pack, "Socks": try fixture.id(of: "Socks", in: "Lisbon trip"),
        "Call": try fixture.id(of: "Call", in: "Later"),
      ]
    )
  }

  /// What `offloadctl` offers for the word at `index` of `words`, with the cursor at its end.
  func complete(
    _ fixture: StoreFixture, _ path: [String], argument: String, _ words: [String], index: Int
  ) throws -> [String] {
    let result = try fixture.run(
      ["---completion"] + path + ["--", argument, String(index), String(words[index].count)]
        + words)
    #expect(result.status == 0, "\(result)")
    return result.stdout.split(separator: "\n").map(String.init)
  }

  @Test func collectionNamesForEveryCollectionArgument() throws {
    let (fixture, _) = try makeStore()
    defer { fixture.remove() }
    let all = ["Inbox", "Lisbon trip", "Later"]
    for command in [
      ["collection", "show"], ["collection", "export"], ["collection", "delete"],
      ["collection", "rename"], ["collection", "convert"], ["organize"],
    ] {
      let words = ["offloadctl"] + command + [""]
      #expect(
        try complete(fixture, command, argument: "positional@0", words, index: words.count - 1)
          == all, "\(command)")
    }
    // The prefix is matched ignoring case; a quoted prefix is unquoted first.
    #expect(
      try complete(
        fixture, ["collection", "show"], argument: "positional@0",
        ["offloadctl", "collection", "show", "l"], index: 3) == ["Lisbon trip", "Later"])
    #expect(
      try complete(
        fixture, ["collection", "show"], argument: "positional@0",
        ["offloadctl", "collection", "show", "'Lisbon t"], index: 3) == ["Lisbon trip"])
    #expect(
      try complete(
        fixture, ["item", "move"], argument: "--to",
        ["offloadctl", "item", "move", "x", "--to", "La"], index: 5) == ["Later"])
    #expect(
      try complete(
        fixture, ["item", "add"], argument: "positional@0",
        ["offloadctl", "item", "add", ""], index: 3) == all)
  }

  @Test func itemIDsOfTheNamedCollectionOrOfAll() throws {
    let (fixture, ids) = try makeStore()
    defer { fixture.remove() }
    let pack = try #require(ids["Pack"])
    let socks = try #require(ids["Socks"])
    let call = try #require(ids["Call"])
    #expect(
      try complete(
        fixture, ["item", "done"], argument: "positional@0",
        ["offloadctl", "item", "done", "", "--in", "'Lisbon trip'"], index: 3) == [pack, socks])
    #expect(
      try complete(
        fixture, ["item", "done"], argument: "positional@0",
        ["offloadctl", "item", "done", ""], index: 3
      ).sorted() == [pack, socks, call].sorted())
    #expect(
      try complete(
        fixture, ["item", "add"], argument: "--parent",
        ["offloadctl", "item", "add", "Later", "Text", "--parent", ""], index: 6) == [call])
    let prefix = String(socks.prefix(2))
    let matching = try complete(
      fixture, ["item", "edit"], argument: "positional@0",
      ["offloadctl", "item", "edit", prefix], index: 3)
    #expect(matching.contains(socks) && matching.allSatisfy { $0.hasPrefix(prefix) })
    #expect(
      try complete(
        fixture, ["collection", "show"], argument: "--collapsed",
        ["offloadctl", "collection", "show", "Later", "--collapsed", ""], index: 5) == [call])
  }

  @Test func anotherStoreOrNoneAtAll() throws {
    let (fixture, _) = try makeStore()
    defer { fixture.remove() }
    let other = try StoreFixture()
    defer { other.remove() }
    try other.ok("collection", "create", "Elsewhere", "--quiet")
    #expect(
      try complete(
        fixture, ["collection", "show"], argument: "positional@0",
        ["offloadctl", "--store", other.store, "collection", "show", "E"], index: 5)
        == ["Elsewhere"])
    // A store that does not exist offers nothing, and is not created.
    let missing = fixture.folder.appending("missing")
    #expect(
      try complete(
        fixture, ["collection", "show"], argument: "positional@0",
        ["offloadctl", "collection", "show", "--store=\(missing)", ""], index: 4
      ).isEmpty)
    #expect(!FileManager.default.fileExists(atPath: missing))
  }

  @Test(arguments: ["bash", "zsh", "fish"])
  func generatedScriptsCallTheStoreCompletions(shell: String) throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    let script = try fixture.ok("--generate-completion-script", shell)
    #expect(script.contains("---completion collection show -- positional@0"))
    #expect(script.contains("---completion item done -- --in"))
    #expect(script.contains("---completion item move -- --to"))
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash"), "needs bash"))
  func bashCompletesThroughTheGeneratedScript() throws {
    let (fixture, _) = try makeStore()
    defer { fixture.remove() }
    let script = """
      source <(offloadctl --generate-completion-script bash)
      COMP_WORDS=(offloadctl collection show Li)
      COMP_CWORD=3
      COMP_LINE="offloadctl collection show Li"
      COMP_POINT=${#COMP_LINE}
      _offloadctl offloadctl Li show
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", script]
    process.environment = [
      "OFFLOAD_HOME": fixture.store,
      "PATH": BuiltProduct.productsDirectory.path + ":/usr/bin:/bin",
    ]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(output == "Lisbon trip\n")
  }
}
