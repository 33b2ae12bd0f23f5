public import Gestures
public import PhotoSession

// The one way a deck gesture becomes a decision: the Gestures arena's direction (which also
// knows `down`) becomes the session's swipe, and `PhotoDecision(swipe:)` maps that swipe to a
// decision. The terminal screen's arrow keys and the CLI's `photos swipe` start from the
// session's swipe; the web deck starts from the arena's direction through here.

extension PhotoSession.SwipeDirection {
  /// The deck swipe a gesture's direction stands for: left, right or up; nil for down, which
  /// decides nothing on the deck.
  ///
  /// - Parameter gesture: The direction the Gestures arena reported.
  public init?(gesture: Gestures.SwipeDirection) {
    switch gesture {
    case .left: self = .left
    case .right: self = .right
    case .up: self = .up
    case .down: return nil
    }
  }
}

extension PhotoDecision {
  /// The decision of a deck gesture's direction: `PhotoDecision(swipe:)` of the swipe it
  /// stands for; nil for down.
  ///
  /// - Parameter gesture: The direction the Gestures arena reported.
  public init?(gesture: Gestures.SwipeDirection) {
    guard let swipe = PhotoSession.SwipeDirection(gesture: gesture) else { return nil }
    self.init(swipe: swipe)
  }
}
