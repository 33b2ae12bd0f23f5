import Foundation
import OffloadTestSupport
import Testing

/// A video card in the deck's state, and the file of a card a rescan added, over HTTP.
@Suite("offloadctl serve: video cards and rescanned cards", .timeLimit(.minutes(5)))
struct ServeVideoAndRescanTests {
  @Test func aVideoCardCarriesItsMetadataAndAnAddedCardIsServed() throws {
    let fixture = try WebFixture(count: 1, files: [("clip.mp4", Array("not a movie".utf8))])
    defer { fixture.remove() }
    let server = try ServerProcess(fixture)
    defer { server.stop() }
    let http = RawHTTP(port: server.port)
    let cookie = ["Cookie": server.cookie]
    // Decide the photo so the video is on screen.
    let status = try fixture.status()
    let first = (status["current"] as? [String: Any])?["photo"] as? String
    if first != "clip.mp4" { #expect(try fixture.ctl(["photos", "swipe", "up"]).status == 0) }
    let state = try http.request("/api/state", headers: cookie)
    #expect(state.status == 200, "\(state)")
    let deck = try #require(
      try JSONSerialization.jsonObject(with: Data(state.text.utf8)) as? [String: Any])
    let current = try #require(deck["current"] as? [String: Any])
    #expect(current["name"] as? String == "clip.mp4")
    #expect(current["kind"] as? String == "video")
    #expect(current["image"] == nil)
    #expect((current["video"] as? String)?.hasPrefix("Video · MP4 · 11 bytes · ") == true)

    // A photo that appears after start is added by a rescan and served past the manifest.
    let bytes = PNGFile.make(width: 8, height: 8, color: (1, 2, 3))
    #expect(
      FileManager.default.createFile(
        atPath: fixture.photos + "/later.png", contents: Data(bytes)))
    #expect(try fixture.ctl(["photos", "rescan"]).status == 0)
    let id = (status["session"] as? [String: Any])?["id"] as? String ?? ""
    let photo = try http.request("/photo/\(id)/2", headers: cookie)
    #expect(photo.status == 200, "\(photo)")
    #expect(Array(photo.body) == bytes)
    #expect(try http.request("/photo/\(id)/3", headers: cookie).status == 404)
  }

  @Test func afterASkipTheCardOnScreenServesItsOwnPhoto() throws {
    let fixture = try WebFixture(count: 3)
    defer { fixture.remove() }
    let server = try ServerProcess(fixture)
    defer { server.stop() }
    let http = RawHTTP(port: server.port)
    let cookie = ["Cookie": server.cookie]
    let skipped = (try fixture.status()["current"] as? [String: Any])?["photo"] as? String
    #expect(try fixture.ctl(["photos", "skip"]).status == 0)
    // The queue moved: the card on screen is another photo at the same position.
    let state = try http.request("/api/state", headers: cookie)
    let deck = try #require(
      try JSONSerialization.jsonObject(with: Data(state.text.utf8)) as? [String: Any])
    let current = try #require(deck["current"] as? [String: Any])
    let name = try #require(current["name"] as? String)
    #expect(name != skipped)
    let image = try #require(current["image"] as? String)
    let photo = try http.request(image, headers: cookie)
    #expect(photo.status == 200, "\(photo)")
    let expected = try #require(FileManager.default.contents(atPath: fixture.photos + "/" + name))
    #expect(Array(photo.body) == Array(expected), "\(image) served another photo than \(name)")
  }
}
