import Foundation
import Gestures
import Offload
import OffloadTestSupport
import Testing

@testable import OffloadWeb

/// A row stroke on the server: the `listRow` arena decides swipe, scroll and long-press drag
/// (a quick swipe past 100 pt), the handle lifts at once, and a lifted row's moves run the drop resolver.
@Suite("OrganizeStroke: swipes and drags behind the page")
struct OrganizeStrokeTests {
  /// Rows 48 points tall for the House plan, as a page at the top of the list measures them.
  func stroke(
    _ store: OrganizeServiceTests.Store, row text: String, handle: Bool = false,
    in collection: String? = nil
  ) async throws -> OrganizeStroke {
    let collection = collection ?? store.house
    let (tree, rules, version) = try await store.service.load(collection)
    let frames = tree.rows().enumerated().map { index, row in
      OrganizeInput.Frame(
        i: row.item.id.rawValue, y: Double(index) * 48, h: 48, d: row.depth,
        o: row.childCount > 0)
    }
    let geometry = OrganizeInput.Geometry(
      rows: frames, top: -200, bottom: 700, originX: 8, indent: 24)
    let id = try #require(store.ids[text].flatMap(ShortID.init))
    return OrganizeStroke(
      collection: collection, version: version, id: id, rules: rules, handle: handle,
      begin: OrganizeInput.Begin(), geometry: geometry, time: 0)
  }

  /// Feeds a straight stroke from (x, y) by (dx, dy) over `duration` seconds in 16 ms steps,
  /// resting `rest` seconds first; returns the messages' types and the effect.
  func run(
    _ stroke: inout OrganizeStroke, from start: (Double, Double), by delta: (Double, Double),
    duration: Double, rest: Double = 0, cancel: Bool = false, at origin: Double = 0
  ) -> (types: [String], effect: OrganizeStroke.Effect?, messages: [OrganizeOutput]) {
    var all: [OrganizeOutput] = []
    var effect: OrganizeStroke.Effect?
    func take(_ result: (messages: [OrganizeOutput], effect: OrganizeStroke.Effect?)) {
      all += result.messages
      if let found = result.effect { effect = found }
    }
    take(stroke.feed(phase: .began, milliseconds: origin, x: start.0, y: start.1, pointer: 1))
    if rest > 0 {
      take(
        stroke.feed(
          phase: nil, milliseconds: origin + rest * 1000, x: start.0, y: start.1, pointer: 1))
    }
    let steps = max(1, Int(duration / 0.016))
    for step in 1...steps {
      let f = Double(step) / Double(steps)
      take(
        stroke.feed(
          phase: .moved, milliseconds: origin + (rest + duration * f) * 1000,
          x: start.0 + delta.0 * f,
          y: start.1 + delta.1 * f, pointer: 1))
    }
    take(
      stroke.feed(
        phase: cancel ? .cancelled : .ended, milliseconds: origin + (rest + duration) * 1000 + 8,
        x: start.0 + delta.0, y: start.1 + delta.1, pointer: 1))
    return (all.map(\.type), effect, all)
  }

  @Test("a quick swipe left past 100 pt deletes; short, slow, rightward and vertical ones do not")
  func swipes() async throws {
    let store = try OrganizeServiceTests.Store()
    defer { store.folder.remove() }
    var quick = try await stroke(store, row: "Paint")
    let deleted = run(&quick, from: (300, 24), by: (-160, 4), duration: 0.15)
    #expect(deleted.effect == .delete, "\(deleted.types)")
    #expect(deleted.types.contains("swipe"))
    let opacities = deleted.messages.compactMap(\.opacity)
    #expect(opacities == opacities.sorted() && (opacities.last ?? 0) >= 1)
    for (name, delta, duration, cancel) in [
      ("short", (-70.0, 0.0), 0.1, false), ("slow", (-160.0, 0.0), 2.5, false),
      ("vertical with drift", (-25.0, 220.0), 0.3, true), ("rightward", (160.0, 0.0), 0.15, false),
    ] {
      var other = try await stroke(store, row: "Paint")
      let result = run(&other, from: (300, 24), by: delta, duration: duration, cancel: cancel)
      #expect(result.effect == nil, "\(name): \(result.types)")
      #expect(!result.types.contains("lift"), "\(name)")
    }
    var scroll = try await stroke(store, row: "Paint")
    let scrolled = run(&scroll, from: (300, 24), by: (-25, 220), duration: 0.3, cancel: true)
    #expect(scrolled.types.contains("scroll") && !scrolled.types.contains("swipe"))
  }

  @Test(
    "a partial swipe reveals the actions and the arena keeps them between strokes: a tap or a close request closes them, a quick swipe from them deletes"
  )
  func revealKeptAcrossStrokes() async throws {
    let store = try OrganizeServiceTests.Store()
    defer { store.folder.remove() }
    var row = try await stroke(store, row: "Paint")
    // 90 pt, quick: under the delete distance, past half the actions' width.
    let partial = run(&row, from: (300, 24), by: (-90, 0), duration: 0.1)
    #expect(partial.effect == nil && partial.types.last == "reveal", "\(partial.types)")
    #expect(partial.messages.last?.offset == -OrganizeStroke.actionsWidth)
    #expect(row.arena.isRowRevealed)
    // Under half the width, a swipe snaps back and reveals nothing.
    var short = try await stroke(store, row: "Paint")
    let back = run(&short, from: (300, 24), by: (-60, 0), duration: 0.1)
    #expect(back.types.last == "swipeBack" && !short.arena.isRowRevealed, "\(back.types)")
    // The next stroke on the revealed row continues it: its swipe starts from the open row.
    let next = OrganizeInput.Begin(
      collection: row.collection, version: row.version, surface: "row", id: row.id.rawValue,
      stroke: 7)
    #expect(row.continues(next))
    var handle = next
    handle.surface = "handle"
    #expect(!row.continues(handle))
    var stale = next
    stale.version = "other"
    #expect(!row.continues(stale))
    var tapped = row
    tapped.resume(next, geometry: OrganizeInput.Geometry())
    #expect(tapped.number == 7)
    let tap = run(&tapped, from: (200, 24), by: (0, 0), duration: 0.05, at: 5000)
    #expect(tap.types.contains("closed") && !tap.types.contains("ended"), "\(tap.types)")
    #expect(tap.messages.first { $0.type == "closed" }?.reason == "tap")
    #expect(!tapped.arena.isRowRevealed)
    var moved = row
    moved.resume(next, geometry: OrganizeInput.Geometry())
    let more = run(&moved, from: (200, 24), by: (-40, 0), duration: 0.2, at: 5000)
    let offsets = more.messages.filter { $0.type == "swipe" }.compactMap(\.offset)
    #expect((offsets.first ?? 0) <= -OrganizeStroke.actionsWidth, "\(offsets)")
    var quick = row
    quick.resume(next, geometry: OrganizeInput.Geometry())
    let deleted = run(&quick, from: (200, 24), by: (-130, 2), duration: 0.1, at: 5000)
    #expect(deleted.effect == .delete, "\(deleted.types)")
    // A touch elsewhere or a quick action: the page asks, the arena closes, once.
    var requested = row
    let closed = requested.close(milliseconds: 6000)
    #expect(closed.map(\.type) == ["closed"] && closed.first?.reason == "request")
    #expect(closed.first?.id == row.id.rawValue)
    #expect(requested.close(milliseconds: 6100).isEmpty)
  }

  @Test("the page's messages are read by their type; a sample without its members says what")
  func readsMessages() throws {
    func read(_ json: String) throws -> OrganizeInput {
      try JSONDecoder().decode(OrganizeInput.self, from: Data(json.utf8))
    }
    guard
      case .sample(let sample) = try read(
        #"{"type":"sample","phase":"began","t":12.5,"x":3,"y":4,"pointer":9,"n":2,"#
          + #""surface":"row","id":"abc","stroke":5,"collection":"c","version":"v","#
          + #""rows":[{"i":"abc","y":0,"h":48,"d":0}],"top":-10,"bottom":700}"#)
    else {
      Issue.record("not a sample")
      return
    }
    #expect(sample.phase == .began && sample.t == 12.5 && sample.x == 3 && sample.y == 4)
    #expect(sample.pointer == 9 && sample.n == 2 && sample.begin.stroke == 5)
    #expect(sample.begin.id == "abc" && sample.begin.surface == "row")
    #expect(sample.geometry.rows?.count == 1 && sample.geometry.top == -10)
    guard case .watch(let collection, let version) = try read(#"{"type":"watch","collection":"c"}"#)
    else {
      Issue.record("not a watch")
      return
    }
    #expect(collection == "c" && version == nil)
    guard case .advance(let t, let n) = try read(#"{"type":"advance","t":40,"n":3}"#) else {
      Issue.record("not an advance")
      return
    }
    #expect(t == 40 && n == 3)
    guard case .rows(let geometry, let x, _, _) = try read(#"{"type":"rows","x":1,"rows":[]}"#)
    else {
      Issue.record("not rows")
      return
    }
    #expect(geometry.rows?.isEmpty == true && x == 1)
    guard case .close(let time) = try read(#"{"type":"close"}"#) else {
      Issue.record("not a close")
      return
    }
    #expect(time == nil)
    for (json, message) in [
      (#"{"type":"sample","phase":"moved","x":1,"y":2}"#, "a sample needs t"),
      (#"{"type":"advance"}"#, "a sample needs t"),
      (#"{"type":"sample","phase":"floated","t":1,"x":1,"y":2}"#, "a sample needs phase, t, x, y"),
      (#"{"type":"sample","phase":"moved","t":1,"y":2}"#, "a sample needs phase, t, x, y"),
      (#"{"type":"dance"}"#, "unknown message type"),
    ] {
      #expect(throws: OrganizeInput.Refusal(message: message), "\(json)") { try read(json) }
    }
    // Not an organize message at all: no type, or a member of the wrong kind.
    for json in [#"{"t":1}"#, #"{"type":"sample","phase":"moved","t":"soon","x":1,"y":2}"#] {
      #expect(throws: DecodingError.self, "\(json)") { try read(json) }
    }
  }

  @Test("a long press lifts the row; a move resolves the line; a drag left never deletes")
  func longPressDrag() async throws {
    let store = try OrganizeServiceTests.Store()
    defer { store.folder.remove() }
    var drag = try await stroke(store, row: "Paint")
    let result = run(&drag, from: (300, 24), by: (-160, 110), duration: 0.6, rest: 0.6)
    #expect(result.types.first == "lift", "\(result.types)")
    #expect(!result.types.contains("swipe"))
    #expect(result.types.contains("target"))
    guard case .drop(let target)? = result.effect else {
      Issue.record("no drop: \(result.types)")
      return
    }
    #expect(!target.isBlocked)
    #expect(result.messages.contains { $0.answer?.line != nil })
  }

  @Test("the handle lifts at once (mouse), and a drop below the last row lands after it")
  func handleDrag() async throws {
    let store = try OrganizeServiceTests.Store()
    defer { store.folder.remove() }
    var drag = try await stroke(store, row: "Paint", handle: true)
    let result = run(&drag, from: (400, 24), by: (0, 136), duration: 0.3)
    #expect(result.types.first == "lift", "\(result.types)")
    guard case .drop(let target)? = result.effect else {
      Issue.record("no drop: \(result.types)")
      return
    }
    #expect(
      target == .allowed(.insertBelow(try #require(store.ids["Clean"].flatMap(ShortID.init)))))
    let autoScroll = result.messages.compactMap(\.autoScroll)
    #expect(!autoScroll.isEmpty && autoScroll.allSatisfy { $0 == 0 })
    // Near the bottom edge of the viewport the resolver asks for auto-scroll.
    var edge = try await stroke(store, row: "Paint", handle: true)
    let scrolled = run(&edge, from: (400, 24), by: (0, 660), duration: 0.3)
    #expect((scrolled.messages.compactMap(\.autoScroll).last ?? 0) > 0)
  }

  @Test(
    "each answer's cells predict the next sample's answer: wandering drags over the itinerary",
    arguments: [31, 32, 33])
  func answersPredictTheNextSample(seed: UInt64) async throws {
    let store = try OrganizeServiceTests.Store()
    defer { store.folder.remove() }
    var rng = SplitMix64(seed: SplitMix64.testSeed(seed))
    var predicted = 0
    var blocked = 0
    var outside = 0
    for text in ["Lobster roll", "Travel (days 1-2): drive to New York", "Museum"] {
      var drag = try await stroke(store, row: text, handle: true, in: store.trip)
      var point = (x: 60.0, y: 100.0)
      // The lift carries the answers for the first move.
      let lift = drag.feed(phase: .began, milliseconds: 0, x: point.x, y: point.y, pointer: 1)
        .messages.first { $0.type == "lift" }
      var next = try #require(lift?.next, "\(rng)")
      for step in 1...150 {
        // Small steps mostly, some long jumps, on whole and half points as browsers give them.
        let jump = rng.chance(0.1) ? 140.0 : 30.0
        point.x = min(
          240, max(-20, point.x + (Double.random(in: -jump...jump, using: &rng) / 2).rounded()))
        point.y = min(
          420, max(-40, point.y + (Double.random(in: -jump...jump, using: &rng)).rounded() / 2))
        let answer = drag.feed(
          phase: .moved, milliseconds: Double(step) * 16, x: point.x, y: point.y, pointer: 1
        ).messages.first { $0.type == "target" }
        let target = try #require(answer, "\(rng)")
        do {
          let cells = next
          if let cell = cells.cells.first(where: {
            point.x >= $0[0] && point.x <= $0[1] && point.y >= $0[2] && point.y <= $0[3]
          }) {
            let guess = cells.answers[Int(cell[4])]
            #expect(guess.line == target.answer?.line, "step \(step) \(point), \(rng)")
            #expect(
              (guess.blocked ?? false) == (target.answer?.blocked ?? false), "step \(step), \(rng)")
            #expect(guess.reason == target.answer?.reason, "step \(step), \(rng)")
            predicted += 1
            if guess.blocked == true { blocked += 1 }
          } else {
            outside += 1
          }
        }
        next = try #require(target.next, "\(rng)")
        #expect(!next.cells.isEmpty, "\(rng)")
      }
    }
    // Only the long jumps leave the cells; refusals are predicted too.
    #expect(predicted > 350 && outside < 95, "\(predicted) predicted, \(outside) outside")
    #expect(blocked > 10, "\(blocked)")
  }
}
