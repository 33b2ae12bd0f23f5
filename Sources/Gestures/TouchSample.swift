/// A point or a displacement on the screen, in points (y grows downward).
public struct TouchPoint: Hashable, Sendable, CustomStringConvertible {
  /// The horizontal coordinate, in points.
  public var x: Double
  /// The vertical coordinate, in points (y grows downward).
  public var y: Double

  /// Creates a point.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// The origin.
  public static let zero = TouchPoint(x: 0, y: 0)

  /// The Euclidean length of the point seen as a vector.
  public var length: Double { (x * x + y * y).squareRoot() }

  /// The component-wise difference.
  public static func - (lhs: TouchPoint, rhs: TouchPoint) -> TouchPoint {
    TouchPoint(x: lhs.x - rhs.x, y: lhs.y - rhs.y)
  }

  /// The component-wise sum.
  public static func + (lhs: TouchPoint, rhs: TouchPoint) -> TouchPoint {
    TouchPoint(x: lhs.x + rhs.x, y: lhs.y + rhs.y)
  }

  /// `(x, y)`.
  public var description: String { "(\(x), \(y))" }
}

/// An axis of the screen.
public enum Axis: String, Hashable, Sendable, CaseIterable {
  /// Left–right.
  case horizontal
  /// Up–down.
  case vertical
}

/// Where a touch is in its life: the phases of UIKit's `UITouch` and Flutter's pointer events.
public enum TouchPhase: String, Hashable, Sendable, CaseIterable {
  /// The finger went down.
  case began
  /// The finger moved (or a sample was reported without movement).
  case moved
  /// The finger lifted.
  case ended
  /// The system took the touch away (an incoming call, a system gesture).
  case cancelled
}

/// One touch sample: when, where, which phase and which pointer.
///
/// Time is in seconds on any monotonic clock the caller chooses (only differences matter);
/// the location is in points. Input in device pixels converts with
/// ``init(time:pixelX:pixelY:phase:pointer:density:)``.
///
/// ```swift
/// let down = TouchSample(time: 0, location: TouchPoint(x: 120, y: 300), phase: .began)
/// let move = TouchSample(time: 0.016, pixelX: 320, pixelY: 790, phase: .moved, density: 2.625)
/// ```
public struct TouchSample: Hashable, Sendable {
  /// Seconds on the caller's monotonic clock.
  public var time: Double
  /// The location, in points.
  public var location: TouchPoint
  /// The phase of the touch.
  public var phase: TouchPhase
  /// Which finger (or mouse button) this is; the arena follows the first pointer down.
  public var pointer: Int

  /// Creates a sample in points.
  public init(time: Double, location: TouchPoint, phase: TouchPhase, pointer: Int = 0) {
    self.time = time
    self.location = location
    self.phase = phase
    self.pointer = pointer
  }

  /// Creates a sample from coordinates in points.
  public init(time: Double, x: Double, y: Double, phase: TouchPhase, pointer: Int = 0) {
    self.init(time: time, location: TouchPoint(x: x, y: y), phase: phase, pointer: pointer)
  }

  /// Creates a sample from device pixels, dividing by the screen density (pixels per point).
  ///
  /// Android reports pixels; a phone at 420 dpi has a density of 2.625 pixels per
  /// density-independent pixel, which is what the thresholds here are in.
  ///
  /// - Precondition: `density` is greater than zero.
  public init(
    time: Double, pixelX: Double, pixelY: Double, phase: TouchPhase, pointer: Int = 0,
    density: Double
  ) {
    precondition(density > 0, "density must be greater than zero, got \(density)")
    self.init(
      time: time, location: TouchPoint(x: pixelX / density, y: pixelY / density), phase: phase,
      pointer: pointer)
  }
}
