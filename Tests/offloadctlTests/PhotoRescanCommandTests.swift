import Foundation
import Offload
import OffloadTestSupport
import PhotoSession
import TerminalUI
import Testing

@testable import offloadctl

/// A minimal QuickTime file whose movie header says 7 seconds.
private func quickTimeMovie() -> [UInt8] {
  func be32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }
  let ftyp = be32(20) + Array("ftypqt  ".utf8) + be32(0) + Array("qt  ".utf8)
  let payload: [UInt8] =
    [0, 0, 0, 0] + be32(0) + be32(0) + be32(600) + be32(4200)
    + [UInt8](
      repeating: 0, count: 80)
  let mvhd = be32(UInt32(8 + payload.count)) + Array("mvhd".utf8) + payload
  return ftyp + be32(UInt32(8 + mvhd.count)) + Array("moov".utf8) + mvhd
}

@Suite(
  "offloadctl photos rescan and video cards, end to end", .timeLimit(.minutes(5)))
struct PhotoRescanCommandTests {
  private func write(_ bytes: [UInt8], _ name: String, in fixture: PhotoFixture, time: Double)
    throws
  {
    let path = fixture.photos + "/" + name
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: time)], ofItemAtPath: path)
  }

  @Test func rescanAddsNewCardsJoinsCompanionsAndReportsVanishedOnes() throws {
    let fixture = try PhotoFixture()
    defer { fixture.folder.remove() }
    try fixture.ok("photos", "start", fixture.photos, "--order", "mtime")
    try fixture.ok("photos", "swipe", "left")  // a.jpg
    try write(PhotoFiles.jpeg(width: 8, height: 8), "e.jpg", in: fixture, time: 1_700_000_100)
    try write(quickTimeMovie(), "clip.mov", in: fixture, time: 1_700_000_200)
    try write(Array("<x/>".utf8), "b.png.xmp", in: fixture, time: 1_700_000_300)
    try write(Array("<x/>".utf8), "a.xmp", in: fixture, time: 1_700_000_300)
    try FileManager.default.removeItem(atPath: fixture.photos + "/d.png")

    let document = try fixture.json("photos", "rescan")
    let added = try #require(document["added"] as? [[String: Any]])
    #expect(added.map { $0["photo"] as? String } == ["e.jpg", "clip.mov"])
    #expect(added.map { $0["kind"] as? String } == ["photo", "video"])
    #expect(added.first?["files"] as? [String] == ["e.jpg"])
    let joined = try #require(document["joined"] as? [[String: Any]])
    #expect(joined.first?["photo"] as? String == "b.png")
    #expect(joined.first?["files"] as? [String] == ["b.png.xmp"])
    let notJoined = try #require(document["notJoined"] as? [[String: Any]])
    #expect(notJoined.first?["file"] as? String == "a.xmp")
    #expect(notJoined.first?["reason"] as? String == "the card already has a decision")
    #expect(document["vanished"] as? [String] == ["d.png"])
    #expect((document["vanishedCompanions"] as? [Any])?.isEmpty == true)
    let session = try #require(document["session"] as? [String: Any])
    #expect((session["createdAt"] as? String)?.hasSuffix("Z") == true)
    #expect((session["statistics"] as? [String: Any])?["total"] as? Int == 6)
    #expect(document["schemaVersion"] as? Int == 1)

    // Again: nothing new, the vanished card still reported.
    let text = try fixture.ok("photos", "rescan")
    #expect(text.contains("vanished \"d.png\": it will not be committed"), "\(text)")
    #expect(text.contains("Rescanned \(fixture.photos): 0 cards added, 0 files joined, 1 vanished"))

    // The video card: kind and metadata in status, metadata lines in text.
    for _ in 0..<3 { try fixture.ok("photos", "swipe", "up") }  // b, c, d
    try fixture.ok("photos", "swipe", "left")  // e.jpg
    let status = try fixture.json("photos", "status")
    let current = try #require(status["current"] as? [String: Any])
    #expect(current["photo"] as? String == "clip.mov" && current["kind"] as? String == "video")
    #expect(current["metadata"] == nil && current["problem"] == nil)
    let video = try #require(current["video"] as? [String: Any])
    #expect(video["durationSeconds"] as? Double == 7 && video["format"] as? String == "mov")
    #expect(video["modificationTime"] as? String == "2023-11-14T22:16:40.000Z")
    let shown = try fixture.ok("photos", "status")
    #expect(shown.contains("VIDEO MOV · "), "\(shown)")
    #expect(shown.contains(" · 0:07"), "\(shown)")
    try fixture.ok("photos", "swipe", "left")  // clip.mov
    let commit = try fixture.run("photos", "commit", "--yes")
    #expect(commit.status == 1, "\(commit)")  // d.png vanished: not committed
    #expect(commit.stderr.contains("a vanished card is never committed"), "\(commit)")
    #expect(fixture.names(fixture.trash + "/files") == ["a.jpg", "clip.mov", "e.jpg"])
  }

  @Test func rescanOfAFolderThatIsGoneFailsWithOneLine() throws {
    let fixture = try PhotoFixture()
    defer { fixture.folder.remove() }
    try fixture.ok("photos", "start", fixture.photos)
    try FileManager.default.removeItem(atPath: fixture.photos)
    let error = try fixture.fails(66, "photos", "rescan")
    #expect(error.split(separator: "\n").count == 1, "\(error)")
    #expect(error.contains("is not a folder"), "\(error)")
  }

  @Test func theCullScreenShowsAVideoCardsMetadataAndDecidesIt() throws {
    let fixture = try PhotoFixture()
    defer { fixture.folder.remove() }
    try write(quickTimeMovie(), "clip.mov", in: fixture, time: 1_600_000_000)
    let store = PhotoSessionStore(
      folder: fixture.store + "/sessions",
      trash: FreedesktopTrash(homeTrash: fixture.trash))
    let opened = try store.start(
      folder: fixture.photos, options: .init(ordering: .modificationTime))
    #expect(opened.session.current?.kind == .video)
    var screen = PhotoCullScreen(session: opened.session, sessionID: opened.id)
    let text = screen.frame(size: TerminalSize(columns: 90, rows: 16)).text
    #expect(text.contains("clip.mov"), "\(text)")
    #expect(text.contains("VIDEO MOV · \(quickTimeMovie().count) bytes · 0:07"), "\(text)")
    #expect(text.contains("a video alone: no preview"), "\(text)")
    // A video offers the terminal no picture to draw.
    #expect(screen.display(size: TerminalSize(columns: 90, rows: 16)).preview == nil)
    #expect(screen.handle(KeyPress(.left)) == .redraw)
    #expect(opened.session.state.decision(at: 0) == .trash)
  }
}
