import Foundation
import OffloadTestSupport
import Testing

@Suite("offloadctl photos: rate, flag, label, skip and restore --json, end to end")
struct PhotoRatingCommandTests {
  @Test func ratingsLabelsAndSkipAreSavedShownAndWrittenAtCommit() throws {
    let fixture = try PhotoFixture()
    defer { fixture.folder.remove() }
    // b.png has a sidecar rated 2 with a label: shown before anything is set.
    try Data(
      "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF><rdf:Description xmp:Rating=\"2\" xmp:Label=\"Blue\"/></rdf:RDF></x:xmpmeta>"
        .utf8
    ).write(to: URL(fileURLWithPath: fixture.photos + "/b.png.xmp"))
    try fixture.ok("photos", "start", fixture.photos, "--order", "mtime")
    #expect(try fixture.ok("photos", "rate", "4") == "a.jpg: rated 4 (rated 4)\n")
    let labelled = try fixture.json("photos", "label", "green")
    let card = try #require(labelled["photo"] as? [String: Any])
    #expect(card["rating"] as? Int == 4 && card["label"] as? String == "green")
    #expect(
      try fixture.fails(64, "photos", "rate", "6").contains("a rating is 0 to 5 stars, not 6"))
    #expect(try fixture.fails(64, "photos", "label", "pink").contains("pink"))
    // a.jpg goes to the end; b.png is on screen with its sidecar's values.
    let skipped = try fixture.json("photos", "skip")
    let current = try #require(skipped["current"] as? [String: Any])
    #expect(current["photo"] as? String == "b.png")
    #expect(current["rating"] as? Int == 2 && current["label"] as? String == "blue")
    try fixture.ok("photos", "flag", "reject")
    let status = try fixture.json("photos", "status")
    let shown = try #require(status["current"] as? [String: Any])
    #expect(shown["rating"] as? Int == -1 && shown["flag"] as? String == "reject")
    try fixture.ok("photos", "swipe", "up")  // b.png: reject
    try fixture.ok("photos", "swipe", "left")  // c.jpg
    try fixture.ok("photos", "swipe", "right")  // d.png: 5
    #expect(
      (try fixture.json("photos", "status")["current"] as? [String: Any])?["photo"] as? String
        == "a.jpg")
    try fixture.ok("photos", "swipe", "right")  // a.jpg: 4 wins over the favorite's 5
    let review = try fixture.json("photos", "review")
    #expect(
      (review["items"] as? [[String: Any]])?.compactMap { $0["photo"] as? String }
        == ["b.png", "c.jpg", "d.png", "a.jpg"])
    try fixture.ok("photos", "commit", "--yes")
    func sidecar(_ name: String) throws -> String {
      try String(contentsOfFile: fixture.photos + "/" + name, encoding: .utf8)
    }
    #expect(try sidecar("a.jpg.xmp").contains("xmp:Rating=\"4\""))
    #expect(try sidecar("a.jpg.xmp").contains("xmp:Label=\"Green\""))
    #expect(
      try sidecar("b.png.xmp")
        == "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF><rdf:Description xmp:Rating=\"-1\" xmp:Label=\"Blue\"/></rdf:RDF></x:xmpmeta>"
    )
    #expect(try sidecar("d.png.xmp").contains("xmp:Rating=\"5\""))
    // restore --json: c.jpg comes back, a.jpg was not trashed.
    let restore = try fixture.run("photos", "restore", "c.jpg", "a.jpg", "--json")
    #expect(restore.status == 1, "\(restore)")
    let restored = try #require(
      try JSONSerialization.jsonObject(with: Data(restore.stdout.utf8)) as? [String: Any])
    #expect(
      (restored["restored"] as? [[String: Any]])?.first?["photo"] as? String == "c.jpg")
    #expect(
      (restored["failed"] as? [[String: Any]])?.first?["failure"] as? String == "restoreRefused")
    #expect(FileManager.default.fileExists(atPath: fixture.photos + "/c.jpg"))
  }
}
