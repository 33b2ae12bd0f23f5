import Foundation
import OffloadTestSupport
import Testing

@testable import PhotoSession

private let utc = TimeZone(identifier: "UTC") ?? .current

/// A library that records calls and fails photos on demand.
final class ScriptedLibrary: PhotoLibrary {
  var applied: [(PhotoDecision, String, Bool)] = []
  var failing: Set<String> = []

  func metadata(of photo: String) throws(PhotoSessionError) -> PhotoMetadata {
    if failing.contains(photo) {
      throw PhotoSessionError(.photoMissing, path: photo, description: "\(photo) is gone")
    }
    return PhotoMetadata(
      format: .jpeg, byteCount: 1, pixelWidth: 1, pixelHeight: 1, orientation: 1, captureDate: nil,
      modificationTime: 0)
  }

  func apply(_ decision: PhotoDecision, to photo: String, resuming: Bool) throws(PhotoSessionError)
    -> String
  {
    if failing.contains(photo) {
      throw PhotoSessionError(.photoMissing, path: photo, description: "\(photo) is gone")
    }
    applied.append((decision, photo, resuming))
    return "applied \(decision) to \(photo)"
  }

  func plan(_ decision: PhotoDecision, for photo: String) -> String { "would \(decision) \(photo)" }

  var flushes = 0
  var failFlush = false
  func flush() throws(PhotoSessionError) {
    if failFlush { throw PhotoSessionError(.writeFailed, description: "cannot sync: injected") }
    flushes += 1
  }
}

private func ids(_ count: Int) -> [String] { (0..<count).map { "p\($0).jpg" } }

@Suite("CullingSession: durable decisions, review, commit")
struct CullingSessionTests {
  @Test func aDecisionThatCannotBeJournaledIsNotMade() throws {
    let journal = MemorySessionJournal()
    let session = try CullingSession(photos: ids(3), journal: journal, clock: { 0 })
    journal.failAppends = 1
    let error = #expect(throws: PhotoSessionError.self) { try session.swipe(.left) }
    #expect(error?.description == "cannot append to the journal: injected failure")
    #expect(session.state.cursor == 0 && journal.events.isEmpty)
    try session.swipe(.left)
    #expect(session.state.cursor == 1 && journal.events.count == 1)
  }

  @Test func reopeningReplaysToTheExactState() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    var time = 100.0
    let clock = {
      time += 2; return time
    }
    let session = try CullingSession(
      photos: ids(50), journal: JSONLinesSessionJournal(folder: folder.path), undoDepth: 3,
      clock: clock)
    var rng = SplitMix64(seed: SplitMix64.testSeed(77))
    for _ in 0..<200 {
      switch rng.index(below: 10) {
      case 0..<6: _ = try? session.swipe(SwipeDirection.allCases[rng.index(below: 3)])
      case 6..<9: _ = try? session.undo()
      default: try? session.change("p\(rng.index(below: 50)).jpg", to: .favorite)
      }
      let reopened = try CullingSession(
        photos: ids(50), journal: JSONLinesSessionJournal(folder: folder.path, readOnly: true),
        undoDepth: 3)
      #expect(reopened.state == session.state, "\(rng)")
      #expect(reopened.statistics == session.statistics)
    }
    // Compaction keeps the state too.
    try session.compact()
    let reopened = try CullingSession(
      photos: ids(50), journal: JSONLinesSessionJournal(folder: folder.path, readOnly: true))
    #expect(reopened.state == session.state && reopened.eventsSinceSnapshot == 0)
  }

  @Test func statisticsAndReview() throws {
    var time = 0.0
    let session = try CullingSession(
      photos: ids(6), journal: MemorySessionJournal(),
      clock: {
        time += 3; return time
      })
    for direction in [SwipeDirection.left, .right, .up, .left] { try session.swipe(direction) }
    let stats = session.statistics
    #expect(
      stats
        == SessionStatistics(
          total: 6, reviewed: 4, remaining: 2, trash: 2, favorite: 1, keep: 1, pending: 4,
          committed: 0, failed: 0, swipesPerMinute: 20, isAtEnd: false))
    #expect(session.review(.trash).map(\.photo) == ["p0.jpg", "p3.jpg"])
    #expect(session.review().count == 4)
    try session.change("p0.jpg", to: .keep)
    #expect(session.review(.trash).map(\.photo) == ["p3.jpg"])
    #expect(session.review(.keep).map(\.index) == [0, 2])
  }

  @Test func preloadWindowHoldsTheNextThreeWithMetadata() throws {
    let library = ScriptedLibrary()
    library.failing = ["p2.jpg"]
    let session = try CullingSession(
      photos: ids(5), journal: MemorySessionJournal(), library: library)
    #expect(session.current?.photo == "p0.jpg" && session.current?.metadata?.pixelWidth == 1)
    #expect(session.preloadWindow.map(\.photo) == ["p1.jpg", "p2.jpg", "p3.jpg"])
    #expect(session.preloadWindow[1].problem?.code == .photoMissing)
    #expect(session.preloadWindow[1].metadata == nil)
    try session.swipe(.up)
    try session.swipe(.up)
    #expect(session.current?.problem?.description == "p2.jpg is gone")
    // A photo that cannot be read can still be decided: the session goes on.
    try session.swipe(.left)
    #expect(session.preloadWindow.map(\.photo) == ["p4.jpg"])
    try session.swipe(.up)
    #expect(session.preloadWindow.isEmpty)
    try session.swipe(.up)
    #expect(session.current == nil && session.statistics.isAtEnd)
  }

  @Test func commitAppliesInBatchesReportsFailuresAndIsIdempotent() throws {
    let library = ScriptedLibrary()
    library.failing = ["p3.jpg"]
    let journal = MemorySessionJournal()
    let session = try CullingSession(photos: ids(8), journal: journal, library: library)
    for direction in [SwipeDirection.left, .right, .up, .left, .right, .left] {
      try session.swipe(direction)
    }
    let dry = try session.commit(dryRun: true)
    #expect(
      dry.dryRun
        && dry.applied.map(\.detail) == [
          "would trash p0.jpg", "would favorite p1.jpg", "would keep p2.jpg", "would trash p3.jpg",
          "would favorite p4.jpg", "would trash p5.jpg",
        ])
    #expect(library.applied.isEmpty && session.statistics.committed == 0)
    var progress: [CommitProgress] = []
    let report = try session.commit(batchSize: 4) { progress.append($0) }
    #expect(report.applied.count == 5 && report.failed.map(\.photo) == ["p3.jpg"])
    #expect(report.failed[0].failure?.code == .photoMissing && report.batches == 2)
    #expect(
      progress.map(\.done) == [1, 2, 3, 4, 5, 6] && progress.map(\.batch) == [1, 1, 1, 1, 2, 2])
    #expect(session.statistics.committed == 5 && session.statistics.failed == 1)
    #expect(session.state.undoStack.isEmpty)
    let undo = #expect(throws: PhotoSessionError.self) { try session.undo() }
    #expect(undo?.code == .nothingToUndo)
    // Again: only the failed photo is tried; once it succeeds, nothing is left to do.
    library.failing = []
    let second = try session.commit()
    #expect(second.applied.map(\.photo) == ["p3.jpg"])
    let third = try session.commit()
    #expect(third.applied.isEmpty && third.failed.isEmpty)
    #expect(
      library.applied.map(\.1) == ["p0.jpg", "p1.jpg", "p2.jpg", "p4.jpg", "p5.jpg", "p3.jpg"])
    let change = #expect(throws: PhotoSessionError.self) { try session.change("p0.jpg", to: .keep) }
    #expect(change?.code == .alreadyCommitted)
    // Reports encode to JSON for `--json` output.
    let json = try JSONRoundTrip.encode(report)
    #expect(try JSONRoundTrip.decode(CommitReport.self, from: json) == report)
    #expect(json.contains(#""failure":{"code":"photoMissing""#))
    let bad = #expect(throws: PhotoSessionError.self) { try session.commit(batchSize: 0) }
    #expect(bad?.description == "the commit batch size must be positive, not 0")
  }

  @Test func aCommitInterruptedAfterAnIntentResumesThatPhoto() throws {
    let library = ScriptedLibrary()
    let journal = MemorySessionJournal()
    let session = try CullingSession(photos: ids(3), journal: journal, library: library)
    try session.swipe(.left)
    try session.swipe(.right)
    // The journal a crash leaves: the intent for p0 is durable, its result is not.
    try journal.append([
      .commitStarted(time: 0), .commitIntent(index: 0, photo: "p0.jpg", decision: .trash),
    ])
    let reopened = try CullingSession(photos: ids(3), journal: journal, library: library)
    #expect(reopened.state.commitState(at: 0) == .inProgress && reopened.state.commitRunning)
    let report = try reopened.commit()
    #expect(report.applied.map(\.photo) == ["p0.jpg", "p1.jpg"])
    #expect(library.applied.map(\.2) == [true, false])
    #expect(!reopened.state.commitRunning)
  }

  @Test func aJournalWriteFailureDuringCommitStopsItAndTheNextCommitFinishes() throws {
    let library = ScriptedLibrary()
    let journal = MemorySessionJournal()
    let session = try CullingSession(photos: ids(4), journal: journal, library: library)
    for _ in 0..<4 { try session.swipe(.left) }
    journal.failAppends = 3  // commitStarted+intent(p0), then fail twice more.
    // The first append (start + intent p0) fails: nothing is applied.
    #expect(throws: PhotoSessionError.self) { try session.commit(batchSize: 1) }
    #expect(library.applied.isEmpty)
    journal.failAppends = 0
    try session.commit(batchSize: 1)
    #expect(library.applied.map(\.1) == ["p0.jpg", "p1.jpg", "p2.jpg", "p3.jpg"])
    #expect(session.statistics.committed == 4)
  }

  @Test func aFailedFlushLeavesTheBatchInProgressAndTheNextCommitResumesIt() throws {
    let library = ScriptedLibrary()
    let session = try CullingSession(
      photos: ids(3), journal: MemorySessionJournal(), library: library)
    for direction in [SwipeDirection.left, .up, .right] { try session.swipe(direction) }
    library.failFlush = true
    let error = #expect(throws: PhotoSessionError.self) { try session.commit() }
    #expect(error?.description == "cannot sync: injected")
    #expect(session.state.commitState(at: 0) == .inProgress)
    #expect(session.state.commitState(at: 1) == .pending)  // keep has no intent
    library.failFlush = false
    try session.commit()
    #expect(library.applied.map(\.2) == [false, false, false, true, false, true])
    #expect(session.statistics.committed == 3 && library.flushes == 1)
  }

  @Test func openingALongJournalCompactsIt() throws {
    let journal = MemorySessionJournal()
    let count = CullingSession.compactionThreshold + 1
    let session = try CullingSession(photos: ids(count), journal: journal, clock: { 0 })
    for _ in 0..<count { try session.swipe(.up) }
    #expect(journal.events.count == count && journal.snapshot == nil)
    let reopened = try CullingSession(photos: ids(count), journal: journal)
    #expect(journal.events.isEmpty && journal.snapshot == session.state.snapshot)
    #expect(reopened.state == session.state && reopened.eventsSinceSnapshot == 0)
  }

  @Test func invalidArguments() {
    let error = #expect(throws: PhotoSessionError.self) {
      try CullingSession(photos: ids(1), journal: MemorySessionJournal(), undoDepth: -1)
    }
    #expect(error?.description == "undo depth (-1) and preload count (3) must not be negative")
  }

  @Test func aJournalFromAnotherSessionIsRefused() throws {
    let journal = MemorySessionJournal()
    try journal.append([.decided(index: 0, photo: "other.jpg", decision: .keep, time: 0)])
    let error = #expect(throws: PhotoSessionError.self) {
      try CullingSession(photos: ids(2), journal: journal)
    }
    #expect(error?.code == .journalCorrupt && error?.offset == 1)
    #expect(
      error?.description
        == "event 1 after the snapshot does not replay: the journal does not fit this session: an entry names \"other.jpg\" at 0, not \"p0.jpg\""
    )
  }
}

@Suite("PhotoSessionStore: end to end on a folder of real image files")
struct PhotoSessionStoreTests {
  @Test func startSwipeReopenCommit() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let photos = try TemporaryDirectory(prefix: "offload-photos")
    defer { photos.remove() }
    try makeMixedFolder(photos)
    let trash = FreedesktopTrash(homeTrash: folder.appending("data/Trash"), timeZone: utc)
    var time = 1_000.0
    let store = PhotoSessionStore(
      folder: folder.appending("sessions"), trash: trash,
      clock: {
        time += 1; return time
      })
    #expect(try store.sessions().isEmpty)
    let noSession = #expect(throws: PhotoSessionError.self) { try store.openLatest() }
    #expect(noSession?.code == .noSession)
    var opened: PhotoSessionStore.Opened? = try store.start(
      folder: photos.path, options: .init(timeZone: utc))
    let id = try #require(opened?.id)
    #expect(id == "19700101-001641")
    #expect(opened?.issues.map(\.path) == ["empty.jpg", "link.jpg"])
    let session = try #require(opened?.session)
    // ["e.TIF", "a.gif", "b.png", "c.jpg", "d.webp", "f.heic"]
    #expect(session.current?.metadata?.format == .tiff)
    #expect(session.preloadWindow.compactMap(\.metadata?.format) == [.gif, .png, .jpeg])
    // Another process cannot open the session while it is open here.
    let busy = #expect(throws: PhotoSessionError.self) { try store.open(id) }
    #expect(busy?.code == .sessionBusy)
    try session.swipe(.left)  // e.TIF -> trash
    try session.swipe(.right)  // a.gif -> favorite
    try session.swipe(.up)  // b.png -> keep
    try session.swipe(.left)  // c.jpg -> trash
    try session.undo()
    try session.swipe(.right)  // c.jpg -> favorite
    try session.swipe(.left)  // d.webp -> trash
    opened = nil

    let again = try store.openLatest()
    #expect(again.session.state.cursor == 5)
    #expect(again.session.review(.trash).map(\.photo) == ["e.TIF", "d.webp"])
    #expect(again.session.review(.favorite).map(\.photo) == ["a.gif", "c.jpg"])
    // The photo vanishes before commit: reported and skipped.
    try FileManager.default.removeItem(atPath: photos.appending("d.webp"))
    let report = try again.session.commit()
    #expect(report.applied.count == 4)
    #expect(
      report.failed.map(\.detail) == [
        "cannot trash \"d.webp\": it is no longer in the folder (moved or deleted)"
      ])
    #expect(FileManager.default.fileExists(atPath: folder.appending("data/Trash/files/e.TIF")))
    #expect(!FileManager.default.fileExists(atPath: photos.appending("e.TIF")))
    let info = try String(
      contentsOfFile: folder.appending("data/Trash/info/e.TIF.trashinfo"), encoding: .utf8)
    #expect(
      info.hasPrefix(
        "[Trash Info]\nPath=\(FreedesktopTrash.percentEncode(photos.appending("e.TIF")))\nDeletionDate="
      ))
    for favorite in ["a.gif", "c.jpg"] {
      let sidecar = try String(contentsOfFile: photos.appending(favorite + ".xmp"), encoding: .utf8)
      #expect(sidecar.contains("xmp:Rating=\"5\""))
    }
    #expect(!FileManager.default.fileExists(atPath: photos.appending("b.png.xmp")))
    #expect(FileManager.default.fileExists(atPath: photos.appending("b.png")))
    let summaries = try store.sessions()
    #expect(summaries.count == 1 && summaries[0].problem == nil)
    #expect(summaries[0].statistics?.committed == 4 && summaries[0].statistics?.failed == 1)
    #expect(summaries[0].root == photos.path)
  }

  @Test func startErrorsAndDamagedManifests() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let store = PhotoSessionStore(
      folder: folder.appending("s"), trash: FreedesktopTrash(homeTrash: folder.appending("T")))
    let notFolder = #expect(throws: PhotoSessionError.self) {
      try store.start(folder: folder.appending("none"))
    }
    #expect(notFolder?.code == .notAFolder)
    let depth = #expect(throws: PhotoSessionError.self) {
      try store.start(folder: folder.path, undoDepth: -2)
    }
    #expect(depth?.description == "the undo depth must not be negative, not -2")
    let unknown = #expect(throws: PhotoSessionError.self) { try store.open("x") }
    #expect(
      unknown?.description == "there is no photo session \"x\" in \"\(folder.appending("s"))\"")
    try TestImages.write(Array("{".utf8), "s/bad/manifest.json", in: folder)
    let damaged = #expect(throws: PhotoSessionError.self) { try store.open("bad") }
    #expect(damaged?.code == .sessionCorrupt)
    let listed = try store.sessions()
    #expect(listed.count == 1 && listed[0].problem?.hasPrefix("the session manifest") == true)
  }

  @Test func aCommitReadOnlyFolderFailsFavoritesButTrashesTheRest() throws {
    guard let mount = TemporaryMount.make() else { return }
    defer { mount.remove() }
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    try Data(TestImages.jpeg(width: 2, height: 2)).write(
      to: URL(fileURLWithPath: mount.path + "/a.jpg"))
    let store = PhotoSessionStore(
      folder: folder.appending("s"), trash: FreedesktopTrash(homeTrash: folder.appending("T")))
    let opened = try store.start(folder: mount.path)
    #expect(mount.makeReadOnly())
    try opened.session.swipe(.right)
    let report = try opened.session.commit()
    #expect(
      report.failed.map(\.detail) == [
        "cannot write the sidecar \"\(mount.path)/a.jpg.xmp\": Read-only file system"
      ])
    #expect(opened.session.statistics.failed == 1)
  }
}
