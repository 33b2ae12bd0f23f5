import Foundation
import OffloadTestSupport
import PhotoSession
import TerminalUI
import Testing

@testable import offloadctl

private func session(_ count: Int, undoDepth: Int = 5) throws -> CullingSession {
  try CullingSession(
    photos: (0..<count).map { "IMG_\($0).jpg" }, journal: MemorySessionJournal(),
    undoDepth: undoDepth, clock: { 0 })
}

private func key(_ key: Key) -> TerminalEvent { .key(KeyPress(key)) }

@Suite("PhotoCullScreen: the cull screen's state machine")
struct PhotoCullScreenTests {
  let size = TerminalSize(columns: 90, rows: 16)

  @Test func arrowsDecideAndTheProgressLineCounts() throws {
    var screen = PhotoCullScreen(session: try session(10_000), sessionID: "s1")
    #expect(screen.frame(size: size).text.contains("Session: 0 / 10,000"))
    #expect(screen.frame(size: size).lines[2].text.hasPrefix("  IMG_0.jpg"))
    #expect(screen.handle(key(.left)) == .continue)
    #expect(screen.handle(key(.right)) == .continue)
    #expect(screen.handle(key(.up)) == .continue)
    let text = screen.frame(size: size).text
    #expect(text.contains("Session: 3 / 10,000 · trash 1 · favorite 1 · keep 1 · pending 3"))
    #expect(text.contains("IMG_2.jpg → keep"))
    #expect(text.contains("  IMG_3.jpg") && text.contains("next: IMG_4.jpg, IMG_5.jpg, IMG_6.jpg"))
    #expect(screen.session.state.decision(at: 0) == .trash)
    #expect(screen.session.state.decision(at: 1) == .favorite)
  }

  @Test func undoAndItsLimits() throws {
    var screen = PhotoCullScreen(session: try session(3, undoDepth: 1), sessionID: "s")
    _ = screen.handle(.key(.character("u")))
    #expect(screen.message == "Nothing to undo.")
    _ = screen.handle(key(.left))
    _ = screen.handle(key(.left))
    _ = screen.handle(.key(.character("u")))
    #expect(screen.message == "Undone: IMG_1.jpg is back on screen.")
    #expect(screen.session.state.cursor == 1)
    _ = screen.handle(.key(.character("u")))
    #expect(screen.message == "Nothing to undo.")
  }

  @Test func theEndOfTheLibrary() throws {
    var screen = PhotoCullScreen(session: try session(1), sessionID: "s")
    _ = screen.handle(key(.up))
    _ = screen.handle(key(.left))
    #expect(screen.message == "Every photo has a decision: r reviews, c commits.")
    #expect(screen.frame(size: size).text.contains("Every photo has a decision."))
    #expect(screen.session.state.decision(at: 0) == .keep)
  }

  @Test func reviewListsDecisionsAndChangesTheOneUnderTheCursor() throws {
    var screen = PhotoCullScreen(session: try session(5), sessionID: "s")
    _ = screen.handle(.key(.character("r")))
    #expect(screen.mode == .review && screen.message == "No photo has a decision yet.")
    _ = screen.handle(key(.escape))
    for direction in [Key.left, .left, .right] { _ = screen.handle(key(direction)) }
    _ = screen.handle(.key(.character("r")))
    #expect(screen.mode == .review)
    var text = screen.frame(size: size).text
    #expect(text.contains("Review: 3 decided photos"))
    #expect(text.contains(">     3  favorite pending    IMG_2.jpg"), "\(text)")
    _ = screen.handle(key(.up))
    _ = screen.handle(key(.up))
    _ = screen.handle(.key(.character("k")))
    #expect(screen.session.state.decision(at: 0) == .keep)
    text = screen.frame(size: size).text
    #expect(text.contains(">     1  keep     pending    IMG_0.jpg"), "\(text)")
    #expect(text.contains("IMG_0.jpg → keep"))
    _ = screen.handle(.key(.character("u")))
    #expect(screen.session.state.decision(at: 0) == .trash)
    _ = screen.handle(.key(.character("x")))
    #expect(screen.message?.hasPrefix("x does nothing here") == true)
    _ = screen.handle(key(.escape))
    #expect(screen.mode == .deck && screen.message == nil)
  }

  @Test func digitsRateTheCardOnScreenAndSSkipsIt() throws {
    var screen = PhotoCullScreen(session: try session(3), sessionID: "s")
    let first = try #require(screen.session.current?.photo)
    _ = screen.handle(.key(.character("4")))
    #expect(screen.message == "\(first) rated 4")
    #expect(screen.session.current?.photo == first && screen.session.current?.rating == 4)
    _ = screen.handle(.key(.character("9")))
    #expect(screen.message?.hasPrefix("9 does nothing here:") == true)
    _ = screen.handle(.key(.character("s")))
    #expect(screen.message == "\(first) skipped to the end of the queue")
    #expect(screen.session.state.photos.last == first)
    #expect(screen.session.card(at: 2).rating == 4)
    _ = screen.handle(.key(.character("u")))
    #expect(screen.session.current?.photo == first)
  }

  @Test func commitAsksAndOnlyYesCommits() throws {
    var screen = PhotoCullScreen(session: try session(4), sessionID: "s")
    _ = screen.handle(.key(.character("c")))
    #expect(screen.message == "Nothing to commit." && screen.mode == .deck)
    _ = screen.handle(key(.left))
    _ = screen.handle(key(.right))
    _ = screen.handle(.key(.character("c")))
    #expect(screen.mode == .confirmCommit)
    #expect(
      screen.message == "Commit 2 photos (1 to the Trash, 1 favorite, 0 kept)? y / n")
    #expect(screen.frame(size: size).text.contains("y commit · n cancel"))
    _ = screen.handle(.key(.character("n")))
    #expect(screen.message == "Commit cancelled; nothing was changed.")
    #expect(screen.session.statistics.committed == 0)
    _ = screen.handle(.key(.character("c")))
    _ = screen.handle(.key(.character("y")))
    #expect(screen.message == "Committed 2 photos." && screen.commits == 1)
    #expect(screen.session.statistics.committed == 2 && screen.session.statistics.pending == 0)
  }

  @Test(arguments: [
    TerminalEvent.key(.character("q")), .key(.controlC), .endOfInput,
  ])
  func quitting(event: TerminalEvent) throws {
    var screen = PhotoCullScreen(session: try session(2), sessionID: "s")
    #expect(screen.handle(event) == .quit)
  }

  @Test func aJournalFailureIsShownAndNothingIsDecided() throws {
    let journal = MemorySessionJournal()
    let culling = try CullingSession(photos: ["a.jpg"], journal: journal, clock: { 0 })
    var screen = PhotoCullScreen(session: culling, sessionID: "s")
    journal.failAppends = 1
    _ = screen.handle(key(.left))
    #expect(screen.message == "cannot append to the journal: injected failure")
    #expect(culling.state.cursor == 0)
  }

  @Test func aSmallTerminalKeepsTheStatusLine() throws {
    var screen = PhotoCullScreen(session: try session(3), sessionID: "s")
    let frame = screen.frame(size: TerminalSize(columns: 30, rows: 3))
    #expect(frame.lines.count == 3)
    #expect(frame.lines[1].text.hasPrefix("Session: 0 / 3"))
  }
}

@Suite("Inline images: detection and escape sequences")
struct InlineImageTests {
  @Test(arguments: [
    (["TERM": "xterm-kitty"], InlineImageProtocol?.some(.kitty)),
    (["KITTY_WINDOW_ID": "1", "TERM": "xterm-256color"], .kitty),
    (["TERM_PROGRAM": "iTerm.app"], .iTerm2),
    (["TERM_PROGRAM": "WezTerm"], .iTerm2),
    (["TERM": "xterm-256color"], nil),
    ([:], nil),
  ])
  func detection(environment: [String: String], expected: InlineImageProtocol?) {
    #expect(InlineImageProtocol.detect(environment: environment) == expected)
  }

  @Test func sequences() throws {
    let bytes = [UInt8](repeating: 7, count: 5000)
    let base64 = Data(bytes).base64EncodedString()
    let iterm = try #require(
      InlineImageProtocol.iTerm2.sequence(bytes: bytes, format: .jpeg, columns: 40, rows: 10))
    #expect(
      iterm
        == "\u{1B}]1337;File=inline=1;size=5000;width=40;height=10;preserveAspectRatio=1:\(base64)\u{07}"
    )
    #expect(
      InlineImageProtocol.iTerm2.sequence(bytes: bytes, format: .nef, columns: 4, rows: 4) == nil)
    // kitty takes PNG as it is, in chunks of 4096 base64 bytes.
    #expect(
      InlineImageProtocol.kitty.sequence(bytes: bytes, format: .jpeg, columns: 4, rows: 4) == nil)
    let kitty = try #require(
      InlineImageProtocol.kitty.sequence(bytes: bytes, format: .png, columns: 40, rows: 10))
    #expect(kitty.hasPrefix("\u{1B}_Ga=T,f=100,q=2,c=40,r=10,m=1;"))
    #expect(kitty.components(separatedBy: "\u{1B}_G").count - 1 == (base64.count + 4095) / 4096)
    #expect(kitty.hasSuffix("\u{1B}_Gm=0;\(base64.suffix(base64.count % 4096))\u{1B}\\"))
    let huge = [UInt8](repeating: 0, count: InlineImageProtocol.maximumBytes + 1)
    #expect(
      InlineImageProtocol.iTerm2.sequence(bytes: huge, format: .png, columns: 4, rows: 4) == nil)
  }
}

@Suite("photos: exit codes")
struct PhotoExitCodeTests {
  @Test(arguments: PhotoSessionError.Code.allCases)
  func everyCodeHasItsExitStatus(code: PhotoSessionError.Code) {
    let expected: Int32
    switch code.rawValue {
    case "notAFolder", "emptyLibrary", "noSession", "unknownPhoto", "photoMissing": expected = 66
    case "invalidArgument": expected = 64
    case "journalCorrupt", "sessionCorrupt", "corruptImage", "truncatedImage",
      "unsupportedFormat", "emptyFile":
      expected = 65
    case "writeFailed", "trashFailed", "sidecarFailed", "crossDevice", "unreadable": expected = 74
    case "sessionBusy": expected = 75
    default: expected = 1
    }
    #expect(code.exitCode.rawValue == expected, "\(code)")
  }

  @Test func groupedNumbers() {
    #expect(
      [0, 999, 1000, 10_000, 1_234_567, -12_000].map(\.grouped) == [
        "0", "999", "1,000", "10,000", "1,234,567", "-12,000",
      ])
  }
}
