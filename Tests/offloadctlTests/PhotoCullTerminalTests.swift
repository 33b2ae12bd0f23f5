import Foundation
import Offload
import OffloadTestSupport
import PhotoSession
import TerminalUI
import Testing

@testable import offloadctl

private func session(_ count: Int) throws -> CullingSession {
  try CullingSession(
    photos: (0..<count).map { "IMG_\($0).jpg" }, journal: MemorySessionJournal(), clock: { 0 })
}

@Suite("photos cull: the terminal around the cull screen")
struct PhotoCullTerminalTests {
  @Test(arguments: [
    (TerminalEvent.key(.character("q")), ScreenAction.quit), (.key(.controlC), .quit),
    (.endOfInput, .quit), (.key(.character("u")), .continue),
    (.resize(TerminalSize(columns: 20, rows: 5)), .continue),
  ])
  func eventsReachTheScreen(event: TerminalEvent, expected: ScreenAction) throws {
    var screen = PhotoCullScreen(session: try session(2), sessionID: "s")
    #expect(PhotoCullTerminal.handle(event, on: &screen) == expected)
  }

  /// The photo goes inline once per card, below its lines, after the frame; a key that
  /// changes nothing above it sends nothing again; a skip (same queue position, another
  /// photo) and a resize send it again.
  @Test func theInlinePictureIsSentOncePerCardAndAfterAResize() throws {
    let fixture = try PhotoFixture()
    defer { fixture.remove() }
    let photos = ["a.jpg", "c.jpg"]
    let culling = try CullingSession(
      photos: photos, journal: MemorySessionJournal(),
      library: FolderLibrary(
        root: fixture.photos, trash: FreedesktopTrash(homeTrash: fixture.trash)), clock: { 0 })
    var cull = PhotoCullTerminal(
      screen: PhotoCullScreen(session: culling, sessionID: "s"), root: fixture.photos,
      inlineImages: .iTerm2, viewer: nil)
    let size = TerminalSize(columns: 60, rows: 24)
    func draw() -> String {
      var written = ""
      cull.draw(size: size) { written += $0 }
      return written
    }
    let first = draw()
    let image = "\u{1B}]1337;File=inline=1;size=\(PhotoFiles.jpeg(width: 640, height: 480).count);"
    let at = try #require(first.range(of: "\u{1B}[9;3H" + image))
    #expect(first[..<at.lowerBound].contains("a.jpg"), "the frame first, then the picture")
    #expect(first.contains("width=56;height=12;"))
    _ = PhotoCullTerminal.handle(.key(.character("x")), on: &cull.screen)
    #expect(!draw().contains("1337;File"), "the same card: nothing sent again")
    _ = PhotoCullTerminal.handle(.key(.character("s")), on: &cull.screen)
    let skipped = draw()
    #expect(skipped.contains("1337;File") && skipped.contains("c.jpg"))
    _ = PhotoCullTerminal.handle(.resize(size), on: &cull.screen)
    #expect(draw().contains("1337;File"))
    _ = PhotoCullTerminal.handle(.key(.character("r")), on: &cull.screen)
    #expect(!draw().contains("1337;File"), "the review list shows no picture")
  }

  @Test func withoutAProtocolNothingButTheFrameIsWritten() throws {
    let fixture = try PhotoFixture()
    defer { fixture.remove() }
    let culling = try CullingSession(
      photos: ["a.jpg"], journal: MemorySessionJournal(),
      library: FolderLibrary(
        root: fixture.photos, trash: FreedesktopTrash(homeTrash: fixture.trash)), clock: { 0 })
    var cull = PhotoCullTerminal(
      screen: PhotoCullScreen(session: culling, sessionID: "s"), root: fixture.photos,
      inlineImages: nil, viewer: nil)
    var written = ""
    cull.draw(size: TerminalSize(columns: 60, rows: 24)) { written += $0 }
    #expect(written.contains("a.jpg") && !written.contains("1337") && !written.contains("\u{1B}_G"))
  }

  @Test func aViewerThatIsMissingIsReportedInTheSameFrame() throws {
    var cull = PhotoCullTerminal(
      screen: PhotoCullScreen(session: try session(2), sessionID: "s"), root: "/p",
      inlineImages: nil, viewer: try PhotoViewer(command: "/nonexistent/viewer"))
    var written = ""
    cull.draw(size: TerminalSize(columns: 120, rows: 12)) { written += $0 }
    #expect(written.contains("the viewer /nonexistent/viewer was not found or is not executable"))
    #expect(cull.screen.message?.hasSuffix("; the screen goes on without it") == true)
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
