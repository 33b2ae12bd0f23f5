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
      (current["metadata"] as? [String: Any])?["modificationTime"] as? String
        == "2023-11-14T22:13:20.000Z")
    #expect(
      ((status["session"] as? [String: Any])?["createdAt"] as? String)?.hasSuffix("Z") == true)
    #expect(
      (status["next"] as? [[String: Any]])?.first?["files"] as? [String] == ["b.png", "b.png.xmp"])
    try fixture.ok("photos", "swipe", "left")  // a.jpg and its companions
    try fixture.ok("photos", "swipe", "left")  // b.png, replaced below by a folder
    try manager.removeItem(atPath: fixture.photos + "/b.png")
    try manager.createDirectory(
      atPath: fixture.photos + "/b.png/inside", withIntermediateDirectories: true)
    let bytes = try ["a.jpg", "A.AAE", "a.xmp"].reduce(0) {
      $0 + ((try manager.attributesOfItem(atPath: fixture.photos + "/" + $1))[.size] as? Int ?? 0)
    }
    // The dry run checks identity too: b.png is a folder now and would be skipped.
    let planned = try fixture.run("photos", "commit", "--dry-run")
    #expect(planned.status == 1, "\(planned)")
    #expect(
      planned.stdout.hasSuffix(
        "Would commit 1 photo (\(bytes.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))) bytes would go to the Trash); 1 failed\n"
      ), "\(planned)")
    #expect(
      planned.stderr.contains(
        "b.png would not be committed: skipped \"b.png\": it is now a folder, not the photo shown; nothing was changed"
      ), "\(planned)")
    let dry = try fixture.run("photos", "commit", "--dry-run", "--json")
    let plan = try #require(
      try JSONSerialization.jsonObject(with: Data(dry.stdout.utf8)) as? [String: Any])
    #expect(plan["trashBytes"] as? Int == bytes)
    #expect(
      ((plan["report"] as? [String: Any])?["failed"] as? [[String: Any]])?.first?["photo"]
        as? String == "b.png")
    let result = try fixture.run("photos", "commit", "--yes")
    #expect(result.status == 1, "\(result)")
    #expect(
      result.stdout.hasSuffix(
        "Committed 1 photo (\(bytes.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))) bytes moved to the Trash); 1 failed\n"
      ), "\(result)")
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

extension PhotoCompanionCommandTests {
  @Test func restoreBringsTrashedCardsBackByteForByteAfterTheCommit() throws {
    let fixture = try PhotoFixture()
    defer { fixture.folder.remove() }
    try Data("<x/>".utf8).write(to: URL(fileURLWithPath: fixture.photos + "/a.jpg.xmp"))
    let before = try folderDigest(fixture.photos)
    try fixture.ok("photos", "start", fixture.photos, "--order", "mtime")
    try fixture.ok("photos", "swipe", "left")  // a.jpg with a.jpg.xmp
    try fixture.ok("photos", "swipe", "up")  // b.png
    try fixture.ok("photos", "swipe", "left")  // c.jpg
    try fixture.ok("photos", "commit", "--yes")
    #expect(try folderDigest(fixture.photos) != before)
    #expect(
      try fixture.fails(64, "photos", "restore").contains(
        "give the photos to restore, or --all (not both)"))
    let notTrashed = try fixture.run("photos", "restore", "b.png")
    #expect(notTrashed.status == 1)
    #expect(
      notTrashed.stderr.contains(
        "offloadctl: warning: \"b.png\" was not moved to the Trash by this session"))
    let restored = try fixture.ok("photos", "restore", "--all")
    #expect(
      restored
        == "a.jpg: restored from the Trash with 1 companion file\nc.jpg: restored from the Trash\n")
    #expect(try folderDigest(fixture.photos) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.trash + "/files").isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.trash + "/info").isEmpty)
  }
}
