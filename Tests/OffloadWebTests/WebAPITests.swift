import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OffloadTestSupport
import Testing

@testable import Offload
@testable import OffloadWeb

/// The HTTP API in process: the application `offloadctl serve` runs, driven through
/// HummingbirdTesting's router client (no socket), over a store with a started session.
@Suite("Web API in process: access, the deck, photos, organize refusals, bad bodies")
struct WebAPITests {
  /// A server over `fixture`'s store, its router answering as on port 80 of `localhost`
  /// (the router client's authority).
  struct Harness {
    let fixture: WebFixture
    let server: WebServer
    var cookie: String { "\(server.access.cookieName)=\(server.access.token)" }
    var headers: HTTPFields {
      [.cookie: cookie, .origin: "http://localhost", .contentType: "application/json"]
    }

    init(fixture: WebFixture) {
      self.fixture = fixture
      var options = WebServer.Options(storeRoot: fixture.store, environment: fixture.environment)
      options.roots = [fixture.photos]
      server = WebServer(options: options)
      server.access.port = 80
    }

    func test(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
      try await server.buildApplication { _ in }.test(.router, body)
    }
  }

  func withHarness(count: Int = 4, _ body: (Harness) async throws -> Void) async throws {
    let fixture = try WebFixture(count: count)
    defer { fixture.remove() }
    try await body(Harness(fixture: fixture))
  }

  /// The JSON object of a response body.
  static func object(_ response: TestResponse) throws -> [String: Any] {
    try #require(
      try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))
        as? [String: Any], "\(response.status) \(String(buffer: response.body))")
  }

  /// The one-line reason of a JSON failure.
  static func reason(_ response: TestResponse) throws -> String {
    try #require(try object(response)["error"] as? String)
  }

  @Test(
    "no cookie is 401, a wrong cookie or token 403, the token sets the cookie, a change needs the origin"
  )
  func access() async throws {
    try await withHarness { harness in
      let cookie = harness.cookie
      let token = harness.server.access.token
      try await harness.test { client in
        let none = try await client.execute(uri: "/api/state", method: .get)
        #expect(none.status == .unauthorized)
        #expect(
          String(buffer: none.body)
            == "open the address `offloadctl serve` printed, with its token\n")
        let wrong = try await client.execute(
          uri: "/api/state", method: .get, headers: [.cookie: "offload_80=nottheone"])
        #expect(wrong.status == .forbidden)
        #expect(String(buffer: wrong.body) == "the session cookie is not this server's\n")
        let badToken = try await client.execute(uri: "/?token=guess", method: .get)
        #expect(badToken.status == .forbidden)
        let opened = try await client.execute(uri: "/photos?token=\(token)", method: .get)
        #expect(opened.status == .seeOther && opened.headers[.location] == "/photos")
        #expect(opened.headers[.setCookie]?.hasPrefix(cookie + ";") == true)
        let noOrigin = try await client.execute(
          uri: "/api/undo", method: .post,
          headers: [.cookie: cookie, .contentType: "application/json"],
          body: ByteBuffer(string: "{}"))
        #expect(noOrigin.status == .forbidden)
        let page = try await client.execute(
          uri: "/photos", method: .get, headers: [.cookie: cookie])
        #expect(page.status == .ok && page.headers[.contentType]?.hasPrefix("text/html") == true)
        #expect(page.headers[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true)
      }
    }
  }

  @Test("decide, a second decide of the same card refused with 409, undo")
  func decideAndUndo() async throws {
    try await withHarness { harness in
      let headers = harness.headers
      try await harness.test { client in
        let state = try Self.object(
          try await client.execute(uri: "/api/state", method: .get, headers: headers))
        let figures = try #require(state["session"] as? [String: Any])
        let session = try #require(figures["id"] as? String)
        #expect((state["current"] as? [String: Any])?["index"] as? Int == 0)
        func post(_ path: String, _ json: String) async throws -> TestResponse {
          try await client.execute(
            uri: path, method: .post, headers: headers, body: ByteBuffer(string: json))
        }
        let decide = #"{"session":"\#(session)","index":0,"decision":"trash"}"#
        let decided = try await post("/api/decide", decide)
        #expect(decided.status == .ok)
        #expect(decided.headers[.contentType] == "application/json")
        let after = try #require(try Self.object(decided)["session"] as? [String: Any])
        #expect(after["trash"] as? Int == 1 && after["canUndo"] as? Bool == true)
        let again = try await post("/api/decide", decide)
        #expect(again.status == .conflict, "\(String(buffer: again.body))")
        #expect(!(try Self.reason(again)).isEmpty)
        let undone = try await post("/api/undo", #"{"session":"\#(session)"}"#)
        #expect(undone.status == .ok)
        let back = try #require(try Self.object(undone)["session"] as? [String: Any])
        #expect(back["trash"] as? Int == 0 && back["reviewed"] as? Int == 0)
        #expect(
          ((try Self.object(undone))["current"] as? [String: Any])?["index"] as? Int == 0)
        let nothing = try await post("/api/undo", #"{"session":"\#(session)"}"#)
        #expect(nothing.status == .conflict)
      }
      let stored = try harness.fixture.ctl(["photos", "status", "--json"])
      #expect(stored.stdout.contains(#""reviewed" : 0,"#), "\(stored.stdout)")
    }
  }

  @Test("a photo file by session and index; an unknown index or session is 404 with a line")
  func photoFile() async throws {
    try await withHarness(count: 2) { harness in
      let headers = harness.headers
      let photo = try #require(
        FileManager.default.contents(atPath: harness.fixture.photos + "/p000.png"))
      try await harness.test { client in
        let state = try Self.object(
          try await client.execute(uri: "/api/state", method: .get, headers: headers))
        let card = try #require(state["current"] as? [String: Any])
        let image = try #require(card["image"] as? String)
        let served = try await client.execute(uri: image, method: .get, headers: headers)
        #expect(served.status == .ok && served.headers[.contentType] == "image/png")
        #expect(Data(served.body.readableBytesView) == photo)
        #expect(served.headers[.cacheControl] == "private, max-age=600")
        let session = image.split(separator: "/")[1]
        for (uri, reason) in [
          ("/photo/\(session)/99", nil), ("/photo/\(session)/x", "no such photo"),
          ("/thumb/nosuchsession/0", "there is no such photo session in this store"),
        ] {
          let missing = try await client.execute(uri: uri, method: .get, headers: headers)
          #expect(missing.status == .notFound, "\(uri)")
          let line = try Self.reason(missing)
          #expect(!line.contains("\n") && (reason == nil || line == reason), "\(uri): \(line)")
        }
      }
    }
  }

  @Test("malformed, incomplete and over-size bodies: 400 or 413 with one line, nothing decided")
  func badBodies() async throws {
    try await withHarness { harness in
      let headers = harness.headers
      try await harness.test { client in
        func post(_ path: String, _ body: String, type: String = "application/json") async throws
          -> TestResponse
        {
          var fields = headers
          fields[.contentType] = type
          return try await client.execute(
            uri: path, method: .post, headers: fields, body: ByteBuffer(string: body))
        }
        let cases: [(String, String, String, HTTPResponse.Status, String)] = [
          (
            "/api/decide", "{not json", "application/json", .badRequest,
            "the body must be a JSON command"
          ),
          (
            "/api/decide", #"{"session":"s","index":0}"#, "application/json", .badRequest,
            "decide needs session, index and decision"
          ),
          (
            "/api/decide", #"{"session":"s","index":0,"decision":"sideways"}"#,
            "application/json", .badRequest, "decide needs session, index and decision"
          ),
          ("/api/undo", "{}", "application/json", .badRequest, "undo needs a session"),
          (
            "/api/undo", #"{"session":"s"}"#, "text/plain", .badRequest,
            "the body must be a JSON command"
          ),
          (
            "/api/items", #"{"collection":1}"#, "application/json", .badRequest,
            "the body must be a JSON command"
          ),
          ("/api/items", "{}", "application/json", .badRequest, "the body must be a JSON command"),
          (
            "/api/items", #"{"collection":"c"}"#, "application/json", .badRequest,
            "the body must be a JSON command"
          ),
          (
            "/api/items", #"{"action":"fly"}"#, "application/json", .badRequest,
            "the command names no collection"
          ),
          (
            "/api/items", #"{"action":"fly","collection":"c"}"#, "application/json",
            .badRequest, #"unknown action "fly""#
          ),
          (
            "/api/items", #"{"action":"edit","collection":"c","text":"t"}"#,
            "application/json", .badRequest, "edit needs an item id"
          ),
          (
            "/api/items", #"{"action":"add","text":"t"}"#, "application/json", .badRequest,
            "the command names no collection"
          ),
          (
            "/api/collections", #"{"action":"move","id":"c","direction":"sideways"}"#,
            "application/json", .badRequest, "move needs direction up, down or first, or after"
          ),
          (
            "/api/decide", String(repeating: " ", count: WebLimits.requestBody + 1),
            "application/json", .contentTooLarge,
            "a request body holds at most \(WebLimits.requestBody) bytes"
          ),
        ]
        for (path, body, type, status, reason) in cases {
          let answer = try await post(path, body, type: type)
          #expect(answer.status == status, "\(path) \(body.prefix(40))")
          #expect(try Self.reason(answer) == reason, "\(path) \(body.prefix(40))")
        }
        let query = try await client.execute(
          uri: "/api/folders?root=first", method: .get, headers: headers)
        #expect(query.status == .badRequest)
        #expect(
          try Self.reason(query) == PhotoRoutes.FoldersQuery.requirement)
        let unknown = try await client.execute(uri: "/api/nothing", method: .get, headers: headers)
        #expect(unknown.status == .notFound)
      }
      let status = try harness.fixture.ctl(["photos", "status", "--json"])
      #expect(status.stdout.contains(#""reviewed" : 0,"#), "\(status.stdout)")
    }
  }

  @Test("an unknown collection's address is a 404 page that says so and links back")
  func unknownCollection() async throws {
    try await withHarness(count: 1) { harness in
      let headers = harness.headers
      try await harness.test { client in
        let page = try await client.execute(
          uri: "/collections/Nowhere", method: .get, headers: headers)
        #expect(page.status == .notFound)
        #expect(page.headers[.contentType] == "text/html; charset=utf-8")
        let text = String(buffer: page.body)
        #expect(text.contains("Nowhere") && text.contains(#"<a href="/collections">"#), "\(text)")
        let api = try await client.execute(
          uri: "/api/collection?id=Nowhere", method: .get, headers: headers)
        #expect(api.status == .notFound)
        #expect(try Self.reason(api).contains("Nowhere"))
        let unnamed = try await client.execute(
          uri: "/api/collection", method: .get, headers: headers)
        #expect(unnamed.status == .badRequest)
        #expect(try Self.reason(unnamed) == OrganizeRoutes.CollectionQuery.requirement)
      }
    }
  }

  @Test("the itinerary's refusal: the same one line from /api/items as from `item move`")
  func organizeRefusal() async throws {
    try await withHarness(count: 1) { harness in
      let workspace = Workspace(root: harness.fixture.store)
      let trip = try workspace.createCollection(named: "Trip", kind: .plan).id.rawValue
      var ids: [String: String] = [:]
      for (day, items) in SeedItinerary.days {
        let header = try workspace.addItem(to: "Trip", text: day, role: .day(nil)).id.rawValue
        ids[day] = header
        for (text, role) in items {
          ids[text] =
            try workspace.addItem(
              to: "Trip", text: text, at: .lastChild(of: header),
              role: try role.map { try PlacementRole(parsing: $0) }
            ).id.rawValue
        }
      }
      let game = try #require(ids[SeedItinerary.game])
      let headers = harness.headers
      let history = try workspace.history(limit: 100).count
      try await harness.test { client in
        let view = try Self.object(
          try await client.execute(
            uri: "/api/collection?id=Trip", method: .get, headers: headers))
        let version = try #require(view["version"] as? String)
        let move =
          #"{"action":"move","collection":"\#(trip)","version":"\#(version)","id":"\#(game)","direction":"down"}"#
        let refused = try await client.execute(
          uri: "/api/items", method: .post, headers: headers, body: ByteBuffer(string: move))
        #expect(refused.status.code >= 400 && refused.status.code < 500)
        #expect(try Self.reason(refused) == SeedItinerary.fixedReason)
      }
      let cli = try harness.fixture.ctl(
        ["item", "move", game, "--into", try #require(ids["New York"])])
      #expect(cli.status != 0)
      #expect(cli.stderr.contains(SeedItinerary.fixedReason), "\(cli.stderr)")
      #expect(try workspace.history(limit: 100).count == history)
    }
  }
}
