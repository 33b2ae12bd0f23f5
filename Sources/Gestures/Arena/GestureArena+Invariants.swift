extension GestureArena {
  /// Whether the arena's state is consistent. Checked after every call in debug builds.
  ///
  /// - At most one gesture is active (began or changed), and it is the winner.
  /// - The winner and the recorded decision agree, and the winner never sits in possible or
  ///   failed.
  /// - While a touch is undecided, no gesture has begun or ended.
  /// - A decided touch has no possible gesture left.
  func invariantsHold() -> Bool {
    var active = 0
    for kind in order {
      guard let state = states[kind.order] else { return false }
      if state == .began || state == .changed {
        active += 1
        if kind != winner { return false }
      }
      if isTracking && winner == nil && state != .possible && state != .failed { return false }
      if winner != nil && state == .possible { return false }
    }
    if active > 1 { return false }
    if let winner {
      guard decision?.kind == winner, let state = states[winner.order] else { return false }
      if state == .possible || state == .failed { return false }
    } else if decision != nil {
      return false
    }
    return true
  }
}
