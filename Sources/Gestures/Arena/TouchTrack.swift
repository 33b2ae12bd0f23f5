/// What the arena knows about the followed touch; the recognizers read it.
struct TouchTrack: Sendable {
  var pointer = 0
  var startTime = 0.0
  var time = 0.0
  var start = TouchPoint.zero
  var location = TouchPoint.zero
  /// The farthest the finger has been from the start.
  var maximumDistance = 0.0
  /// The leftmost x the finger has reached.
  var minimumX = 0.0

  var translation: TouchPoint { location - start }
  var distance: Double { translation.length }
  var elapsed: Double { time - startTime }

  mutating func begin(_ sample: TouchSample) {
    pointer = sample.pointer
    startTime = sample.time
    time = sample.time
    start = sample.location
    location = sample.location
    maximumDistance = 0
    minimumX = sample.location.x
  }

  mutating func move(_ sample: TouchSample) {
    // Time never runs backward inside a gesture: a late sample counts as simultaneous.
    time = max(time, sample.time)
    location = sample.location
    maximumDistance = max(maximumDistance, distance)
    minimumX = min(minimumX, location.x)
  }
}

/// A recognizer's answer to the arena while it is still possible.
enum Bid: Sendable {
  /// Nothing yet.
  case wait
  /// It wants the touch now.
  case claim
  /// The touch is not its gesture.
  case fail
}

extension TouchTrack {
  /// The release both swipe recognizers share: a cancelled touch snaps back whatever the
  /// stroke did, else `decide` reads the outcome. Appends the gesture's last state
  /// (`cancelled` or `ended`) and its outcome event at the track's time, and returns the
  /// outcome for the recognizer's own feedback.
  func releaseSwipe<Outcome>(
    _ kind: GestureKind, cancelled: Bool, snapBack: Outcome, decide: () -> Outcome,
    finished: (Outcome, Double) -> GestureEvent, events: inout [GestureEvent]
  ) -> Outcome {
    let outcome = cancelled ? snapBack : decide()
    events.append(.state(kind, cancelled ? .cancelled : .ended, time: time))
    events.append(finished(outcome, time))
    return outcome
  }
}
