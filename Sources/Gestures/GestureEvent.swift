/// The gestures the arena can recognize.
public enum GestureKind: String, Hashable, Sendable, CaseIterable, Comparable {
  /// A touch that lifts within the slop before the long press fires.
  case tap
  /// A touch that rests within the slop for the long-press duration; a drag afterwards
  /// continues it (press then drag).
  case longPress
  /// A long press that lifts the row and drags it to a new place.
  case reorder
  /// Vertical scrolling of the list.
  case scroll
  /// A row pulled left to delete, or to reveal its quick actions.
  case rowSwipe
  /// A photo card swiped left (trash), right (favorite) or up (keep).
  case deckSwipe

  /// Declaration order; ties between equal priorities break by it.
  public static func < (lhs: GestureKind, rhs: GestureKind) -> Bool {
    lhs.order < rhs.order
  }

  var order: Int {
    switch self {
    case .tap: 0
    case .longPress: 1
    case .reorder: 2
    case .scroll: 3
    case .rowSwipe: 4
    case .deckSwipe: 5
    }
  }
}

/// A recognizer's state, as in UIKit's `UIGestureRecognizer.State`.
///
/// Continuous gestures go possible → began → changed … → ended or cancelled; a discrete one
/// (tap) goes possible → ended (UIKit's `recognized`). A recognizer that cannot recognize the
/// touch goes to failed.
public enum RecognizerState: String, Hashable, Sendable, CaseIterable {
  /// Waiting for more touches; the default.
  case possible
  /// A continuous gesture started.
  case began
  /// A continuous gesture moved.
  case changed
  /// The gesture finished (for a discrete gesture: it was recognized).
  case ended
  /// The gesture was taken away mid-way (a cancelled touch or a lost arena).
  case cancelled
  /// The touch is not this gesture.
  case failed
}

/// A direction of a swipe.
public enum SwipeDirection: String, Hashable, Sendable, CaseIterable {
  /// To the left (deck: trash; row: delete).
  case left
  /// To the right (deck: favorite).
  case right
  /// Upward (deck: keep).
  case up
  /// Downward (no deck action).
  case down
}

/// What a row swipe did when the finger lifted (or, in a ``RowSwipeFrame``, what lifting it
/// there would do).
public enum RowSwipeOutcome: Hashable, Sendable {
  /// The row is deleted: the swipe was quick and released past the commit distance.
  case delete
  /// The row springs back to its place (closed).
  case snapBack
  /// The row rests open at ``GestureConfiguration/rowSwipeRevealWidth``, showing its quick
  /// actions, until a tap, a swipe back or a scroll closes it (``GestureEvent/rowRevealClosed(_:time:)``).
  /// Only a configuration with a reveal width above 0 reveals.
  case reveal
}

/// Why a revealed row (its quick actions showing) closed.
public enum RowRevealCloseReason: String, Hashable, Sendable, CaseIterable {
  /// A tap on the row outside its quick actions (they are buttons of their own, outside the
  /// arena); the tap closes the row and is not reported as a tap.
  case tap
  /// The row was swiped back right, past half the reveal width or with a fast release.
  case swipeBack
  /// The list scrolled.
  case scroll
  /// A long press (or a reorder) began on the row.
  case press
  /// The app asked, with ``GestureArena/closeRevealedRow(at:reason:)``: a touch elsewhere
  /// (another row, the list's background), or one of the quick actions was performed.
  case request
}
/// What a deck swipe did when the finger lifted.
public enum DeckOutcome: Hashable, Sendable {
  /// The card leaves in `direction`; `byFling` is true when the release speed did it.
  case commit(SwipeDirection, byFling: Bool)
  /// The card springs back to the middle.
  case snapBack
}

/// Where a reorder drag is in its life.
public enum ReorderPhase: String, Hashable, Sendable, CaseIterable {
  /// The row lifted (play ``MotionCue/lift`` and ``HapticCue/grab``).
  case lift
  /// The row moved; resolve a drop target at this location.
  case move
  /// The finger lifted; drop at this location (or snap back if the target is blocked).
  case drop
  /// The touch was cancelled; snap back.
  case cancel
}

/// One moment of a row being swiped: where it is, how the trash icon and the quick actions
/// look, and what lifting the finger now would do.
///
/// The frame is honest: ``release`` is the outcome an `ended` sample at this frame's time and
/// place gets, by the same rule, and ``trashOpacity`` reaches 1 exactly when that outcome
/// deletes. A slow drag past the commit distance therefore shows a half-strength icon, since
/// releasing it does not delete.
public struct RowSwipeFrame: Hashable, Sendable {
  /// The row's horizontal offset, in points (zero or negative: the row only goes left; a
  /// revealed row starts at minus the reveal width).
  public var offset: Double
  /// The trash icon's opacity, 0 to 1: 1 exactly when ``releaseWillDelete``; otherwise the
  /// distance over the commit distance, times ``armingTrashOpacity``, so it never reads as
  /// armed.
  public var trashOpacity: Double
  /// What lifting the finger at this frame's time and place does.
  public var release: RowSwipeOutcome
  /// How far the quick actions are uncovered, 0 to 1: the offset over
  /// ``GestureConfiguration/rowSwipeRevealWidth`` (0 when the row has no quick actions).
  public var revealProgress: Double

  /// The trash icon's largest opacity while releasing would not delete: half strength.
  public static let armingTrashOpacity = 0.5

  /// Whether lifting the finger now deletes the row: draw the armed trash icon (and play a
  /// tick when it changes, if you like) from this flag.
  public var releaseWillDelete: Bool { release == .delete }

  /// The same as ``releaseWillDelete``, kept for source compatibility. It once meant "past
  /// the commit distance", which a slow drag also is, though releasing it does not delete.
  public var pastCommit: Bool { releaseWillDelete }

  init(offset: Double, release: RowSwipeOutcome, configuration: GestureConfiguration) {
    self.offset = offset
    self.release = release
    let travel = -offset / configuration.rowSwipeCommitDistance
    trashOpacity = release == .delete ? 1 : min(1, travel) * Self.armingTrashOpacity
    let width = configuration.rowSwipeRevealWidth
    revealProgress = width > 0 ? min(1, -offset / width) : 0
  }
}

/// One moment of a card being swiped.
public struct DeckFrame: Hashable, Sendable {
  /// The card's offset from its resting place, in points.
  public var offset: TouchPoint
  /// The direction the card is leaning, or nil while it is too close to the middle to say.
  public var direction: SwipeDirection?
  /// The distance along ``direction`` over the container width, 0 and up.
  public var progress: Double
  /// The card's tilt in degrees (negative counterclockwise), at most the configured maximum.
  public var rotation: Double
  /// The card's scale (1 for none): an up swipe (keep) shrinks the card slightly, to the
  /// configured keep scale at the commit fraction; left, right and down keep 1.
  public var scale: Double
  /// The overlay's opacity (red trash, green favorite, blue keep): progress over the commit
  /// fraction, at most 1.
  public var overlayOpacity: Double
}

/// Something the arena reports: state changes, decisions, frames to draw and cues to play.
///
/// Events carry only numbers and enumerations, so producing them never allocates.
public enum GestureEvent: Hashable, Sendable {
  /// A recognizer changed state.
  case state(GestureKind, RecognizerState, time: Double)
  /// The direction lock chose an axis for the rest of the gesture.
  case axisLocked(Axis, time: Double, distance: Double)
  /// The arena gave the touch to a gesture; `distance` is how far the finger had moved.
  case decided(GestureKind, time: Double, distance: Double)
  /// A tap was recognized.
  case tap(TouchPoint, time: Double)
  /// The list scrolled: translation from the start and the current velocity, vertical only.
  case scroll(translation: Double, velocity: Double, time: Double)
  /// A row moved under the finger.
  case rowSwipe(RowSwipeFrame, time: Double)
  /// A row swipe finished.
  case rowSwipeFinished(RowSwipeOutcome, time: Double)
  /// A revealed row closed without a swipe of its own (or by its swipe back); animate it to
  /// offset 0 (``MotionCue/rowSnapBack`` follows).
  case rowRevealClosed(RowRevealCloseReason, time: Double)
  /// A reorder drag moved through a phase at a location.
  case reorder(ReorderPhase, TouchPoint, time: Double)
  /// A long press began, moved or ended at a location (when it does not start a reorder).
  case longPress(RecognizerState, TouchPoint, time: Double)
  /// A card moved under the finger.
  case deck(DeckFrame, time: Double)
  /// A card's progress crossed a mark (a fraction such as 0.25) upward, or fell back below it.
  case deckMark(SwipeDirection, mark: Double, rising: Bool, time: Double)
  /// A card swipe finished.
  case deckFinished(DeckOutcome, time: Double)
  /// Play a haptic.
  case haptic(HapticCue, time: Double)
  /// Play a motion.
  case motion(MotionCue, time: Double)
  /// An accessibility action was performed.
  case accessibility(AccessibilityAction, time: Double)

  /// The time the event happened, in the samples' seconds.
  public var time: Double {
    switch self {
    case .state(_, _, let time), .axisLocked(_, let time, _), .decided(_, let time, _),
      .tap(_, let time), .scroll(_, _, let time), .rowSwipe(_, let time),
      .rowSwipeFinished(_, let time), .rowRevealClosed(_, let time), .reorder(_, _, let time),
      .longPress(_, _, let time),
      .deck(_, let time), .deckMark(_, _, _, let time), .deckFinished(_, let time),
      .haptic(_, let time), .motion(_, let time), .accessibility(_, let time):
      time
    }
  }
}
