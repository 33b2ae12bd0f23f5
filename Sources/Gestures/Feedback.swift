/// Haptic cues of the drag and swipe lifecycles, so every app feels the same.
public enum HapticCue: String, Hashable, Sendable, CaseIterable {
  /// A row lifted for reordering: a light impact.
  case grab
  /// A drop landed: a medium impact.
  case drop
  /// A drop was refused: the error notification followed by two light taps.
  case refusedDrop
  /// A card crossed its commit threshold (or fell back below it): one selection tick.
  case thresholdTick
  /// A row or card committed its action: a medium impact.
  case commit

  /// The pulses to play, as (offset in seconds from the cue, intensity 0 to 1).
  ///
  /// The refused-drop pattern is an error notification, then light taps at 60 and 120 ms: a
  /// refusal must feel unlike a drop, so the user knows the row went back without looking.
  public var pulses: [(offset: Double, intensity: Double)] {
    switch self {
    case .grab: [(0, 0.4)]
    case .drop: [(0, 0.7)]
    case .refusedDrop: [(0, 1.0), (0.06, 0.4), (0.12, 0.4)]
    case .thresholdTick: [(0, 0.3)]
    case .commit: [(0, 0.7)]
    }
  }
}

/// Motions the UI plays at moments of a gesture; ``MotionSpec/for(_:reduceMotion:)`` gives the
/// parameters.
public enum MotionCue: String, Hashable, Sendable, CaseIterable {
  /// A row lifts for reordering.
  case lift
  /// The insertion line appears or disappears.
  case insertionLineFade
  /// A refused drop or an uncommitted card springs back to its place.
  case snapBack
  /// A swiped row springs back (a spring of response 0.3 s, damping 0.7).
  case rowSnapBack
  /// A committed card leaves the screen.
  case cardExit
  /// The red tint over a dragged row fades in or out at an invalid zone.
  case invalidTint
}

/// The curve of a motion.
public enum MotionCurve: Hashable, Sendable {
  /// A spring with a damping ratio (below 1 overshoots) and a response in seconds.
  case spring(dampingRatio: Double, response: Double)
  /// Ease-out over the duration.
  case easeOut
  /// Ease-in-out over the duration (the reduced-motion default).
  case easeInOut
  /// Linear over the duration.
  case linear
}

/// How to play a motion: duration, curve, and the transform and shadow it ends on or passes
/// through.
///
/// ```swift
/// let lift = MotionSpec.for(.lift, reduceMotion: false)
/// lift.scale            // 1.025
/// lift.rotationDegrees  // 2
/// lift.shadow?.opacity  // 0.25: the lifted row casts a shadow
/// ```
public struct MotionSpec: Hashable, Sendable {
  /// The shadow a moving view ends the motion with.
  public struct Shadow: Hashable, Sendable {
    /// The shadow's opacity, 0 to 1 (0: no shadow).
    public var opacity: Double
    /// The blur radius, in points.
    public var radius: Double
    /// The vertical offset, in points (positive: downward, as from a light above).
    public var offsetY: Double

    /// A lifted row's shadow: 25 % opacity, 8 pt blur, 4 pt down. A lift shows a scale, a
    /// shadow and a tilt together, so the row reads as picked up off the list.
    public static let lifted = Shadow(opacity: 0.25, radius: 8, offsetY: 4)
    /// No shadow: a snapped-back view rests flat again (opacity 0), back in the list like its
    /// neighbours.
    public static let flat = Shadow(opacity: 0, radius: 0, offsetY: 0)
  }

  /// Seconds.
  public var duration: Double
  /// The timing curve.
  public var curve: MotionCurve
  /// The scale applied to the moving view (1 for none).
  public var scale: Double
  /// The tilt applied to the moving view, in degrees.
  public var rotationDegrees: Double
  /// The opacity the animated element ends at (for fades and tints).
  public var targetOpacity: Double
  /// The shadow the moving view ends with, or nil when the motion leaves the shadow alone.
  public var shadow: Shadow?

  /// Creates a spec.
  public init(
    duration: Double, curve: MotionCurve, scale: Double = 1, rotationDegrees: Double = 0,
    targetOpacity: Double = 1, shadow: Shadow? = nil
  ) {
    self.duration = duration
    self.curve = curve
    self.scale = scale
    self.rotationDegrees = rotationDegrees
    self.targetOpacity = targetOpacity
    self.shadow = shadow
  }

  /// The spec of a cue, in its full or reduced-motion variant.
  ///
  /// Full motion: lift to 1.025 with a 2° tilt and a shadow
  /// (``Shadow/lifted``), a 150 ms insertion-line fade, a 200 ms spring snap-back with
  /// overshoot (damping 0.7) that lays the shadow down again, the row spring (response 0.3,
  /// damping 0.7), a 300 ms ease-out card exit and a 100 ms red tint at 15 %. Reduced
  /// motion drops scale, tilt and overshoot and keeps short ease-in-out cross-fades, as the
  /// platforms' reduce-motion settings ask; the shadow stays, since it moves nothing.
  public static func `for`(_ cue: MotionCue, reduceMotion: Bool) -> MotionSpec {
    switch (cue, reduceMotion) {
    case (.lift, false):
      MotionSpec(
        duration: 0.15, curve: .spring(dampingRatio: 0.8, response: 0.15), scale: 1.025,
        rotationDegrees: 2, shadow: .lifted)
    case (.lift, true): MotionSpec(duration: 0.15, curve: .easeInOut, shadow: .lifted)
    case (.insertionLineFade, _): MotionSpec(duration: 0.15, curve: .linear)
    case (.snapBack, false):
      MotionSpec(duration: 0.2, curve: .spring(dampingRatio: 0.7, response: 0.2), shadow: .flat)
    case (.snapBack, true): MotionSpec(duration: 0.2, curve: .easeInOut, shadow: .flat)
    case (.rowSnapBack, false):
      MotionSpec(duration: 0.3, curve: .spring(dampingRatio: 0.7, response: 0.3))
    case (.rowSnapBack, true): MotionSpec(duration: 0.25, curve: .easeInOut)
    case (.cardExit, false): MotionSpec(duration: 0.3, curve: .easeOut, targetOpacity: 0)
    case (.cardExit, true): MotionSpec(duration: 0.2, curve: .easeInOut, targetOpacity: 0)
    case (.invalidTint, _): MotionSpec(duration: 0.1, curve: .linear, targetOpacity: 0.15)
    }
  }
}

/// Named actions that reach every gesture's outcome without a gesture (VoiceOver custom
/// actions, Switch Control, keyboard).
public enum AccessibilityAction: String, Hashable, Sendable, CaseIterable {
  /// Delete the row (the row swipe's outcome).
  case delete
  /// Trash the photo (deck swipe left).
  case trash
  /// Favorite the photo (deck swipe right).
  case favorite
  /// Keep the photo (deck swipe up).
  case keep
  /// Move the row (the reorder drag's outcome; pair with a ``KeyboardMove``).
  case reorder
  /// Make the row a child of the row above (a reorder into a parent).
  case nest

  /// The name to show (VoiceOver reads it).
  public var name: String {
    switch self {
    case .delete: "Delete"
    case .trash: "Trash"
    case .favorite: "Favorite"
    case .keep: "Keep"
    case .reorder: "Move"
    case .nest: "Nest Under Previous"
    }
  }

  /// The gesture whose state machine the action drives.
  public var kind: GestureKind {
    switch self {
    case .delete: .rowSwipe
    case .trash, .favorite, .keep: .deckSwipe
    case .reorder, .nest: .reorder
    }
  }
}
