/// Recognizes a press that rests for the long-press duration; a drag after it continues it.
/// In reorder mode it lifts the row and reports reorder phases.
/// With `startsOnTouchDown` it claims the touch at once (a reorder handle).
struct PressRecognizer: Sendable {
  let kind: GestureKind
  var startsOnTouchDown = false

  /// Bids on a sample (the arena also asks at the long-press deadline, between samples).
  func bid(_ track: TouchTrack, phase: TouchPhase, configuration: GestureConfiguration) -> Bid {
    if startsOnTouchDown { return phase == .cancelled ? .fail : .claim }
    if track.maximumDistance > configuration.longPressSlop { return .fail }
    if phase == .ended || phase == .cancelled { return .fail }
    // The same expression as the arena's deadline, so the timeout fires exactly at it
    // (elapsed time would round: 0.6 - 0.1 < 0.5).
    return track.time >= track.startTime + configuration.longPressDuration ? .claim : .wait
  }

  func begin(_ track: TouchTrack, at time: Double, events: inout [GestureEvent]) {
    events.append(.state(kind, .began, time: time))
    if kind == .reorder {
      events.append(.haptic(.grab, time: time))
      events.append(.motion(.lift, time: time))
      events.append(.reorder(.lift, track.location, time: time))
    } else {
      events.append(.longPress(.began, track.location, time: time))
    }
  }

  func update(_ track: TouchTrack, events: inout [GestureEvent]) {
    events.append(.state(kind, .changed, time: track.time))
    if kind == .reorder {
      events.append(.reorder(.move, track.location, time: track.time))
    } else {
      events.append(.longPress(.changed, track.location, time: track.time))
    }
  }

  func finish(_ track: TouchTrack, cancelled: Bool, events: inout [GestureEvent]) {
    let state: RecognizerState = cancelled ? .cancelled : .ended
    events.append(.state(kind, state, time: track.time))
    if kind == .reorder {
      if cancelled { events.append(.motion(.snapBack, time: track.time)) }
      events.append(.reorder(cancelled ? .cancel : .drop, track.location, time: track.time))
    } else {
      events.append(.longPress(state, track.location, time: track.time))
    }
  }
}
