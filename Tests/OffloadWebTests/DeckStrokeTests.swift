import Foundation
import Gestures
import PhotoSession
import Testing

@testable import OffloadWeb

/// The server's side of a swipe: page samples through the `photoDeck` arena.
@Suite("DeckStroke: the arena behind the page")
struct DeckStrokeTests {
  /// Feeds a straight stroke of `steps` samples `interval` seconds apart from (200, 300) by
  /// (dx, dy), resting `rest` seconds before lifting; returns every message and the outcome.
  func stroke(
    dx: Double, dy: Double, steps: Int = 20, interval: Double = 0.016, rest: Double = 0.1,
    width: Double = 400
  ) -> (messages: [DeckServerMessage], outcome: DeckStroke.Outcome?, stroke: DeckStroke) {
    let start = 5_000.0  // ms on the page's clock
    var stroke = DeckStroke(
      DeckStrokeStart(session: "s", index: 3, width: width, reduceMotion: false),
      time: start / 1000)
    var messages: [DeckServerMessage] = []
    var outcome: DeckStroke.Outcome?
    func feed(_ phase: TouchPhase, _ ms: Double, _ x: Double, _ y: Double) {
      let answer = stroke.feed(TouchSample(time: ms / 1000, x: x, y: y, phase: phase, pointer: 1))
      messages += answer.messages
      if let o = answer.outcome { outcome = o }
    }
    feed(.began, start, 200, 300)
    for i in 1...steps {
      let f = Double(i) / Double(steps)
      feed(.moved, start + Double(i) * interval * 1000, 200 + dx * f, 300 + dy * f)
    }
    let end = start + (Double(steps) * interval + rest) * 1000
    feed(.ended, end, 200 + dx, 300 + dy)
    return (messages, outcome, stroke)
  }

  @Test(
    "past half the width, slowly: left trashes, right favorites, up keeps",
    arguments: [
      (-260.0, 0.0, PhotoDecision.trash), (260, 0, .favorite), (0, -260, .keep),
    ])
  func pastThreshold(dx: Double, dy: Double, decision: PhotoDecision) {
    let result = stroke(dx: dx, dy: dy)
    guard case .commit(let got, _, let byFling) = result.outcome else {
      Issue.record("no commit: \(String(describing: result.outcome))")
      return
    }
    #expect(got == decision)
    #expect(!byFling)
    // The 25, 50 and 75 % marks rise on the way (75 % is not reached at 65 %).
    let rising = result.messages.compactMap { message -> Double? in
      guard case .mark(_, let mark, rising: true) = message else { return nil }
      return mark
    }
    #expect(rising == [0.25, 0.5])
    #expect(result.messages.contains(.tick))
  }

  @Test("short of the threshold and resting before the lift: snap back, no tick")
  func shortSnapsBack() {
    for (dx, dy) in [(-150.0, 0.0), (150, 0), (0, -150), (0, 180)] {
      let result = stroke(dx: dx, dy: dy)
      #expect(result.outcome == .snapBack, "\(dx), \(dy)")
      #expect(!result.messages.contains(.tick))
    }
  }

  @Test("a fast short fling snaps back: the seed commits only past the threshold")
  func shortFlingSnapsBack() {
    let result = stroke(dx: -90, dy: 0, steps: 5, interval: 0.01, rest: 0)
    #expect(result.outcome == .snapBack, "\(String(describing: result.outcome))")
  }

  @Test("a fast fling past the threshold commits")
  func flingPastTheThreshold() {
    let result = stroke(dx: -260, dy: 0, steps: 5, interval: 0.01, rest: 0)
    guard case .commit(.trash, "left", _) = result.outcome else {
      Issue.record("expected a trash, got \(String(describing: result.outcome))")
      return
    }
  }

  @Test("the recorded trace replays to the same outcome")
  func traceReplays() throws {
    for (dx, dy) in [(-260.0, 0.0), (120, 0), (0, -300)] {
      let result = stroke(dx: dx, dy: dy)
      let text = result.stroke.trace.jsonLines
      let replay = GestureReplay(trace: try GestureTrace(parsing: text))
      let outcome = replay.strokes.last?.outcome
      switch result.outcome {
      case .commit(_, let direction, _): #expect(outcome == "commit-\(direction)")
      case .snapBack: #expect(outcome == "snapBack")
      case nil: Issue.record("no outcome")
      }
    }
  }
}

/// The access rules as a function, for the cases the HTTP tests cannot send (IPv6 hosts).
@Suite("WebAccess: host, token and origin rules")
struct WebAccessTests {
  func access(loopback: Bool = true) -> WebAccess {
    let access = WebAccess(token: String(repeating: "ab", count: 32), loopbackOnly: loopback)
    access.port = 8123
    return access
  }

  @Test("hosts: loopback names and addresses with the right port only")
  func hosts() {
    let a = access()
    for good in ["127.0.0.1:8123", "localhost:8123", "[::1]:8123", "LOCALHOST:8123"] {
      #expect(a.acceptsHost(good), "\(good)")
    }
    for bad in [
      "127.0.0.1:8124", "127.0.0.1", "evil.example:8123", "192.168.1.9:8123", "[::1]", "[::1:8123",
      "127.0.0.1:8123:1", "", "10.0.0.1.nip.io:8123",
    ] {
      #expect(!a.acceptsHost(bad), "\(bad)")
    }
    #expect(!a.acceptsHost(nil))
    let lan = access(loopback: false)
    #expect(lan.acceptsHost("192.168.1.9:8123"))
    #expect(!lan.acceptsHost("evil.example:8123"))
  }

  @Test("tokens: fresh, 64 hex digits; compared whole")
  func tokens() {
    let one = WebAccess.makeToken()
    let two = WebAccess.makeToken()
    #expect(one != two)
    #expect(one.count == 64 && one.allSatisfy(\.isHexDigit))
    #expect(WebAccess.same(one, one))
    #expect(!WebAccess.same(one, two))
    #expect(!WebAccess.same(one, String(one.dropLast())))
  }

  @Test("verdicts: redirect with the cookie, 401 without, Origin for changes and upgrades")
  func verdicts() {
    let a = access()
    let token = a.token
    let host = "127.0.0.1:8123"
    let cookie = "other=1; offload_8123=\(token)"
    #expect(
      a.check(
        method: "GET", path: "/photos", queryToken: token, host: host, origin: nil,
        cookieHeader: nil, isUpgrade: false)
        == .redirect(
          location: "/photos", cookie: "offload_8123=\(token); Path=/; HttpOnly; SameSite=Strict"))
    #expect(
      a.check(
        method: "GET", path: "/", queryToken: nil, host: host, origin: nil, cookieHeader: nil,
        isUpgrade: false)
        == .deny(status: 401, reason: "open the address `offloadctl serve` printed, with its token")
    )
    #expect(
      a.check(
        method: "GET", path: "/", queryToken: nil, host: host, origin: nil, cookieHeader: cookie,
        isUpgrade: false) == .allow)
    // The redirect never leaves the server, whatever path carried the token.
    for path in ["//evil.example/x", "/\\evil.example", "/\\/evil.example"] {
      let verdict = a.check(
        method: "GET", path: path, queryToken: token, host: host, origin: nil, cookieHeader: nil,
        isUpgrade: false)
      guard case .redirect(let location, _) = verdict else {
        Issue.record("\(path): \(verdict)")
        continue
      }
      #expect(location == "/", "\(path)")
    }
    for (method, upgrade) in [("POST", false), ("GET", true), ("DELETE", false)] {
      let missing = a.check(
        method: method, path: "/x", queryToken: nil, host: host, origin: nil, cookieHeader: cookie,
        isUpgrade: upgrade)
      #expect(missing != .allow, "\(method) \(upgrade)")
      let own = a.check(
        method: method, path: "/x", queryToken: nil, host: host, origin: "http://" + host,
        cookieHeader: cookie, isUpgrade: upgrade)
      #expect(own == .allow, "\(method) \(upgrade)")
    }
  }
}
