import Foundation
import Testing

/// The home page and the web app manifest, from the built `offloadctl serve` over loopback.
@Suite("offloadctl serve: home and manifest")
struct HomeRoutesTests {
  func withServer(_ body: (ServerProcess, RawHTTP) throws -> Void) throws {
    let fixture = try WebFixture(count: 2)
    defer { fixture.remove() }
    let server = try ServerProcess(fixture)
    defer { server.stop() }
    try body(server, RawHTTP(port: server.port))
  }

  @Test("the printed address opens the home page, which links the manifest and the icons")
  func homePage() throws {
    try withServer { server, http in
      let redirect = try http.request("/?token=\(server.token)")
      #expect(redirect.status == 303 && redirect.header("Location") == "/", "\(redirect)")
      #expect(try http.request("/").status == 401)  // no cookie, no page
      let home = try http.request("/", headers: ["Cookie": server.cookie])
      #expect(home.status == 200, "\(home)")
      #expect(home.header("Content-Type")?.hasPrefix("text/html") == true)
      for part in [
        "<link rel=\"manifest\" href=\"/manifest.webmanifest\"", "apple-touch-icon",
        "theme-color", "/assets/home.js", "Lists and plans",
      ] {
        #expect(home.text.contains(part), "the home page lacks \(part)")
      }
      let policy = try #require(home.header("Content-Security-Policy"))
      #expect(policy.contains("manifest-src 'self'"), "\(policy)")
    }
  }

  @Test("the manifest: standalone at /, a theme colour, 192, 512 and maskable PNG icons served")
  func manifest() throws {
    try withServer { server, http in
      let answer = try http.request("/manifest.webmanifest", headers: ["Cookie": server.cookie])
      #expect(answer.status == 200, "\(answer)")
      #expect(answer.header("Content-Type") == "application/manifest+json")
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
      #expect(object["display"] as? String == "standalone")
      #expect(object["start_url"] as? String == "/")
      #expect((object["theme_color"] as? String)?.hasPrefix("#") == true)
      let icons = try #require(object["icons"] as? [[String: String]])
      let wanted: Set = ["192x192 any", "512x512 any", "512x512 maskable"]
      let found = Set(icons.map { "\($0["sizes"] ?? "") \($0["purpose"] ?? "any")" })
      #expect(wanted.isSubset(of: found), "\(found)")
      for icon in icons where icon["type"] == "image/png" {
        let png = try http.request(icon["src"] ?? "", headers: ["Cookie": server.cookie])
        #expect(png.status == 200 && png.header("Content-Type") == "image/png", "\(icon)")
        #expect(Array(png.body.prefix(4)) == [0x89, 0x50, 0x4E, 0x47], "\(icon) is not a PNG")
      }
    }
  }
}
