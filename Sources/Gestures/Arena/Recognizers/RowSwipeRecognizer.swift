/// Recognizes a row pulled left to delete once the direction lock says horizontal.
///
/// On release the row is deleted only when it is past the commit distance, the displacement is
/// still mostly horizontal (|dx| > |dy|), and the swipe was quick (its average speed from
/// touch-down to release reaches the configured quick speed: a delete must be meant). A quick swipe shorter than
/// the commit distance snaps back (no fling delete), a slow drag snaps back whatever its
/// distance, and a fast release to the right, after coming back more than the touch slop,
/// cancels.
struct RowSwipeRecognizer: Sendable {
  func bid(lock: Axis?, phase: TouchPhase) -> Bid {
    switch lock {
    case .horizontal: .claim
    case .vertical: .fail
    case nil: phase == .moved || phase == .began ? .wait : .fail
    }
  }

  func frame(_ track: TouchTrack, configuration: GestureConfiguration) -> RowSwipeFrame {
    let offset = min(0, track.translation.x)
    return RowSwipeFrame(
      offset: offset,
      trashOpacity: min(1, -offset / configuration.rowSwipeCommitDistance),
      pastCommit: -offset >= configuration.rowSwipeCommitDistance)
  }

  func report(
    _ state: RecognizerState, _ track: TouchTrack, configuration: GestureConfiguration,
    events: inout [GestureEvent]
  ) {
    events.append(.state(.rowSwipe, state, time: track.time))
    events.append(.rowSwipe(frame(track, configuration: configuration), time: track.time))
  }

  static func outcome(
    translation: TouchPoint, duration: Double, velocity: Velocity, cameBack: Double,
    configuration: GestureConfiguration
  ) -> RowSwipeOutcome {
    // A cancel needs the finger to have come back right by more than the slop: a finger that
    // stops dead can read as moving right to a quadratic fit that overshoots.
    if velocity.dx >= configuration.rowSwipeCancelVelocity && cameBack > configuration.touchSlop {
      return .snapBack
    }
    let distance = -translation.x
    // `abs(dx) > abs(dy)`, read at release: a stroke that locked horizontal on a
    // shallow start but ended steeper than 45° is not a left swipe any more.
    guard distance >= configuration.rowSwipeCommitDistance, distance > abs(translation.y),
      configuration.isQuickRowSwipe(distance: distance, duration: duration)
    else { return .snapBack }
    return .delete
  }

  func finish(
    _ track: TouchTrack, velocity: Velocity, cancelled: Bool, configuration: GestureConfiguration,
    events: inout [GestureEvent]
  ) {
    let outcome = track.releaseSwipe(
      .rowSwipe, cancelled: cancelled, snapBack: RowSwipeOutcome.snapBack,
      decide: {
        Self.outcome(
          translation: track.translation, duration: track.elapsed, velocity: velocity,
          cameBack: track.location.x - track.minimumX, configuration: configuration)
      }, finished: GestureEvent.rowSwipeFinished, events: &events)
    switch outcome {
    case .delete: events.append(.haptic(.commit, time: track.time))
    case .snapBack: events.append(.motion(.rowSnapBack, time: track.time))
    }
  }
}
