import Gestures
import Testing

/// Strokes that each gesture is made of.
enum Stroke: String, CaseIterable, CustomTestStringConvertible {
  case quickTap, restThenLift, verticalFlick, leftFlick, restThenDragLeft, restThenDragDown

  var testDescription: String { rawValue }

  var samples: [TouchSample] {
    var stroke = StrokeBuilder(at: TouchPoint(x: 200, y: 300))
    switch self {
    case .quickTap:
      stroke.lift(after: 0.08)
    case .restThenLift:
      stroke.rest(for: 0.7)
      stroke.lift()
    case .verticalFlick:
      stroke.move(by: TouchPoint(x: 3, y: 160), over: 0.15)
      stroke.lift()
    case .leftFlick:
      stroke.move(by: TouchPoint(x: -160, y: 4), over: 0.15)
      stroke.lift()
    case .restThenDragLeft:
      stroke.rest(for: 0.6)
      stroke.move(by: TouchPoint(x: -160, y: 0), over: 0.3)
      stroke.lift()
    case .restThenDragDown:
      stroke.rest(for: 0.6)
      stroke.move(by: TouchPoint(x: 0, y: 160), over: 0.3)
      stroke.lift()
    }
    return stroke.samples
  }

  /// The gestures this stroke can be, most specific first; the arena must pick the first one
  /// present on the surface.
  var preference: [GestureKind] {
    switch self {
    case .quickTap: [.tap]
    case .restThenLift: [.longPress, .reorder, .tap]
    case .verticalFlick: [.scroll, .deckSwipe]
    case .leftFlick: [.rowSwipe, .deckSwipe]
    case .restThenDragLeft: [.longPress, .reorder, .rowSwipe, .deckSwipe]
    case .restThenDragDown: [.longPress, .reorder, .scroll, .deckSwipe]
    }
  }
}

/// The standard member for a kind: presses outrank pans, pans wait for presses to fail.
func standardMember(_ kind: GestureKind) -> GestureSurface.Member {
  switch kind {
  case .tap: .init(.tap)
  case .longPress, .reorder: .init(kind, priority: 2)
  case .scroll, .rowSwipe, .deckSwipe:
    .init(kind, priority: 1, requiresFailureOf: [.longPress, .reorder])
  }
}

let allPairs: [(GestureKind, GestureKind)] = {
  var pairs: [(GestureKind, GestureKind)] = []
  let kinds = GestureKind.allCases
  for i in kinds.indices {
    for j in kinds.indices where j > i { pairs.append((kinds[i], kinds[j])) }
  }
  return pairs
}()

@Suite("Arena: conflict table")
struct ArenaConflictTests {
  @Test(arguments: allPairs)
  func everyPairResolvesToTheStrokesGesture(first: GestureKind, second: GestureKind) {
    for stroke in Stroke.allCases {
      for members in [[first, second], [second, first]] {
        var a = arena(GestureSurface(members: members.map(standardMember)))
        let events = a.run(stroke.samples)
        let expected = stroke.preference.first { members.contains($0) }
        #expect(
          events.decided == expected,
          "\(members.map(\.rawValue)) on \(stroke.rawValue): got \(String(describing: events.decided))"
        )
        // Exactly one winner, and every other member failed.
        if let expected {
          for other in members where other != expected {
            #expect(a.state(of: other) == .failed, "\(other) on \(stroke.rawValue)")
          }
        }
      }
    }
  }

  @Test func explicitPrioritiesDecideSimultaneousClaims() {
    let deckFirst = GestureSurface(members: [
      .init(.deckSwipe, priority: 2), .init(.scroll, priority: 1),
    ])
    var a = arena(deckFirst)
    #expect(a.run(Stroke.verticalFlick.samples).decided == .deckSwipe)
    let scrollFirst = GestureSurface(members: [
      .init(.deckSwipe, priority: 1), .init(.scroll, priority: 2),
    ])
    a = arena(scrollFirst)
    #expect(a.run(Stroke.verticalFlick.samples).decided == .scroll)
    // Horizontal: the scroll fails on the lock and the deck takes it.
    #expect(a.run(Stroke.leftFlick.samples).decided == .deckSwipe)
  }

  @Test func requireToFailMakesAClaimWait() {
    let surface = GestureSurface(members: [
      .init(.longPress, priority: 0), .init(.scroll, priority: 1, requiresFailureOf: [.longPress]),
    ])
    // A generous press slop keeps the long press possible while the finger moves.
    var a = arena(surface) { $0.longPressSlop = 60 }
    var stroke = StrokeBuilder(at: .zero)
    stroke.move(by: TouchPoint(x: 0, y: 40), over: 0.2)
    stroke.rest(for: 0.5)
    stroke.lift()
    var events = a.run(stroke.samples)
    #expect(events.decided == .longPress)
    #expect(events.states(of: .scroll) == [.failed])
    // Once the press fails by moving past its slop, the waiting scroll begins.
    stroke = StrokeBuilder(at: .zero)
    stroke.move(by: TouchPoint(x: 0, y: 100), over: 0.2)
    stroke.lift()
    events = a.run(stroke.samples)
    #expect(events.decided == .scroll)
    #expect((a.decision?.distance ?? 0) > 60)
  }

  @Test func aCancelledTouchLetsNoWaitingClaimWin() {
    let surface = GestureSurface(members: [
      .init(.longPress, priority: 0), .init(.scroll, priority: 1, requiresFailureOf: [.longPress]),
    ])
    var a = arena(surface) { $0.longPressSlop = 60 }
    var stroke = StrokeBuilder(at: .zero)
    stroke.move(by: TouchPoint(x: 0, y: 40), over: 0.2)
    stroke.cancel()
    let events = a.run(stroke.samples)
    #expect(events.decided == nil)
    #expect(events.states(of: .scroll) == [.failed] && events.states(of: .longPress) == [.failed])
  }

  @Test func withoutRequireToFailThePanWinsAtOnce() {
    let surface = GestureSurface(members: [
      .init(.longPress, priority: 0), .init(.scroll, priority: 1),
    ])
    var a = arena(surface) { $0.longPressSlop = 60 }
    var stroke = StrokeBuilder(at: .zero)
    stroke.move(by: TouchPoint(x: 0, y: 40), over: 0.2)
    stroke.lift()
    #expect(a.run(stroke.samples).decided == .scroll)
    #expect((a.decision?.distance ?? 100) < 20)
  }

  @Test func theFirstPointerOwnsTheGesture() {
    var a = arena(.listRow)
    a.feed(TouchSample(time: 0, x: 100, y: 100, phase: .began, pointer: 1))
    #expect(a.feed(TouchSample(time: 0.01, x: 300, y: 100, phase: .began, pointer: 2)).isEmpty)
    #expect(a.feed(TouchSample(time: 0.02, x: 200, y: 100, phase: .moved, pointer: 2)).isEmpty)
    #expect(a.trackedPointer == 1)
    a.feed(TouchSample(time: 0.05, x: 100, y: 101, phase: .ended, pointer: 1))
    #expect(a.decision?.kind == .tap)
    #expect(a.feed(TouchSample(time: 0.06, x: 0, y: 0, phase: .moved)).isEmpty)
  }

  @Test func aNewBeganCancelsALostTouch() {
    var a = arena(.listRow)
    a.run(StrokeBuilder.drag(TouchPoint(x: -50, y: 0), over: 0.1).dropLast())
    #expect(a.winner == .rowSwipe)
    let events = a.feed(TouchSample(time: 1, x: 0, y: 0, phase: .began))
    #expect(events.rowOutcome == .snapBack)
    #expect(a.winner == nil && a.isTracking)
    #expect(a.cancel(at: 1.1).states(of: .tap) == [.failed])
    #expect(a.cancel(at: 1.2).isEmpty)
  }
}
