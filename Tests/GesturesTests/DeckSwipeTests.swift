import Gestures
import Testing

@Suite("Deck swipe")
struct DeckSwipeTests {
  /// Drags by `delta` in `duration`, rests so the release is slow, and lifts.
  func slowDrag(_ delta: TouchPoint, over duration: Double = 0.5) -> [GestureEvent] {
    var a = arena(.photoDeck)
    var stroke = StrokeBuilder(at: TouchPoint(x: 195, y: 400))
    stroke.move(by: delta, over: duration)
    stroke.rest(for: 0.1)
    stroke.lift()
    return a.run(stroke.samples)
  }

  @Test(arguments: [
    (TouchPoint(x: -250, y: 20), SwipeDirection.left),
    (TouchPoint(x: 250, y: -30), .right),
    (TouchPoint(x: 15, y: -230), .up),
  ])
  func pastHalfTheWidthCommits(delta: TouchPoint, direction: SwipeDirection) {
    let events = slowDrag(delta)
    #expect(events.decided == .deckSwipe)
    #expect(events.deckOutcome == .commit(direction, byFling: false))
    #expect(events.haptics.first == .thresholdTick)
    #expect(events.haptics.last == .commit)
  }

  @Test(arguments: [
    TouchPoint(x: -150, y: 0), TouchPoint(x: 180, y: 0), TouchPoint(x: 0, y: -150),
    TouchPoint(x: 0, y: 300),
  ])
  func belowTheThresholdOrDownSnapsBack(delta: TouchPoint) {
    let events = slowDrag(delta)
    #expect(events.deckOutcome == .snapBack)
    #expect(events.contains { $0 == .motion(.snapBack, time: $0.time) })
  }

  @Test func downwardDragsHaveNoMarksOrOverlay() {
    let events = slowDrag(TouchPoint(x: 0, y: 300))
    #expect(events.marks.isEmpty)
    #expect(events.deckFrames.allSatisfy { $0.overlayOpacity == 0 })
  }

  @Test func marksRiseAtQuartersOfTheWidthWithOneTick() {
    let events = slowDrag(TouchPoint(x: 300, y: 0))
    let marks = events.marks
    #expect(marks.map(\.1) == [0.25, 0.5, 0.75])
    #expect(marks.allSatisfy { $0.0 == .right && $0.2 })
    #expect(events.haptics == [.thresholdTick, .commit])
  }

  @Test func aFingerRestingOnABoundaryDoesNotFlicker() {
    var a = arena(.photoDeck)
    var stroke = StrokeBuilder(at: TouchPoint(x: 195, y: 400))
    stroke.move(by: TouchPoint(x: -195, y: 0), over: 0.4)  // exactly the commit distance
    for _ in 0..<20 {
      stroke.move(by: TouchPoint(x: 4, y: 0), over: 0.03)
      stroke.move(by: TouchPoint(x: -4, y: 0), over: 0.03)
    }
    stroke.rest(for: 0.1)
    stroke.lift()
    let events = a.run(stroke.samples)
    #expect(events.marks.map(\.1) == [0.25, 0.5])
    #expect(events.haptics == [.thresholdTick, .commit])
    #expect(events.deckOutcome == .commit(.left, byFling: false))
  }

  @Test func fallingBackBelowAMarkIsAnnouncedOnce() {
    var a = arena(.photoDeck)
    var stroke = StrokeBuilder(at: TouchPoint(x: 195, y: 400))
    stroke.move(by: TouchPoint(x: 220, y: 0), over: 0.4)
    stroke.move(by: TouchPoint(x: -200, y: 0), over: 0.4)
    stroke.rest(for: 0.1)
    stroke.lift()
    let events = a.run(stroke.samples)
    let marks = events.marks
    #expect(marks.map { "\($0.1)\($0.2 ? "+" : "-")" } == ["0.25+", "0.5+", "0.5-", "0.25-"])
    #expect(events.haptics == [.thresholdTick, .thresholdTick])
    #expect(events.deckOutcome == .snapBack)
  }

  @Test func changingDirectionDropsTheOldMarks() {
    var a = arena(.photoDeck)
    var stroke = StrokeBuilder(at: TouchPoint(x: 195, y: 400))
    stroke.move(by: TouchPoint(x: 120, y: 0), over: 0.3)
    stroke.move(by: TouchPoint(x: -120, y: -250), over: 0.3)
    stroke.rest(for: 0.1)
    stroke.lift()
    let events = a.run(stroke.samples)
    let marks = events.marks.map { "\($0.0.rawValue)\($0.1)\($0.2 ? "+" : "-")" }
    #expect(marks == ["right0.25+", "right0.25-", "up0.25+", "up0.5+"])
    #expect(events.deckOutcome == .commit(.up, byFling: false))
  }

  @Test func rotationFollowsXUpToTheMaximum() {
    let frames = slowDrag(TouchPoint(x: -300, y: 0)).deckFrames
    for frame in frames {
      let expected = 15 * max(-1, min(1, frame.offset.x / 195))
      #expect(abs(frame.rotation - expected) < 1e-9)
      #expect(abs(frame.rotation) <= 15)
    }
    #expect(frames.last?.rotation == -15)
  }

  @Test(arguments: GesturePreset.allCases)
  func byDefaultAFlingBelowTheThresholdSnapsBack(preset: GesturePreset) {
    // The deck rule: an action executes when the swipe crosses the threshold (50 % of the width).
    var a = arena(.photoDeck, preset)
    let events = a.run(StrokeBuilder.drag(TouchPoint(x: -80, y: 0), over: 0.08))
    #expect(a.velocity.dx < -700)
    #expect(events.deckOutcome == .snapBack)
    #expect(events.contains(.motion(.snapBack, time: events.last?.time ?? 0)))
  }

  @Test func byDefaultAReleasePastTheThresholdCommitsWhateverItsSpeed() {
    var a = arena(.photoDeck)
    var stroke = StrokeBuilder(at: TouchPoint(x: 195, y: 400))
    stroke.move(by: TouchPoint(x: 260, y: 0), over: 0.4)
    stroke.move(by: TouchPoint(x: -40, y: 0), over: 0.03)
    stroke.lift()
    #expect(a.run(stroke.samples).deckOutcome == .commit(.right, byFling: false))
  }

  @Test func withTheFlingOptionAFlingCommitsFromAShortDistance() {
    var a = arena(.photoDeck) { $0.deckFlingCommitsBelowThreshold = true }
    let events = a.run(StrokeBuilder.drag(TouchPoint(x: -80, y: 0), over: 0.08))
    #expect(events.deckOutcome == .commit(.left, byFling: true))
  }

  @Test func aFlingAgainstTheDisplacementDoesNotCommit() {
    var a = arena(.photoDeck) { $0.deckFlingCommitsBelowThreshold = true }
    var stroke = StrokeBuilder(at: TouchPoint(x: 195, y: 400))
    stroke.move(by: TouchPoint(x: 150, y: 0), over: 0.4)
    stroke.move(by: TouchPoint(x: -40, y: 0), over: 0.03)
    stroke.lift()
    #expect(a.run(stroke.samples).deckOutcome == .snapBack)
  }

  @Test func aFlingMustBeatTheCrossAxis() {
    var a = arena(.photoDeck) { $0.deckFlingCommitsBelowThreshold = true }
    var stroke = StrokeBuilder(at: TouchPoint(x: 195, y: 400))
    stroke.move(by: TouchPoint(x: 60, y: 0), over: 0.4)
    stroke.move(by: TouchPoint(x: 5, y: 50), over: 0.03)
    stroke.lift()
    #expect(a.run(stroke.samples).deckOutcome == .snapBack)
  }

  @Test func withTheFlingOptionAFastReleaseBackTowardTheMiddleCancelsPastTheThreshold() {
    var a = arena(.photoDeck) { $0.deckFlingCommitsBelowThreshold = true }
    var stroke = StrokeBuilder(at: TouchPoint(x: 195, y: 400))
    stroke.move(by: TouchPoint(x: 260, y: 0), over: 0.4)
    stroke.move(by: TouchPoint(x: -40, y: 0), over: 0.03)
    stroke.lift()
    #expect(a.run(stroke.samples).deckOutcome == .snapBack)
  }

  @Test func theUpSwipeScalesTheCardSlightlyAndLeftRightDoNot() throws {
    // Keeping is the quiet choice: up moves with a slight scale, less than the left/right tilt.
    let up = slowDrag(TouchPoint(x: 0, y: -300)).deckFrames
    let upFrames = up.filter { $0.direction == .up }
    #expect(upFrames.count > 10)
    for frame in upFrames {
      #expect(abs(frame.scale - (1 - 0.05 * min(1, frame.progress / 0.5))) < 1e-9)
      #expect(frame.scale < 1 && frame.scale >= 0.95)
    }
    #expect(zip(upFrames, upFrames.dropFirst()).allSatisfy { $0.scale >= $1.scale })
    #expect(try #require(upFrames.last).scale == 0.95)
    for delta in [TouchPoint(x: -300, y: 0), TouchPoint(x: 300, y: 0), TouchPoint(x: 0, y: 300)] {
      #expect(slowDrag(delta).deckFrames.allSatisfy { $0.scale == 1 }, "\(delta)")
    }
    var reduced = arena(.photoDeck) { $0.reduceMotion = true }
    #expect(
      reduced.run(StrokeBuilder.drag(TouchPoint(x: 0, y: -300), over: 0.5)).deckFrames
        .allSatisfy { $0.scale == 1 })
    var keep = arena(.photoDeck)
    #expect(try keep.perform(.keep, at: 1).deckFrames.map(\.scale) == [0.95])
    var trash = arena(.photoDeck)
    #expect(try trash.perform(.trash, at: 1).deckFrames.map(\.scale) == [1])
  }

  @Test func containerWidthScalesTheThreshold() {
    var a = arena(.photoDeck) { $0.deckContainerWidth = 800 }
    var stroke = StrokeBuilder(at: TouchPoint(x: 195, y: 400))
    stroke.move(by: TouchPoint(x: 300, y: 0), over: 0.5)
    stroke.rest(for: 0.1)
    stroke.lift()
    #expect(a.run(stroke.samples).deckOutcome == .snapBack)
  }
}
