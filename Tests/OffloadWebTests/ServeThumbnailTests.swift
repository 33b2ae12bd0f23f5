import Foundation
import OffloadTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `/thumb/SESSION/INDEX` and raw previews at the HTTP level: embedded JPEGs served byte for
/// byte, under the same confinement rules as `/photo`.
@Suite("offloadctl serve: thumbnails and raw previews")
struct ServeThumbnailTests {
  let main = TestJPEG.encode(width: 96, height: 64, seed: 3)
  let thumbnail = TestJPEG.encode(width: 24, height: 16, seed: 4)
  let rawPreview = TestJPEG.encode(width: 120, height: 80, seed: 5)
  let rawThumbnail = TestJPEG.encode(width: 16, height: 8, seed: 6)
  let cr3Preview = TestJPEG.encode(width: 72, height: 48, seed: 7)
  let cr3Thumbnail = TestJPEG.encode(width: 32, height: 16, seed: 8)

  /// The session's id and each photo's card index, from `photos status --json`.
  func layout(_ fixture: WebFixture) throws -> (id: String, index: [String: Int]) {
    let status = try fixture.status()
    let id = (status["session"] as? [String: Any])?["id"] as? String ?? ""
    var cards = (status["next"] as? [[String: Any]]) ?? []
    if let current = status["current"] as? [String: Any] { cards.append(current) }
    var index: [String: Int] = [:]
    for card in cards {
      if let name = card["photo"] as? String, let at = card["index"] as? Int { index[name] = at }
    }
    return (id, index)
  }

  @Test(
    "raw files are served as their embedded preview; /thumb serves the embedded thumbnails exactly")
  func thumbnailsAndPreviews() throws {
    let fixture = try WebFixture(
      count: 1,
      files: [
        ("exif.jpg", TestJPEG.withEXIFThumbnail(main, thumbnail: thumbnail)),
        ("raw.nef", TestJPEG.tiffRaw(preview: rawPreview, thumbnail: rawThumbnail)),
        (
          "canon.cr3",
          TestJPEG.cr3(
            preview: cr3Preview, previewSize: (72, 48), thumbnail: cr3Thumbnail,
            thumbnailSize: (32, 16))
        ),
      ])
    defer { fixture.remove() }
    let server = try ServerProcess(fixture)
    defer { server.stop() }
    let http = RawHTTP(port: server.port)
    let cookie = ["Cookie": server.cookie]
    let (id, index) = try layout(fixture)
    let jpeg = try #require(index["exif.jpg"])
    let raw = try #require(index["raw.nef"])
    let png = try #require(index["p000.png"])

    func get(_ path: String) throws -> RawHTTP.Answer {
      let answer = try http.request(path, headers: cookie)
      #expect(answer.status == 200, "\(path): \(answer)")
      return answer
    }
    // The raw file of a served session: its largest embedded JPEG, as image/jpeg.
    let preview = try get("/photo/\(id)/\(raw)")
    #expect(preview.header("Content-Type") == "image/jpeg")
    #expect(preview.body == rawPreview)
    // Thumbnails: the EXIF thumbnail of a JPEG, the smallest JPEG of a raw file.
    let exif = try get("/thumb/\(id)/\(jpeg)")
    #expect(exif.header("Content-Type") == "image/jpeg")
    #expect(exif.body == thumbnail)
    #expect(try get("/thumb/\(id)/\(raw)").body == rawThumbnail)
    // No embedded thumbnail: the photo itself, as /photo serves it.
    let fallback = try get("/thumb/\(id)/\(png)")
    #expect(fallback.header("Content-Type") == "image/png")
    #expect(fallback.body == (try get("/photo/\(id)/\(png)")).body)
    // CR3: its PRVW box as the photo, its THMB box as the thumbnail.
    let cr3 = try #require(index["canon.cr3"])
    #expect(try get("/photo/\(id)/\(cr3)").body == cr3Preview)
    #expect(try get("/thumb/\(id)/\(cr3)").body == cr3Thumbnail)
  }

  @Test("/thumb is confined as /photo: other sessions, traversal and symbolic links give 404")
  func thumbnailConfinement() throws {
    let fixture = try WebFixture(
      count: 2, files: [("exif.jpg", TestJPEG.withEXIFThumbnail(main, thumbnail: thumbnail))])
    defer { fixture.remove() }
    // A session of another store, over a folder outside this session's.
    let other = fixture.folder.appending("other")
    try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
    let secret = TestJPEG.withEXIFThumbnail(main, thumbnail: TestJPEG.encode(width: 8, height: 8))
    #expect(FileManager.default.createFile(atPath: other + "/secret.jpg", contents: Data(secret)))
    let (id, index) = try layout(fixture)
    // Session ids name the second a session started: a foreign session started in the same
    // second as this one would carry the same id, so it is started again in a fresh store.
    var foreignID = id
    for attempt in 0..<3 where foreignID == id {
      if attempt > 0 { usleep(1_100_000) }
      var foreignEnvironment = fixture.environment
      foreignEnvironment["OFFLOAD_HOME"] = fixture.folder.appending("other-store-\(attempt)")
      let foreign = try BuiltProduct.run(
        "offloadctl", ["photos", "start", other, "--json"], environment: foreignEnvironment)
      #expect(foreign.status == 0, "\(foreign)")
      foreignID = try #require(
        foreign.stdout.firstMatch(of: /"id" : "([^"]+)"/).map { String($0.1) })
    }
    #expect(foreignID != id)
    let server = try ServerProcess(fixture)
    defer { server.stop() }
    let http = RawHTTP(port: server.port)
    let cookie = ["Cookie": server.cookie]
    let jpeg = try #require(index["exif.jpg"])
    #expect(try http.request("/thumb/\(id)/\(jpeg)", headers: cookie).status == 200)
    // Without the cookie: nothing.
    let anonymous = try http.request("/thumb/\(id)/\(jpeg)")
    #expect(anonymous.status == 401 || anonymous.status == 403, "\(anonymous)")
    #expect(anonymous.body != thumbnail)
    for path in [
      "/thumb/\(id)/3", "/thumb/\(id)/-1", "/thumb/\(id)/x", "/thumb/nosuch/0",
      "/thumb/..%2F..%2Fother%2Fsecret.jpg/0", "/thumb/\(id)/..%2F..%2Fother%2Fsecret.jpg",
      "/thumb/\(id)/../../other/secret.jpg", "/thumb/%2e%2e/0", "/thumb/\(id)/", "/thumb/",
      "/thumb/\(id)%2F..%2F..%2Fother/0", "/thumb/\(foreignID)/0", "/photo/\(foreignID)/0",
    ] {
      let answer = try http.request(path, headers: cookie)
      #expect(answer.status == 404 || answer.status == 400, "\(path): \(answer)")
      #expect(!answer.body.starts(with: [0xFF, 0xD8]), "\(path) served a JPEG")
    }
    // A photo replaced by a symbolic link out of the folder is not followed.
    let victim = fixture.photos + "/exif.jpg"
    try FileManager.default.removeItem(atPath: victim)
    try FileManager.default.createSymbolicLink(
      atPath: victim, withDestinationPath: other + "/secret.jpg")
    let linked = try http.request("/thumb/\(id)/\(jpeg)", headers: cookie)
    #expect(linked.status == 404, "\(linked)")
    #expect(!linked.body.starts(with: [0xFF, 0xD8]))
  }
}
