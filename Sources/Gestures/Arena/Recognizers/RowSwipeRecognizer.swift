/// Recognizes a row pulled left to delete once the direction lock says horizontal.
///
/// On release the row is deleted when it is past the commit distance, or when the release is a
/// fling: the horizontal velocity is at least the fling velocity, points left (the direction of
/// the displacement) and beats the vertical velocity (Android `ItemTouchHelper`'s rule). A
/// fast release to the right cancels whatever the distance. Anything else snaps back.
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
    translation: TouchPoint, velocity: Velocity, configuration: GestureConfiguration
  ) -> RowSwipeOutcome {
    if velocity.dx >= configuration.rowSwipeCancelVelocity { return .snapBack }
    let fling =
      velocity.dx <= -configuration.rowSwipeFlingVelocity && translation.x < 0
      && abs(velocity.dx) > abs(velocity.dy)
    if fling { return .delete(byFling: -translation.x < configuration.rowSwipeCommitDistance) }
    if -translation.x >= configuration.rowSwipeCommitDistance { return .delete(byFling: false) }
    return .snapBack
  }

  func finish(
    _ track: TouchTrack, velocity: Velocity, cancelled: Bool, configuration: GestureConfiguration,
    events: inout [GestureEvent]
  ) {
    let outcome =
      cancelled
      ? .snapBack
      : Self.outcome(
        translation: track.translation, velocity: velocity, configuration: configuration)
    events.append(.state(.rowSwipe, cancelled ? .cancelled : .ended, time: track.time))
    events.append(.rowSwipeFinished(outcome, time: track.time))
    switch outcome {
    case .delete: events.append(.haptic(.commit, time: track.time))
    case .snapBack: events.append(.motion(.rowSnapBack, time: track.time))
    }
  }
}
