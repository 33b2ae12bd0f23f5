import Foundation
import OffloadTestSupport
import Testing

/// Keys as xterm sends them.
private enum Keys {
  static let up = "\u{1B}[A"
  static let down = "\u{1B}[B"
  static let right = "\u{1B}[C"
  static let left = "\u{1B}[D"
  static let altDown = "\u{1B}[1;3B"
  static let shiftDown = "\u{1B}[1;2B"
  static let delete = "\u{1B}[3~"
  static let backspace = "\u{7F}"
  static let tab = "\t"
  static let shiftTab = "\u{1B}[Z"
  static let enter = "\r"
  static let escape = "\u{1B}"
  static let end = "\u{1B}[F"
  static let home = "\u{1B}[H"
  static let ctrlC = "\u{03}"
}

@Suite(
  "offloadctl organize: end to end under a pseudo-terminal", .serialized, .timeLimit(.minutes(5)),
  .enabled(
    if: PseudoTerminal.isAvailable,
    "needs /dev/ptmx (a devpts mount) to open a pseudo-terminal; no other tool is needed"))
struct OrganizeEndToEndTests {
  /// A plan `Trip`: 1 A, 2 B (2.1 B1, 2.2 B2), 3 C, 4 D.
  func makeTrip(_ fixture: StoreFixture) throws {
    try fixture.ok("collection", "create", "Trip", "--kind", "plan")
    for text in ["A", "B", "C", "D"] { try fixture.ok("item", "add", "Trip", text) }
    let b = try fixture.id(of: "B", in: "Trip")
    try fixture.ok("item", "add", "Trip", "B1", "--parent", b)
    try fixture.ok("item", "add", "Trip", "B2", "--parent", b)
  }

  /// `collection show` without ids.
  func rows(_ fixture: StoreFixture) throws -> [String] {
    try fixture.ok("collection", "show", "Trip").split(separator: "\n").dropFirst().map {
      String($0.dropFirst(8))
    }
  }

  func start(_ fixture: StoreFixture, columns: Int = 60, rows: Int = 12) throws -> PseudoTerminal {
    try PseudoTerminal(
      product: "offloadctl", ["organize", "trip"], columns: columns, rows: rows,
      environment: [
        "OFFLOAD_HOME": fixture.store, "SOURCE_DATE_EPOCH": "1800000000",
        "HOME": fixture.folder.path, "SWIFT_BACKTRACE": "enable=no",
      ])
  }

  @Test func deleteUndoCheckMarkReorderNestAndQuit() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    try makeTrip(fixture)
    let terminal = try start(fixture)
    let before = terminal.settings
    try terminal.waitForScreen { $0.contains("row 1/6") }
    #expect(!terminal.isCooked)
    #expect(terminal.screen.isAlternateScreen)
    #expect(terminal.screen.line(0) == "Trip · plan · 6 items · row 1/6")
    #expect(terminal.screen.line(2) == "2 [ ] ▾ B")
    #expect(terminal.screen.line(3) == "2.1   [ ] B1")

    // Swipe-to-delete on C, saved at once; u brings it back.
    terminal.send(Keys.down + Keys.down + Keys.down + Keys.down + Keys.delete)
    try terminal.waitForScreen { $0.contains("Deleted \"C\" · u undoes") }
    #expect(
      try rows(fixture) == [
        "1    [ ] A", "2    [ ] B", "2.1    [ ] B1", "2.2    [ ] B2", "3    [ ] D",
      ])
    terminal.send("u")
    try terminal.waitForScreen { $0.contains("Undid: remove 1 item from \"Trip\"") }
    #expect(try rows(fixture).contains("3    [ ] C"))

    // Collapse B, open A's details, go back.
    terminal.send(Keys.up + Keys.up + Keys.up + Keys.up + Keys.left)
    try terminal.waitForScreen { $0.contains("2 [ ] ▸ B  (+2)") }
    terminal.send(Keys.right + Keys.up + Keys.enter)
    try terminal.waitForScreen { $0.contains("Trip · item 1") }
    #expect(terminal.screen.text.contains("  done      no"))
    terminal.send(Keys.escape)
    try terminal.waitForScreen { $0.contains("row 1/6") }

    // Edit mode: check A and B (range), mark done, then reorder and nest.
    terminal.send("e " + Keys.shiftDown)
    try terminal.waitForScreen { $0.contains("2 selected  [x Done]  [d Delete]  [alt+↑↓ Move]") }
    #expect(terminal.screen.line(1) == "● 1 [ ] A")
    #expect(terminal.screen.line(3) == "○ 2.1   [ ] B1")
    terminal.send("x")  // B takes B1 and B2 along.
    try terminal.waitForScreen { $0.contains("Marked 4 items done") }
    #expect(
      try rows(fixture).prefix(4) == ["1    [x] A", "2    [x] B", "2.1    [x] B1", "2.2    [x] B2"])
    terminal.send(Keys.altDown)  // A and B move below C.
    try terminal.waitForScreen { $0.contains("Moved 2 items") }
    #expect(try rows(fixture).first == "1    [ ] C")
    terminal.send("a")  // Everything checked.
    try terminal.waitForScreen { $0.contains("Edit · 6 selected") }
    terminal.send("a" + Keys.end + Keys.tab)  // D under B, last.
    try terminal.waitForScreen { $0.contains("Indented \"D\"") }
    #expect(try rows(fixture).last == "3.3    [ ] D")

    // Resizing redraws at the new size.
    terminal.resize(columns: 40, rows: 8)
    try terminal.waitForScreen {
      $0.contains("○ 3.3   [ ] D") && $0.split(separator: "\n").count <= 8
    }
    #expect(terminal.screen.line(0).hasPrefix("Trip · plan · 6 items · Edit · se"))

    terminal.send("q")
    #expect(try terminal.waitForExit() == .exited(0))
    #expect(terminal.settings == before, "the terminal settings are restored")
    #expect(!terminal.screen.isAlternateScreen)
    #expect(terminal.screen.isCursorVisible)
    #expect(terminal.screen.text.contains("organize: left \"Trip\" with 6 items"))
    // Every change was saved, each as one undoable change.
    #expect(
      try rows(fixture) == [
        "1    [ ] C", "2    [x] A", "3    [x] B", "3.1    [x] B1", "3.2    [x] B2",
        "3.3    [ ] D",
      ])
    try fixture.ok("undo")
    try fixture.ok("undo")
    #expect(try rows(fixture).first == "1    [x] A")
  }

  /// The everyday keys, with the store checked after each: x, add, Alt sent as an Escape
  /// prefix, the Alt-free reorder key, filter, hide done, the question before deleting a
  /// parent, and undo that takes back only what this screen did.
  @Test func everydayKeysAndUndoScopedToTheScreen() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    try makeTrip(fixture)
    let original = try rows(fixture)
    let terminal = try start(fixture, columns: 90)
    try terminal.waitForScreen { $0.contains("row 1/6") }
    // The store's last change (adding B2) was made elsewhere: u leaves it alone.
    terminal.send("u")
    try terminal.waitForScreen { $0.contains("nothing is left to undo here") }
    #expect(try rows(fixture) == original)

    terminal.send("x")
    try terminal.waitForScreen { $0.contains("Marked 1 item done") }
    #expect(try rows(fixture).first == "1    [x] A")
    terminal.send("a")
    try terminal.waitForScreen { $0.contains("New item: Enter saves, Esc cancels") }
    terminal.send("Tent\r")
    try terminal.waitForScreen { $0.contains("Added \"Tent\"") }
    #expect(try rows(fixture).prefix(3) == ["1    [x] A", "2    [ ] Tent", "3    [ ] B"])
    terminal.send("\u{1B}\u{1B}[A")  // alt+up as urxvt sends it: Tent before A.
    try terminal.waitForScreen { $0.contains("Moved \"Tent\"") }
    #expect(try rows(fixture).first == "1    [ ] Tent")
    terminal.send("J")  // Down without Alt: Tent after A again.
    try terminal.waitForScreen { $0.contains("row 2/7") }
    #expect(try rows(fixture).prefix(2) == ["1    [x] A", "2    [ ] Tent"])

    terminal.send("/b1")
    try terminal.waitForScreen { $0.contains("· /b1") && $0.contains("row 2/2") }
    #expect(terminal.screen.line(1) == "3 [ ] ▾ B")
    terminal.send("\r")
    try terminal.waitForScreen { $0.contains("Filtered by \"b1\"") }
    terminal.send("/" + Keys.escape)
    try terminal.waitForScreen { $0.contains("Filter cleared") }
    terminal.send("h")
    try terminal.waitForScreen { $0.contains("Done items hidden") }
    #expect(terminal.screen.line(1) == "2 [ ] Tent")
    terminal.send("h")
    try terminal.waitForScreen { $0.contains("Done items shown") }

    terminal.send(Keys.home + Keys.down + Keys.down + Keys.delete)  // B, with two nested items.
    try terminal.waitForScreen { $0.contains("Delete 1 item and 2 items nested? y deletes") }
    terminal.send("n")
    try terminal.waitForScreen { $0.contains("Kept 1 item") }
    #expect(try rows(fixture).count == 7)

    // Four changes on this screen, and u takes back exactly those four.
    terminal.send("u")  // J
    try terminal.waitForScreen { $0.contains("Undid:") && $0.contains("1 [ ] Tent") }
    terminal.send("u")  // alt+up
    try terminal.waitForScreen { $0.contains("Undid:") && $0.contains("1 [x] A") }
    terminal.send("u")  // a
    try terminal.waitForScreen { $0.contains("Undid:") && $0.contains("Trip · plan · 6 items") }
    terminal.send("u")  // x
    try terminal.waitForScreen { $0.contains("nothing left to undo") && $0.contains("1 [ ] A") }
    terminal.send("u")
    try terminal.waitForScreen { $0.contains("nothing is left to undo here") }
    #expect(try rows(fixture) == original)
    terminal.send("q")
    #expect(try terminal.waitForExit() == .exited(0))
  }

  @Test func controlCAndSignalsRestoreAndKeepSavedChanges() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    try makeTrip(fixture)
    var terminal = try start(fixture)
    var before = terminal.settings
    try terminal.waitForScreen { $0.contains("row 1/6") }
    terminal.send(Keys.backspace)
    try terminal.waitForScreen { $0.contains("Deleted \"A\"") }
    terminal.send(Keys.ctrlC)
    #expect(try terminal.waitForExit() == .exited(0))
    #expect(terminal.settings == before)
    #expect(try rows(fixture).first == "1    [ ] B")

    terminal = try start(fixture)
    before = terminal.settings
    try terminal.waitForScreen { $0.contains("row 1/5") }
    terminal.signal(SIGTERM)
    #expect(try terminal.waitForExit() == .signalled(SIGTERM))
    #expect(terminal.settings == before)
    #expect(!terminal.screen.isAlternateScreen)
  }

  @Test func refusesWithoutATerminalOrAnUnknownCollection() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    try makeTrip(fixture)
    let piped = try fixture.run("organize", "Trip")
    #expect(piped.status == 64)
    #expect(piped.stderr.contains("this screen needs a terminal on standard input and output"))
    let unknown = try fixture.run("organize", "Nope")
    #expect(unknown.status == 66)
    #expect(unknown.stderr.contains("no collection is named \"Nope\""))
  }
}
