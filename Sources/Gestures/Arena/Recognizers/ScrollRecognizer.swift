/// Recognizes vertical scrolling once the direction lock says vertical.
struct ScrollRecognizer: Sendable {
  func bid(lock: Axis?, phase: TouchPhase) -> Bid {
    switch lock {
    case .vertical: .claim
    case .horizontal: .fail
    case nil: phase == .moved || phase == .began ? .wait : .fail
    }
  }

  func report(
    _ state: RecognizerState, _ track: TouchTrack, velocity: Velocity,
    events: inout [GestureEvent]
  ) {
    events.append(.state(.scroll, state, time: track.time))
    events.append(
      .scroll(translation: track.translation.y, velocity: velocity.dy, time: track.time))
  }
}
