import Foundation
import OffloadTestSupport
import PhotoSession
import TerminalUI
import Testing

@testable import Offload

/// A session of `count` photos without files (cards have no metadata).
private func session(_ count: Int, undoDepth: Int = 5) throws -> CullingSession {
  try CullingSession(
    photos: (0..<count).map { "IMG_\($0).jpg" }, journal: MemorySessionJournal(),
    undoDepth: undoDepth, clock: { 0 })
}

private func key(_ key: Key) -> KeyPress { KeyPress(key) }
private func char(_ character: Character) -> KeyPress { KeyPress(.character(character)) }

/// A folder of photos with fixed modification times, and a session over it: `a.jpg`,
/// `b.jpg`, `c.jpg` (real JPEGs), `d.jpg` (a header cut short: its card cannot be read).
private struct CullFolder {
  let folder: TemporaryDirectory
  let opened: PhotoSessionStore.Opened

  init() throws {
    folder = try TemporaryDirectory(prefix: "offload-cull")
    let photos = folder.appending("photos")
    let manager = FileManager.default
    try manager.createDirectory(atPath: photos, withIntermediateDirectories: true)
    let files: [(String, [UInt8])] = [
      ("a.jpg", TestJPEG.encode(width: 64, height: 48)),
      ("b.jpg", TestJPEG.encode(width: 48, height: 64, seed: 1)),
      ("c.jpg", TestJPEG.encode(width: 32, height: 32, seed: 2)),
      ("d.jpg", [0xFF, 0xD8, 0xFF, 0xC0, 0x00]),
    ]
    for (name, bytes) in files {
      let path = photos + "/" + name
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      try manager.setAttributes(
        [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000)], ofItemAtPath: path)
    }
    let store = PhotoSessionStore(
      folder: folder.appending("sessions"),
      trash: FreedesktopTrash(homeTrash: folder.appending("Trash")), clock: { 1_800_000_000 })
    opened = try store.start(
      folder: photos,
      options: FolderScanOptions(recursive: false, ordering: .modificationTime))
  }

  func screen() -> PhotoCullScreen {
    PhotoCullScreen(session: opened.session, sessionID: "20270115-080000")
  }
}

/// The frame's lines, each with its style, as a snapshot file holds them.
private func snapshotText(_ frame: Frame) -> String {
  frame.lines.map { line in
    var text = Substring(line.text)
    while text.last == " " { text.removeLast() }
    let style = "\(line.style)".padding(toLength: 11, withPad: " ", startingAt: 0)
    return "\(style)|\(text)"
  }.joined(separator: "\n") + "\n"
}

@Suite("PhotoCullScreen: keys in, session calls made, frames out")
struct PhotoCullScreenTests {
  let size = TerminalSize(columns: 90, rows: 16)

  @Test func arrowsDecideAndTheProgressLineCounts() throws {
    var screen = PhotoCullScreen(session: try session(10_000), sessionID: "s1")
    #expect(screen.frame(size: size).text.contains("Session: 0 / 10,000"))
    #expect(screen.frame(size: size).lines[2].text.hasPrefix("  IMG_0.jpg"))
    #expect(screen.handle(key(.left)) == .redraw)
    #expect(screen.handle(key(.right)) == .redraw)
    #expect(screen.handle(key(.up)) == .redraw)
    let text = screen.frame(size: size).text
    #expect(text.contains("Session: 3 / 10,000 · trash 1 · favorite 1 · keep 1 · pending 3"))
    #expect(text.contains("IMG_2.jpg → keep"))
    #expect(text.contains("  IMG_3.jpg") && text.contains("next: IMG_4.jpg, IMG_5.jpg, IMG_6.jpg"))
    #expect(screen.session.state.decision(at: 0) == .trash)
    #expect(screen.session.state.decision(at: 1) == .favorite)
  }

  @Test func lettersDecideLikeTheArrows() throws {
    var screen = PhotoCullScreen(session: try session(4), sessionID: "s")
    for letter: Character in ["h", "l", "k"] { _ = screen.handle(char(letter)) }
    #expect(
      (0..<3).map { screen.session.state.decision(at: $0) } == [.trash, .favorite, .keep])
  }

  @Test func undoAndItsLimits() throws {
    var screen = PhotoCullScreen(session: try session(3, undoDepth: 1), sessionID: "s")
    _ = screen.handle(char("u"))
    #expect(screen.message == "Nothing to undo.")
    _ = screen.handle(key(.left))
    _ = screen.handle(key(.left))
    _ = screen.handle(char("u"))
    #expect(screen.message == "Undone: IMG_1.jpg is back on screen.")
    #expect(screen.session.state.cursor == 1)
    _ = screen.handle(char("u"))
    #expect(screen.message == "Nothing to undo.")
  }

  @Test func theEndOfTheLibrary() throws {
    var screen = PhotoCullScreen(session: try session(1), sessionID: "s")
    _ = screen.handle(key(.up))
    _ = screen.handle(key(.left))
    #expect(screen.message == "Every photo has a decision: r reviews, c commits.")
    #expect(screen.frame(size: size).text.contains("Every photo has a decision."))
    #expect(screen.session.state.decision(at: 0) == .keep)
    for press in [char("3"), char("s")] {
      _ = screen.handle(press)
      #expect(screen.message == "Every photo has a decision: r reviews, c commits.")
    }
  }

  @Test func reviewListsDecisionsAndChangesTheOneUnderTheCursor() throws {
    var screen = PhotoCullScreen(session: try session(5), sessionID: "s")
    _ = screen.handle(char("r"))
    #expect(screen.mode == .review && screen.message == "No photo has a decision yet.")
    _ = screen.handle(char("t"))
    #expect(screen.message == "No photo to change.")
    _ = screen.handle(key(.escape))
    for direction in [Key.left, .left, .right] { _ = screen.handle(key(direction)) }
    _ = screen.handle(char("r"))
    #expect(screen.mode == .review)
    var text = screen.frame(size: size).text
    #expect(text.contains("Review: 3 decided photos"))
    #expect(text.contains(">     3  favorite pending    IMG_2.jpg"), "\(text)")
    _ = screen.handle(key(.up))
    _ = screen.handle(key(.up))
    _ = screen.handle(char("k"))
    #expect(screen.session.state.decision(at: 0) == .keep)
    text = screen.frame(size: size).text
    #expect(text.contains(">     1  keep     pending    IMG_0.jpg"), "\(text)")
    #expect(text.contains("IMG_0.jpg → keep"))
    _ = screen.handle(char("u"))
    #expect(screen.session.state.decision(at: 0) == .trash)
    _ = screen.handle(char("x"))
    #expect(screen.message?.hasPrefix("x does nothing here") == true)
    _ = screen.handle(key(.end))
    _ = screen.handle(key(.left))
    #expect(screen.session.state.decision(at: 2) == .trash)
    _ = screen.handle(key(.home))
    _ = screen.handle(char("f"))
    #expect(screen.session.state.decision(at: 0) == .favorite)
    _ = screen.handle(key(.escape))
    #expect(screen.mode == .deck && screen.message == nil)
  }

  @Test func digitsRateTheCardOnScreenAndSSkipsIt() throws {
    var screen = PhotoCullScreen(session: try session(3), sessionID: "s")
    let first = try #require(screen.session.current?.photo)
    _ = screen.handle(char("4"))
    #expect(screen.message == "\(first) rated 4")
    #expect(screen.session.current?.photo == first && screen.session.current?.rating == 4)
    _ = screen.handle(char("9"))
    #expect(screen.message?.hasPrefix("9 does nothing here:") == true)
    _ = screen.handle(char("s"))
    #expect(screen.message == "\(first) skipped to the end of the queue")
    #expect(screen.session.state.photos.last == first)
    #expect(screen.session.card(at: 2).rating == 4)
    _ = screen.handle(char("u"))
    #expect(screen.session.current?.photo == first)
  }

  @Test func commitAsksAndOnlyYesCommits() throws {
    var screen = PhotoCullScreen(session: try session(4), sessionID: "s")
    _ = screen.handle(char("c"))
    #expect(screen.message == "Nothing to commit." && screen.mode == .deck)
    _ = screen.handle(key(.left))
    _ = screen.handle(key(.right))
    _ = screen.handle(char("c"))
    #expect(screen.mode == .confirmCommit)
    #expect(
      screen.message == "Commit 2 photos (1 to the Trash, 1 favorite, 0 kept)? y / n")
    #expect(screen.frame(size: size).text.contains("y commit · n cancel"))
    _ = screen.handle(char("q"))
    #expect(screen.message == "Commit cancelled; nothing was changed.", "q answers no")
    #expect(screen.session.statistics.committed == 0)
    _ = screen.handle(char("c"))
    _ = screen.handle(char("Y"))
    #expect(screen.message == "Committed 2 photos." && screen.commits == 1)
    #expect(screen.session.statistics.committed == 2 && screen.session.statistics.pending == 0)
    _ = screen.handle(char("c"))
    #expect(screen.message == "Nothing to commit.")
  }

  @Test func theCommitQuestionNamesTheBytesTheTrashGets() throws {
    let cull = try CullFolder()
    defer { cull.folder.remove() }
    var screen = cull.screen()
    _ = screen.handle(key(.left))
    _ = screen.handle(key(.right))
    _ = screen.handle(char("c"))
    let bytes = TestJPEG.encode(width: 64, height: 48).count
    #expect(
      screen.message
        == "Commit 2 photos (1 to the Trash: \(PhotoText.grouped(bytes)) bytes, 1 favorite, 0 kept)? y / n"
    )
    _ = screen.handle(char("y"))
    #expect(screen.message == "Committed 2 photos.")
    #expect(
      FileManager.default.fileExists(atPath: cull.folder.appending("Trash/files/a.jpg")),
      "trashed, never deleted")
  }

  @Test(arguments: [
    [char("q")], [KeyPress.controlC], [char("r"), char("q")], [char("r"), .controlC],
  ])
  func quitting(keys: [KeyPress]) throws {
    var screen = PhotoCullScreen(session: try session(2), sessionID: "s")
    let actions = keys.map { screen.handle($0) }
    #expect(actions.last == .quit && actions.dropLast().allSatisfy { $0 == .redraw })
  }

  @Test func aJournalFailureIsShownAndNothingIsDecided() throws {
    let journal = MemorySessionJournal()
    let culling = try CullingSession(photos: ["a.jpg"], journal: journal, clock: { 0 })
    var screen = PhotoCullScreen(session: culling, sessionID: "s")
    for press in [key(.left), char("3"), char("s")] {
      journal.failAppends = 1
      _ = screen.handle(press)
      #expect(screen.message == "cannot append to the journal: injected failure")
      #expect(culling.state.cursor == 0 && culling.current?.rating == nil)
    }
  }

  @Test func aSmallTerminalKeepsTheStatusLine() throws {
    var screen = PhotoCullScreen(session: try session(3), sessionID: "s")
    let frame = screen.frame(size: TerminalSize(columns: 30, rows: 3))
    #expect(frame.lines.count == 3)
    #expect(frame.lines[1].text.hasPrefix("Session: 0 / 3"))
    _ = screen.handle(char("r"))
    #expect(screen.frame(size: TerminalSize(columns: 30, rows: 2)).lines.count == 2)
  }

  @Test func noteShowsWhatTheTerminalSays() throws {
    var screen = PhotoCullScreen(session: try session(2), sessionID: "s")
    screen.note("the viewer feh was not found")
    #expect(screen.frame(size: size).lines[size.rows - 3].text.hasPrefix("the viewer feh"))
  }
}

@Suite("PhotoCullScreen: frame snapshots")
struct PhotoCullFrameSnapshotTests {
  let size = TerminalSize(columns: 96, rows: 18)

  @Test func deckReviewCommitAndAnUnreadableCard() throws {
    let cull = try CullFolder()
    defer { cull.folder.remove() }
    var screen = cull.screen()
    var frames = ["fresh": screen.frame(size: size)]
    _ = screen.handle(key(.left))
    _ = screen.handle(char("4"))
    frames["rated"] = screen.frame(size: size)
    _ = screen.handle(key(.right))
    _ = screen.handle(key(.up))
    frames["unreadable"] = screen.frame(size: size)
    _ = screen.handle(char("r"))
    frames["review"] = screen.frame(size: size)
    _ = screen.handle(key(.escape))
    _ = screen.handle(char("c"))
    frames["commit"] = screen.frame(size: size)
    _ = screen.handle(char("n"))
    _ = screen.handle(key(.left))
    frames["end"] = screen.frame(size: size)
    for (name, frame) in frames {
      expectSnapshot(snapshotText(frame), named: "cull-\(name).txt")
    }
  }
}

@Suite("PhotoCullScreen: what the terminal shows besides the text")
struct PhotoCullDisplayTests {
  let size = TerminalSize(columns: 80, rows: 30)

  @Test func thePictureFollowsTheCardAndItsLines() throws {
    let cull = try CullFolder()
    defer { cull.folder.remove() }
    var screen = cull.screen()
    let first = screen.display(size: size)
    let area = PhotoCullPreview.Area(row: 8, column: 2, rows: 18, columns: 76)
    #expect(
      first
        == PhotoCullDisplay(
          photo: "a.jpg", photoChanged: true, previewChanged: true,
          preview: PhotoCullPreview(photo: "a.jpg", format: .jpeg, area: area)))
    // Nothing changed: nothing to do.
    #expect(screen.display(size: size).photoChanged == false)
    #expect(screen.display(size: size).previewChanged == false)
    // A rating adds a line above the picture: the same photo, drawn one row lower.
    _ = screen.handle(char("4"))
    let rated = screen.display(size: size)
    #expect(!rated.photoChanged && rated.previewChanged)
    #expect(rated.preview?.area.row == 9 && rated.preview?.area.rows == 17)
    // A resize: the terminal redrew everything, so the picture is drawn again.
    screen.resized()
    #expect(screen.display(size: size).previewChanged)
    #expect(!screen.display(size: size).previewChanged)
    // Skipping keeps the queue position but shows another photo.
    _ = screen.handle(char("s"))
    let skipped = screen.display(size: size)
    #expect(skipped.photo == "b.jpg" && skipped.photoChanged && skipped.previewChanged)
  }

  @Test func theReviewListHidesThePictureAndComingBackIsNoNewPhoto() throws {
    let cull = try CullFolder()
    defer { cull.folder.remove() }
    var screen = cull.screen()
    _ = screen.display(size: size)
    _ = screen.handle(char("r"))
    let review = screen.display(size: size)
    #expect(
      review
        == PhotoCullDisplay(
          photo: nil, photoChanged: false, previewChanged: true, preview: nil))
    _ = screen.handle(key(.escape))
    let back = screen.display(size: size)
    #expect(back.photo == "a.jpg" && !back.photoChanged && back.previewChanged)
    #expect(back.preview?.photo == "a.jpg")
  }

  /// A card without a picture (its header unreadable; later, a kind that has none) shows
  /// its lines and offers no picture, but an external viewer still gets its path.
  @Test func aCardWithoutAPictureShowsItsDetailsOnly() throws {
    let cull = try CullFolder()
    defer { cull.folder.remove() }
    var screen = cull.screen()
    for _ in 0..<3 { _ = screen.handle(key(.up)) }
    let display = screen.display(size: size)
    #expect(display.photo == "d.jpg" && display.photoChanged && display.previewChanged)
    #expect(display.preview == nil)
    let text = screen.frame(size: size).text
    #expect(text.contains("  d.jpg\n  cannot read this photo:"), "\(text)")
    // The picture area is still known: the terminal clears what was drawn there.
    #expect(screen.pictureArea(size: size) != nil)
  }

  @Test func onlyStillImageFormatsArePreviewable() {
    for format: ImageFormat in [.jpeg, .png, .gif, .webp, .tiff, .heif, .cr2, .nef, .dng] {
      #expect(PhotoCullScreen.previewableFormats.contains(format), "\(format)")
    }
  }

  @Test(arguments: [
    (TerminalSize(columns: 80, rows: 10), false), (TerminalSize(columns: 80, rows: 15), false),
    (TerminalSize(columns: 80, rows: 16), true), (TerminalSize(columns: 3, rows: 40), true),
  ])
  func aTerminalTooSmallForFourRowsGetsNoPicture(size: TerminalSize, fits: Bool) throws {
    let cull = try CullFolder()
    defer { cull.folder.remove() }
    var screen = cull.screen()
    let display = screen.display(size: size)
    #expect((display.preview != nil) == fits)
    #expect(display.preview.map { $0.area.columns >= 1 && $0.area.rows >= 4 } ?? true)
  }

  @Test func theEndOfTheLibraryShowsNoPhoto() throws {
    var screen = PhotoCullScreen(session: try session(1), sessionID: "s")
    _ = screen.display(size: size)
    _ = screen.handle(key(.left))
    let end = screen.display(size: size)
    #expect(end.photo == nil && !end.photoChanged && end.previewChanged && end.preview == nil)
    #expect(screen.pictureArea(size: size) == nil)
  }
}

@Suite("PhotoCullScreen: invariants over seeded key sequences")
struct PhotoCullScreenPropertyTests {
  static let keys: [KeyPress] =
    [
      key(.left), key(.right), key(.up), key(.down), key(.escape), key(.enter), key(.pageUp),
      key(.pageDown), key(.home), key(.end), KeyPress(.left, .alt),
    ] + "hlkusrcyntfx0123459q".map { char($0) }

  @Test func everyFrameIsWholeAndTheScreenAgreesWithTheSession() throws {
    let seed = SplitMix64.testSeed(20_261_125)
    var random = SplitMix64(seed: seed)
    for round in 0..<60 {
      let count = 1 + random.index(below: 12)
      let size = TerminalSize(
        columns: 10 + random.index(below: 90), rows: 3 + random.index(below: 30))
      let undoDepth = random.index(below: 4)
      var screen = PhotoCullScreen(
        session: try session(count, undoDepth: undoDepth), sessionID: "s")
      var pressed: [KeyPress] = []
      for _ in 0..<80 {
        let press = Self.keys[random.index(below: Self.keys.count)]
        pressed.append(press)
        let before = screen.mode
        let action = screen.handle(press)
        let context = "seed \(seed) round \(round) after \(pressed.map(\.description))"
        // q quits but answers no to the commit question; every other key redraws.
        let quits = press == char("q") && before != .confirmCommit
        #expect(action == (quits ? .quit : .redraw), "\(context)")
        #expect(
          before != .confirmCommit || screen.mode == .deck, "a key answers: \(context)")
        let display = screen.display(size: size)
        let frame = screen.frame(size: size)
        let stats = screen.session.statistics
        #expect(frame.lines.count == size.rows, "\(context)")
        let help: String
        switch screen.mode {
        case .deck: help = PhotoCullScreen.deckHelp
        case .review: help = PhotoCullScreen.reviewHelp
        case .confirmCommit: help = PhotoCullScreen.confirmHelp
        }
        #expect(
          frame.lines.last?.text == TerminalText.fit(help, width: size.columns, pad: true),
          "\(context)")
        let progress = String(PhotoText.progressLine(stats).prefix(size.columns - 1))
        #expect(frame.lines[size.rows - 2].text.hasPrefix(progress), "\(context)")
        #expect(frame.lines[size.rows - 2].style == .reverse, "\(context)")
        #expect(stats.trash + stats.favorite + stats.keep == stats.reviewed, "\(context)")
        if screen.mode == .review {
          #expect(screen.reviewItems == screen.session.review(), "\(context)")
          #expect(display.photo == nil && display.preview == nil, "\(context)")
        } else {
          #expect(display.photo == screen.session.current?.photo, "\(context)")
        }
        if let preview = display.preview {
          #expect(preview.area.row + preview.area.rows <= size.rows - 4, "\(context)")
          #expect(preview.area.column + preview.area.columns <= size.columns, "\(context)")
        }
        if action == .quit { break }
      }
      // The same keys on a fresh session draw the same frame: output is deterministic.
      var again = PhotoCullScreen(
        session: try session(count, undoDepth: undoDepth), sessionID: "s")
      for press in pressed where again.handle(press) == .quit { break }
      #expect(
        again.frame(size: size) == screen.frame(size: size), "seed \(seed) round \(round)")
    }
  }
}
