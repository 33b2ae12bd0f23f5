import Gestures
import Testing

@Suite("Accessibility actions")
struct AccessibilityActionTests {
  @Test(arguments: [
    (AccessibilityAction.trash, SwipeDirection.left), (.favorite, .right), (.keep, .up),
  ])
  func deckActionsCommitLikeASwipe(action: AccessibilityAction, direction: SwipeDirection) throws {
    var a = arena(.photoDeck)
    let events = try a.perform(action, at: 1)
    #expect(events.first == .accessibility(action, time: 1))
    #expect(events.decided == .deckSwipe)
    #expect(events.states(of: .deckSwipe) == [.began, .ended])
    #expect(events.deckOutcome == .commit(direction, byFling: false))
    #expect(a.winner == .deckSwipe && a.state(of: .tap) == .failed)
  }

  @Test(arguments: [AccessibilityAction.reorder, .nest])
  func moveActionsRunTheReorderMachine(action: AccessibilityAction) throws {
    var a = arena(.listRow)
    let events = try a.perform(action, at: 2)
    #expect(events.states(of: .reorder) == [.began, .ended])
    #expect(a.decision?.kind == .reorder)
  }

  @Test func anActionCancelsATouchInProgress() throws {
    var a = arena(.listRow)
    a.run(StrokeBuilder.drag(TouchPoint(x: -60, y: 0), over: 0.1).dropLast())
    let events = try a.perform(.delete, at: 0.2)
    #expect(events.states(of: .rowSwipe) == [.cancelled, .began, .ended])
    #expect(!a.isTracking)
  }

  @Test func anActionWithoutItsGestureIsRefused() {
    var a = arena(.photoDeck)
    #expect {
      try a.perform(.delete, at: 0)
    } throws: { error in
      let error = error as? GestureError
      return error?.code == .actionUnavailable
        && error?.description
          == "the accessibility action \"Delete\" needs the rowSwipe gesture, which this surface does not have"
    }
  }

  @Test func everyActionHasANameAndAGesture() {
    #expect(
      AccessibilityAction.allCases.map(\.name) == [
        "Delete", "Trash", "Favorite", "Keep", "Move", "Nest Under Previous",
      ])
    #expect(
      AccessibilityAction.allCases.map(\.kind) == [
        .rowSwipe, .deckSwipe, .deckSwipe, .deckSwipe, .reorder, .reorder,
      ])
  }
}

@Suite("DirectionLock")
struct DirectionLockTests {
  let configuration = GesturePreset.ios.configuration

  @Test func nothingInsideTheSlop() {
    var lock = DirectionLock()
    #expect(lock.update(TouchPoint(x: 7, y: 7), final: true, configuration: configuration) == nil)
  }

  @Test func aClearDirectionLocksAtTheSlop() {
    var lock = DirectionLock()
    #expect(
      lock.update(TouchPoint(x: -11, y: 4), final: false, configuration: configuration)
        == .horizontal)
    #expect(lock.distance > 10)
    var vertical = DirectionLock()
    #expect(
      vertical.update(TouchPoint(x: 4, y: 11), final: false, configuration: configuration)
        == .vertical)
  }

  @Test func aDiagonalWaitsThenTakesTheDominantAxis() {
    var lock = DirectionLock()
    #expect(lock.update(TouchPoint(x: 12, y: 9), final: false, configuration: configuration) == nil)
    #expect(
      lock.update(TouchPoint(x: 20, y: 18), final: false, configuration: configuration) == nil)
    // It becomes clear before the ambiguous-lock distance.
    #expect(
      lock.update(TouchPoint(x: 20, y: 50), final: false, configuration: configuration) == .vertical
    )
    var capped = DirectionLock()
    #expect(
      capped.update(TouchPoint(x: 23, y: 20), final: false, configuration: configuration)
        == .horizontal)
    var lifted = DirectionLock()
    #expect(
      lifted.update(TouchPoint(x: 12, y: 14), final: true, configuration: configuration)
        == .vertical)
  }

  @Test func theAxisHoldsForTheWholeGesture() {
    var lock = DirectionLock()
    _ = lock.update(TouchPoint(x: 0, y: 20), final: false, configuration: configuration)
    #expect(
      lock.update(TouchPoint(x: 300, y: 20), final: true, configuration: configuration) == nil)
    #expect(lock.axis == .vertical)
    lock.reset()
    #expect(lock.axis == nil)
  }

  @Test func tiesGoVertical() {
    var lock = DirectionLock()
    #expect(
      lock.update(TouchPoint(x: 30, y: 30), final: false, configuration: configuration) == .vertical
    )
  }
}

@Suite("Presets")
struct PresetTests {
  @Test func presetsCarryThePlatformsValues() {
    let ios = GesturePreset.ios.configuration
    #expect(ios.longPressDuration == 0.5 && ios.longPressSlop == 10 && ios.touchSlop == 10)
    let android = GesturePreset.android.configuration
    #expect(android.touchSlop == 8 && android.longPressDuration == 0.4)
    #expect(android.rowSwipeCancelVelocity == 120)
    let flutter = GesturePreset.flutter.configuration
    #expect(flutter.touchSlop == 18 && flutter.deckFlingVelocity == 700)
    for preset in GesturePreset.allCases {
      let c = preset.configuration
      #expect(c.velocityHorizon == 0.1 && c.velocityHistorySize == 20 && c.velocityStopGap == 0.04)
      #expect(c.rowSwipeCommitDistance == 100 && c.deckCommitFraction == 0.5)
      #expect(c.deckProgressMarks == [0.25, 0.5, 0.75] && c.deckMaximumRotation == 15)
      #expect(c.ambiguousLockDistance == 3 * c.touchSlop)
      // The row rule's "quick" and the deck's threshold-only commit, in every preset.
      #expect(c.rowSwipeQuickSpeed == 120 && !c.deckFlingCommitsBelowThreshold)
      #expect(c.deckKeepScale == 0.95)
    }
  }

  @Test func everyThresholdIsTunable() {
    var stroke = StrokeBuilder(at: TouchPoint(x: 300, y: 100))
    stroke.move(by: TouchPoint(x: -60, y: 0), over: 0.3)
    stroke.rest(for: 0.1)
    stroke.lift()
    // 60 pt in 0.4 s: 150 pt/s, short of the default 100 pt.
    var standard = arena(.listRow)
    #expect(standard.run(stroke.samples).rowOutcome == .snapBack)
    var shorter = arena(.listRow) { $0.rowSwipeCommitDistance = 50 }
    #expect(shorter.run(stroke.samples).rowOutcome == .delete)
    // The quick speed is a tunable too: at 200 pt/s the same swipe is a drag.
    var stricter = arena(.listRow) {
      $0.rowSwipeCommitDistance = 50; $0.rowSwipeQuickSpeed = 200
    }
    #expect(stricter.run(stroke.samples).rowOutcome == .snapBack)
  }
}
