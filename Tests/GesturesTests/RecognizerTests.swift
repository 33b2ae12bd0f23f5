import Gestures
import Testing

@Suite("Tap and long press")
struct PressRecognizerTests {
  @Test func aShortStillPressIsATap() {
    var a = arena(.listRow)
    var stroke = StrokeBuilder(at: TouchPoint(x: 50, y: 60))
    stroke.move(by: TouchPoint(x: 4, y: -3), over: 0.05)
    stroke.lift(after: 0.05)
    let events = a.run(stroke.samples)
    #expect(events.decided == .tap)
    #expect(events.states(of: .tap) == [.ended])
    #expect(events.contains(.tap(TouchPoint(x: 54, y: 57), time: stroke.time)))
    #expect(events.states(of: .reorder) == [.failed])
    #expect(a.state(of: .tap) == .ended && a.state(of: .scroll) == .failed)
    #expect(a.state(of: .deckSwipe) == nil)
  }

  @Test func movingPastTheSlopFailsTheTapEvenIfTheFingerReturns() {
    var a = arena(.listRow)
    var stroke = StrokeBuilder(at: TouchPoint(x: 50, y: 60))
    stroke.move(by: TouchPoint(x: 0, y: 8), over: 0.05)
    stroke.move(by: TouchPoint(x: 0, y: -8), over: 0.05)
    #expect(a.run(stroke.samples).decided == nil)
    a = arena(.listRow)
    stroke = StrokeBuilder(at: TouchPoint(x: 50, y: 60))
    stroke.move(by: TouchPoint(x: 0, y: 11), over: 0.05)
    stroke.move(by: TouchPoint(x: 0, y: -11), over: 0.05)
    stroke.lift()
    let events = a.run(stroke.samples)
    #expect(!events.contains { if case .tap = $0 { return true } else { return false } })
    #expect(events.states(of: .tap) == [.failed])
  }

  @Test func aCancelledTouchRecognizesNothing() {
    var a = arena(.listRow)
    var stroke = StrokeBuilder(at: .zero)
    stroke.rest(for: 0.1)
    stroke.cancel()
    let events = a.run(stroke.samples)
    #expect(events.decided == nil)
    #expect(events.states(of: .tap) == [.failed])
    #expect(!a.isTracking)
  }

  @Test func longPressFiresAtItsTimeoutAndADragContinuesIt() {
    var a = arena(.plainList)
    a.feed(TouchSample(time: 10, x: 100, y: 100, phase: .began))
    #expect(a.advance(to: 10.49).isEmpty)
    let fired = a.advance(to: 10.7)
    #expect(fired.decided == .longPress)
    #expect(fired.contains(.longPress(.began, TouchPoint(x: 100, y: 100), time: 10.5)))
    #expect(fired.states(of: .scroll) == [.failed] && fired.states(of: .tap) == [.failed])
    // Press then drag: the long press changes, nothing else starts.
    let moved = a.feed(TouchSample(time: 10.8, x: 100, y: 180, phase: .moved))
    #expect(moved.states(of: .longPress) == [.changed])
    let ended = a.feed(TouchSample(time: 10.9, x: 100, y: 200, phase: .ended))
    #expect(ended.states(of: .longPress) == [.ended])
    #expect(ended.contains(.longPress(.ended, TouchPoint(x: 100, y: 200), time: 10.9)))
  }

  @Test(arguments: [0.1, 0.3, 1.7, 123.456])
  func theTimeoutFiresExactlyAtItsDeadline(start: Double) {
    var a = arena(.plainList)
    a.feed(TouchSample(time: start, x: 0, y: 0, phase: .began))
    #expect(a.advance(to: start + 0.4).isEmpty)
    let fired = a.advance(to: start + 0.5)
    #expect(fired.decided == .longPress)
    #expect(a.decision?.time == start + 0.5)
  }

  @Test func theTimeoutAlsoFiresFromALateSample() {
    var a = arena(.plainList)
    a.feed(TouchSample(time: 0, x: 0, y: 0, phase: .began))
    // No advance: the next sample arrives after the timeout.
    let events = a.feed(TouchSample(time: 0.8, x: 2, y: 0, phase: .moved))
    #expect(events.decided == .longPress)
    #expect(a.decision?.time == 0.5)
  }

  @Test func movingBeforeTheTimeoutFailsTheLongPress() {
    var a = arena(.plainList)
    var stroke = StrokeBuilder(at: .zero)
    stroke.move(by: TouchPoint(x: 0, y: 40), over: 0.2)
    stroke.rest(for: 0.6)
    stroke.lift()
    let events = a.run(stroke.samples)
    #expect(events.decided == .scroll)
    #expect(events.states(of: .longPress) == [.failed])
  }

  @Test func liftingBeforeTheTimeoutFailsTheLongPress() {
    var a = arena(.plainList)
    var stroke = StrokeBuilder(at: .zero)
    stroke.lift(after: 0.3)
    let events = a.run(stroke.samples)
    #expect(events.decided == .tap)
    #expect(events.states(of: .longPress) == [.failed])
  }

  @Test func aCancelledLongPressIsCancelled() {
    var a = arena(.plainList)
    var stroke = StrokeBuilder(at: .zero)
    stroke.rest(for: 0.6)
    stroke.cancel()
    let events = a.run(stroke.samples)
    #expect(events.states(of: .longPress).first == .began)
    #expect(events.states(of: .longPress).last == .cancelled)
    #expect(a.state(of: .longPress) == .cancelled)
  }
}

@Suite("Scroll")
struct ScrollRecognizerTests {
  @Test func aVerticalDragScrollsWithItsVelocity() {
    var a = arena(.listRow)
    let events = a.run(StrokeBuilder.drag(TouchPoint(x: 0, y: -120), over: 0.3))
    #expect(events.decided == .scroll)
    #expect(events.contains { if case .axisLocked(.vertical, _, _) = $0 { true } else { false } })
    let states = events.states(of: .scroll)
    #expect(states.first == .began && states.last == .ended)
    #expect(states.dropFirst().dropLast().allSatisfy { $0 == .changed })
    guard
      case .scroll(let translation, let velocity, _)? = events.last(where: {
        if case .scroll = $0 { true } else { false }
      })
    else {
      Issue.record("no scroll event")
      return
    }
    #expect(translation == -120)
    #expect(abs(velocity + 400) < 1)
    #expect(events.rowFrames.isEmpty)
  }

  @Test func aCancelledScrollIsCancelled() {
    var a = arena(.listRow)
    var stroke = StrokeBuilder(at: .zero)
    stroke.move(by: TouchPoint(x: 0, y: 50), over: 0.1)
    stroke.cancel()
    #expect(a.run(stroke.samples).states(of: .scroll).last == .cancelled)
  }
}

@Suite("Row swipe to delete")
struct RowSwipeRecognizerTests {
  @Test func pastTheCommitDistanceDeletes() {
    var a = arena(.listRow)
    var stroke = StrokeBuilder(at: TouchPoint(x: 300, y: 100))
    stroke.move(by: TouchPoint(x: -150, y: 0), over: 0.3)
    stroke.rest(for: 0.1)
    stroke.lift()
    let events = a.run(stroke.samples)
    #expect(events.decided == .rowSwipe)
    #expect(events.rowOutcome == .delete)
    #expect(events.haptics == [.commit])
    #expect(events.rowFrames.last?.releaseWillDelete == true)
  }

  @Test(arguments: GesturePreset.allCases)
  func aFlingNeverDeletesShortOfTheCommitDistance(preset: GesturePreset) {
    var a = arena(.listRow, preset)
    let events = a.run(StrokeBuilder.drag(TouchPoint(x: -60, y: 0), over: 0.06))
    #expect(a.velocity.dx < -700)
    #expect(events.decided == .rowSwipe)
    #expect(events.rowOutcome == .snapBack)
  }

  @Test func quicknessReadsTheWholeSwipeNotTheRelease() {
    // A slow drag that speeds up at the end: 160 pt in 1.53 s (105 pt/s) is still a drag.
    var late = StrokeBuilder(at: TouchPoint(x: 300, y: 100))
    late.move(by: TouchPoint(x: -130, y: 0), over: 1.5)
    late.move(by: TouchPoint(x: -30, y: 0), over: 0.03)
    late.lift()
    var a = arena(.listRow)
    #expect(a.run(late.samples).rowOutcome == .snapBack)
    // A quick swipe whose finger stops before lifting: 150 pt in 0.5 s (300 pt/s) deletes.
    var resting = StrokeBuilder(at: TouchPoint(x: 300, y: 100))
    resting.move(by: TouchPoint(x: -150, y: 0), over: 0.2)
    resting.rest(for: 0.3)
    resting.lift()
    var b = arena(.listRow)
    #expect(b.run(resting.samples).rowOutcome == .delete)
  }

  @Test func theQuickRuleIsTheAverageSpeedFromTouchDown() {
    let ios = GesturePreset.ios.configuration
    #expect(ios.isQuickRowSwipe(distance: 120, duration: 1))
    #expect(!ios.isQuickRowSwipe(distance: 119.9, duration: 1))
    #expect(!ios.isQuickRowSwipe(distance: 200, duration: 2))
    #expect(!ios.isQuickRowSwipe(distance: 130, duration: 3))
    #expect(ios.isQuickRowSwipe(distance: 60, duration: 0.064))
    #expect(ios.isQuickRowSwipe(distance: 5, duration: 0))
  }

  @Test func aSlowShortDragSnapsBack() {
    var a = arena(.listRow)
    var stroke = StrokeBuilder(at: TouchPoint(x: 300, y: 100))
    stroke.move(by: TouchPoint(x: -60, y: 0), over: 1.2)
    stroke.lift()
    let events = a.run(stroke.samples)
    #expect(events.decided == .rowSwipe)
    #expect(events.rowOutcome == .snapBack)
    #expect(events.contains(.motion(.rowSnapBack, time: stroke.time)))
  }

  @Test func aFastReleaseToTheRightCancels() {
    var a = arena(.listRow)
    var stroke = StrokeBuilder(at: TouchPoint(x: 300, y: 100))
    stroke.move(by: TouchPoint(x: -140, y: 0), over: 0.4)
    stroke.move(by: TouchPoint(x: 30, y: 0), over: 0.05)
    stroke.lift()
    #expect(a.run(stroke.samples).rowOutcome == .snapBack)
  }

  @Test func rightwardDragsMoveNothing() {
    var a = arena(.listRow)
    let events = a.run(StrokeBuilder.drag(TouchPoint(x: 150, y: 0), over: 0.3))
    #expect(events.decided == .rowSwipe)
    #expect(events.rowFrames.allSatisfy { $0.offset == 0 && $0.trashOpacity == 0 })
    #expect(events.rowOutcome == .snapBack)
  }

  @Test func trashOpacityFollowsTheDistance() {
    var a = arena(.listRow)
    var stroke = StrokeBuilder(at: TouchPoint(x: 300, y: 100))
    stroke.move(by: TouchPoint(x: -200, y: 0), over: 0.8)
    stroke.lift()
    let frames = a.run(stroke.samples).rowFrames
    #expect(frames.count > 10)
    // 250 pt/s: a quick swipe, so a release deletes from 100 pt on, and only the armed icon
    // is at full strength; below it the icon grows to half strength.
    for frame in frames {
      #expect(frame.releaseWillDelete == (frame.offset <= -100))
      #expect(frame.trashOpacity == (frame.releaseWillDelete ? 1 : -frame.offset / 100 * 0.5))
    }
    #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.trashOpacity <= $1.trashOpacity })
    #expect(frames.last?.trashOpacity == 1)
  }

  @Test func aCancelledSwipeSnapsBack() {
    var a = arena(.listRow)
    var stroke = StrokeBuilder(at: TouchPoint(x: 300, y: 100))
    stroke.move(by: TouchPoint(x: -150, y: 0), over: 0.2)
    stroke.cancel()
    let events = a.run(stroke.samples)
    #expect(events.rowOutcome == .snapBack)
    #expect(events.states(of: .rowSwipe).last == .cancelled)
  }
}

@Suite("Row swipe: the cancel rule")
struct RowSwipeCancelTests {
  @Test(arguments: GesturePreset.allCases)
  func aFingerThatStopsDeadDoesNotCancel(preset: GesturePreset) {
    // A quick swipe that stops and rests: the quadratic velocity fit overshoots to the right
    // (above Android's 120 dp/s), but the finger never came back, so the row is deleted.
    var a = arena(.listRow, preset)
    var stroke = StrokeBuilder(at: TouchPoint(x: 250, y: 300))
    stroke.move(by: TouchPoint(x: -140, y: 2), over: 0.15)
    stroke.rest(for: 0.08)
    stroke.lift()
    #expect(a.run(stroke.samples).rowOutcome == .delete)
  }

  @Test func comingBackWithinTheSlopDoesNotCancel() {
    var a = arena(.listRow, .android)
    var stroke = StrokeBuilder(at: TouchPoint(x: 300, y: 100))
    stroke.move(by: TouchPoint(x: -140, y: 0), over: 0.3)
    stroke.move(by: TouchPoint(x: 6, y: 0), over: 0.03)
    stroke.lift()
    #expect(a.run(stroke.samples).rowOutcome == .delete)
    #expect(a.velocity.dx > 120)
  }
}
