/// Every threshold the recognizers and the arena use, in points and seconds.
///
/// Start from a preset (``GesturePreset/configuration``) and change what your design needs:
///
/// ```swift
/// var configuration = GesturePreset.ios.configuration
/// configuration.rowSwipeCommitDistance = 120
/// configuration.deckContainerWidth = 430
/// ```
///
/// The guide (`Docs/Guides/Gestures.md`) lists each constant with its source.
public struct GestureConfiguration: Hashable, Sendable {
  // MARK: Slop and direction lock

  /// How far the finger may move before a tap or a press is no longer one, and before a pan
  /// may start (UIKit: about 10 pt; Android `ViewConfiguration` touch slop: 8 dp; Flutter
  /// `kTouchSlop`: 18).
  public var touchSlop: Double
  /// How many times larger the main axis must be than the cross axis for the direction lock
  /// to choose it at once. 2.414 = tan 67.5°: the direction is in the axis's sector of an
  /// eight-way compass, not in a diagonal one.
  public var axisDominance: Double
  /// The distance at which an ambiguous (diagonal) movement locks to its dominant axis anyway.
  /// Ours: three touch slops, so that the noise of the first samples (about one slop) can no
  /// longer decide the axis.
  public var ambiguousLockDistance: Double

  // MARK: Press

  /// How long a press must rest before it is a long press, in seconds (UIKit
  /// `minimumPressDuration`: 0.5; Android `getLongPressTimeout()`: 0.4; Flutter
  /// `kLongPressTimeout`: 0.5).
  public var longPressDuration: Double
  /// How far the finger may move before the long press's timeout fires (UIKit
  /// `allowableMovement`: 10 pt; Android: the touch slop; Flutter: `kTouchSlop`).
  public var longPressSlop: Double

  // MARK: Velocity

  /// The velocity tracker's horizon, in seconds (Android, Flutter: 0.1).
  public var velocityHorizon: Double
  /// The velocity tracker's history size (Android, Flutter: 20).
  public var velocityHistorySize: Int
  /// The velocity tracker's stop gap, in seconds (Android, Flutter: 0.04).
  public var velocityStopGap: Double
  /// The longest sampling hole the velocity tracker bridges, in seconds (ours: 0.25).
  public var velocitySparseLimit: Double
  /// The fastest release velocity taken into account, points per second (Android
  /// `getScaledMaximumFlingVelocity()`: 8000 dp/s; Flutter `kMaxFlingVelocity`: 8000).
  public var maximumFlingVelocity: Double

  // MARK: Row swipe to delete

  /// How far left a row must be dragged to delete on release, in points (100: a deliberate
  /// distance, well past any accidental drift).
  public var rowSwipeCommitDistance: Double
  /// The average leftward speed, from touch-down to release, at which a row swipe is quick,
  /// points per second (ours: 120, from the real strokes; see
  /// ``isQuickRowSwipe(distance:duration:)``).
  ///
  /// A row is deleted only by a quick swipe past ``rowSwipeCommitDistance``; a slower drag is
  /// a sustained gesture (reading, hesitating) and snaps back, whatever its distance, so no
  /// row is lost to a finger that merely wandered. 120 pt/s is the 10th percentile,
  /// rounded down, of the average speeds of the 626 calibration strokes that travelled more
  /// than 100 pt: nine swipes in ten are quicker.
  public var rowSwipeQuickSpeed: Double
  /// A release this fast to the right, after the finger came back right by more than the
  /// touch slop, cancels a row swipe whatever its distance (UIKit's swipe actions behave so),
  /// points per second.
  public var rowSwipeCancelVelocity: Double
  /// The width of the row's quick actions, in points, or 0 for a row without them (the
  /// default in every preset).
  ///
  /// With 0, a row swipe that does not delete snaps back (the Organize rows of the seeds:
  /// "a swipe under 100 pt snaps back"). Above 0, the row reveals its quick actions as iOS
  /// lists do: released at least half this width out (and not deleted, nor flung back
  /// right), it rests open at minus this width (``RowSwipeOutcome/reveal``) until a tap, a
  /// swipe back, a scroll or ``GestureArena/closeRevealedRow(at:reason:)`` closes it. The
  /// delete rule does not change: only a quick swipe of the finger past
  /// ``rowSwipeCommitDistance`` deletes, from a closed or a revealed row.
  public var rowSwipeRevealWidth: Double

  // MARK: Deck swipe

  /// The width of the card container, in points; commit and progress are fractions of it.
  public var deckContainerWidth: Double
  /// The fraction of ``deckContainerWidth`` past which a card commits on release (0.5: the
  /// card must be more out than in).
  public var deckCommitFraction: Double
  /// The release speed along the swipe's direction that commits a card from any distance when
  /// ``deckFlingCommitsBelowThreshold`` is on, points per second (Flutter `Dismissible`: 700;
  /// Android `ItemTouchHelper`: 120 dp/s).
  public var deckFlingVelocity: Double
  /// Whether a fling (a release at ``deckFlingVelocity`` or faster along the swipe) commits a
  /// card below ``deckCommitFraction``, and a fast release back toward the middle cancels a
  /// card past it, as swipe-card libraries do (default: off: an action executes when the swipe
  /// crosses the threshold, and only then, so a photo is never trashed by a short flick).
  public var deckFlingCommitsBelowThreshold: Bool
  /// The progress marks announced while a card moves, as fractions of the width (25, 50 and
  /// 75 %: the half is the commit, the quarters tell a listener how close it is).
  public var deckProgressMarks: [Double]
  /// How far back below a mark progress must go before the mark is announced as left again,
  /// as a fraction of the width (ours: 0.03), so a finger resting on a boundary does not
  /// flicker.
  public var deckMarkHysteresis: Double
  /// The largest card tilt, in degrees, reached at the commit distance (15: enough to show the
  /// direction, not so much that the photo is hard to see).
  public var deckMaximumRotation: Double
  /// The card's scale when an up swipe (keep) reaches the commit distance (ours: 0.95); the
  /// scale moves linearly from 1 with the progress. Keeping is the quiet choice, so the up
  /// swipe moves the card with a slight scale, less dramatic than the left and right tilt. Left, right and down
  /// swipes keep the scale at 1, and so does reduced motion.
  public var deckKeepScale: Double

  // MARK: Accessibility

  /// Whether the user asked for reduced motion; motion specs switch to their reduced variants.
  public var reduceMotion: Bool

  /// Creates a configuration from every value; prefer a preset and change what you need.
  ///
  /// - Parameters:
  ///   - touchSlop: ``touchSlop``.
  ///   - axisDominance: ``axisDominance``.
  ///   - ambiguousLockDistance: ``ambiguousLockDistance``.
  ///   - longPressDuration: ``longPressDuration``.
  ///   - longPressSlop: ``longPressSlop``.
  ///   - velocityHorizon: ``velocityHorizon``.
  ///   - velocityHistorySize: ``velocityHistorySize``.
  ///   - velocityStopGap: ``velocityStopGap``.
  ///   - velocitySparseLimit: ``velocitySparseLimit``.
  ///   - maximumFlingVelocity: ``maximumFlingVelocity``.
  ///   - rowSwipeCommitDistance: ``rowSwipeCommitDistance``.
  ///   - rowSwipeQuickSpeed: ``rowSwipeQuickSpeed``.
  ///   - rowSwipeCancelVelocity: ``rowSwipeCancelVelocity``.
  ///   - deckContainerWidth: ``deckContainerWidth``.
  ///   - deckCommitFraction: ``deckCommitFraction``.
  ///   - deckFlingVelocity: ``deckFlingVelocity``.
  ///   - deckFlingCommitsBelowThreshold: ``deckFlingCommitsBelowThreshold``.
  ///   - deckProgressMarks: ``deckProgressMarks``.
  ///   - deckMarkHysteresis: ``deckMarkHysteresis``.
  ///   - deckMaximumRotation: ``deckMaximumRotation``.
  ///   - deckKeepScale: ``deckKeepScale``.
  ///   - reduceMotion: ``reduceMotion``.
  ///   - rowSwipeRevealWidth: ``rowSwipeRevealWidth`` (0: no quick actions).
  public init(
    touchSlop: Double, axisDominance: Double, ambiguousLockDistance: Double,
    longPressDuration: Double, longPressSlop: Double, velocityHorizon: Double,
    velocityHistorySize: Int, velocityStopGap: Double, velocitySparseLimit: Double,
    maximumFlingVelocity: Double, rowSwipeCommitDistance: Double, rowSwipeQuickSpeed: Double,
    rowSwipeCancelVelocity: Double, deckContainerWidth: Double, deckCommitFraction: Double,
    deckFlingVelocity: Double, deckFlingCommitsBelowThreshold: Bool,
    deckProgressMarks: [Double], deckMarkHysteresis: Double, deckMaximumRotation: Double,
    deckKeepScale: Double, reduceMotion: Bool, rowSwipeRevealWidth: Double = 0
  ) {
    self.touchSlop = touchSlop
    self.axisDominance = axisDominance
    self.ambiguousLockDistance = ambiguousLockDistance
    self.longPressDuration = longPressDuration
    self.longPressSlop = longPressSlop
    self.velocityHorizon = velocityHorizon
    self.velocityHistorySize = velocityHistorySize
    self.velocityStopGap = velocityStopGap
    self.velocitySparseLimit = velocitySparseLimit
    self.maximumFlingVelocity = maximumFlingVelocity
    self.rowSwipeCommitDistance = rowSwipeCommitDistance
    self.rowSwipeQuickSpeed = rowSwipeQuickSpeed
    self.rowSwipeCancelVelocity = rowSwipeCancelVelocity
    self.rowSwipeRevealWidth = rowSwipeRevealWidth
    self.deckContainerWidth = deckContainerWidth
    self.deckCommitFraction = deckCommitFraction
    self.deckFlingVelocity = deckFlingVelocity
    self.deckFlingCommitsBelowThreshold = deckFlingCommitsBelowThreshold
    self.deckProgressMarks = deckProgressMarks
    self.deckMarkHysteresis = deckMarkHysteresis
    self.deckMaximumRotation = deckMaximumRotation
    self.deckKeepScale = deckKeepScale
    self.reduceMotion = reduceMotion
  }

  /// Whether a row swipe that went `distance` points left in `duration` seconds, from
  /// touch-down to release, is quick: its average speed is at least ``rowSwipeQuickSpeed``.
  ///
  /// A swipe with no elapsed time (every sample at one timestamp) is quick. The rule reads the
  /// whole swipe, not the release velocity: a finger that stops before lifting still made a
  /// quick swipe, and a slow drag that speeds up at the end is still a drag.
  ///
  /// ```swift
  /// let ios = GesturePreset.ios.configuration
  /// ios.isQuickRowSwipe(distance: 140, duration: 0.25)  // true: 560 pt/s
  /// ios.isQuickRowSwipe(distance: 200, duration: 2)     // false: 100 pt/s
  /// ```
  public func isQuickRowSwipe(distance: Double, duration: Double) -> Bool {
    duration <= 0 || distance >= rowSwipeQuickSpeed * duration
  }

  /// A velocity tracker with this configuration's window rules.
  ///
  /// - Complexity: O(*h*), where *h* is ``velocityHistorySize``.
  public func makeVelocityTracker() -> VelocityTracker {
    VelocityTracker(
      horizon: velocityHorizon, historySize: velocityHistorySize, stopGap: velocityStopGap,
      sparseLimit: velocitySparseLimit)
  }
}

/// Platform presets: the thresholds each platform documents or uses by default.
public enum GesturePreset: String, Hashable, Sendable, CaseIterable {
  /// UIKit's values (UILongPressGestureRecognizer, UIScrollView), in points.
  case ios
  /// Android's `ViewConfiguration` and `ItemTouchHelper` values, in dp.
  case android
  /// Flutter's `gestures/constants.dart` and `Dismissible` values, in logical pixels.
  case flutter

  /// The preset's configuration. Values a platform does not publish are ours and marked so in
  /// the guide.
  public var configuration: GestureConfiguration {
    switch self {
    case .ios:
      Self.platform(
        touchSlop: 10, lockDistance: 30, longPressDuration: 0.5, rowSwipeCancelVelocity: 300,
        deckContainerWidth: 390, deckFlingVelocity: 700)
    case .android:
      Self.platform(
        touchSlop: 8, lockDistance: 24, longPressDuration: 0.4, rowSwipeCancelVelocity: 120,
        deckContainerWidth: 411, deckFlingVelocity: 120)
    case .flutter:
      Self.platform(
        touchSlop: 18, lockDistance: 54, longPressDuration: 0.5, rowSwipeCancelVelocity: 700,
        deckContainerWidth: 390, deckFlingVelocity: 700)
    }
  }

  /// A preset from the values platforms differ in; the rest (velocity window, commit distance
  /// and speed, deck marks and motion) are the same on every platform. The long-press slop is
  /// the touch slop.
  private static func platform(
    touchSlop: Double, lockDistance: Double, longPressDuration: Double,
    rowSwipeCancelVelocity: Double, deckContainerWidth: Double, deckFlingVelocity: Double
  ) -> GestureConfiguration {
    GestureConfiguration(
      touchSlop: touchSlop, axisDominance: 2.414, ambiguousLockDistance: lockDistance,
      longPressDuration: longPressDuration, longPressSlop: touchSlop, velocityHorizon: 0.1,
      velocityHistorySize: 20, velocityStopGap: 0.04, velocitySparseLimit: 0.25,
      maximumFlingVelocity: 8000, rowSwipeCommitDistance: 100, rowSwipeQuickSpeed: 120,
      rowSwipeCancelVelocity: rowSwipeCancelVelocity, deckContainerWidth: deckContainerWidth,
      deckCommitFraction: 0.5, deckFlingVelocity: deckFlingVelocity,
      deckFlingCommitsBelowThreshold: false, deckProgressMarks: [0.25, 0.5, 0.75],
      deckMarkHysteresis: 0.03, deckMaximumRotation: 15, deckKeepScale: 0.95, reduceMotion: false)
  }
}
