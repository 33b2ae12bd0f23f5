/// Recognizes a row pulled left once the direction lock says horizontal: to delete it, or, with
/// quick actions (``GestureConfiguration/rowSwipeRevealWidth`` above 0), to reveal them.
///
/// On release the row is deleted only when the finger went past the commit distance, the
/// displacement is still mostly horizontal (|dx| > |dy|), and the swipe was quick (its average
/// speed from touch-down to release reaches the configured quick speed: a delete must be
/// meant). Otherwise a row with quick actions that rests at least half their width open stays
/// open (revealed), and any other row snaps back. A fast release to the right, after coming
/// back more than the touch slop, closes the row whatever its distance.
///
/// Every frame carries the outcome a release at that frame's time and place would have, so
/// the trash icon reaches full strength exactly when lifting the finger deletes.
struct RowSwipeRecognizer: Sendable {
  /// Whether the row rests open, showing its quick actions.
  var isRevealed = false

  func bid(lock: Axis?, phase: TouchPhase) -> Bid {
    switch lock {
    case .horizontal: .claim
    case .vertical: .fail
    case nil: phase == .moved || phase == .began ? .wait : .fail
    }
  }

  /// Where the row rests before the finger moves it: 0, or minus the reveal width when open.
  func restingOffset(_ configuration: GestureConfiguration) -> Double {
    isRevealed ? -configuration.rowSwipeRevealWidth : 0
  }

  func frame(
    _ track: TouchTrack, tracker: VelocityTracker, configuration: GestureConfiguration
  ) -> RowSwipeFrame {
    let offset = min(0, restingOffset(configuration) + track.translation.x)
    let release = outcome(track, tracker: tracker, configuration: configuration)
    return RowSwipeFrame(offset: offset, release: release, configuration: configuration)
  }

  /// What releasing the finger at the track's time and place does.
  func outcome(
    _ track: TouchTrack, tracker: VelocityTracker, configuration: GestureConfiguration
  ) -> RowSwipeOutcome {
    // The arena's release velocity: the tracker's estimate within the fling limit.
    Self.outcome(
      translation: track.translation, duration: track.elapsed,
      velocity: { tracker.velocity().clamped(to: configuration.maximumFlingVelocity) },
      cameBack: track.location.x - track.minimumX, restingOffset: restingOffset(configuration),
      configuration: configuration)
  }

  func report(
    _ state: RecognizerState, _ track: TouchTrack, tracker: VelocityTracker,
    configuration: GestureConfiguration, events: inout [GestureEvent]
  ) {
    events.append(.state(.rowSwipe, state, time: track.time))
    events.append(
      .rowSwipe(frame(track, tracker: tracker, configuration: configuration), time: track.time))
  }

  /// The release rule. `velocity` is read only when the finger came back right by more than
  /// the touch slop and the release would otherwise keep the row out (the one case a cancel
  /// can change), so most frames never fit a velocity.
  static func outcome(
    translation: TouchPoint, duration: Double, velocity: () -> Velocity, cameBack: Double,
    restingOffset: Double, configuration: GestureConfiguration
  ) -> RowSwipeOutcome {
    let distance = -translation.x
    let kept: RowSwipeOutcome
    // `abs(dx) > abs(dy)`, read at release: a stroke that locked horizontal on a
    // shallow start but ended steeper than 45° is not a left swipe any more.
    if distance >= configuration.rowSwipeCommitDistance, distance > abs(translation.y),
      configuration.isQuickRowSwipe(distance: distance, duration: duration)
    {
      kept = .delete
    } else if configuration.rowSwipeRevealWidth > 0,
      restingOffset + translation.x <= -configuration.rowSwipeRevealWidth / 2
    {
      kept = .reveal
    } else {
      return .snapBack
    }
    // A cancel needs the finger to have come back right by more than the slop: a finger that
    // stops dead can read as moving right to a quadratic fit that overshoots.
    if cameBack > configuration.touchSlop
      && velocity().dx >= configuration.rowSwipeCancelVelocity
    {
      return .snapBack
    }
    return kept
  }

  /// Releases the row; a cancelled touch puts it back where it rested (closed or revealed).
  mutating func finish(
    _ track: TouchTrack, tracker: VelocityTracker, cancelled: Bool,
    configuration: GestureConfiguration, events: inout [GestureEvent]
  ) {
    let wasRevealed = isRevealed
    let outcome = track.releaseSwipe(
      .rowSwipe, cancelled: cancelled,
      snapBack: wasRevealed ? RowSwipeOutcome.reveal : .snapBack,
      decide: { self.outcome(track, tracker: tracker, configuration: configuration) },
      finished: GestureEvent.rowSwipeFinished, events: &events)
    isRevealed = outcome == .reveal
    switch outcome {
    case .delete: events.append(.haptic(.commit, time: track.time))
    case .reveal: events.append(.motion(.rowSnapBack, time: track.time))
    case .snapBack:
      if wasRevealed { events.append(.rowRevealClosed(.swipeBack, time: track.time)) }
      events.append(.motion(.rowSnapBack, time: track.time))
    }
  }

  /// Closes a revealed row for a reason other than its own swipe; appends nothing when the
  /// row is closed.
  mutating func close(_ reason: RowRevealCloseReason, at time: Double, events: inout [GestureEvent])
  {
    guard isRevealed else { return }
    isRevealed = false
    events.append(.rowRevealClosed(reason, time: time))
    events.append(.motion(.rowSnapBack, time: time))
  }
}
