import Foundation
import OffloadTestSupport
import Testing

/// Keys as xterm sends them.
private enum Keys {
  static let up = "\u{1B}[A"
  static let down = "\u{1B}[B"
  static let right = "\u{1B}[C"
  static let left = "\u{1B}[D"
  static let escape = "\u{1B}"
  static let ctrlC = "\u{03}"
}

@Suite(
  "offloadctl photos cull: end to end under a pseudo-terminal", .serialized,
  .enabled(
    if: PseudoTerminal.isAvailable,
    "needs /dev/ptmx (a devpts mount) to open a pseudo-terminal; no other tool is needed"))
struct PhotoCullEndToEndTests {
  func cull(
    _ fixture: PhotoFixture, _ arguments: [String] = [], extra: [String: String] = [:]
  ) throws -> PseudoTerminal {
    try PseudoTerminal(
      product: "offloadctl", ["photos", "cull"] + arguments, columns: 90, rows: 20,
      environment: fixture.environment.merging(extra) { $1 }.merging([
        "SWIFT_BACKTRACE": "enable=no"
      ]) { $1 })
  }

  @Test func swipeUndoReviewQuitAndReopenAtTheSamePlace() throws {
    let fixture = try PhotoFixture()
    defer { fixture.remove() }
    let terminal = try cull(fixture, [fixture.photos, "--order", "mtime"])
    let before = terminal.settings
    try terminal.waitForScreen { $0.contains("Session: 0 / 4") }
    #expect(terminal.screen.isAlternateScreen && !terminal.isCooked)
    #expect(terminal.screen.line(0).hasPrefix("offloadctl photos cull · session 20270115-080000"))
    #expect(terminal.screen.line(2) == "  a.jpg")
    #expect(terminal.screen.line(3) == "  JPEG · 39 bytes · 640×480 · orientation up")
    #expect(terminal.screen.line(4) == "  modified 2023-11-14 22:13:20 UTC")
    #expect(terminal.screen.text.contains("next: b.png, c.jpg, d.png"))
    #expect(terminal.screen.line(19).hasPrefix("← trash · → favorite · ↑ keep"))

    terminal.send(Keys.left)
    try terminal.waitForScreen { $0.contains("Session: 1 / 4") }
    terminal.send(Keys.right)
    try terminal.waitForScreen { $0.contains("Session: 2 / 4") }
    #expect(terminal.screen.text.contains("b.png → favorite"))
    #expect(terminal.screen.line(2) == "  c.jpg")
    #expect(terminal.screen.line(3) == "  JPEG · 39 bytes · 480×640 · orientation up")
    terminal.send(Keys.up)
    try terminal.waitForScreen { $0.contains("Session: 3 / 4") }
    terminal.send("u")
    try terminal.waitForScreen { $0.contains("Undone: c.jpg is back on screen.") }
    #expect(terminal.screen.text.contains("Session: 2 / 4 · trash 1 · favorite 1 · keep 0"))

    // Review: change a.jpg from trash to keep.
    terminal.send("r")
    try terminal.waitForScreen { $0.contains("Review: 2 decided photos") }
    #expect(terminal.screen.text.contains(">     2  favorite pending    b.png"))
    terminal.send(Keys.up + "k")
    try terminal.waitForScreen { $0.contains("a.jpg → keep") }
    #expect(terminal.screen.text.contains(">     1  keep     pending    a.jpg"))
    terminal.send(Keys.escape)
    try terminal.waitForScreen { $0.contains("  c.jpg") && !$0.contains("Review:") }

    terminal.send("q")
    #expect(try terminal.waitForExit() == .exited(0))
    #expect(terminal.settings == before && terminal.isCooked)
    #expect(!terminal.screen.isAlternateScreen && terminal.screen.isCursorVisible)
    #expect(
      terminal.screen.text.contains(
        "Session: 2 / 4 · pending 2 · session 20270115-080000; every decision is saved."))

    // The journal holds every key: the commands see the same state.
    #expect(
      try fixture.ok("photos", "review")
        == "     1  keep     pending    a.jpg\n     2  favorite pending    b.png\n")

    // Reopening the folder resumes the same session at the same photo.
    let again = try cull(fixture, [fixture.photos])
    try again.waitForScreen { $0.contains("Session: 2 / 4") }
    #expect(again.screen.line(2) == "  c.jpg")
    #expect(again.screen.line(0).hasSuffix("session 20270115-080000"))
    // Commit with its confirmation: n cancels, y commits.
    again.send("c")
    try again.waitForScreen {
      $0.contains("Commit 2 photos (0 to the Trash, 1 favorite, 1 kept)? y / n")
    }
    again.send("n")
    try again.waitForScreen { $0.contains("Commit cancelled; nothing was changed.") }
    #expect(!FileManager.default.fileExists(atPath: fixture.photos + "/b.png.xmp"))
    again.send(Keys.left + "c")
    try again.waitForScreen {
      $0.contains("Commit 3 photos (1 to the Trash: 39 bytes, 1 favorite, 1 kept)?")
    }
    again.send("y")
    try again.waitForScreen { $0.contains("Committed 3 photos.") }
    #expect(again.screen.text.contains("pending 0"))
    again.send(Keys.ctrlC)
    #expect(try again.waitForExit() == .exited(0))
    #expect(again.isCooked)
    #expect(fixture.names(fixture.trash + "/files") == ["c.jpg"])
    #expect(FileManager.default.fileExists(atPath: fixture.photos + "/b.png.xmp"))
    #expect(fixture.names(fixture.store + "/photo-sessions")?.count == 1)
  }

  @Test func aBrokenSessionOrAPipeIsRefusedBeforeTheScreenStarts() throws {
    let fixture = try PhotoFixture()
    defer { fixture.remove() }
    let none = try cull(fixture)
    #expect(try none.waitForExit() == .exited(66))
    #expect(none.outputText.contains("offloadctl: error: there is no photo session in"))
    #expect(!none.outputText.contains("\u{1B}[?1049h"), "the screen never started")
    let piped = try fixture.run("photos", "cull", fixture.photos)
    #expect(piped.status == 64)
    #expect(piped.stderr.contains("photos cull needs a terminal"))
    #expect(fixture.names(fixture.store + "/photo-sessions") == nil, "no session was started")
  }

  @Test func theITerm2ProtocolShowsThePhotoInline() throws {
    let fixture = try PhotoFixture()
    defer { fixture.remove() }
    let terminal = try cull(
      fixture, [fixture.photos, "--order", "mtime"], extra: ["TERM_PROGRAM": "iTerm.app"])
    try terminal.waitForScreen { $0.contains("Session: 0 / 4") }
    let jpeg = Data(PhotoFiles.jpeg(width: 640, height: 480)).base64EncodedString()
    try terminal.waitForScreen(timeout: 5) { _ in
      terminal.outputText.contains("\u{1B}]1337;File=inline=1;size=39;")
    }
    #expect(terminal.outputText.contains(":\(jpeg)\u{07}"))
    terminal.send("q")
    #expect(try terminal.waitForExit() == .exited(0))
    // Without an advertised protocol: text only.
    let plain = try cull(fixture)
    try plain.waitForScreen { $0.contains("Session: 0 / 4") }
    plain.send("q")
    #expect(try plain.waitForExit() == .exited(0))
    #expect(!plain.outputText.contains("1337;File"))
  }

  /// `photos commit` on a terminal asks first; only y commits; progress goes to the terminal.
  @Test func commitAsksOnATerminal() throws {
    let fixture = try PhotoFixture()
    defer { fixture.remove() }
    try fixture.ok("photos", "start", fixture.photos, "--order", "mtime")
    try fixture.ok("photos", "swipe", "left")
    try fixture.ok("photos", "swipe", "right")
    let environment = fixture.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
    let declined = try PseudoTerminal(
      product: "offloadctl", ["photos", "commit"], environment: environment)
    try declined.waitForScreen {
      $0.contains(
        "Commit 2 photos (1 to the Trash: \(PhotoFiles.jpeg(width: 640, height: 480).count) bytes, 1 favorite, 0 kept)? [y/N]"
      )
    }
    declined.send("n\r")
    #expect(try declined.waitForExit() == .exited(1))
    #expect(declined.outputText.contains("commit cancelled; nothing was changed"))
    #expect(fixture.names(fixture.trash) == nil)

    let accepted = try PseudoTerminal(
      product: "offloadctl", ["photos", "commit"], environment: environment)
    try accepted.waitForScreen { $0.contains("[y/N]") }
    accepted.send("y\r")
    #expect(try accepted.waitForExit() == .exited(0))
    #expect(accepted.outputText.contains("committing 2 / 2"), "progress on a terminal")
    #expect(accepted.screen.text.contains("Committed 2 photos"))
    #expect(fixture.names(fixture.trash + "/files") == ["a.jpg"])
  }
}
