import Foundation
import OffloadTestSupport
import Persistence
import Testing

@testable import PhotoSession

/// Names of the entries of `folder`, sorted (empty when it does not exist).
private func entries(_ folder: String) -> [String] {
  ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
}

/// A store in `work` with its own Trash.
private func makeStore(_ work: TemporaryDirectory) -> PhotoSessionStore {
  PhotoSessionStore(
    folder: work.appending("sessions"),
    trash: FreedesktopTrash(homeTrash: work.appending("data/Trash")), clock: { 1_700_000_000 })
}

/// A minimal QuickTime file whose movie header says `seconds` at timescale 600.
func quickTimeMovie(
  seconds: Int, created: UInt32 = 3_800_000_000, headerFirst: Bool = true, mediaBytes: Int = 64
) -> [UInt8] {
  func be32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }
  let ftyp = be32(20) + Array("ftypqt  ".utf8) + be32(0) + Array("qt  ".utf8)
  var mvhdPayload: [UInt8] = [0, 0, 0, 0] + be32(created) + be32(created) + be32(600)
  mvhdPayload += be32(UInt32(seconds * 600)) + [UInt8](repeating: 0, count: 80)
  let mvhd = be32(UInt32(8 + mvhdPayload.count)) + Array("mvhd".utf8) + mvhdPayload
  let moov = be32(UInt32(8 + mvhd.count)) + Array("moov".utf8) + mvhd
  let mdat =
    be32(UInt32(8 + mediaBytes)) + Array("mdat".utf8) + [UInt8](repeating: 7, count: mediaBytes)
  return headerFirst ? ftyp + moov + mdat : ftyp + mdat + moov
}

@Suite("Rescan: files that appeared join the session, vanished ones are reported")
struct RescanTests {
  @Test func newCardsGoToTheEndInStartOrderAndCompanionsJoinUndecidedCards() throws {
    let work = try TemporaryDirectory()
    defer { work.remove() }
    let photos = try TemporaryDirectory(prefix: "offload-rescan")
    defer { photos.remove() }
    for (index, name) in ["a.jpg", "b.jpg", "c.jpg"].enumerated() {
      try TestImages.write(
        TestImages.jpeg(width: 4 + index, height: 3), name, in: photos,
        modified: Double(1_600_000_000 + index))
    }
    let store = makeStore(work)
    var opened: PhotoSessionStore.Opened? = try store.start(
      folder: photos.path, options: .init(ordering: .modificationTime))
    let id = try #require(opened?.id)
    try opened?.session.swipe(.left)  // a.jpg decided
    try opened?.session.skip()  // b.jpg to the end: queue a, c, b
    // New since start, written out of order of their times.
    try TestImages.write(quickTimeMovie(seconds: 7), "e.mov", in: photos, modified: 1_600_000_020)
    try TestImages.write(
      TestImages.png(width: 2, height: 2), "d.png", in: photos, modified: 1_600_000_010)
    try TestImages.write(Array(XMPSidecar.newPacket(rating: 2).utf8), "d.png.xmp", in: photos)
    try TestImages.write(Array("raw".utf8), "b.dng", in: photos, modified: 1_600_000_030)
    try TestImages.write(Array(XMPSidecar.newPacket(rating: 1).utf8), "a.xmp", in: photos)
    try TestImages.write(Array("edit".utf8), "lonely.aae", in: photos)

    let report = try #require(try opened?.rescan())
    #expect(report.change.added.map(\.photo) == ["d.png", "e.mov"])
    #expect(report.change.added.map { $0.companions.map(\.path) } == [["d.png.xmp"], []])
    #expect(report.change.joined.map(\.photo) == ["b.jpg"])
    #expect(report.change.joined.first?.files.map(\.path) == ["b.dng"])
    #expect(
      report.notJoined == [
        .init(photo: "a.jpg", file: "a.xmp", reason: "the card already has a decision")
      ])
    #expect(report.vanished.isEmpty && report.vanishedCompanions.isEmpty)
    #expect(report.skipped.map(\.path) == ["lonely.aae"])
    #expect(opened?.session.state.photos == ["a.jpg", "c.jpg", "b.jpg", "d.png", "e.mov"])
    #expect(opened?.library.files(of: "b.jpg") == ["b.jpg", "b.dng"])
    #expect(opened?.library.files(of: "d.png") == ["d.png", "d.png.xmp"])
    // The skip still undoes after the rescan: b.jpg comes back to the cursor.
    try opened?.session.undo()
    #expect(opened?.session.state.photos == ["a.jpg", "b.jpg", "c.jpg", "d.png", "e.mov"])
    try opened?.session.skip()
    #expect(opened?.session.state.photos == ["a.jpg", "c.jpg", "d.png", "e.mov", "b.jpg"])
    let live = try #require(opened?.session.state)
    // Nothing new: no event.
    let events = try #require(opened?.session.eventsSinceSnapshot)
    #expect(try opened?.rescan().change.isEmpty == true)
    #expect(opened?.session.eventsSinceSnapshot == events)

    // Replay, then replay from a snapshot, give the same queue and files.
    opened = nil
    var again = try store.open(id)
    #expect(again.session.state == live)
    #expect(again.library.files(of: "b.jpg") == ["b.jpg", "b.dng"])
    try again.session.compact()
    try again.close()
    again = try store.open(id)
    #expect(again.session.state == live)
    #expect(again.library.files(of: "d.png") == ["d.png", "d.png.xmp"])
    // The video card shows its metadata.
    let video = again.session.card(at: 3)
    #expect(video.kind == .video && video.metadata == nil && video.problem == nil)
    #expect(video.video?.durationSeconds == 7 && video.video?.format == .quickTime)
  }

  @Test func vanishedCardsAndCompanionsAreReportedAndNeverCommitted() throws {
    let work = try TemporaryDirectory()
    defer { work.remove() }
    let photos = try TemporaryDirectory(prefix: "offload-rescan")
    defer { photos.remove() }
    for (index, name) in ["a.jpg", "b.jpg", "c.jpg", "d.jpg"].enumerated() {
      try TestImages.write(
        TestImages.jpeg(width: 4 + index, height: 3), name, in: photos,
        modified: Double(1_600_000_000 + index))
    }
    try TestImages.write(Array("sidecar".utf8), "c.xmp", in: photos)
    let store = makeStore(work)
    let opened = try store.start(folder: photos.path, options: .init(ordering: .modificationTime))
    for _ in 0..<3 { try opened.session.swipe(.left) }
    try FileManager.default.removeItem(atPath: photos.appending("b.jpg"))
    try FileManager.default.removeItem(atPath: photos.appending("c.xmp"))
    try FileManager.default.removeItem(atPath: photos.appending("d.jpg"))
    let report = try opened.rescan()
    #expect(report.vanished == ["b.jpg", "d.jpg"])
    #expect(report.change.vanished == ["b.jpg", "d.jpg"])
    #expect(report.vanishedCompanions == [.init(photo: "c.jpg", file: "c.xmp", reason: nil)])
    // b.jpg comes back as the very same bytes: still never trashed, as it vanished.
    try TestImages.write(TestImages.jpeg(width: 5, height: 3), "b.jpg", in: photos)
    #expect(try opened.rescan().change.isEmpty)
    let dry = try opened.session.commit(dryRun: true)
    let result = try opened.session.commit()
    #expect(result.applied.map(\.photo) == ["a.jpg"])
    #expect(result.failed.map(\.photo) == ["b.jpg", "c.jpg"])
    #expect(dry.failed.map(\.detail) == result.failed.map(\.detail))
    #expect(
      result.failed.first?.detail
        == "skipped \"b.jpg\": it was gone from the folder at a rescan; a vanished card is never committed"
    )
    #expect(result.failed.last?.failure?.path == "c.xmp")
    #expect(entries(work.appending("data/Trash/files")) == ["a.jpg"])
    #expect(entries(photos.path) == ["b.jpg", "c.jpg"])
    // A card committed to the Trash is not reported vanished.
    #expect(try opened.rescan().vanished == ["d.jpg"])
  }

  @Test func aJoinedCompanionIsCheckedAtCommitToo() throws {
    let work = try TemporaryDirectory()
    defer { work.remove() }
    let photos = try TemporaryDirectory(prefix: "offload-rescan")
    defer { photos.remove() }
    try TestImages.write(TestImages.jpeg(width: 4, height: 3), "a.jpg", in: photos)
    let opened = try makeStore(work).start(folder: photos.path)
    try TestImages.write(Array("raw".utf8), "a.dng", in: photos)
    #expect(try opened.rescan().change.joined.map(\.photo) == ["a.jpg"])
    try opened.session.swipe(.left)
    try CompanionChange.size.apply(to: photos.appending("a.dng"))
    let report = try opened.session.commit()
    #expect(report.failed.map(\.failure?.path) == ["a.dng"])
    #expect(entries(photos.path) == ["a.dng", "a.jpg"])
  }

  @Test func seededRescansReplayToTheLiveState() throws {
    let seed = SplitMix64.testSeed(0x5CA7)
    var random = SplitMix64(seed: seed)
    for round in 0..<12 {
      let work = try TemporaryDirectory()
      defer { work.remove() }
      let photos = try TemporaryDirectory(prefix: "offload-rescan")
      defer { photos.remove() }
      var next = 0
      var time = 1_600_000_000.0
      func addFiles(_ count: Int) throws {
        for _ in 0..<count {
          let name = String(format: "P%03d", next)
          next += 1
          time += 1
          try TestImages.write(
            TestImages.jpeg(width: 4, height: 3), name + ".jpg", in: photos, modified: time)
          if random.chance(0.3) { try TestImages.write(Array("x".utf8), name + ".xmp", in: photos) }
        }
      }
      try addFiles(2 + random.index(below: 5))
      let store = makeStore(work)
      var opened = try store.start(folder: photos.path, options: .init(ordering: .modificationTime))
      let id = opened.id
      var expected = opened.manifest.photos
      for _ in 0..<(8 + random.index(below: 12)) {
        let context = "seed \(seed) round \(round)"
        switch random.index(below: 6) {
        case 0:
          let before = opened.session.state.photos
          try addFiles(1 + random.index(below: 3))
          let report = try opened.rescan()
          expected = before + report.change.added.map(\.photo)
          #expect(opened.session.state.photos == expected, "\(context)")
        case 1: _ = try? opened.session.undo()
        case 2: _ = try? opened.session.skip()
        case 3:
          // A new companion for a random card (joins only when undecided).
          let card = opened.session.state.photos.randomElement(using: &random) ?? "P000.jpg"
          let raw = String(card.dropLast(4)) + ".dng"
          if !FileManager.default.fileExists(atPath: photos.appending(raw)) {
            try TestImages.write(Array("raw".utf8), raw, in: photos)
          }
          _ = try opened.rescan()
        default: _ = try? opened.session.swipe(.left)
        }
        expected = opened.session.state.photos
        let live = opened.session.state
        let files = live.photos.map { opened.library.files(of: $0) }
        try opened.close()
        // Other tests of this process start child processes; a child between fork and exec
        // still holds the session lock's open file for a moment, so the reopen may wait.
        opened = try store.open(id, lockTimeout: .seconds(10))
        #expect(opened.session.state == live, "\(context)")
        #expect(live.photos.map { opened.library.files(of: $0) } == files, "\(context)")
        if random.chance(0.3) { try opened.session.compact() }
      }
      #expect(opened.session.state.photos == expected)
      try opened.close()
    }
  }
}
