import Foundation
import OffloadTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `offloadctl serve` at the HTTP level: the printed address, the token and its cookie, the
/// Host and Origin checks, POST-only changes, photos by session and index only, the headers
/// and the size limits. Each test runs the built binary on a free loopback port.
@Suite("offloadctl serve: HTTP security")
struct ServeSecurityTests {
  /// A fixture with a running server; `body` gets both.
  func withServer(
    count: Int = 4, extra: [String] = [],
    _ body: (WebFixture, ServerProcess, RawHTTP) throws -> Void
  ) throws {
    let fixture = try WebFixture(count: count)
    defer { fixture.remove() }
    let server = try ServerProcess(fixture, extra: extra)
    defer { server.stop() }
    try body(fixture, server, RawHTTP(port: server.port))
  }

  func sessionID(_ fixture: WebFixture) throws -> String {
    let status = try fixture.status()
    return (status["session"] as? [String: Any])?["id"] as? String ?? ""
  }

  @Test(
    "the first line is the address with a fresh 64-digit token; SIGTERM and SIGINT stop it with status 0"
  )
  func addressAndStop() throws {
    let fixture = try WebFixture(count: 1)
    defer { fixture.remove() }
    let first = try ServerProcess(fixture)
    let second = try ServerProcess(fixture)
    #expect(first.token != second.token)
    #expect(first.port != second.port)
    #expect(first.stop(SIGTERM) == 0)
    #expect(second.stop(SIGINT) == 0)
  }

  @Test("a WebSocket peer that never answers the close does not keep the server from stopping")
  func stopWithSilentPeer() throws {
    let fixture = try WebFixture(count: 1)
    defer { fixture.remove() }
    let server = try ServerProcess(fixture)
    let socket = try RawWebSocket(port: server.port, origin: server.origin, cookie: server.cookie)
    #expect(server.stop(SIGINT) == 0)
    withExtendedLifetime(socket) {}
  }

  @Test("without the token every path gets 401 and no data")
  func tokenRequired() throws {
    try withServer { fixture, server, http in
      let id = try sessionID(fixture)
      for path in [
        "/", "/photos", "/photos/review", "/api/state", "/api/review", "/photo/\(id)/0",
        "/assets/deck.js", "/nothing",
      ] {
        let answer = try http.request(path)
        #expect(answer.status == 401, "\(path): \(answer)")
        #expect(!answer.text.contains(id) && !answer.text.contains("p000"), "\(path) leaked data")
        #expect(answer.header("Content-Type")?.hasPrefix("image/") != true)
      }
      let wrongCookie = try http.request(
        "/api/state",
        headers: ["Cookie": "offload_\(server.port)=\(String(repeating: "0", count: 64))"])
      #expect(wrongCookie.status == 403, "\(wrongCookie)")
      let wrongToken = try http.request("/?token=" + String(repeating: "a", count: 64))
      #expect(wrongToken.status == 403, "\(wrongToken)")
      #expect(wrongToken.header("Set-Cookie") == nil)
    }
  }

  @Test("the token sets an HttpOnly SameSite=Strict cookie and redirects to the clean address")
  func tokenBuysCookie() throws {
    try withServer { _, server, http in
      let answer = try http.request("/photos?token=\(server.token)")
      #expect(answer.status == 303, "\(answer)")
      #expect(answer.header("Location") == "/photos")
      let cookie = try #require(answer.header("Set-Cookie"))
      #expect(cookie.hasPrefix("\(server.cookie);"))
      #expect(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict")
          && cookie.contains("Path=/"))
      let away = try http.request("//evil.example/?token=\(server.token)")
      #expect(away.status != 303 || away.header("Location") == "/", "\(away)")
      let page = try http.request("/photos", headers: ["Cookie": server.cookie])
      #expect(page.status == 200)
      #expect(page.header("Content-Type")?.hasPrefix("text/html") == true)
      // A token is never accepted to change state.
      let post = try http.request(
        "POST", "/api/undo?token=\(server.token)",
        headers: ["Origin": server.origin, "Content-Type": "application/json"],
        body: Array("{}".utf8))
      #expect(post.status == 403, "\(post)")
    }
  }

  @Test("a Host header that does not name the server is refused (DNS rebinding)")
  func hostCheck() throws {
    try withServer { _, server, http in
      let good = try http.request("/api/state", headers: ["Cookie": server.cookie])
      #expect(good.status == 200, "\(good)")
      let localhost = try http.request(
        "/api/state", host: "localhost:\(server.port)", headers: ["Cookie": server.cookie])
      #expect(localhost.status == 200, "\(localhost)")
      for host in [
        "evil.example:\(server.port)", "127.0.0.1:\(server.port + 1)", "127.0.0.1",
        "192.168.1.5:\(server.port)", "127.0.0.1.nip.io:\(server.port)",
      ] {
        let answer = try http.request("/api/state", host: host, headers: ["Cookie": server.cookie])
        #expect(answer.status == 421, "\(host): \(answer)")
        #expect(!answer.text.contains("session"))
        let tokened = try http.request("/?token=\(server.token)", host: host)
        #expect(tokened.status == 421 && tokened.header("Set-Cookie") == nil, "\(host)")
      }
    }
  }

  @Test("changes need POST from the server's own origin; GET changes nothing")
  func originAndMethod() throws {
    try withServer { fixture, server, http in
      let id = try sessionID(fixture)
      let body = Array(#"{"session":"\#(id)","index":0,"decision":"trash"}"#.utf8)
      let json = ["Cookie": server.cookie, "Content-Type": "application/json"]
      let noOrigin = try http.request("POST", "/api/decide", headers: json, body: body)
      #expect(noOrigin.status == 403, "\(noOrigin)")
      var foreign = json
      foreign["Origin"] = "http://evil.example"
      #expect(try http.request("POST", "/api/decide", headers: foreign, body: body).status == 403)
      foreign["Origin"] = "http://127.0.0.1:\(server.port + 1)"
      #expect(try http.request("POST", "/api/decide", headers: foreign, body: body).status == 403)
      let viaGet = try http.request(
        "/api/decide?session=\(id)&index=0&decision=trash", headers: ["Cookie": server.cookie])
      #expect(viaGet.status == 405 || viaGet.status == 404, "\(viaGet)")
      #expect(try fixture.statistics()["reviewed"] as? Int == 0)
      var own = json
      own["Origin"] = server.origin
      let decided = try http.request("POST", "/api/decide", headers: own, body: body)
      #expect(decided.status == 200, "\(decided)")
      let stats = try fixture.statistics()
      #expect(stats["reviewed"] as? Int == 1)
      #expect(stats["trash"] as? Int == 1)
      // A stale page deciding the same card again is refused, not double-counted.
      let again = try http.request("POST", "/api/decide", headers: own, body: body)
      #expect(again.status == 409, "\(again)")
      #expect(try fixture.statistics()["reviewed"] as? Int == 1)
    }
  }

  @Test("a WebSocket opens only from the server's origin with the cookie")
  func webSocketOrigin() throws {
    try withServer { _, server, _ in
      #expect(throws: ServerFailure.self) {
        try RawWebSocket(port: server.port, origin: "http://evil.example", cookie: server.cookie)
      }
      #expect(throws: ServerFailure.self) {
        try RawWebSocket(port: server.port, origin: nil, cookie: server.cookie)
      }
      #expect(throws: ServerFailure.self) {
        try RawWebSocket(port: server.port, origin: server.origin, cookie: nil)
      }
      let socket = try RawWebSocket(port: server.port, origin: server.origin, cookie: server.cookie)
      socket.send(#"{"type":"nonsense"}"#)
      let answer = try #require(socket.receiveJSON())
      #expect(answer["type"] as? String == "error")
    }
  }

  @Test("photos are served by session and index only; nothing outside the session's photos")
  func photoConfinement() throws {
    try withServer { fixture, server, http in
      let id = try sessionID(fixture)
      let cookie = ["Cookie": server.cookie]
      let photo = try http.request("/photo/\(id)/0", headers: cookie)
      #expect(photo.status == 200, "\(photo)")
      #expect(photo.header("Content-Type") == "image/png")
      #expect(Array(photo.body.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
      let outside = fixture.folder.appending("secret.png")
      #expect(FileManager.default.createFile(atPath: outside, contents: Data("secret".utf8)))
      for path in [
        "/photo/\(id)/4", "/photo/\(id)/-1", "/photo/\(id)/x", "/photo/nosuch/0",
        "/photo/..%2F..%2Fsecret.png/0", "/photo/\(id)/..%2F..%2Fsecret.png",
        "/photo/\(id)/../../secret.png", "/photo/%2e%2e/0", "/assets/..%2Fphotos.html",
        "/assets/../../Package.swift", "/assets/", "/assets", "/photo/\(id)/", "/photo/",
      ] {
        let answer = try http.request(path, headers: cookie)
        #expect(answer.status == 404 || answer.status == 400, "\(path): \(answer)")
        #expect(!answer.text.contains("secret"))
      }
      // A photo replaced by a symbolic link out of the folder is not followed.
      let victim = fixture.photos + "/p001.png"
      try FileManager.default.removeItem(atPath: victim)
      try FileManager.default.createSymbolicLink(atPath: victim, withDestinationPath: outside)
      let linked = try http.request("/photo/\(id)/1", headers: cookie)
      #expect(linked.status == 404, "\(linked)")
      #expect(!linked.text.contains("secret"))
    }
  }

  @Test("every answer carries a CSP without inline script and nosniff; pages load no inline script")
  func headers() throws {
    try withServer { fixture, server, http in
      let id = try sessionID(fixture)
      for (path, cookie) in [
        ("/photos", true), ("/api/state", true), ("/photo/\(id)/0", true), ("/missing", true),
        ("/photos", false),
      ] {
        let answer = try http.request(path, headers: cookie ? ["Cookie": server.cookie] : [:])
        let csp = try #require(answer.header("Content-Security-Policy"), "\(path)")
        #expect(
          csp.contains("script-src 'self'") && !csp.contains("unsafe-inline")
            && !csp.contains("unsafe-eval"))
        #expect(csp.contains("frame-ancestors 'none'"))
        #expect(answer.header("X-Content-Type-Options") == "nosniff", "\(path)")
      }
      for page in ["/photos", "/photos/review"] {
        let html = try http.request(page, headers: ["Cookie": server.cookie]).text
        #expect(
          !html.contains("<script>") && !html.contains("onclick=") && !html.contains("http"),
          "\(page)")
      }
    }
  }

  @Test("request bodies and WebSocket messages are bounded")
  func sizeLimits() throws {
    try withServer { fixture, server, http in
      let id = try sessionID(fixture)
      let headers = [
        "Cookie": server.cookie, "Origin": server.origin, "Content-Type": "application/json",
      ]
      let padding = String(repeating: " ", count: 100_000)
      let big = Array(#"{"session":"\#(id)",\#(padding)"index":0,"decision":"keep"}"#.utf8)
      let answer = try http.request("POST", "/api/decide", headers: headers, body: big)
      #expect(answer.status == 413, "\(answer)")
      #expect(try fixture.statistics()["reviewed"] as? Int == 0)
      let notJSON = try http.request(
        "POST", "/api/decide", headers: headers, body: Array("index=0".utf8))
      #expect(notJSON.status == 400, "\(notJSON)")
      let socket = try RawWebSocket(port: server.port, origin: server.origin, cookie: server.cookie)
      socket.send(Array(repeating: UInt8(ascii: "x"), count: 20_000))
      var closed = false
      while let (opcode, _) = socket.receive() {
        if opcode == 8 {
          closed = true
          break
        }
      }
      #expect(closed || socket.receive() == nil)
    }
  }

  @Test("the server takes the session lock per change: the terminal and the page take turns")
  func sharedWithTerminal() throws {
    try withServer { fixture, server, http in
      let id = try sessionID(fixture)
      let swiped = try fixture.ctl(["photos", "swipe", "right"])
      #expect(swiped.status == 0, "\(swiped)")
      let state = try http.request("/api/state", headers: ["Cookie": server.cookie])
      let deck = try JSONSerialization.jsonObject(with: Data(state.body)) as? [String: Any]
      let session = deck?["session"] as? [String: Any]
      #expect(session?["reviewed"] as? Int == 1 && session?["favorite"] as? Int == 1, "\(state)")
      let headers = [
        "Cookie": server.cookie, "Origin": server.origin, "Content-Type": "application/json",
      ]
      let undone = try http.request(
        "POST", "/api/undo", headers: headers, body: Array(#"{"session":"\#(id)"}"#.utf8))
      #expect(undone.status == 200, "\(undone)")
      #expect(try fixture.statistics()["reviewed"] as? Int == 0)
    }
  }
}

/// Starting a session from the page: only folders under the roots given on the command line.
@Suite("offloadctl serve: starting a session from the page")
struct ServeStartTests {
  @Test("folders under the root list and start; paths out of the root are refused")
  func startUnderRoot() throws {
    let fixture = try WebFixture(count: 2)
    defer { fixture.remove() }
    let sub = fixture.photos + "/trip"
    try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
    #expect(
      FileManager.default.createFile(
        atPath: sub + "/x.png", contents: Data(PNGFile.make(width: 8, height: 6, color: (1, 2, 3))))
    )
    let outside = fixture.folder.appending("elsewhere")
    try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
    #expect(
      FileManager.default.createFile(
        atPath: outside + "/y.png",
        contents: Data(PNGFile.make(width: 8, height: 6, color: (1, 2, 3)))))
    try FileManager.default.createSymbolicLink(
      atPath: fixture.photos + "/out", withDestinationPath: outside)
    let server = try ServerProcess(fixture)
    defer { server.stop() }
    let http = RawHTTP(port: server.port)
    let listing = try http.request(
      "/api/folders?root=0&folder=", headers: ["Cookie": server.cookie])
    #expect(listing.status == 200, "\(listing)")
    #expect(listing.text.contains(#""folders":["trip"]"#), "\(listing)")
    let headers = [
      "Cookie": server.cookie, "Origin": server.origin, "Content-Type": "application/json",
    ]
    for folder in ["../elsewhere", "/etc", "out", "trip/../../elsewhere", "nosuch"] {
      let answer = try http.request(
        "POST", "/api/start", headers: headers,
        body: Array(#"{"root":0,"folder":"\#(folder)"}"#.utf8))
      #expect(answer.status == 400, "\(folder): \(answer)")
    }
    let badRoot = try http.request(
      "POST", "/api/start", headers: headers, body: Array(#"{"root":3,"folder":""}"#.utf8))
    #expect(badRoot.status == 400, "\(badRoot)")
    let sessionsBefore = try fixture.ctl(["photos", "sessions", "--json"]).stdout
    let started = try http.request(
      "POST", "/api/start", headers: headers, body: Array(#"{"root":0,"folder":"trip"}"#.utf8))
    #expect(started.status == 200, "\(started)")
    #expect(started.text.contains(#""total":1"#), "\(started)")
    let sessionsAfter = try fixture.ctl(["photos", "sessions", "--json"]).stdout
    #expect(sessionsAfter.count > sessionsBefore.count)
    let stats = try fixture.statistics()
    #expect(stats["total"] as? Int == 1)
  }
}

/// `offloadctl serve` refusing what it cannot do: one line on stderr, the table's exit code.
@Suite("offloadctl serve: bad options")
struct ServeOptionTests {
  @Test("a port out of range is bad usage (64); a port in use is a temporary failure (75)")
  func badPorts() throws {
    let fixture = try WebFixture(count: 1)
    defer { fixture.remove() }
    let range = try fixture.ctl(["serve", "--port", "70000"])
    #expect(range.status == 64, "\(range)")
    #expect(range.stderr.contains("--port must be between 0 and 65535, not 70000"))
    #expect(range.stdout.isEmpty)
    let server = try ServerProcess(fixture)
    defer { server.stop() }
    let busy = try fixture.ctl(["serve", "--port", String(server.port)])
    #expect(busy.status == 75, "\(busy)")
    #expect(
      busy.stderr.hasPrefix("offloadctl: error: cannot serve on 127.0.0.1 port \(server.port)"))
    #expect(busy.stderr.split(separator: "\n").count == 1)
    #expect(busy.stdout.isEmpty)
  }
}
