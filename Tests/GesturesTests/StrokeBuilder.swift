import Gestures

/// Builds touch strokes for tests: straight drags at a steady speed, presses, and arenas fed
/// with them.
struct StrokeBuilder {
  var start: TouchPoint
  var time: Double = 0
  var interval: Double = 1.0 / 60
  var samples: [TouchSample] = []

  init(at start: TouchPoint, time: Double = 0) {
    self.start = start
    self.time = time
    samples = [TouchSample(time: time, location: start, phase: .began)]
  }

  var location: TouchPoint { samples.last?.location ?? start }

  /// Moves by `delta` over `duration` seconds in steps of one frame.
  mutating func move(by delta: TouchPoint, over duration: Double) {
    let from = location
    let steps = max(1, Int((duration / interval).rounded()))
    for step in 1...steps {
      let fraction = Double(step) / Double(steps)
      time += duration / Double(steps)
      samples.append(
        TouchSample(
          time: time,
          location: TouchPoint(x: from.x + delta.x * fraction, y: from.y + delta.y * fraction),
          phase: .moved))
    }
  }

  /// Rests in place for `duration` seconds, reporting a sample each frame.
  mutating func rest(for duration: Double) {
    let steps = max(1, Int((duration / interval).rounded()))
    for _ in 0..<steps {
      time += duration / Double(steps)
      samples.append(TouchSample(time: time, location: location, phase: .moved))
    }
  }

  /// Lifts the finger after `delay` seconds without moving.
  mutating func lift(after delay: Double = 0) {
    time += delay
    samples.append(TouchSample(time: time, location: location, phase: .ended))
  }

  /// The system cancels the touch.
  mutating func cancel() {
    samples.append(TouchSample(time: time, location: location, phase: .cancelled))
  }

  static func drag(
    _ delta: TouchPoint, over duration: Double, from start: TouchPoint = TouchPoint(x: 200, y: 400),
    liftAfter: Double = 0
  ) -> [TouchSample] {
    var builder = StrokeBuilder(at: start)
    builder.move(by: delta, over: duration)
    builder.lift(after: liftAfter)
    return builder.samples
  }
}

extension GestureArena {
  /// Feeds samples, advancing the clock between them; returns every event.
  @discardableResult
  mutating func run(_ samples: [TouchSample]) -> [GestureEvent] {
    var all: [GestureEvent] = []
    for sample in samples {
      all += advance(to: sample.time)
      all += feed(sample)
    }
    return all
  }
}

func arena(
  _ surface: GestureSurface, _ preset: GesturePreset = .ios,
  _ change: (inout GestureConfiguration) -> Void = { _ in }
) -> GestureArena {
  var configuration = preset.configuration
  change(&configuration)
  return GestureArena(surface: surface, configuration: configuration)
}

extension [GestureEvent] {
  var rowOutcome: RowSwipeOutcome? {
    for case .rowSwipeFinished(let outcome, _) in self { return outcome }
    return nil
  }
  var deckOutcome: DeckOutcome? {
    for case .deckFinished(let outcome, _) in self { return outcome }
    return nil
  }
  func states(of kind: GestureKind) -> [RecognizerState] {
    compactMap { event in
      if case .state(let k, let state, _) = event, k == kind { return state }
      return nil
    }
  }
  var decided: GestureKind? {
    for case .decided(let kind, _, _) in self { return kind }
    return nil
  }
  var haptics: [HapticCue] {
    compactMap { event in
      if case .haptic(let cue, _) = event { return cue }
      return nil
    }
  }
  var marks: [(SwipeDirection, Double, Bool)] {
    compactMap { event in
      if case .deckMark(let direction, let mark, let rising, _) = event {
        return (direction, mark, rising)
      }
      return nil
    }
  }
  var rowFrames: [RowSwipeFrame] {
    compactMap { event in
      if case .rowSwipe(let frame, _) = event { return frame }
      return nil
    }
  }
  var deckFrames: [DeckFrame] {
    compactMap { event in
      if case .deck(let frame, _) = event { return frame }
      return nil
    }
  }
}
