import Foundation
import OffloadTestSupport
import Testing

@Suite("offloadctl photos: companion files and the identity check, end to end")
struct PhotoCompanionCommandTests {
  @Test func statusListsACardsFilesAndCommitTrashesThemAllButSkipsAReplacedPhoto() throws {
    let fixture = try PhotoFixture()
    defer { fixture.folder.remove() }
    let manager = FileManager.default
    for name in ["a.xmp", "A.AAE", "b.png.xmp"] {
      try Data("<x/>".utf8).write(to: URL(fileURLWithPath: fixture.photos + "/" + name))
      try manager.setAttributes(
        [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000)],
        ofItemAtPath: fixture.photos + "/" + name)
    }
    try fixture.ok("photos", "start", fixture.photos, "--order", "mtime")
    let status = try fixture.json("photos", "status")
    let current = try #require(status["current"] as? [String: Any])
    #expect(current["photo"] as? String == "a.jpg")
    #expect(current["files"] as? [String] == ["a.jpg", "A.AAE", "a.xmp"])
    #expect(
      (status["next"] as? [[String: Any]])?.first?["files"] as? [String] == ["b.png", "b.png.xmp"])
    try fixture.ok("photos", "swipe", "left")  // a.jpg and its companions
    try fixture.ok("photos", "swipe", "left")  // b.png, replaced below by a folder
    try manager.removeItem(atPath: fixture.photos + "/b.png")
    try manager.createDirectory(
      atPath: fixture.photos + "/b.png/inside", withIntermediateDirectories: true)
    let result = try fixture.run("photos", "commit", "--yes")
    #expect(result.status == 1, "\(result)")
    #expect(
      result.stderr.contains(
        "skipped \"b.png\": it is now a folder, not the photo shown; nothing was changed"),
      "\(result)")
    let trashed = try manager.contentsOfDirectory(atPath: fixture.trash + "/files").sorted()
    #expect(trashed == ["A.AAE", "a.jpg", "a.xmp"])
    #expect(
      try manager.contentsOfDirectory(atPath: fixture.trash + "/info").sorted()
        == ["A.AAE.trashinfo", "a.jpg.trashinfo", "a.xmp.trashinfo"])
    #expect(manager.fileExists(atPath: fixture.photos + "/b.png/inside"))
    #expect(manager.fileExists(atPath: fixture.photos + "/b.png.xmp"))
  }
}
