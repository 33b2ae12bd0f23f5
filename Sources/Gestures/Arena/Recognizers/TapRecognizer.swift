/// Recognizes a tap: the finger lifts without leaving the touch slop.
struct TapRecognizer: Sendable {
  func bid(_ track: TouchTrack, phase: TouchPhase, configuration: GestureConfiguration) -> Bid {
    if track.maximumDistance > configuration.touchSlop || phase == .cancelled { return .fail }
    return phase == .ended ? .claim : .wait
  }

  func recognize(_ track: TouchTrack, events: inout [GestureEvent]) {
    events.append(.state(.tap, .ended, time: track.time))
    events.append(.tap(track.location, time: track.time))
  }
}
