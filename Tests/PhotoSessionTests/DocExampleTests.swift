import Foundation
import OffloadTestSupport
import Persistence
import Testing

@testable import PhotoSession

/// The examples of PhotoSession's doc comments, DocC catalog and guide, compiled and run here;
/// `everyExampleIsHere` fails when an example is written that this file does not hold.
///
/// The examples name folders such as `/photos/2024`; here each runs in a temporary folder:
/// a local `PhotoSessionStore(folder:)` or `FolderScan` stands in for the real one and hands
/// the example's calls to it with the temporary folders (and a Trash inside them, so no test
/// touches the user's Trash).
@Suite("PhotoSession: documentation examples compile and do what they say")
struct DocExampleTests {
  @Test func everyExampleIsHere() {
    let root = DocExamples.packageRoot(from: #filePath)
    let blocks = DocExamples.blocks(
      module: "PhotoSession", guides: ["Docs/Guides/PhotoSession.md"], root: root)
    #expect(blocks.count >= 9)
    let missing = DocExamples.missing(
      blocks, in: ["Tests/PhotoSessionTests/DocExampleTests.swift"], root: root)
    #expect(missing.isEmpty, "examples not compiled by a test: \(missing)")
  }

  /// A temporary folder with `photos/` holding `count` small JPEGs named `IMG_0001.jpg`, ...
  /// (no capture date, so they are in name order), a sessions folder and a Trash.
  struct Fixture {
    let folder: TemporaryDirectory
    var photos: String { folder.appending("photos") }
    var sessions: String { folder.appending("sessions") }
    var trash: FreedesktopTrash { FreedesktopTrash(homeTrash: folder.appending("data/Trash")) }
    var names: [String]

    init(count: Int) throws {
      folder = try TemporaryDirectory()
      names = (1...count).map { String(format: "IMG_%04d.jpg", $0) }
      try FileManager.default.createDirectory(
        atPath: folder.appending("photos"), withIntermediateDirectories: true)
      for (number, name) in names.enumerated() {
        let bytes = TestImages.jpeg(width: 400 + number, height: 300, orientation: 6)
        try Data(bytes).write(to: URL(fileURLWithPath: folder.appending("photos/" + name)))
      }
    }

    /// The real store in the temporary folder, with the Trash in it.
    func store() -> PhotoSession.PhotoSessionStore {
      PhotoSession.PhotoSessionStore(folder: sessions, trash: trash)
    }

    /// What an example's `PhotoSessionStore(folder:)` gives: the real store, whatever folder
    /// the example names, starting sessions over the fixture's photos.
    func exampleStore() -> ExampleStore { ExampleStore(store: store(), photos: photos) }

    /// The files under `photos/`, sorted.
    func photoFiles() throws -> [String] {
      try FileManager.default.contentsOfDirectory(atPath: photos).sorted()
    }

    /// The number of files the Trash holds.
    func trashedCount() -> Int {
      let files = folder.appending("data/Trash/files")
      return (try? FileManager.default.contentsOfDirectory(atPath: files).count) ?? 0
    }
  }

  /// The store the examples call: `start(folder:options:)` scans the fixture's photos, whatever
  /// folder the example names; everything else is the real store's.
  struct ExampleStore {
    let store: PhotoSession.PhotoSessionStore
    let photos: String

    func start(folder: String, options: FolderScanOptions) throws(PhotoSessionError)
      -> PhotoSession.PhotoSessionStore.Opened
    {
      try store.start(folder: photos, options: options)
    }

    func openLatest() throws(PhotoSessionError) -> PhotoSession.PhotoSessionStore.Opened {
      try store.openLatest()
    }
  }

  /// What an example's `FolderScan.scan(_:options:)` does: scans the fixture's photos.
  struct ExampleScan {
    let photos: String
    func scan(_ root: String, options: FolderScanOptions = FolderScanOptions())
      throws(PhotoSessionError) -> PhotoSession.FolderScan
    {
      try PhotoSession.FolderScan.scan(photos, options: options)
    }
  }

  // MARK: PhotoSessionError

  @Test func errorIsOneSentence() throws {
    let fixture = try Fixture(count: 2)
    defer { fixture.folder.remove() }
    let opened = try fixture.store().start(folder: fixture.photos)
    let session = opened.session
    try session.swipe(.up)
    try session.swipe(.up)
    var printed: [String] = []
    func print(_ value: Any) { printed.append("\(value)") }
    do {
      try session.swipe(.left)
    } catch {
      print(error)  // the session is at the end of the library: all 2 photos have a decision; ...
    }
    #expect(
      printed == [
        "the session is at the end of the library: all 2 photos have a decision; review or commit them"
      ])
    #expect(session.statistics.reviewed == 2 && session.statistics.trash == 0)
  }

  // MARK: PhotoDeck

  @Test func photoDeck() throws {
    let fixture = try Fixture(count: 3)
    defer { fixture.folder.remove() }
    try fixture.store().start(folder: fixture.photos).close()
    let sessionsFolder = fixture.sessions
    var printed: [String] = []
    func print(_ value: Any) { printed.append("\(value)") }
    do {
      // The type's example.
      let deck = PhotoDeck(store: PhotoSessionStore(folder: sessionsFolder))
      if let id = try deck.resolve(nil) {  // the latest session
        let cursor = try deck.session(id).state.cursor
        try deck.decide(id, at: cursor, .trash)  // durable when it returns
        print(try deck.session(id).current?.photo ?? "")  // from memory
      }
    }
    #expect(printed == ["IMG_0002.jpg"])
    let store = fixture.store()
    let latest = try store.openLatest()
    try latest.session.undo()
    try latest.close()
    printed = []
    do {
      // The guide's example.
      let deck = PhotoDeck(store: store)
      if let id = try deck.resolve(nil) {  // the latest session
        try deck.decide(id, at: 0, .trash)  // card 0 is on screen; durable when it returns
        try deck.decide(id, at: 1, .favorite)
        try deck.undo(id)  // card 1 is on screen again
        try deck.change(id, at: 0, to: .keep)  // by queue position, as review lists it
        let report = try deck.change(id) { session throws(PhotoSessionError) in
          try session.commit()
        }
        print(report.applied.count)  // 1: card 0, kept
      }
    }
    #expect(printed == ["1"])
    #expect(try fixture.photoFiles() == fixture.names && fixture.trashedCount() == 0)
  }

  // MARK: CullingSession

  @Test func cullingSession() throws {
    let fixture = try Fixture(count: 3)
    defer { fixture.folder.remove() }
    let FolderScan = ExampleScan(photos: fixture.photos)
    let sessionFolder = fixture.folder.appending("session")
    try FileManager.default.createDirectory(
      atPath: sessionFolder, withIntermediateDirectories: true)
    var printed: [String] = []
    func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
    do {
      let scan = try FolderScan.scan("/photos/2024")
      let library = FolderLibrary(root: scan.root, trash: .user())
      let journal = JSONLinesSessionJournal(folder: sessionFolder)
      let session = try CullingSession(photos: scan.photos, journal: journal, library: library)
      try session.swipe(.left)  // durable before it returns
      try session.undo()
      let report = try session.commit { progress in print(progress.done, "/", progress.total) }
      // The undo took the trash back: nothing to commit, nothing trashed.
      #expect(report.applied.isEmpty && report.failed.isEmpty && printed.isEmpty)
      #expect(session.state.cursor == 0 && session.current?.photo == "IMG_0001.jpg")
      try journal.close()
    }
    // Both events were durable: a session reopened over the journal replays to the same state.
    let journal = JSONLinesSessionJournal(folder: sessionFolder)
    defer { try? journal.close() }
    let reopened = try CullingSession(photos: fixture.names, journal: journal)
    #expect(reopened.eventsSinceSnapshot == 2 && reopened.state.cursor == 0)
    #expect(try fixture.photoFiles() == fixture.names)
  }

  @Test func cullingState() throws {
    var state = CullingState(photos: ["a.jpg", "b.jpg"], undoDepth: 5)
    let event = try state.decisionEvent(.trash, time: 0)
    try state.apply(event)
    state.cursor  // 1
    #expect(state.cursor == 1 && state.decision(at: 0) == .trash && state.decision(at: 1) == nil)
  }

  // MARK: PhotoSessionStore

  @Test func photoSessionStore() throws {
    let fixture = try Fixture(count: 3)
    defer { fixture.folder.remove() }
    func PhotoSessionStore(folder: String) -> ExampleStore { fixture.exampleStore() }
    let store = PhotoSessionStore(folder: "/home/me/.local/share/offload/photo-sessions")
    let opened = try store.start(folder: "/photos/2024", options: .init(recursive: true))
    try opened.session.swipe(.left)
    try opened.close()  // releases the session's lock
    let again = try store.openLatest()  // the same session, the swipe replayed
    #expect(again.id == opened.id)
    #expect(again.session.review(.trash).map(\.photo) == ["IMG_0001.jpg"])
    #expect(again.session.current?.photo == "IMG_0002.jpg" && fixture.trashedCount() == 0)
  }

  @Test func openingAnOpenSessionAgainIsRefused() throws {
    let fixture = try Fixture(count: 2)
    defer { fixture.folder.remove() }
    let store = fixture.store()
    let opened = try store.start(folder: fixture.photos)
    // Why the example closes the session first: its lock is held until then.
    #expect(throws: PhotoSessionError.self) { try store.openLatest() }
    try opened.close()
    #expect(try store.openLatest().id == opened.id)
  }

  // MARK: FolderLibrary

  @Test func folderLibrary() throws {
    let fixture = try Fixture(count: 3)
    defer { fixture.folder.remove() }
    let FolderScan = ExampleScan(photos: fixture.photos)
    let journal = JSONLinesSessionJournal(folder: fixture.folder.appending("session"))
    defer { try? journal.close() }
    let scan = try FolderScan.scan("/photos/2024", options: .init(recursive: true))
    let library = FolderLibrary(root: scan.root, trash: .user())
    let session = try CullingSession(photos: scan.photos, journal: journal, library: library)
    #expect(scan.root == fixture.photos && scan.photos == fixture.names)
    // The library reads the photos' headers lazily: the card on screen has its size.
    #expect(session.current?.metadata?.pixelWidth == 400)
    #expect(session.current?.metadata?.displayWidth == 300)  // orientation 6: a quarter turn
  }

  // MARK: EmbeddedPreview

  @Test func embeddedPreviewRange() throws {
    let preview = TestJPEG.encode(width: 64, height: 48, seed: 1)
    let thumbnail = TestJPEG.encode(width: 16, height: 12, seed: 2)
    let bytes = TestJPEG.tiffRaw(preview: preview, thumbnail: thumbnail)
    var served: [([UInt8], String)] = []
    func serve(_ body: ArraySlice<UInt8>, type: String) { served.append((Array(body), type)) }
    if let range = EmbeddedPreview.jpegRange(in: bytes) {
      serve(bytes[range], type: "image/jpeg")
    }
    // The largest JPEG the raw file carries is its display preview.
    #expect(served.count == 1 && served.first?.0 == preview && served.first?.1 == "image/jpeg")
  }

  @Test func embeddedPreviewLocate() throws {
    let main = TestJPEG.encode(width: 64, height: 48, seed: 3)
    let thumbnail = TestJPEG.encode(width: 16, height: 12, seed: 4)
    var served: [[UInt8]] = []
    var printed: [String] = []
    func serve(_ body: ArraySlice<UInt8>) { served.append(Array(body)) }
    func print(_ text: String) { printed.append(text) }
    for bytes in [
      TestJPEG.withEXIFThumbnail(main, thumbnail: thumbnail), TestImages.png(width: 4, height: 4),
    ] {
      switch EmbeddedPreview.locate(.thumbnail, in: bytes) {
      case .success(let range): serve(bytes[range])
      case .failure(let absence): print("no thumbnail: \(absence.reason)")
      }
    }
    #expect(served == [thumbnail])
    #expect(printed == ["no thumbnail: its format carries no embedded JPEG"])
  }

  // MARK: The DocC catalog

  @Test func catalogOverview() throws {
    let fixture = try Fixture(count: 3)
    defer { fixture.folder.remove() }
    func PhotoSessionStore(folder: String) -> ExampleStore { fixture.exampleStore() }
    let sessionsFolder = fixture.sessions
    var printed: [String] = []
    func print(_ text: String) { printed.append(text) }
    let store = PhotoSessionStore(folder: sessionsFolder)
    let opened = try store.start(folder: "/photos/2024", options: .init(recursive: true))
    let session = opened.session
    try session.swipe(.left)  // durable when it returns
    try session.undo()
    try session.swipe(.right)
    for item in session.review(.trash) { print(item.photo) }
    let report = try session.commit { progress in print("\(progress.done)/\(progress.total)") }
    // The undo took the trash back, so the trash list is empty; the favorite is committed as
    // an XMP sidecar rated 5 beside the photo.
    #expect(printed == ["1/1"])
    #expect(report.applied.map(\.photo) == ["IMG_0001.jpg"] && report.failed.isEmpty)
    let sidecar = try String(
      contentsOfFile: fixture.photos + "/IMG_0001.jpg.xmp", encoding: .utf8)
    #expect(sidecar.contains("xmp:Rating=\"5\""))
    #expect(fixture.trashedCount() == 0)
    let files = try fixture.photoFiles()
    #expect(files == (fixture.names + ["IMG_0001.jpg.xmp"]).sorted(), "\(files)")
  }

  // MARK: The guide

  @Test func guideWalkThrough() throws {
    let fixture = try Fixture(count: 5)
    defer { fixture.folder.remove() }
    func PhotoSessionStore(folder: String) -> ExampleStore { fixture.exampleStore() }
    try Data().write(to: URL(fileURLWithPath: fixture.photos + "/empty.jpg"))
    var printed: [String] = []
    func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

    let store = PhotoSessionStore(folder: "/home/me/.local/share/offload/photo-sessions")
    // In the Offload façade: PhotoSessions.store(root: location.path, environment: environment)
    let opened = try store.start(folder: "/home/me/Pictures/2024", options: .init(recursive: true))
    for issue in opened.issues { print("skipped:", issue.message) }  // symlinks, empty files, ...

    let session = opened.session
    if let card = session.current {
      print(card.photo, card.metadata?.displayWidth ?? 0, card.metadata?.orientationName ?? "")
    }
    _ = session.preloadWindow  // the next 3 photos, metadata read now
    try session.swipe(.left)  // trash, durable when it returns
    try session.swipe(.right)  // favorite
    try session.undo()  // the favorite is taken back, the photo is on screen
    try session.change("IMG_0001.jpg", to: .keep)
    print(session.statistics)  // reviewed 1, remaining ..., trash 0, keep 1, ...
    print(try session.commit(dryRun: true).applied.map(\.detail))
    let report = try session.commit { print("\($0.done)/\($0.total)") }
    for failure in report.failed { print(failure.detail) }  // e.g. a photo that vanished

    #expect(printed.count == 5)
    #expect(
      printed.first?.hasPrefix("skipped: ") == true && printed.first?.contains("empty.jpg") == true)
    #expect(printed.dropFirst().first == "IMG_0001.jpg 300 right")
    #expect(session.preloadWindow.map(\.photo) == ["IMG_0003.jpg", "IMG_0004.jpg", "IMG_0005.jpg"])
    #expect(session.current?.photo == "IMG_0002.jpg")
    let statistics = session.statistics
    #expect(statistics.reviewed == 1 && statistics.remaining == 4)
    #expect(statistics.trash == 0 && statistics.favorite == 0 && statistics.keep == 1)
    #expect(printed.dropFirst(2).first?.contains("reviewed: 1, remaining: 4, trash: 0") == true)
    #expect(printed.dropFirst(3).first == #"["keep \"IMG_0001.jpg\""]"#)
    #expect(printed.dropFirst(4).first == "1/1" && printed.last == "1/1")
    #expect(report.applied.map(\.photo) == ["IMG_0001.jpg"] && report.failed.isEmpty)
    // Keep writes nothing: the folder is as it was, and nothing went to the Trash.
    #expect(try fixture.photoFiles() == (fixture.names + ["empty.jpg"]).sorted())
    #expect(fixture.trashedCount() == 0)
  }
}
