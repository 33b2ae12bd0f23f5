import Foundation
import OffloadTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The organize routes at the HTTP level, on the built `offloadctl serve`: the same token,
/// Host and Origin rules as the deck, changes by POST only, stale views refused, and the
/// change feed seeing a change the command line made.
@Suite("offloadctl serve: organize routes")
struct OrganizeSecurityTests {
  func withServer(_ body: (WebFixture, ServerProcess, RawHTTP) throws -> Void) throws {
    let fixture = try WebFixture(count: 1)
    defer { fixture.remove() }
    #expect(try fixture.ctl(["collection", "create", "Groceries", "--kind", "list"]).status == 0)
    for text in ["Milk", "Eggs"] {
      #expect(try fixture.ctl(["item", "add", "Groceries", text]).status == 0)
    }
    let server = try ServerProcess(fixture)
    defer { server.stop() }
    try body(fixture, server, RawHTTP(port: server.port))
  }

  func json(_ answer: RawHTTP.Answer) throws -> [String: Any] {
    try #require(
      try JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any],
      "\(answer)")
  }

  /// The Groceries collection's id, its page's version and its first row's id (Milk).
  func groceries(_ server: ServerProcess, _ http: RawHTTP) throws -> (String, String, String) {
    let list = try json(try http.request("/api/collections", headers: ["Cookie": server.cookie]))
    let entries = list["collections"] as? [[String: Any]] ?? []
    let id = try #require(entries.first { $0["name"] as? String == "Groceries" }?["id"] as? String)
    let view = try json(
      try http.request("/api/collection?id=\(id)", headers: ["Cookie": server.cookie]))
    let rows = view["rows"] as? [[String: Any]] ?? []
    #expect(rows.first?["text"] as? String == "Milk")
    return (
      id, try #require(view["version"] as? String), try #require(rows.first?["id"] as? String)
    )
  }

  @Test("without the token the organize pages and API get 401 and no data; a wrong Host 421")
  func tokenAndHost() throws {
    try withServer { _, server, http in
      for path in [
        "/collections", "/collections/1", "/api/collections", "/api/collection?id=1",
        "/assets/organize.js",
      ] {
        let answer = try http.request(path)
        #expect(answer.status == 401, "\(path): \(answer)")
        #expect(!answer.text.contains("Groceries") && !answer.text.contains("Milk"), "\(path)")
        let rebinding = try http.request(
          path, host: "evil.example:\(server.port)", headers: ["Cookie": server.cookie])
        #expect(rebinding.status == 421, "\(path): \(rebinding)")
      }
      for page in ["/collections", "/collections/Groceries"] {
        let answer = try http.request(page, headers: ["Cookie": server.cookie])
        #expect(answer.status == 200, "\(page)")
        #expect(answer.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
        #expect(
          !answer.text.contains("<script>") && !answer.text.contains("onclick=")
            && !answer.text.contains("http"), "\(page)")
      }
    }
  }

  @Test("changes need POST from the server's origin and the view's version; the CLI sees them")
  func changes() throws {
    try withServer { fixture, server, http in
      let (id, version, milk) = try groceries(server, http)
      let body = Array(
        #"{"action":"delete","collection":"\#(id)","version":"\#(version)","ids":["\#(milk)"]}"#
          .utf8)
      var headers = ["Cookie": server.cookie, "Content-Type": "application/json"]
      #expect(try http.request("POST", "/api/items", headers: headers, body: body).status == 403)
      headers["Origin"] = "http://evil.example"
      #expect(try http.request("POST", "/api/items", headers: headers, body: body).status == 403)
      let viaGet = try http.request(
        "/api/items?action=delete&collection=\(id)", headers: ["Cookie": server.cookie])
      #expect(viaGet.status == 404 || viaGet.status == 405, "\(viaGet)")
      headers["Origin"] = server.origin
      let notJSON = try http.request(
        "POST", "/api/items", headers: headers, body: Array("action=delete".utf8))
      #expect(notJSON.status == 400)
      let big = Array(repeating: UInt8(ascii: " "), count: 40_000)
      #expect(try http.request("POST", "/api/items", headers: headers, body: big).status == 413)
      var shown = try fixture.ctl(["collection", "show", "Groceries"]).stdout
      #expect(shown.contains("Milk") && shown.contains("Eggs"))

      // The command line changes the list: the page's version is stale now.
      #expect(try fixture.ctl(["item", "add", "Groceries", "Bread"]).status == 0)
      let stale = try http.request("POST", "/api/items", headers: headers, body: body)
      #expect(stale.status == 409, "\(stale)")
      #expect(stale.text.contains("changed since the page showed it"), "\(stale)")
      shown = try fixture.ctl(["collection", "show", "Groceries"]).stdout
      #expect(shown.contains("Eggs"))

      let (_, fresh, _) = try groceries(server, http)
      let current = Array(
        #"{"action":"delete","collection":"\#(id)","version":"\#(fresh)","ids":["\#(milk)"]}"#.utf8)
      let done = try http.request("POST", "/api/items", headers: headers, body: current)
      #expect(done.status == 200, "\(done)")
      shown = try fixture.ctl(["collection", "show", "Groceries"]).stdout
      #expect(
        !shown.contains("Milk") && shown.contains("Eggs") && shown.contains("Bread"), "\(shown)")
      #expect(try fixture.ctl(["undo"]).status == 0)
      #expect(try fixture.ctl(["collection", "show", "Groceries"]).stdout.contains("Milk"))
    }
  }

  @Test("the organize WebSocket opens only from the server's origin; its feed sees a CLI change")
  func changeFeed() throws {
    try withServer { fixture, server, http in
      #expect(throws: ServerFailure.self) {
        try RawWebSocket(
          port: server.port, origin: "http://evil.example", cookie: server.cookie,
          path: "/ws/organize")
      }
      #expect(throws: ServerFailure.self) {
        try RawWebSocket(
          port: server.port, origin: server.origin, cookie: nil, path: "/ws/organize")
      }
      let (id, version, milk) = try groceries(server, http)
      let socket = try RawWebSocket(
        port: server.port, origin: server.origin, cookie: server.cookie, path: "/ws/organize")
      socket.send(#"{"type":"nonsense"}"#)
      #expect(socket.receiveJSON()?["type"] as? String == "error")
      socket.send(#"{"type":"watch","collection":"\#(id)","version":"\#(version)"}"#)
      #expect(try fixture.ctl(["item", "add", "Groceries", "Butter"]).status == 0)
      let changed = try #require(socket.receiveJSON())
      #expect(changed["type"] as? String == "changed")
      let (_, now, _) = try groceries(server, http)
      #expect(changed["version"] as? String == now && now != version)
      // A stroke on a stale view snaps back with the reason instead of moving anything.
      socket.send(
        #"{"type":"sample","phase":"began","t":1,"x":10,"y":10,"id":"\#(milk)","surface":"handle","collection":"\#(id)","version":"\#(version)"}"#
      )
      let refused = try #require(socket.receiveJSON())
      #expect(refused["type"] as? String == "snapBack")
      #expect((refused["error"] as? String)?.contains("changed since") == true, "\(refused)")
    }
  }
}
