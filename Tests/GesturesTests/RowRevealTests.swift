import Gestures
import OffloadTestSupport
import Testing

/// A random stroke on a row, mostly sideways: segments left or right at speeds from a slow
/// drag to a flick, rests, a little vertical drift, jittered and repeated timestamps; lifted,
/// or now and then cancelled.
func randomRowStroke(_ rng: inout SplitMix64, start time: Double) -> [TouchSample] {
  var t = time
  var p = TouchPoint(
    x: Double.random(in: 200...380, using: &rng), y: Double.random(in: 100...700, using: &rng))
  var samples = [TouchSample(time: t, location: p, phase: .began)]
  for _ in 0..<Int.random(in: 1...4, using: &rng) {
    let rest = rng.chance(0.2)
    let dx = rest ? 0 : Double.random(in: -170...70, using: &rng)
    let dy = rest ? 0 : Double.random(in: -12...12, using: &rng)
    let duration = Double.random(in: 0.02...1.6, using: &rng)
    let steps = max(1, Int(duration * 60))
    for _ in 0..<steps {
      let jitter = Double.random(in: 0.5...1.5, using: &rng)
      t += rng.chance(0.08) ? 0 : duration / Double(steps) * jitter
      p = p + TouchPoint(x: dx / Double(steps), y: dy / Double(steps))
      samples.append(TouchSample(time: t, location: p, phase: .moved))
    }
  }
  t += rng.chance(0.5) ? 0 : Double.random(in: 0...0.05, using: &rng)
  samples.append(TouchSample(time: t, location: p, phase: rng.chance(0.05) ? .cancelled : .ended))
  return samples
}

/// The quick actions' width used by these tests (two 74 pt buttons would be 148; any width
/// below the commit distance shows the difference between revealing and deleting).
let revealWidth = 90.0

/// A list-row arena whose row has quick actions of `revealWidth` (or none with 0).
func revealingArena(width: Double = revealWidth, preset: GesturePreset = .ios) -> GestureArena {
  arena(.listRow, preset) { $0.rowSwipeRevealWidth = width }
}

extension [GestureEvent] {
  var closeReasons: [RowRevealCloseReason] {
    compactMap { event in
      if case .rowRevealClosed(let reason, _) = event { return reason }
      return nil
    }
  }
  var taps: Int { count { if case .tap = $0 { true } else { false } } }
}

@Suite("Row swipe: revealed quick actions and honest frames")
struct RowRevealTests {
  /// Opens the row with a slow drag to `distance` points (never a delete), then lifts.
  static func open(_ a: inout GestureArena, at time: Double, distance: Double = 70) -> Double {
    var stroke = StrokeBuilder(at: TouchPoint(x: 300, y: 300), time: time)
    stroke.move(by: TouchPoint(x: -distance, y: 0), over: 1)
    stroke.lift()
    let events = a.run(stroke.samples)
    #expect(events.rowOutcome == .reveal && a.isRowRevealed)
    return stroke.time + 1
  }

  @Test(arguments: [(41, 0), (42, revealWidth), (43, 150)] as [(UInt64, Double)])
  func everyFrameSaysWhatReleasingThereDoes(seed: UInt64, width: Double) {
    var rng = SplitMix64(seed: SplitMix64.testSeed(seed))
    var a = revealingArena(width: width)
    var t = 0.0
    var frames = 0
    var deletes = 0
    for _ in 0..<300 {
      let stroke = randomRowStroke(&rng, start: t)
      t = (stroke.last?.time ?? t) + 1
      for sample in stroke {
        a.advance(to: sample.time)
        let events = a.feed(sample)
        guard sample.phase == .moved, let frame = events.rowFrames.last else { continue }
        frames += 1
        // Lift right here, on a copy: the arena is a value.
        var probe = a
        let released = probe.feed(
          TouchSample(
            time: sample.time, location: sample.location, phase: .ended, pointer: sample.pointer))
        #expect(released.rowOutcome == frame.release, "\(rng)")
        #expect(frame.releaseWillDelete == (released.rowOutcome == .delete), "\(rng)")
        #expect(frame.pastCommit == frame.releaseWillDelete)
        // Full strength exactly when releasing deletes; at most half otherwise.
        #expect((frame.trashOpacity == 1) == frame.releaseWillDelete, "\(rng)")
        if !frame.releaseWillDelete {
          #expect(frame.trashOpacity <= RowSwipeFrame.armingTrashOpacity, "\(rng)")
        }
        if width == 0 { #expect(frame.release != .reveal && frame.revealProgress == 0) }
        if frame.releaseWillDelete { deletes += 1 }
      }
      if width == 0 { #expect(!a.isRowRevealed) }
    }
    // The strokes reach every outcome.
    #expect(frames > 1000 && deletes > 20)
  }

  @Test(arguments: [(44, 0), (45, revealWidth)] as [(UInt64, Double)])
  func aSlowDragNeverDeletes(seed: UInt64, width: Double) {
    var rng = SplitMix64(seed: SplitMix64.testSeed(seed))
    var a = revealingArena(width: width)
    let configuration = a.configuration
    var t = 0.0
    var slow = 0
    for _ in 0..<400 {
      let stroke = randomRowStroke(&rng, start: t)
      t = (stroke.last?.time ?? t) + 1
      guard let first = stroke.first, let last = stroke.last else { continue }
      let events = a.run(stroke)
      let distance = first.location.x - last.location.x
      let quick = configuration.isQuickRowSwipe(
        distance: distance, duration: last.time - first.time)
      if !quick {
        slow += 1
        #expect(events.rowOutcome != .delete, "\(rng)")
      }
      // A stroke that was never quick past the commit distance, at any sample, never shows the
      // armed icon (one that was, then rested, honestly did while it was).
      let everQuick = stroke.contains { sample in
        let travel = first.location.x - sample.location.x
        return travel >= configuration.rowSwipeCommitDistance
          && configuration.isQuickRowSwipe(distance: travel, duration: sample.time - first.time)
      }
      if !everQuick {
        #expect(events.rowFrames.allSatisfy { !$0.releaseWillDelete && $0.trashOpacity < 1 })
      }
      // And a delete is always a quick swipe past the commit distance.
      if events.rowOutcome == .delete {
        #expect(quick && distance >= configuration.rowSwipeCommitDistance, "\(rng)")
      }
    }
    #expect(slow > 100)
  }

  @Test func theLieIsGone() {
    // A slow 200 pt drag over 2 s: the icon never reaches full strength, and the row snaps
    // back as every frame said it would.
    var a = arena(.listRow)
    var stroke = StrokeBuilder(at: TouchPoint(x: 300, y: 100))
    stroke.move(by: TouchPoint(x: -200, y: 0), over: 2)
    stroke.lift()
    let events = a.run(stroke.samples)
    let last = events.rowFrames.last
    #expect(last?.offset == -200 && last?.releaseWillDelete == false && last?.pastCommit == false)
    #expect(last?.trashOpacity == RowSwipeFrame.armingTrashOpacity)
    #expect(events.rowOutcome == .snapBack)
  }

  @Test(arguments: 0..<60)
  func aRevealedRowClosesOnATapASwipeBackAScrollOrARequest(seed: Int) {
    var rng = SplitMix64(seed: SplitMix64.testSeed(UInt64(4600 + seed)))
    var a = revealingArena()
    let distance = Double.random(in: (revealWidth / 2 + 1)...99, using: &rng)
    var t = Self.open(&a, at: 0, distance: distance)
    let start = TouchPoint(
      x: Double.random(in: 20...380, using: &rng), y: Double.random(in: 20...700, using: &rng))
    var stroke = StrokeBuilder(at: start, time: t)
    let expected: RowRevealCloseReason?
    switch seed % 6 {
    case 0:
      stroke.move(by: TouchPoint(x: Double.random(in: -3...3, using: &rng), y: 2), over: 0.05)
      stroke.lift()
      expected = .tap
    case 1:
      // Back right past half the width, at any speed.
      let back = Double.random(in: (revealWidth / 2 + 1)...160, using: &rng)
      stroke.move(by: TouchPoint(x: back, y: 0), over: Double.random(in: 0.1...1.5, using: &rng))
      stroke.lift()
      expected = .swipeBack
    case 2:
      let dy = Double.random(in: 40...300, using: &rng) * (rng.chance(0.5) ? 1 : -1)
      stroke.move(by: TouchPoint(x: dy / 10, y: dy), over: Double.random(in: 0.1...1, using: &rng))
      stroke.lift()
      expected = .scroll
    case 3:
      stroke.rest(for: 0.7)
      stroke.lift()
      expected = .press
    case 4:
      // A drag further left short of a delete, or a little back right: the row stays open.
      let dx =
        rng.chance(0.5)
        ? Double.random(in: -80 ... -20, using: &rng)
        : Double.random(in: 20...(revealWidth / 2 - 15), using: &rng)
      stroke.move(by: TouchPoint(x: dx, y: 0), over: 0.4)
      stroke.lift()
      expected = nil
    default:
      let events = a.closeRevealedRow(at: t)
      #expect(events.closeReasons == [.request] && !a.isRowRevealed)
      #expect(events.contains(.motion(.rowSnapBack, time: t)))
      #expect(a.closeRevealedRow(at: t + 1).isEmpty)
      return
    }
    let events = a.run(stroke.samples)
    t = stroke.time
    if let expected {
      #expect(events.closeReasons == [expected], "\(rng)")
      #expect(!a.isRowRevealed, "\(rng)")
      #expect(events.taps == 0)
      #expect(events.rowOutcome != .delete)
    } else {
      #expect(events.closeReasons.isEmpty && a.isRowRevealed, "\(rng)")
      #expect(events.rowOutcome == .reveal)
      // The frames start from the open offset.
      #expect(events.rowFrames.first.map { $0.offset <= -revealWidth / 2 } == true)
    }
    // A tap on a closed row is a tap again.
    var tap = StrokeBuilder(at: start, time: t + 1)
    tap.lift(after: 0.05)
    let revealed = a.isRowRevealed
    #expect(a.run(tap.samples).taps == (revealed ? 0 : 1))
  }

  @Test func aQuickSwipeFromARevealedRowDeletes() {
    var a = revealingArena()
    let t = Self.open(&a, at: 0)
    var stroke = StrokeBuilder(at: TouchPoint(x: 240, y: 300), time: t)
    stroke.move(by: TouchPoint(x: -120, y: 0), over: 0.15)
    stroke.lift()
    let events = a.run(stroke.samples)
    #expect(events.rowOutcome == .delete && !a.isRowRevealed)
    #expect(events.rowFrames.first?.offset ?? 0 <= -revealWidth)
    #expect(events.rowFrames.last?.offset == -revealWidth - 120)
  }

  @Test func aCancelledTouchLeavesTheRowAsItWas() {
    var a = revealingArena()
    let t = Self.open(&a, at: 0)
    var stroke = StrokeBuilder(at: TouchPoint(x: 240, y: 300), time: t)
    stroke.move(by: TouchPoint(x: 60, y: 0), over: 0.3)
    stroke.cancel()
    let events = a.run(stroke.samples)
    #expect(events.rowOutcome == .reveal && a.isRowRevealed && events.closeReasons.isEmpty)
  }

  @Test func theDefaultsKeepTheSeedsRule() {
    // Every preset: no quick actions, so a swipe under 100 pt snaps back, as the seed asks.
    for preset in GesturePreset.allCases {
      #expect(preset.configuration.rowSwipeRevealWidth == 0)
      #expect(preset.configuration.rowSwipeCommitDistance == 100)
      var a = arena(.listRow, preset)
      let events = a.run(StrokeBuilder.drag(TouchPoint(x: -80, y: 0), over: 1))
      #expect(events.rowOutcome == .snapBack && !a.isRowRevealed)
      #expect(events.rowFrames.allSatisfy { $0.revealProgress == 0 })
    }
  }

  @Test func voiceOverDeleteClosesTheRevealedRow() throws {
    var a = revealingArena()
    let t = Self.open(&a, at: 0)
    let events = try a.perform(.delete, at: t)
    #expect(events.rowOutcome == .delete && !a.isRowRevealed)
    #expect(events.rowFrames.allSatisfy { $0.releaseWillDelete && $0.trashOpacity == 1 })
  }
}
