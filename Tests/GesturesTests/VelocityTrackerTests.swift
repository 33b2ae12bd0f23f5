import Gestures
import OffloadTestSupport
import Testing

@Suite("VelocityTracker")
struct VelocityTrackerTests {
  @Test func steadyMotionGivesItsSpeed() {
    var tracker = VelocityTracker()
    for step in 0...10 {
      let t = Double(step) * 0.008
      tracker.add(time: t, location: TouchPoint(x: 500 * t, y: -250 * t))
    }
    let v = tracker.velocity()
    #expect(abs(v.dx - 500) < 1e-6)
    #expect(abs(v.dy + 250) < 1e-6)
  }

  @Test func quadraticFitReadsTheSlopeAtTheNewestSample() {
    var tracker = VelocityTracker()
    // x = 1000 t²: the speed at t = 0.08 is 160.
    for step in 0...10 {
      let t = Double(step) * 0.008
      tracker.add(time: t, location: TouchPoint(x: 1000 * t * t, y: 0))
    }
    #expect(abs(tracker.velocity().dx - 160) < 1e-6)
  }

  @Test func sharedTimestampsReplaceInsteadOfDividingByZero() {
    var tracker = VelocityTracker()
    tracker.add(time: 0, location: TouchPoint(x: 0, y: 0))
    tracker.add(time: 0, location: TouchPoint(x: 5, y: 0))
    tracker.add(time: 0.01, location: TouchPoint(x: 10, y: 0))
    tracker.add(time: 0.01, location: TouchPoint(x: 12, y: 0))
    tracker.add(time: 0.005, location: TouchPoint(x: 13, y: 0))  // late: treated as simultaneous
    #expect(tracker.count == 2)
    let v = tracker.velocity()
    #expect(v.dx.isFinite && abs(v.dx - 800) < 1e-6)
  }

  @Test func onlySharedTimestampsGiveZero() {
    var tracker = VelocityTracker()
    for x in 0..<5 { tracker.add(time: 1, location: TouchPoint(x: Double(x), y: 0)) }
    #expect(tracker.velocity() == .zero)
    var empty = VelocityTracker()
    #expect(empty.velocity() == .zero)
    empty.add(time: 0, location: .zero)
    #expect(empty.velocity() == .zero)
  }

  @Test func aPauseLongerThanTheStopGapMeansStopped() {
    var tracker = VelocityTracker()
    for step in 0...5 {
      tracker.add(time: Double(step) * 0.01, location: TouchPoint(x: Double(step) * 10, y: 0))
    }
    // The finger rests, then a sample at the same place 80 ms later.
    tracker.add(time: 0.13, location: TouchPoint(x: 50, y: 0))
    #expect(tracker.velocity() == .zero)
  }

  @Test func sparseSamplesUseTheTwoNewest() {
    var tracker = VelocityTracker()
    tracker.add(time: 0, location: TouchPoint(x: 0, y: 0))
    tracker.add(time: 0.16, location: TouchPoint(x: 0, y: 80))
    tracker.add(time: 0.32, location: TouchPoint(x: 0, y: 200))
    #expect(abs(tracker.velocity().dy - 750) < 1e-9)
    // Beyond the sparse limit, nothing.
    tracker.add(time: 0.9, location: TouchPoint(x: 0, y: 300))
    #expect(tracker.velocity() == .zero)
  }

  @Test func historyIsBounded() {
    var tracker = VelocityTracker(horizon: 10, historySize: 4, stopGap: 10)
    for step in 0..<50 {
      tracker.add(time: Double(step), location: TouchPoint(x: Double(step * step), y: 0))
    }
    #expect(tracker.count == 4)
    // The newest four samples of x = t² have slope 2 · 49 = 98 at t = 49.
    #expect(abs(tracker.velocity().dx - 98) < 1e-6)
    tracker.reset()
    #expect(tracker.count == 0)
  }

  @Test func clampingKeepsTheDirection() {
    let v = Velocity(dx: 3000, dy: 4000).clamped(to: 500)
    #expect(abs(v.dx - 300) < 1e-9 && abs(v.dy - 400) < 1e-9)
    #expect(Velocity(dx: 1, dy: 1).clamped(to: 500) == Velocity(dx: 1, dy: 1))
  }

  @Test(arguments: [1, 2, 3])
  func jitteredSteadyMotionIsRecoveredClosely(seed: UInt64) {
    var rng = SplitMix64(seed: SplitMix64.testSeed(seed))
    for _ in 0..<200 {
      let vx = Double.random(in: -3000...3000, using: &rng)
      let vy = Double.random(in: -3000...3000, using: &rng)
      var tracker = VelocityTracker()
      var t = 0.0
      for _ in 0..<30 {
        // Irregular intervals, some repeated timestamps.
        t += rng.chance(0.2) ? 0 : Double.random(in: 0.004...0.02, using: &rng)
        tracker.add(time: t, location: TouchPoint(x: vx * t, y: vy * t))
      }
      let v = tracker.velocity()
      #expect(abs(v.dx - vx) < 1e-3 * max(1, abs(vx)), "\(rng) vx \(vx) got \(v.dx)")
      #expect(abs(v.dy - vy) < 1e-3 * max(1, abs(vy)), "\(rng) vy \(vy) got \(v.dy)")
    }
  }
}
