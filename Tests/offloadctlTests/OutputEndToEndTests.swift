import Foundation
import OffloadTestSupport
import TerminalUI
import Testing

/// Printed text never carries a scalar that drives the terminal; JSON stays JSON; a failed
/// write exits 74 with one line on stderr.
@Suite(
  "offloadctl output: control characters and write errors, end to end", .timeLimit(.minutes(5)))
struct OutputEndToEndTests {
  /// Text with every kind of control character the store takes: C0 (Escape, BEL; newlines
  /// are refused), C1 (CSI), DEL, and bidirectional overrides and isolates.
  static let hostile = "x\u{1B}[2J\u{1B}]0;pwned\u{07}\u{9B}\u{7F}\u{202E}\u{2066}y"
  static let hostileEscaped = #"x\u{1B}[2J\u{1B}]0;pwned\u{7}\u{9B}\u{7F}\u{202E}\u{2066}y"#

  /// Whether the text holds a scalar that would drive a terminal, line breaks aside.
  static func drivesTheTerminal(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0 != "\n" && TerminalText.isControl($0) }
  }

  @Test func newTextWithControlCharactersIsRefusedWithAnEscapedMessage() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    for arguments in [
      ["collection", "create", "Evil" + Self.hostile], ["capture", Self.hostile],
      ["item", "add", "Inbox", Self.hostile],
    ] {
      let result = try fixture.run(arguments)
      #expect(result.status == 65, "\(arguments): \(result)")
      #expect(result.stderr.contains("cannot hold the control character U+001B (column "))
      #expect(!Self.drivesTheTerminal(result.stderr), "\(result.stderr.debugDescription)")
      #expect(result.stderr.split(separator: "\n").count == 1)
    }
  }

  /// A store that another client or a hand edit left with hostile text: a collection whose
  /// name and one item hold every kind of control character.
  func hostileStore(_ fixture: StoreFixture) throws -> String {
    let outline = fixture.folder.appending("evil.md")
    try "- PLACEHOLDER\n- plain\n".write(toFile: outline, atomically: true, encoding: .utf8)
    // The store's first change checkpoints, so the collection is in its file.
    try fixture.ok("collection", "import", "EvilNAME", outline)
    let escapedJSON = Self.hostile.unicodeScalars.map { scalar -> String in
      scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value > 0x2000
        ? String(format: "\\u%04x", scalar.value) : String(scalar)
    }.joined()
    let files =
      try FileManager.default.contentsOfDirectory(atPath: fixture.store + "/collections").map {
        fixture.store + "/collections/" + $0
      } + [fixture.store + "/changes.snapshot.json"]
    for file in files where file.hasSuffix(".json") {
      let text = try String(contentsOfFile: file, encoding: .utf8)
        .replacingOccurrences(of: "PLACEHOLDER", with: escapedJSON)
        .replacingOccurrences(of: "EvilNAME", with: "Evil" + escapedJSON)
      try text.write(toFile: file, atomically: true, encoding: .utf8)
    }
    return "Evil" + Self.hostile
  }

  @Test func dataAndMessagesPrintEscaped() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    let name = try hostileStore(fixture)
    let outputs = [
      try fixture.ok("collection", "list"), try fixture.ok("collection", "show", name),
      try fixture.ok("collection", "export", name),
    ]
    for output in outputs {
      #expect(!Self.drivesTheTerminal(output), "\(output.debugDescription)")
      #expect(output.contains(Self.hostileEscaped), "\(output.debugDescription)")
    }
    // Error messages, the library's and the parser's, are escaped too.
    let missing = try fixture.run("collection", "show", "no" + Self.hostile)
    #expect(missing.status == 66)
    #expect(
      missing.stderr.hasPrefix(
        "offloadctl: error: no collection is named \"no\(Self.hostileEscaped)\" (collections: "),
      "\(missing)")
    #expect(!Self.drivesTheTerminal(missing.stderr))
    let newline = try fixture.run("collection", "show", "two\nlines")
    #expect(newline.status == 66)
    #expect(newline.stderr.hasPrefix(#"offloadctl: error: no collection is named "two\u{A}lines""#))
    #expect(newline.stderr.split(separator: "\n").count == 1, "one line: \(newline.stderr)")
    let usage = try fixture.run("collection", "show", name, "extra" + Self.hostile)
    #expect(usage.status == 64)
    #expect(!Self.drivesTheTerminal(usage.stderr), "\(usage.stderr.debugDescription)")
    #expect(usage.stderr.contains("extra\(Self.hostileEscaped)"), "\(usage)")
    // --json stays JSON: the encoder's escapes, and the text reads back exactly.
    let json = try fixture.run("collection", "show", name, "--json")
    #expect(json.stdout.contains(#"\u001b[2J"#))
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let items = try #require(document["items"] as? [[String: Any]])
    #expect(items.first?["text"] as? String == Self.hostile)
  }

  @Test func aNewlineInAPhotoNameKeepsOneLinePerPhoto() throws {
    let fixture = try PhotoFixture()
    defer { fixture.remove() }
    let odd = "z\nfake line \u{1B}[31m.png"
    try Data(PhotoFiles.png(width: 4, height: 4)).write(
      to: URL(fileURLWithPath: fixture.photos + "/" + odd))
    try fixture.ok("photos", "start", fixture.photos, "--order", "mtime", "--quiet")
    for _ in 0..<5 { try fixture.ok("photos", "swipe", "left", "--quiet") }
    let review = try fixture.ok("photos", "review")
    #expect(!Self.drivesTheTerminal(review), "\(review.debugDescription)")
    #expect(review.split(separator: "\n").count == 5, "\(review)")
    #expect(review.contains(#"z\u{A}fake line \u{1B}[31m.png"#), "\(review)")
  }

  /// Runs `offloadctl` through `/bin/sh` so the test can redirect and ignore SIGPIPE.
  func shell(_ script: String, store: String) throws -> ShellResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script, BuiltProduct.path("offloadctl")]
    process.environment = [
      "OFFLOAD_HOME": store, "PATH": "/usr/bin:/bin", "SWIFT_BACKTRACE": "enable=no",
    ]
    let err = Pipe()
    let out = Pipe()
    process.standardError = err
    process.standardOutput = out
    try process.run()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ShellResult(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }

  struct ShellResult {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  @Test(
    .enabled(
      if: FileManager.default.isWritableFile(atPath: "/dev/full"), "needs /dev/full"),
    arguments: [
      ["collection", "list"], ["collection", "list", "--json"], ["collection", "show", "Trip"],
      ["collection", "export", "Trip"], ["--help"], ["--version"],
    ])
  func aFullDiskOnStandardOutputExits74(arguments: [String]) throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    try fixture.ok("collection", "create", "Trip")
    try fixture.ok("item", "add", "Trip", "Pack")
    let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
    let result = try shell("\"$0\" \(quoted) > /dev/full", store: fixture.store)
    #expect(result.status == 74, "\(result)")
    #expect(
      result.stderr
        == "offloadctl: error: cannot write to standard output: No space left on device\n")
  }

  @Test(.enabled(if: FileManager.default.isWritableFile(atPath: "/dev/full"), "needs /dev/full"))
  func aFullDiskOnStandardErrorExits74() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    let result = try shell("\"$0\" collection show Missing 2> /dev/full", store: fixture.store)
    #expect(result.status == 74, "\(result)")
    #expect(result.stdout.isEmpty)
  }

  @Test func aClosedPipeWithSIGPIPEIgnoredExits74() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    try fixture.ok("collection", "create", "Trip", "--quiet")
    // The reader is gone before offloadctl starts: stdout is a FIFO whose only reader opened it
    // and exited.
    let script = """
      trap '' PIPE
      mkfifo "$OFFLOAD_HOME/fifo"
      (exec 0< "$OFFLOAD_HOME/fifo") &
      exec 1> "$OFFLOAD_HOME/fifo"
      wait
      "$0" collection list
      """
    let result = try shell(script, store: fixture.store)
    #expect(result.status == 74, "\(result)")
    #expect(result.stderr == "offloadctl: error: cannot write to standard output: Broken pipe\n")
  }
}
