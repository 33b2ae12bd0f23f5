/// Recognizes a card swiped left, right or up, with progress marks, a threshold haptic and
/// snap-back.
struct DeckSwipeRecognizer: Sendable {
  /// Which progress marks are currently crossed (one flag per configured mark).
  private var crossed: [Bool]
  private var pastCommit = false
  private var direction: SwipeDirection?
  /// A new direction must beat the current one by this factor to take over, so a card
  /// moving along a diagonal does not flip between directions.
  static let directionHysteresis = 1.2

  init(configuration: GestureConfiguration) {
    crossed = Array(repeating: false, count: configuration.deckProgressMarks.count)
  }

  mutating func reset() {
    for index in crossed.indices { crossed[index] = false }
    pastCommit = false
    direction = nil
  }

  func bid(_ track: TouchTrack, phase: TouchPhase, configuration: GestureConfiguration) -> Bid {
    if track.maximumDistance > configuration.touchSlop {
      return phase == .cancelled ? .fail : .claim
    }
    return phase == .moved || phase == .began ? .wait : .fail
  }

  static func component(_ offset: TouchPoint, _ direction: SwipeDirection) -> Double {
    switch direction {
    case .left: -offset.x
    case .right: offset.x
    case .up: -offset.y
    case .down: offset.y
    }
  }

  static func dominantDirection(_ offset: TouchPoint) -> SwipeDirection? {
    if offset.x == 0 && offset.y == 0 { return nil }
    if abs(offset.x) >= abs(offset.y) { return offset.x < 0 ? .left : .right }
    return offset.y < 0 ? .up : .down
  }

  /// The direction with hysteresis against the current one.
  func nextDirection(_ offset: TouchPoint) -> SwipeDirection? {
    guard let candidate = Self.dominantDirection(offset) else { return nil }
    guard let current = direction, current != candidate else { return candidate }
    let held = Self.component(offset, current)
    if held <= 0 { return candidate }
    return Self.component(offset, candidate) > held * Self.directionHysteresis ? candidate : current
  }

  static func actionable(_ direction: SwipeDirection?) -> Bool {
    direction != nil && direction != .down
  }

  mutating func report(
    _ state: RecognizerState, _ track: TouchTrack, configuration: GestureConfiguration,
    events: inout [GestureEvent]
  ) {
    let time = track.time
    let offset = track.translation
    let width = configuration.deckContainerWidth
    let newDirection = nextDirection(offset)
    if newDirection != direction {
      // Leaving a direction: its crossed marks fall back, the threshold tick too.
      if let old = direction, Self.actionable(old) {
        for index in crossed.indices.reversed() where crossed[index] {
          crossed[index] = false
          events.append(
            .deckMark(
              old, mark: configuration.deckProgressMarks[index], rising: false, time: time))
        }
        if pastCommit {
          pastCommit = false
          events.append(.haptic(.thresholdTick, time: time))
        }
      }
      direction = newDirection
    }
    let progress = direction.map { max(0, Self.component(offset, $0)) / width } ?? 0
    let commitProgress = configuration.deckCommitFraction
    let rotation =
      configuration.deckMaximumRotation
      * min(1, max(-1, offset.x / (commitProgress * width)))
    events.append(.state(.deckSwipe, state, time: time))
    events.append(
      .deck(
        DeckFrame(
          offset: offset, direction: direction, progress: progress, rotation: rotation,
          scale: Self.scale(direction, progress: progress, configuration: configuration),
          overlayOpacity: Self.actionable(direction) ? min(1, progress / commitProgress) : 0),
        time: time))
    guard let direction, Self.actionable(direction) else { return }
    let hysteresis = configuration.deckMarkHysteresis
    for index in crossed.indices {
      let mark = configuration.deckProgressMarks[index]
      if !crossed[index] && progress >= mark {
        crossed[index] = true
        events.append(.deckMark(direction, mark: mark, rising: true, time: time))
      } else if crossed[index] && progress < mark - hysteresis {
        crossed[index] = false
        events.append(.deckMark(direction, mark: mark, rising: false, time: time))
      }
    }
    if !pastCommit && progress >= commitProgress {
      pastCommit = true
      events.append(.haptic(.thresholdTick, time: time))
    } else if pastCommit && progress < commitProgress - hysteresis {
      pastCommit = false
      events.append(.haptic(.thresholdTick, time: time))
    }
  }

  /// The card's scale: only an up swipe (keep) scales, linearly from 1 to the keep scale at
  /// the commit fraction, and not at all under reduced motion.
  static func scale(
    _ direction: SwipeDirection?, progress: Double, configuration: GestureConfiguration
  ) -> Double {
    guard direction == .up, !configuration.reduceMotion else { return 1 }
    let reach = min(1, progress / configuration.deckCommitFraction)
    return 1 + (configuration.deckKeepScale - 1) * reach
  }

  static func outcome(
    translation: TouchPoint, velocity: Velocity, configuration: GestureConfiguration
  ) -> DeckOutcome {
    guard let direction = dominantDirection(translation), actionable(direction) else {
      return .snapBack
    }
    let progress = component(translation, direction) / configuration.deckContainerWidth
    let pastThreshold = progress >= configuration.deckCommitFraction
    // An action executes when the swipe crosses the threshold, and only then (by default).
    guard configuration.deckFlingCommitsBelowThreshold else {
      return pastThreshold ? .commit(direction, byFling: false) : .snapBack
    }
    let along = component(TouchPoint(x: velocity.dx, y: velocity.dy), direction)
    let across = direction == .up ? abs(velocity.dx) : abs(velocity.dy)
    if along >= configuration.deckFlingVelocity && along > across {
      return .commit(direction, byFling: !pastThreshold)
    }
    // A fast release back toward the middle cancels, as a fling the other way would.
    if pastThreshold && along > -configuration.deckFlingVelocity {
      return .commit(direction, byFling: false)
    }
    return .snapBack
  }

  mutating func finish(
    _ track: TouchTrack, velocity: Velocity, cancelled: Bool, configuration: GestureConfiguration,
    events: inout [GestureEvent]
  ) {
    let outcome = track.releaseSwipe(
      .deckSwipe, cancelled: cancelled, snapBack: DeckOutcome.snapBack,
      decide: {
        Self.outcome(
          translation: track.translation, velocity: velocity, configuration: configuration)
      }, finished: GestureEvent.deckFinished, events: &events)
    switch outcome {
    case .commit:
      events.append(.haptic(.commit, time: track.time))
      events.append(.motion(.cardExit, time: track.time))
    case .snapBack:
      events.append(.motion(.snapBack, time: track.time))
    }
    reset()
  }
}
