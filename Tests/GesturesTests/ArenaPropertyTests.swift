import Gestures
import OffloadTestSupport
import Testing

/// A random human-like stroke: optional rest, a movement with noise, optional stop, then a
/// lift or (rarely) a cancel; intervals jitter and sometimes repeat.
func randomStroke(_ rng: inout SplitMix64, start time: Double) -> [TouchSample] {
  var samples: [TouchSample] = []
  let origin = TouchPoint(
    x: Double.random(in: 0...400, using: &rng), y: Double.random(in: 0...800, using: &rng))
  samples.append(TouchSample(time: time, location: origin, phase: .began))
  var t = time
  var p = origin
  if rng.chance(0.3) {
    for _ in 0..<Int.random(in: 1...50, using: &rng) {
      t += rng.chance(0.1) ? 0 : Double.random(in: 0.005...0.03, using: &rng)
      samples.append(TouchSample(time: t, location: p, phase: .moved))
    }
  }
  let v = TouchPoint(
    x: Double.random(in: -1500...1500, using: &rng), y: Double.random(in: -1500...1500, using: &rng)
  )
  for _ in 0..<Int.random(in: 0...40, using: &rng) {
    let dt = rng.chance(0.1) ? 0 : Double.random(in: 0.004...0.1, using: &rng)
    t += dt
    p =
      p
      + TouchPoint(
        x: v.x * dt + Double.random(in: -1...1, using: &rng),
        y: v.y * dt + Double.random(in: -1...1, using: &rng))
    samples.append(TouchSample(time: t, location: p, phase: .moved))
  }
  t += Double.random(in: 0...0.05, using: &rng)
  samples.append(TouchSample(time: t, location: p, phase: rng.chance(0.05) ? .cancelled : .ended))
  return samples
}

@Suite("GestureArena: properties over random strokes")
struct ArenaPropertyTests {
  @Test(
    arguments: [(31, GestureSurface.listRow), (32, .photoDeck), (33, .plainList)]
      as [(UInt64, GestureSurface)])
  func everyStrokeEndsInOneConsistentDecision(seed: UInt64, surface: GestureSurface) {
    var rng = SplitMix64(seed: SplitMix64.testSeed(seed))
    var a = arena(surface)
    var t = 0.0
    for _ in 0..<400 {
      let stroke = randomStroke(&rng, start: t)
      t = (stroke.last?.time ?? t) + 1
      let events = a.run(stroke)
      #expect(!a.isTracking, "\(rng)")
      // Time never runs backward.
      #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time }, "\(rng)")
      let decisions = events.compactMap { event -> GestureKind? in
        if case .decided(let kind, _, _) = event { return kind }
        return nil
      }
      #expect(decisions.count <= 1, "\(rng)")
      #expect(decisions.first == a.winner, "\(rng)")
      let cancelled = stroke.last?.phase == .cancelled
      for member in surface.members.map(\.kind) {
        let states = events.states(of: member)
        if member == a.winner {
          if member == .tap {
            #expect(states == [.ended], "\(rng)")
          } else {
            #expect(states.first == .began, "\(rng) \(member) \(states)")
            #expect(states.last == (cancelled ? .cancelled : .ended), "\(rng) \(member) \(states)")
            #expect(states.dropFirst().dropLast().allSatisfy { $0 == .changed }, "\(rng)")
          }
        } else {
          #expect(states == [.failed], "\(rng) \(member) \(states)")
        }
      }
      // A stroke that never left the slop and lifted early is a tap where a tap exists.
      let far = stroke.contains { ($0.location - stroke[0].location).length > 10 }
      let duration = (stroke.last?.time ?? 0) - stroke[0].time
      if !far && !cancelled && duration < 0.5 && surface.contains(.tap) {
        #expect(a.winner == .tap, "\(rng)")
      }
      // Row swipes never move right, and deletes only happen past 100 pt on a quick swipe
      // (the row rule: at least 120 pt/s on average from touch-down to release).
      for frame in events.rowFrames { #expect(frame.offset <= 0, "\(rng)") }
      if events.rowOutcome == .delete {
        let elapsed = (stroke.last?.time ?? 0) - stroke[0].time
        #expect(a.translation.x <= -100, "\(rng)")
        #expect(-a.translation.x >= 120 * elapsed, "\(rng)")
      }
    }
  }

  @Test(arguments: [41, 42])
  func feedingIsDeterministic(seed: UInt64) {
    var rng = SplitMix64(seed: SplitMix64.testSeed(seed))
    var strokes: [TouchSample] = []
    var t = 0.0
    for _ in 0..<150 {
      let stroke = randomStroke(&rng, start: t)
      strokes += stroke
      t = (stroke.last?.time ?? t) + 0.7
    }
    for surface in [GestureSurface.listRow, .photoDeck] {
      var first = arena(surface)
      var second = arena(surface)
      #expect(first.run(strokes) == second.run(strokes), "\(rng)")
    }
  }
}
