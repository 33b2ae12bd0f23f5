/// Decides once per gesture whether the finger is moving horizontally or vertically.
///
/// The rule, with *d* the distance from the touch-down point and *a*, *b* the horizontal and
/// vertical parts of the displacement:
///
/// 1. Nothing is decided while *d* ≤ the touch slop.
/// 2. Past the slop, the axis is chosen at once when the displacement lies in that axis's
///    sector of an eight-way compass: *a* ≥ *k* · *b* (horizontal) or *b* ≥ *k* · *a*
///    (vertical), with *k* = 2.414 = tan 67.5°.
/// 3. A diagonal displacement waits: it locks to its dominant axis only at the ambiguous-lock
///    distance (three slops), or when the finger lifts.
/// 4. Once chosen, the axis holds for the rest of the gesture: that is the hysteresis that
///    keeps a scroll a scroll when the finger drifts sideways, and a swipe a swipe when it
///    drifts down. Ties go vertical, the non-destructive choice.
///
/// On real strokes this matches the final axis far more often than a lock at the first sample
/// past the slop, because most axis changes happen while the direction is still diagonal.
public struct DirectionLock: Hashable, Sendable {
  /// The chosen axis, once chosen.
  public private(set) var axis: Axis?
  /// The distance from the start at which the axis was chosen.
  public private(set) var distance: Double = 0

  /// Creates an undecided lock.
  public init() {}

  /// Forgets the decision.
  public mutating func reset() {
    axis = nil
    distance = 0
  }

  /// Considers a new displacement; returns the axis if this call chose it.
  ///
  /// - Parameters:
  ///   - translation: The displacement from the touch-down point.
  ///   - final: Whether the finger lifted with this displacement.
  ///   - configuration: The thresholds.
  public mutating func update(
    _ translation: TouchPoint, final: Bool, configuration: GestureConfiguration
  ) -> Axis? {
    guard axis == nil else { return nil }
    let d = translation.length
    guard d > configuration.touchSlop else { return nil }
    let a = abs(translation.x)
    let b = abs(translation.y)
    var chosen: Axis?
    if a >= configuration.axisDominance * b {
      chosen = .horizontal
    } else if b >= configuration.axisDominance * a {
      chosen = .vertical
    } else if final || d >= configuration.ambiguousLockDistance {
      chosen = a > b ? .horizontal : .vertical
    }
    if let chosen {
      axis = chosen
      distance = d
    }
    return chosen
  }
}
