/// A velocity in points per second.
public struct Velocity: Hashable, Sendable, CustomStringConvertible {
  /// Horizontal speed, points per second (positive to the right).
  public var dx: Double
  /// Vertical speed, points per second (positive downward).
  public var dy: Double

  /// Creates a velocity.
  public init(dx: Double, dy: Double) {
    self.dx = dx
    self.dy = dy
  }

  /// No movement.
  public static let zero = Velocity(dx: 0, dy: 0)

  /// The speed, whatever the direction.
  public var magnitude: Double { (dx * dx + dy * dy).squareRoot() }

  /// The velocity scaled down, if needed, so its magnitude is at most `limit`.
  public func clamped(to limit: Double) -> Velocity {
    let speed = magnitude
    guard speed > limit, speed > 0 else { return self }
    return Velocity(dx: dx * limit / speed, dy: dy * limit / speed)
  }

  /// `(dx, dy) pt/s`.
  public var description: String { "(\(dx), \(dy)) pt/s" }
}

/// Estimates a pointer's velocity by a least-squares fit over its recent samples.
///
/// The rules are Android's and Flutter's: keep the last ``historySize`` samples (20), use
/// those within ``horizon`` (100 ms) of the newest, stop at a gap longer than ``stopGap``
/// (40 ms: the pointer is assumed to have stopped), and fit a quadratic x(t) and y(t) whose
/// slope at the newest sample is the velocity (Android's default `LSQ2` strategy, Flutter's
/// `VelocityTracker`). Two cases the real data has are handled on purpose:
///
/// - **Shared timestamps**: a sample with the time of the previous one replaces it (the
///   newest location wins), so a zero time step never divides by zero.
/// - **Sparse samples**: a sampling hole is not a stop when the device samples sparsely. When
///   fewer than two samples survive the horizon and gap rules, the two newest samples give a
///   two-point slope if they are at most ``sparseLimit`` apart (250 ms) and at different
///   places; a stationary repeat still reads as a stop.
///
/// The tracker allocates its storage once, at creation; adding samples never allocates.
///
/// ```swift
/// var tracker = VelocityTracker()
/// tracker.add(time: 0.000, location: TouchPoint(x: 0, y: 0))
/// tracker.add(time: 0.016, location: TouchPoint(x: 8, y: 0))
/// tracker.add(time: 0.032, location: TouchPoint(x: 16, y: 0))
/// tracker.velocity()  // (500.0, 0.0) pt/s
/// ```
public struct VelocityTracker: Sendable {
  /// How far back from the newest sample the fit looks, in seconds.
  public let horizon: Double
  /// How many samples are kept.
  public let historySize: Int
  /// A gap between consecutive samples longer than this, in seconds, means the pointer stopped.
  public let stopGap: Double
  /// The longest gap, in seconds, across which the sparse fallback still takes a two-point slope.
  public let sparseLimit: Double

  private var times: [Double]
  private var xs: [Double]
  private var ys: [Double]
  /// Index of the newest sample in the ring.
  private var newest = -1
  /// Number of samples held.
  public private(set) var count = 0

  /// Creates a tracker with the given window rules.
  ///
  /// - Parameters:
  ///   - horizon: Seconds of history the fit uses (Android and Flutter: 0.1).
  ///   - historySize: Samples kept (Android and Flutter: 20). At least 2.
  ///   - stopGap: A gap that means the pointer stopped (Android and Flutter: 0.04).
  ///   - sparseLimit: The longest gap the sparse fallback bridges (ours: 0.25).
  public init(
    horizon: Double = 0.1, historySize: Int = 20, stopGap: Double = 0.04,
    sparseLimit: Double = 0.25
  ) {
    precondition(historySize >= 2, "historySize must be at least 2, got \(historySize)")
    self.horizon = horizon
    self.historySize = historySize
    self.stopGap = stopGap
    self.sparseLimit = sparseLimit
    times = Array(repeating: 0, count: historySize)
    xs = Array(repeating: 0, count: historySize)
    ys = Array(repeating: 0, count: historySize)
  }

  /// Forgets every sample (keeps the storage).
  public mutating func reset() {
    newest = -1
    count = 0
  }

  /// Adds a sample. A time equal to (or, from a misbehaving source, before) the newest sample's
  /// time replaces the newest location instead of adding a zero time step.
  public mutating func add(time: Double, location: TouchPoint) {
    if count > 0 && time <= times[newest] {
      xs[newest] = location.x
      ys[newest] = location.y
      return
    }
    newest = (newest + 1) % historySize
    times[newest] = time
    xs[newest] = location.x
    ys[newest] = location.y
    count = min(count + 1, historySize)
  }

  /// The estimated velocity at the newest sample, in points per second.
  ///
  /// - Complexity: O(*h*), where *h* is ``historySize``.
  public func velocity() -> Velocity {
    guard count >= 2 else { return .zero }
    let t0 = times[newest]
    // Walk back from the newest sample while the horizon and the stop-gap rules hold.
    var n = 0
    var s1 = 0.0
    var s2 = 0.0
    var s3 = 0.0
    var s4 = 0.0
    var sx = 0.0
    var stx = 0.0
    var st2x = 0.0
    var sy = 0.0
    var sty = 0.0
    var st2y = 0.0
    var index = newest
    var previousTime = t0
    while n < count {
      if t0 - times[index] > horizon || previousTime - times[index] > stopGap { break }
      // Time in units of the horizon keeps the normal equations well conditioned.
      let t = (times[index] - t0) / horizon
      let x = xs[index] - xs[newest]
      let y = ys[index] - ys[newest]
      s1 += t
      s2 += t * t
      s3 += t * t * t
      s4 += t * t * t * t
      sx += x
      stx += t * x
      st2x += t * t * x
      sy += y
      sty += t * y
      st2y += t * t * y
      n += 1
      previousTime = times[index]
      index = (index - 1 + historySize) % historySize
    }
    if n < 2 {
      // Sparse fallback: the two newest samples, when close enough in time and not a repeat.
      let previous = (newest - 1 + historySize) % historySize
      let gap = t0 - times[previous]
      let moveX = xs[newest] - xs[previous]
      let moveY = ys[newest] - ys[previous]
      guard gap > 0, gap <= sparseLimit, moveX != 0 || moveY != 0 else { return .zero }
      return Velocity(dx: moveX / gap, dy: moveY / gap)
    }
    let s0 = Double(n)
    if n >= 3 {
      // Normal equations of x = a + b t + c t²; the velocity is b (Cramer's rule).
      let det = s0 * (s2 * s4 - s3 * s3) - s1 * (s1 * s4 - s3 * s2) + s2 * (s1 * s3 - s2 * s2)
      if abs(det) > 1e-9 {
        func slope(_ m0: Double, _ m1: Double, _ m2: Double) -> Double {
          (s0 * (m1 * s4 - s3 * m2) - m0 * (s1 * s4 - s3 * s2) + s2 * (s1 * m2 - m1 * s2)) / det
            / horizon
        }
        return Velocity(dx: slope(sx, stx, st2x), dy: slope(sy, sty, st2y))
      }
    }
    // Linear fit: b = cov(t, x) / var(t).
    let variance = s2 - s1 * s1 / s0
    guard variance > 1e-12 else { return .zero }
    return Velocity(
      dx: (stx - s1 * sx / s0) / variance / horizon, dy: (sty - s1 * sy / s0) / variance / horizon)
  }
}
