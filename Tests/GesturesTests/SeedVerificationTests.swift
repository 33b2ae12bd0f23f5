import Gestures
import Testing

/// Swipe to delete beside drag to reorder: a row goes only with a quick, long, sideways swipe,
/// and a reorder never offers the trash.
@Suite("Swipe to delete beside reorder")
struct SeedVerificationTests {
  func row(_ build: (inout StrokeBuilder) -> Void) -> (events: [GestureEvent], arena: GestureArena)
  {
    var a = arena(.listRow)
    var stroke = StrokeBuilder(at: TouchPoint(x: 250, y: 300))
    build(&stroke)
    let events = a.run(stroke.samples)
    return (events, a)
  }

  @Test func scrollUpAndDownShowsNoSwipeIndicator() {
    for dy in [-300.0, 300] {
      let (events, _) = row {
        $0.move(by: TouchPoint(x: 0, y: dy), over: 0.4); $0.lift()
      }
      #expect(events.decided == .scroll)
      #expect(events.rowFrames.isEmpty && events.rowOutcome == nil)
    }
  }

  @Test(arguments: [-1.0, 1.0])
  func scrollWhileTheFingerDriftsSidewaysStaysAScroll(side: Double) {
    let (events, _) = row { stroke in
      // Starts 15° off vertical, then drifts 60 pt sideways while scrolling.
      stroke.move(by: TouchPoint(x: side * 8, y: 30), over: 0.06)
      stroke.move(by: TouchPoint(x: side * 60, y: 90), over: 0.25)
      stroke.move(by: TouchPoint(x: side * 40, y: 20), over: 0.1)
      stroke.lift()
    }
    #expect(events.decided == .scroll)
    #expect(events.rowFrames.isEmpty)
    #expect(events.states(of: .rowSwipe) == [.failed])
  }

  @Test func scrollMomentumIsNotInterrupted() {
    let (events, _) = row {
      $0.move(by: TouchPoint(x: 10, y: -250), over: 0.2); $0.lift()
    }
    guard
      case .scroll(_, let velocity, _)? = events.last(where: {
        if case .scroll = $0 { true } else { false }
      })
    else {
      Issue.record("no scroll")
      return
    }
    #expect(velocity < -1000)
    #expect(events.states(of: .scroll).last == .ended)
  }

  @Test func longPressShowsTheDragAffordance() {
    let (events, _) = row { $0.rest(for: 0.55) }
    #expect(events.decided == .reorder)
    #expect(events.contains(.haptic(.grab, time: 0.5)))
    #expect(events.contains(.motion(.lift, time: 0.5)))
    #expect(events.contains(.reorder(.lift, TouchPoint(x: 250, y: 300), time: 0.5)))
  }

  @Test func dragAfterLongPressReordersAndDrops() {
    let (events, _) = row {
      $0.rest(for: 0.6); $0.move(by: TouchPoint(x: 0, y: 200), over: 0.5); $0.lift()
    }
    #expect(events.decided == .reorder)
    #expect(
      events.contains(.reorder(.drop, TouchPoint(x: 250, y: 500), time: events.last?.time ?? 0)))
  }

  @Test(arguments: [-180.0, 180.0])
  func dragLeftOrRightDuringReorderNeverDeletes(dx: Double) {
    let (events, a) = row { stroke in
      stroke.rest(for: 0.6)
      stroke.move(by: TouchPoint(x: dx, y: 20), over: 0.12)  // fast enough to be a fling
      stroke.lift()
    }
    #expect(events.decided == .reorder)
    #expect(events.rowFrames.isEmpty && events.rowOutcome == nil)
    #expect(a.state(of: .rowSwipe) == .failed)
  }

  /// A straight swipe left by `distance` over `duration`, lifted after `rest` seconds still.
  func swipe(
    _ preset: GesturePreset, left distance: Double, over duration: Double, rest: Double
  ) -> (events: [GestureEvent], arena: GestureArena) {
    var a = arena(.listRow, preset)
    var stroke = StrokeBuilder(at: TouchPoint(x: 250, y: 300))
    stroke.move(by: TouchPoint(x: -distance, y: 2), over: duration)
    if rest > 0 { stroke.rest(for: rest) }
    stroke.lift()
    let events = a.run(stroke.samples)
    return (events, a)
  }

  static let presetsAndRests = [GesturePreset.ios, .android, .flutter].flatMap { preset in
    [0.0, 0.08].map { (preset, $0) }
  }

  @Test(arguments: presetsAndRests)
  func quickSwipeShorterThan100SnapsBack(preset: GesturePreset, rest: Double) {
    // "Quick horizontal swipe left (< 100px) → card snaps back": 60 pt in 64 ms. Without a
    // rest the finger lifts at full speed, which a fling rule would have turned into a delete.
    let (events, a) = swipe(preset, left: 60, over: 0.064, rest: rest)
    if rest == 0 { #expect(a.velocity.dx < -700) }
    #expect(events.decided == .rowSwipe)
    #expect(events.rowOutcome == .snapBack)
    #expect(events.contains(.motion(.rowSnapBack, time: events.last?.time ?? 0)))
    #expect(!events.haptics.contains(.commit))
  }

  @Test(arguments: presetsAndRests)
  func quickSwipeLongerThan100Deletes(preset: GesturePreset, rest: Double) {
    // "Quick horizontal swipe left (> 100px) → item deletes".
    let (events, _) = swipe(preset, left: 140, over: 0.15, rest: rest)
    #expect(events.decided == .rowSwipe)
    #expect(events.rowOutcome == .delete)
    #expect(events.haptics == [.commit])
  }

  @Test(
    arguments: [GesturePreset.ios, .android, .flutter], [(200.0, 2.0), (130.0, 3.0), (70, 1.4)])
  func slowHorizontalDragDoesNotDelete(preset: GesturePreset, drag: (Double, Double)) {
    // "Slow horizontal drag left → should NOT trigger delete": 200 pt over 2 s and 130 pt over
    // 3 s go past 100 pt, yet are sustained drags. No rest: the finger lifts while moving.
    let (events, _) = swipe(preset, left: drag.0, over: drag.1, rest: 0)
    #expect(events.decided == .rowSwipe)
    // No frame says a release deletes, and the trash icon never reaches full strength (a
    // 200 pt drag once showed it fully opaque, then snapped back).
    #expect(events.rowFrames.allSatisfy { !$0.releaseWillDelete && $0.trashOpacity <= 0.5 })
    #expect(events.rowOutcome == .snapBack)
    #expect(!events.haptics.contains(.commit))
  }

  @Test(arguments: [(30.0, GestureKind.rowSwipe), (60.0, .scroll), (45.0, .scroll)])
  func swipeAtAnAngleGoesToTheDominantAxis(degrees: Double, expected: GestureKind) {
    // 45° exactly ties, and ties go to the non-destructive scroll.
    let radians = degrees * Double.pi / 180
    let dx = -150 * cosine(radians)
    let dy = 150 * sine(radians)
    let (events, _) = row {
      $0.move(by: TouchPoint(x: dx, y: dy), over: 0.2); $0.lift()
    }
    #expect(events.decided == expected)
  }

  @Test func swipeShowsTheTrashIconGrowingWithDistance() {
    let (events, _) = row {
      $0.move(by: TouchPoint(x: -100, y: 0), over: 0.5); $0.lift()
    }
    let opacities = events.rowFrames.map(\.trashOpacity)
    #expect(opacities.first ?? 1 < 0.3)
    #expect(opacities.last == 1)
  }

  @Test func voiceOverDeleteDrivesTheSameStateMachine() throws {
    var a = arena(.listRow)
    let events = try a.perform(.delete, at: 3)
    #expect(events.decided == .rowSwipe)
    #expect(events.states(of: .rowSwipe) == [.began, .ended])
    #expect(events.rowOutcome == .delete)
    #expect(events.haptics == [.commit])
  }

  @Test func reduceMotionUsesThePlainVariants() {
    for cue in MotionCue.allCases {
      let reduced = MotionSpec.for(cue, reduceMotion: true)
      #expect(reduced.scale == 1 && reduced.rotationDegrees == 0, "\(cue)")
      if case .spring = reduced.curve { Issue.record("\(cue) keeps a spring under reduce motion") }
    }
    let lift = MotionSpec.for(.lift, reduceMotion: false)
    #expect(lift.scale == 1.025 && lift.rotationDegrees == 2)
    let snap = MotionSpec.for(.snapBack, reduceMotion: false)
    #expect(snap.duration == 0.2 && snap.curve == .spring(dampingRatio: 0.7, response: 0.2))
    #expect(MotionSpec.for(.insertionLineFade, reduceMotion: false).duration == 0.15)
    #expect(MotionSpec.for(.invalidTint, reduceMotion: false).targetOpacity == 0.15)
    #expect(
      MotionSpec.for(.rowSnapBack, reduceMotion: false).curve
        == .spring(dampingRatio: 0.7, response: 0.3))
    #expect(HapticCue.refusedDrop.pulses.map(\.offset) == [0, 0.06, 0.12])
  }
}

/// Sine and cosine by Taylor series (the module and its tests avoid Foundation).
func sine(_ x: Double) -> Double {
  var term = x
  var sum = x
  for n in 1..<12 {
    term *= -x * x / Double((2 * n) * (2 * n + 1))
    sum += term
  }
  return sum
}

func cosine(_ x: Double) -> Double { sine(x + Double.pi / 2) }
