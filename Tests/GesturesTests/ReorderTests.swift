import Gestures
import Testing

/// The lift and snap-back of a reordered row, and the edit mode's reorder handle.
@Suite("Reorder: lift, snap-back and the handle")
struct ReorderTests {
  @Test func theLiftCastsAShadowAndTheSnapBackLaysItDown() throws {
    // The lift shows scale (1.025), a shadow and a tilt (2°) together; the
    // snap-back ends with the shadow's opacity at 0.
    for reduceMotion in [false, true] {
      let lift = try #require(MotionSpec.for(.lift, reduceMotion: reduceMotion).shadow)
      #expect(lift.opacity > 0 && lift.radius > 0 && lift.offsetY > 0)
      #expect(lift == .lifted)
      let snap = try #require(MotionSpec.for(.snapBack, reduceMotion: reduceMotion).shadow)
      #expect(snap.opacity == 0 && snap == .flat)
    }
    #expect(MotionSpec.for(.lift, reduceMotion: false).scale == 1.025)
    #expect(MotionSpec.for(.insertionLineFade, reduceMotion: false).shadow == nil)
  }

  @Test(arguments: [GestureSurface.listRow, .reorderHandle])
  func aCancelledReorderSnapsBack(surface: GestureSurface) {
    var a = arena(surface)
    var stroke = StrokeBuilder(at: TouchPoint(x: 200, y: 300))
    stroke.rest(for: 0.6)
    stroke.move(by: TouchPoint(x: 0, y: 120), over: 0.3)
    stroke.cancel()
    let events = a.run(stroke.samples)
    #expect(events.decided == .reorder)
    #expect(events.states(of: .reorder).last == .cancelled)
    let end = stroke.time
    let tail = Array(events.suffix(3))
    #expect(
      tail == [
        .state(.reorder, .cancelled, time: end), .motion(.snapBack, time: end),
        .reorder(.cancel, TouchPoint(x: 200, y: 420), time: end),
      ])
    #expect(!events.contains { if case .reorder(.drop, _, _) = $0 { true } else { false } })
    #expect(!events.haptics.contains(.drop))
    #expect(MotionSpec.for(.snapBack, reduceMotion: false).shadow?.opacity == 0)
  }

  @Test func aDroppedReorderDoesNotSnapBack() {
    var a = arena(.listRow)
    var stroke = StrokeBuilder(at: TouchPoint(x: 200, y: 300))
    stroke.rest(for: 0.6)
    stroke.move(by: TouchPoint(x: 0, y: 120), over: 0.3)
    stroke.lift()
    let events = a.run(stroke.samples)
    #expect(events.last == .reorder(.drop, TouchPoint(x: 200, y: 420), time: stroke.time))
    #expect(!events.contains { if case .motion(.snapBack, _) = $0 { true } else { false } })
  }

  @Test(arguments: GesturePreset.allCases)
  func aDragOnTheHandleReordersAtOnce(preset: GesturePreset) {
    // An edit mode with reorder handles: the handle is the affordance, no long press.
    var a = arena(.reorderHandle, preset)
    let down = a.feed(TouchSample(time: 2, x: 340, y: 300, phase: .began))
    #expect(
      down == [
        .decided(.reorder, time: 2, distance: 0), .state(.reorder, .began, time: 2),
        .haptic(.grab, time: 2), .motion(.lift, time: 2),
        .reorder(.lift, TouchPoint(x: 340, y: 300), time: 2),
      ])
    // A quick drag, far past the slop and well before the long-press duration.
    let move = a.feed(TouchSample(time: 2.05, x: 330, y: 380, phase: .moved))
    #expect(move.contains(.reorder(.move, TouchPoint(x: 330, y: 380), time: 2.05)))
    let up = a.feed(TouchSample(time: 2.1, x: 330, y: 420, phase: .ended))
    #expect(up.last == .reorder(.drop, TouchPoint(x: 330, y: 420), time: 2.1))
    #expect(a.winner == .reorder && a.state(of: .reorder) == .ended)
  }

  @Test func aTraceMayNameTheHandleSurface() throws {
    let trace = try GestureTrace(lines: [
      .init(type: "config", surface: "reorderHandle"),
      .init(type: "sample", t: 0, x: 340, y: 300, phase: "began"),
      .init(type: "sample", t: 0.05, x: 340, y: 360, phase: "moved"),
      .init(type: "sample", t: 0.1, x: 340, y: 400, phase: "ended"),
    ])
    let replay = GestureReplay(trace: trace)
    #expect(replay.surfaceName == "reorderHandle")
    #expect(replay.strokes.map(\.outcome) == ["drop"])
    #expect(replay.strokes.first?.decision == .reorder)
    #expect(replay.strokes.first?.decisionDelay == 0)
  }

  @Test func theRowBodyStillNeedsTheLongPress() {
    // The same quick drag on the row itself (not the handle) is a scroll, not a reorder.
    var a = arena(.listRow)
    let events = a.run(StrokeBuilder.drag(TouchPoint(x: -10, y: 120), over: 0.1))
    #expect(events.decided == .scroll)
    #expect(events.states(of: .reorder) == [.failed])
  }

  @Test func aHandleBesideOtherGesturesWinsAtTouchDown() {
    // A custom surface: the handle's reorder outranks the rest from the first sample.
    var a = GestureArena(
      surface: GestureSurface(members: [
        .init(.tap), .init(.reorder, priority: 2, startsOnTouchDown: true),
        .init(.scroll, priority: 1, requiresFailureOf: [.reorder]),
      ]), configuration: GesturePreset.ios.configuration)
    let events = a.run(StrokeBuilder.drag(TouchPoint(x: 0, y: 200), over: 0.2))
    #expect(events.decided == .reorder)
    #expect(events.states(of: .tap) == [.failed] && events.states(of: .scroll) == [.failed])
    #expect(events.first == .decided(.reorder, time: 0, distance: 0))
  }
}
